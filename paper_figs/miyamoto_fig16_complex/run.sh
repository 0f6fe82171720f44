#!/bin/sh
# Miyamoto & Koshizuka Fig. 16 (the complex scene of §5.7, snapshots from 0.0 s to 1.6 s): the run
# at the paper's settings with a frame every 0.2 s, the panels drawn by `vbc animate --keep-png`
# (fluid coloured by smoothed pressure, bodies white), and the run's metrics in a CSV.
#   usage: run.sh VBC OUTDIR
set -eu
vbc=$1
out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"

"$vbc" run "$root/experiments/scenes/complex.json" --set output.frames=true \
  --set output.frame_interval=0.2 --quiet --out "$out/complex"
"$vbc" animate "$out/complex" --array pressure_smoothed --out "$out/fig16_complex.gif" \
  --fps 2 --keep-png
# the metrics of the bodies benchmark, one name,value line each
awk '/"metrics"/ { on = 1; next } on && /}/ { exit }
     on { gsub(/[",\t ]/, ""); split($0, kv, ":"); if (kv[2] != "") print kv[1] "," kv[2] }' \
  "$out/complex/summary.json" > "$out/fig16_metrics.csv"
echo "fig16: panels in $out/fig16_complex_frames, metrics in $out/fig16_metrics.csv"
