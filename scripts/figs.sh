#!/bin/sh
# Rebuild the paper figures through the experiment runner (`make figs`; `make demo` runs the same
# set into results/demo). Each figure is one `vbc sweep` of its spec (or its own script, see
# run_figure) into OUTDIR/<figure>/, all sharing the case directories in OUTDIR/cases, so a run
# two figures need is computed once and a finished run is never recomputed. A figure whose modules are not registered yet (`vbc list`) is
# listed as pending, not drawn. paper_figs/README.md is the index (paper's claim, ours).
#
#   usage: scripts/figs.sh VBC OUTDIR [FIGURE...]      (default: every figure below)
set -eu

[ $# -ge 2 ] || { echo "usage: $0 VBC OUTDIR [FIGURE...]" >&2; exit 2; }
vbc=$1
out=$2
shift 2
case $vbc in /*) ;; */*) vbc=$(pwd)/$vbc ;; esac
[ -x "$vbc" ] || { echo "figs.sh: no vbc executable at '$vbc' (run make build first)" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.."

# A spec is a `vbc sweep` spec, or (*.sh) the figure's own script for a figure the runner cannot
# drive (lcp_exact_reference: vbc run --dump-lcp, then vbc lcp), called as SCRIPT VBC OUTDIR/NAME.
run_figure() {
  spec=$1
  dir=$2
  shift 2
  case $spec in
    *.sh) sh "$spec" "$vbc" "$dir" ;;
    *) "$vbc" sweep "$spec" -j 2 --out "$dir" --cases "$out/cases" "$@" ;;
  esac
}

# figure | sweep spec | modules it needs (names printed by `vbc list`) | --set for a quick run
# (VBC_FIGS_QUICK=1, what `make demo` uses: figures whose paper resolution takes hours), or
# "skip" for a figure the quick run leaves to `make figs` (no coarser run says anything)
figures='
miyamoto_fig03_rigid_pile|paper_figs/miyamoto_fig03_rigid_pile/sweep.json|bodies strong|
miyamoto_fig05_hydrostatic_pressure|paper_figs/miyamoto_fig05_hydrostatic_pressure/sweep.json|mps pgs strong hydrostatic|
miyamoto_fig06_density_deviation|paper_figs/miyamoto_fig06_density_deviation/sweep.json|mps pgs strong hydrostatic|
miyamoto_fig10_circular_patch|paper_figs/miyamoto_fig10_circular_patch/sweep.json|mps pgs strong circular_patch|
circular_patch_convergence|experiments/sweeps/circular_patch_convergence.json|mps pgs strong circular_patch|
hydrostatic_solver_convergence|experiments/sweeps/hydrostatic_solvers.json|mps pgs jacobi mprgp strong hydrostatic|
miyamoto_fig12_buoyancy|paper_figs/miyamoto_fig12_buoyancy/sweep.json|buoyancy strong pms akinci sph_density jacobi|spacing=0.04
miyamoto_fig14_15_seesaw|paper_figs/miyamoto_fig14_15_seesaw/sweep.json|seesaw strong pms|
dam_break_front|paper_figs/dam_break_front/sweep.json|sph_density akinci dam_break|
dam_break_solver_convergence|experiments/sweeps/dam_break_solvers.json|mps sph_density pgs jacobi mprgp strong dam_break|
he_table1_solvers|paper_figs/he_table1_solvers/run.sh|mps_poisson staggered cg mprgp pgs jacobi lemke_contacts dam_break|
lcp_exact_reference|paper_figs/lcp_exact_reference/run.sh|mps pgs jacobi lemke strong lemke_contacts hydrostatic dam_break bodies|
miyamoto_fig08_09_snapshots|paper_figs/miyamoto_fig08_09_snapshots/run.sh|mps pgs strong dam_break circular_patch|
miyamoto_fig16_complex|paper_figs/miyamoto_fig16_complex/run.sh|mps pgs strong pin bodies|
lcp_exact_reference_dam_break|experiments/sweeps/lcp_exact_reference.json|mps pgs jacobi mprgp lemke strong dam_break|
lcp_exact_reference_hydrostatic|experiments/sweeps/lcp_exact_reference_hydrostatic.json|mps pgs jacobi mprgp lemke strong hydrostatic|
he_fig11_wedge|paper_figs/he_fig11_wedge/sweep.json|staggered cg lemke wedge_entry|
he_fig11_wedge_3d|paper_figs/he_fig11_wedge_3d/sweep.json|staggered cg lemke wedge_entry|skip
he_hydrostatic_staggered|paper_figs/he_hydrostatic_staggered/sweep.json|mps pgs strong staggered cg hydrostatic|
he_hydrostatic_staggered_interface|paper_figs/he_hydrostatic_staggered/interface.json|staggered cg hydrostatic|
greenhow_cylinder_entry|paper_figs/greenhow_cylinder_entry/sweep.json|staggered cg lemke cylinder_entry|
he_buoyancy_staggered|paper_figs/he_buoyancy_staggered/sweep.json|staggered cg buoyancy|spacing=0.04
he_fig12_cylinder_flow|paper_figs/he_fig12_cylinder_flow/run.sh|staggered cg akinci sph_density jacobi cylinder_flow|
'

registered=$("$vbc" list | awk '/^  [a-z]/ { print $1 }')
has() { printf '%s\n' "$registered" | grep -qx "$1"; }

# wanted FIGURE [SELECTED...]: no selection means every figure
wanted() {
  figure=$1
  shift
  [ $# -eq 0 ] && return 0
  for w in "$@"; do [ "$w" = "$figure" ] && return 0; done
  return 1
}

status=0
drawn=''
pending=''
skipped=''
while IFS='|' read -r name spec needs quick; do
  [ -n "$name" ] || continue
  wanted "$name" "$@" || continue
  missing=''
  for m in $needs; do has "$m" || missing="$missing $m"; done
  if [ -n "$missing" ]; then
    pending="$pending
  $name (needs:$missing)"
    continue
  fi
  if [ "${VBC_FIGS_QUICK:-0}" = 1 ] && [ "$quick" = skip ]; then
    skipped="$skipped $name"
    continue
  fi
  echo "== $name: $spec"
  sets=''
  if [ "${VBC_FIGS_QUICK:-0}" = 1 ] && [ -n "$quick" ]; then
    sets="--set $quick"
    echo "   (quick: $sets)"
  fi
  # shellcheck disable=SC2086 # $sets is empty or one --set KEY=VALUE pair
  if run_figure "$spec" "$out/$name" $sets; then
    drawn="$drawn $name"
  else
    status=$?
    echo "figs.sh: $name failed (exit $status)" >&2
  fi
done <<EOF_FIGURES
$figures
EOF_FIGURES

echo
echo "figures (PNG, SVG, PDF; data and gnuplot scripts beside them):"
for name in $drawn; do
  for f in "$out/$name"/plots/*.png; do [ -e "$f" ] && echo "  $f"; done
  [ -e "$out/$name/table.csv" ] && echo "  table: $out/$name/table.csv"
done
[ -z "$pending" ] || echo "pending (their modules do not exist yet):$pending"
[ -z "$skipped" ] || echo "left to make figs (minutes each at their own resolution):$skipped"
exit $status
