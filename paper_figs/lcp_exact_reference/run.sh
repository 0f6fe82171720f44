#!/bin/sh
# run.sh — PGS and Jacobi measured against Lemke's exact solution on LCPs a simulation really
# produced (README.md beside this file). For each problem below:
#   1. vbc run SCENE --dump-lcp STEP DIR     the step's solves as LCP files (docs/lcp.md)
#   2. vbc lcp FILE --solver lemke           the exact solution z* (lemke.json), pivots, seconds
#   3. vbc lcp FILE --solver pgs|jacobi --reference lemke.json --trace SOLVER.csv
#                                            every iterate's distance to z* (and w to w*)
# then table.csv (one row per problem) and plots/lcp_exact_reference.{png,svg,pdf}.
# `vbc sweep` cannot drive this (its cases are `vbc run`s of one scene), so scripts/figs.sh
# calls this script for the figure instead:
#
#   usage: paper_figs/lcp_exact_reference/run.sh VBC OUTDIR
#   (scripts/figs.sh build/vbc paper_figs/out lcp_exact_reference does the same)
#
# A problem whose OUTDIR/<problem>/done exists is not recomputed (delete the directory to redo
# it). A scene that is not in the repository is skipped with a note. many_contacts is dumped at
# its step with the most simultaneous contacts (277, t = 1.108 s: 1211, its description).
# Environment: LCP_REF_MAX_ITERATIONS (default 300000; 20000 when VBC_FIGS_QUICK=1).
set -eu

[ $# -eq 2 ] || { echo "usage: $0 VBC OUTDIR" >&2; exit 2; }
vbc=$1
out=$2
case $vbc in /*) ;; */*) vbc=$(pwd)/$vbc ;; esac
[ -x "$vbc" ] || { echo "run.sh: no vbc executable at '$vbc'" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
mkdir -p "$out/plots"
out=$(cd "$out" && pwd)
maxit=${LCP_REF_MAX_ITERATIONS:-300000}
[ "${VBC_FIGS_QUICK:-0}" = 1 ] && maxit=${LCP_REF_MAX_ITERATIONS:-20000}

# problem | scene | --set assignments | step to dump ("last": the run's last step) | which solve
# of the step (0 the first) | Jacobi's omega (0.5 diverges on MPS rows; PGS runs at omega = 1)
problems='
hydrostatic|experiments/scenes/hydrostatic.json|time.end=0.2|200|0|0.2
dam_break|experiments/scenes/dam_break.json|time.end=0.2|400|0|0.2
rigid_pile|experiments/scenes/rigid_pile.json|time.end=1.0|200|0|0.2
many_contacts|experiments/scenes/many_contacts.json||277|1|0.2
'

# The run's last step, from the message of a dump step it never reaches ("expected a step in
# 1..N"): the one place that knows how the run rounds time.end / dt.
last_step() {
  msg=$("$vbc" run "$@" --quiet --out "$tmp/probe" --dump-lcp 2147483647 "$tmp/probe_lcp" 2>&1 || true)
  printf '%s\n' "$msg" | sed -n 's/.*expected a step in 1\.\.\([0-9][0-9]*\).*/\1/p' | head -n 1
}

# solve NAME SCENE SETS STEP SOLVE OMEGA: steps 1-3 above into $out/NAME.
solve() {
  name=$1 scene=$2 sets=$3 step=$4 solve=$5 omega=$6
  dir=$out/$name
  args="$scene"
  for s in $sets; do args="$args --set $s"; done
  # shellcheck disable=SC2086 # $args: the scene and --set pairs, no spaces inside
  [ "$step" = last ] && step=$(last_step $args)
  [ -n "$step" ] || { echo "run.sh: $name: cannot tell the last step of $scene" >&2; return 1; }
  rm -rf "$dir"
  mkdir -p "$dir"
  echo "== $name: vbc run $args --dump-lcp $step (solve $solve)"
  # (set -e does not act inside a function called as a condition: every step checks itself)
  # shellcheck disable=SC2086
  "$vbc" run $args --threads 1 --quiet --out "$dir/run" --dump-lcp "$step" "$dir/lcp" || return 1
  set -- "$dir"/lcp/step*_solve"$solve"_*.lcp
  if [ $# -ne 1 ] || [ ! -f "$1" ]; then
    echo "run.sh: $name: no LCP of solve $solve in $dir/lcp" >&2
    return 1
  fi
  ln -sf "lcp/$(basename "$1")" "$dir/problem.lcp" || return 1
  "$vbc" lcp "$1" --solver lemke > "$dir/lemke.json" ||
    { echo "run.sh: $name: Lemke did not solve $1" >&2; return 1; }
  for s in pgs jacobi; do
    w=1.0
    [ $s = jacobi ] && w=$omega
    echo "   $s (omega $w): up to $maxit iterations against Lemke's z"
    rc=0
    "$vbc" lcp "$1" --solver $s --omega "$w" --tol 1e-11 --max-iterations "$maxit" \
      --reference "$dir/lemke.json" --trace "$dir/$s.csv" > "$dir/$s.json" || rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 3 ] || { echo "run.sh: $name: vbc lcp --solver $s failed ($rc)" >&2; return 1; }
  done
  echo "$step" > "$dir/done" || return 1
}

# First number under KEY in a JSON file printed by vbc lcp (one key per line).
json() { sed -n "s/^[[:space:]]*\"$2\":[[:space:]]*\([-0-9.e+]*\).*/\1/p" "$1" | head -n 1; }

# First iteration (and its seconds) at which column COL of a trace is <= LIMIT; "-" if never.
reach() {
  awk -F, -v c="$2" -v lim="$3" 'NR > 1 && $c ~ /^[-+0-9.e]+$/ && $c + 0 <= lim {
      print $1 " " $2; f = 1; exit }
    END { if (!f) print "- -" }' "$1"
}

# One table row: the problem, Lemke's figures, then per solver the iterations (and seconds) to
# z_error <= 1e-3 and 1e-6, to w_error <= 1e-6, the iterations run and the final errors.
row() {
  name=$1 dir=$out/$1
  printf '%s,%s,%s,%s,%s,%s' "$name" "$(cat "$dir/done")" "$(json "$dir/lemke.json" n)" \
    "$(json "$dir/lemke.json" pivots)" "$(json "$dir/lemke.json" seconds)" \
    "$(json "$dir/lemke.json" error)"
  for s in pgs jacobi; do
    for spec in "4 1e-3" "4 1e-6" "5 1e-6"; do
      # shellcheck disable=SC2046,SC2086 # two words out, two words in
      set -- $(reach "$dir/$s.csv" $spec)
      printf ',%s,%s' "$1" "$2"
    done
    printf ',%s,%s,%s,%s' "$(json "$dir/$s.json" iterations)" "$(json "$dir/$s.json" seconds)" \
      "$(json "$dir/$s.json" reference_error)" "$(json "$dir/$s.json" reference_w_error)"
  done
  printf '\n'
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
drawn=''
status=0
while IFS='|' read -r name scene sets step solve omega; do
  [ -n "$name" ] || continue
  if [ ! -f "$scene" ]; then
    echo "== $name: $scene is not in the repository yet: left out of the figure"
    continue
  fi
  if [ -f "$out/$name/done" ]; then
    echo "== $name: done (delete $out/$name to recompute)"
  elif ! solve "$name" "$scene" "$sets" "$step" "$solve" "$omega"; then
    status=3
    continue
  fi
  drawn="$drawn $name"
done <<EOF_PROBLEMS
$problems
EOF_PROBLEMS

{
  printf 'problem,step,n,lemke_pivots,lemke_seconds,lemke_error'
  for s in pgs jacobi; do
    printf ',%s_it_z1e-3,%s_s_z1e-3,%s_it_z1e-6,%s_s_z1e-6,%s_it_w1e-6,%s_s_w1e-6' $s $s $s $s $s $s
    printf ',%s_iterations,%s_seconds,%s_final_z_error,%s_final_w_error' $s $s $s $s
  done
  printf '\n'
  for name in $drawn; do row "$name"; done
} > "$out/table.csv.tmp"
mv "$out/table.csv.tmp" "$out/table.csv"

if [ -n "$drawn" ]; then
  gnuplot=${VBC_GNUPLOT:-gnuplot}
  (cd "$out/plots" && "$gnuplot" -e "data='$out'; problems='${drawn# }'" \
    "$here/lcp_exact_reference.gp") || { echo "run.sh: gnuplot failed" >&2; status=4; }
fi
echo "table: $out/table.csv"
exit $status
