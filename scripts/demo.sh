#!/bin/sh
# The demo (`make demo`): run the hydrostatic tank (Miyamoto & Koshizuka §5.2) and the
# circular patch (§5.4), draw their figures with the gnuplot scripts of paper_figs/miyamoto_koshizuka/,
# then print the figure paths and the `metrics` block of each run's summary.json.
#
#   usage: scripts/demo.sh VBC OUTDIR        (the Makefile runs scripts/demo.sh build/vbc results/demo)
#
# The circular patch runs at l = 0.01 m instead of the paper's (and the scene's) 0.005 m, so the
# demo finishes in a few minutes on 2 cores; run the scene without --set for the paper's l.
# Needs only a POSIX shell, awk, sed and gnuplot (pngcairo and svg terminals).
set -eu

die() { echo "demo.sh: $*" >&2; exit 1; }

[ $# -eq 2 ] || { echo "usage: $0 VBC OUTDIR" >&2; exit 2; }
vbc=$1
out=$2

# Fail before the minutes of simulation, not after them.
command -v gnuplot >/dev/null 2>&1 ||
  die "gnuplot not found: install gnuplot-nox (scripts/install-deps.sh does) to draw the figures"
for term in pngcairo svg; do
  gnuplot -e "set terminal $term" >/dev/null 2>&1 || die "gnuplot has no '$term' terminal (install gnuplot-nox)"
done

# Absolute paths, then work from the repository root: the scene paths are relative to it and
# end up in summary.json as given.
case $vbc in /*) ;; */*) vbc=$(pwd)/$vbc ;; esac
[ -x "$vbc" ] || command -v "$vbc" >/dev/null 2>&1 || die "no vbc executable at '$1' (run make build first)"
mkdir -p "$out" || die "cannot create the output directory '$out'"
out=$(cd "$out" && pwd)
case $out in *"'"*) die "the output path must not contain a single quote: $out" ;; esac
cd "$(dirname "$0")/.."
figs=paper_figs/miyamoto_koshizuka

# run NAME VBC-ARGUMENTS...: one simulation into $out/NAME; stop the demo if it fails.
run() {
  name=$1
  shift
  echo "== vbc run $* --out $out/$name"
  "$vbc" run "$@" --out "$out/$name" || { rc=$?; echo "demo.sh: the $name run failed (exit $rc)" >&2; exit "$rc"; }
}

# plot SCRIPT RUN-DIR OUT-PREFIX: one figure as OUT-PREFIX.png and OUT-PREFIX.svg.
plot() {
  gnuplot -e "run='$2'; out='$3'" "$figs/$1" || die "gnuplot failed on $figs/$1 (input $2)"
  for ext in png svg; do
    [ -s "$3.$ext" ] || die "$figs/$1 wrote no $3.$ext"
  done
}

run hydrostatic experiments/scenes/hydrostatic.json
run circular_patch experiments/scenes/circular_patch.json --set spacing=0.01

echo "== drawing the figures"
plot fig05_hydrostatic_pressure.gp "$out/hydrostatic" "$out/hydrostatic_pressure"
plot fig06_density_deviation.gp "$out/hydrostatic" "$out/hydrostatic_density_deviation"
plot fig10_circular_patch_axes.gp "$out/circular_patch" "$out/circular_patch_axes"
plot pgs_convergence.gp "$out/hydrostatic" "$out/pgs_convergence_hydrostatic"
plot pgs_convergence.gp "$out/circular_patch" "$out/pgs_convergence_circular_patch"

echo
echo "figures (see $figs/README.md):"
for f in hydrostatic_pressure hydrostatic_density_deviation circular_patch_axes \
         pgs_convergence_hydrostatic pgs_convergence_circular_patch; do
  echo "  $out/$f.png  $out/$f.svg"
done

# The "metrics" object of the pretty-printed summary.json, up to its matching closing brace.
for name in hydrostatic circular_patch; do
  echo
  echo "$name metrics ($out/$name/summary.json):"
  awk '/"metrics":/ { on = 1 }
       on { print; depth += gsub(/{/, "{") - gsub(/}/, "}"); if (depth <= 0) exit }' \
    "$out/$name/summary.json" | expand -t 4 | grep . || echo "  (no metrics block)"
done
