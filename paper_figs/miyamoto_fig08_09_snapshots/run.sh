#!/bin/sh
# Miyamoto & Koshizuka Fig. 8 (dam break, t = 0.1 ... 1.0 s, fluid coloured by smoothed pressure,
# min and max smoothed pressure above each panel) and Fig. 9 (circular patch, t = 0 ... 2 s,
# coloured by pressure): the runs with frames at the paper's snapshot times, the panels drawn by
# `vbc animate --keep-png`, and each panel's pressure range in a CSV.
#   usage: run.sh VBC OUTDIR        (VBC_FIGS_QUICK=1: the dam break at l = 0.01, not 0.005)
set -eu
vbc=$1
out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
spacing=0.005
[ "${VBC_FIGS_QUICK:-0}" = 1 ] && spacing=0.01

# range FRAMES_DIR STEP CSV: min and max of column 3 (the coloured array) of every panel's fluid
range() {
  {
    echo "panel,time,min,max"
    for f in "$1"/f*.dat; do
      awk -v name="$(basename "$f" .dat)" -v step="$2" '
        NR == 1 { lo = $3; hi = $3 }
        { if ($3 < lo) lo = $3; if ($3 > hi) hi = $3 }
        END { k = substr(name, 2) + 0; printf "%d,%.3f,%.6g,%.6g\n", k, k * step, lo, hi }' "$f"
    done
  } > "$3"
}

"$vbc" run "$root/experiments/scenes/dam_break.json" --set "spacing=$spacing" --set time.end=1.0 \
  --set output.frames=true --set output.frame_interval=0.1 --quiet --out "$out/dam_break"
"$vbc" animate "$out/dam_break" --array pressure_smoothed --out "$out/fig08_dam_break.gif" \
  --fps 2 --keep-png
range "$out/fig08_dam_break_frames" 0.1 "$out/fig08_pressure_range.csv"

# the patch at l = 0.01, as vbc's Fig. 10 (the paper's 0.005: 31 000 particles, about 40 min)
"$vbc" run "$root/experiments/scenes/circular_patch.json" --set spacing=0.01 \
  --set output.frames=true \
  --set output.frame_interval=0.5 --quiet --out "$out/circular_patch"
"$vbc" animate "$out/circular_patch" --array pressure --out "$out/fig09_circular_patch.gif" \
  --fps 2 --keep-png
range "$out/fig09_circular_patch_frames" 0.5 "$out/fig09_pressure_range.csv"
echo "fig08/09: panels in $out/fig08_dam_break_frames, $out/fig09_circular_patch_frames"
