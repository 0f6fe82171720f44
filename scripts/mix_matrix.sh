#!/bin/bash
# mix_matrix.sh — run every coupler x fluid constraint x fluid solver on three scenes and class
# each run: plausible, refused (exit 2 before step 1), failed (exit 3), flagged (exit 0 with
# summary.json `warnings`) or silent nonsense (exit 0, no warning, outside the plausible range).
#
#   scripts/mix_matrix.sh VBC OUT [JOBS]
#
# VBC is the vbc binary, OUT a new directory (one run directory per case, OUT/table.csv with one
# row per run, OUT/classes.txt with the counts), JOBS the runs at once (default 2; each run
# uses one thread and is nice'd by MIX_NICE, default 10, on top of the script's own niceness;
# MIX_NICE=0 with `nice -n 5 scripts/mix_matrix.sh ...` runs them at 5). The modules are those
# the binary registers among
#   couplers    strong pms akinci lemke_contacts staggered
#   constraints mps mps_poisson sph_density staggered   (MIX_EXTENDED=1: and dfsph)
#   solvers     pgs jacobi lemke cg mprgp               (MIX_EXTENDED=1: and dfsph_jacobi)
# (5 x 4 x 5 on three scenes: 300 runs; extended, 450). The scenes, from experiments/scenes:
#   hydrostatic  l = 0.02, 0.1 s: plausible when the final max_speed < 0.1 m/s (free fall
#                reaches 0.98 m/s), the free surface within l of its start, and the smoothed
#                pressure error (metrics.pressure_error_smoothed, relative to rho g h) < 0.25;
#   dam_break    l = 0.02, 0.2 s: plausible when the surge front is within 25 % of Martin &
#                Moyce's (metrics.front_error), no particle faster than 3 m/s at any output
#                (falling the column's 0.29 m gives 2.4 m/s) and the water at the wall no higher
#                than 1.05 times the column (series height_over_column);
#   buoyancy     l = 0.04, 0.3 s (MIX_BUOYANCY_END=1.5 for the floating check): the box of half
#                the water's density, which starts 0.06 m above its draft (submerged ratio 0.4),
#                is plausible at 0.3 s when metrics.submerged_ratio lies in [0.3, 0.7] (a box the
#                water does not hold up has fallen 0.44 m by then and reads 1.0) and the final
#                max_speed < 1 m/s; at 1.5 s or later when |submerged_ratio - 0.5| <= 0.05.
# The thresholds are physical bounds chosen before any run was classed, not fitted. A run
# longer than 600 s counts as hung. MIX_ONLY=REGEX keeps the cases whose line ("scene coupler
# constraint solver ...") matches. Each case is also given to `vbc validate`, whose exit code
# is the table's validate_exit: it must be 2 exactly where the run was refused (classes.txt
# counts the cases where they disagree). Needs python3 and GNU time (/usr/bin/time).
set -u
vbc=$(realpath "$1"); out=$2; jobs=${3:-2}
here=$(dirname "$(realpath "$0")")
scenes=$(realpath "$here/../experiments/scenes")
mkdir -p "$out" || exit 2
registered=$("$vbc" list 2>/dev/null)
has() { echo "$registered" | grep -qw "$1"; }
cases="$out/cases.txt"; : > "$cases"
constraints="mps mps_poisson sph_density staggered"; solvers="pgs jacobi lemke cg mprgp"
if [ -n "${MIX_EXTENDED:-}" ]; then constraints="$constraints dfsph"; solvers="$solvers dfsph_jacobi"; fi
for c in strong pms akinci lemke_contacts staggered; do
  for k in $constraints; do
    for s in $solvers; do
      has "$c" && has "$k" && has "$s" || continue
      echo "hydrostatic $c $k $s spacing=0.02 time.end=0.1" >> "$cases"
      echo "dam_break $c $k $s spacing=0.02 time.end=0.2" >> "$cases"
      echo "buoyancy $c $k $s spacing=0.04 time.end=${MIX_BUOYANCY_END:-0.3}" >> "$cases"
    done
  done
done
run_case() { # scene coupler constraint solver set1 set2
  d="$OUT/$1.$2.$3.$4"; rm -rf "$d"
  "$VBC" validate "$SCENES/$1.json" --set "$5" --set "$6" --set method.coupler="$2" \
    --set method.fluid.constraint="$3" --set method.fluid.solver="$4" > "$d.validate.log" 2>&1
  echo "$?" > "$d.validate"
  /usr/bin/time -f "%e %U" -o "$d.time" timeout 600 nice -n "$MIX_NICE" "$VBC" run "$SCENES/$1.json" --set "$5" --set "$6" \
    --set method.coupler="$2" --set method.fluid.constraint="$3" --set method.fluid.solver="$4" \
    --threads 1 --quiet --out "$d" > "$d.log" 2>&1
  echo "$? $(cat "$d.time" | tail -1)" > "$d.rc"
}
if [ -n "${MIX_ONLY:-}" ]; then grep -E "$MIX_ONLY" "$cases" > "$cases.only"; mv "$cases.only" "$cases"; fi
export -f run_case
export VBC="$vbc" OUT="$out" SCENES="$scenes" MIX_NICE="${MIX_NICE:-10}"
# one case per line, JOBS at once
xargs -P "$jobs" -L 1 bash -c 'run_case "$@"' _ < "$cases"
python3 "$here/mix_matrix_table.py" "$out"
