#!/bin/sh
# run.sh — He et al. 2012 Table 1 on vbc (README.md beside this file): the two frozen-state solver
# sweeps, then table1.csv, one row per solver and operator with the iterations to He's E = 1 %,
# 0.1 %, 0.01 %, 0.001 % (eq. 29, the convergence.csv column mean_error) and to relative residuals
# 1e-2, 1e-3, 1e-6, the set-up seconds (summary.json) and the seconds per iteration. Empty cell:
# not reached within the 3000 iterations.
#
#   usage: paper_figs/he_table1_solvers/run.sh VBC OUTDIR
#   (scripts/figs.sh build/vbc paper_figs/out he_table1_solvers does the same)
set -eu

[ $# -eq 2 ] || { echo "usage: $0 VBC OUTDIR" >&2; exit 2; }
vbc=$1
out=$2
case $vbc in /*) ;; */*) vbc=$(pwd)/$vbc ;; esac
[ -x "$vbc" ] || { echo "run.sh: no vbc executable at '$vbc'" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
mkdir -p "$out"
out=$(cd "$out" && pwd)
cases=$(dirname "$out")/cases # shared with the other figures of scripts/figs.sh

table="$out/table1.csv"
tmp="$table.tmp"
echo "operator,solver,preconditioner,symmetric,omega,E_start,it_E_1e-2,it_E_1e-3,it_E_1e-4,it_E_1e-5,it_rel_1e-2,it_rel_1e-3,it_rel_1e-6,setup_seconds,seconds_per_iteration" >"$tmp"
for op in mps_poisson staggered staggered_h2ms; do
  spec=experiments/sweeps/table1_solvers.json
  [ $op = staggered ] && spec=experiments/sweeps/table1_staggered.json
  [ $op = staggered_h2ms ] && spec=experiments/sweeps/table1_staggered_h2ms.json
  "$vbc" sweep "$spec" -j 2 --out "$out/$op" --cases "$cases"
  # table.csv: id,state,solver,preconditioner,symmetric,omega,...; the frozen step is the last
  # step of each case's convergence.csv.
  tail -n +2 "$out/$op/table.csv" | while IFS=, read -r id state solver pre sym omega rest; do
    [ "$state" = done ] || continue
    setup=$(sed -n 's/.*"mean_setup_seconds":[[:space:]]*\([-0-9.eE+]*\).*/\1/p' "$cases/$id/summary.json" | head -n 1)
    awk -F, -v op="$op" -v solver="$solver" -v pre="$pre" -v sym="$sym" -v omega="$omega" \
        -v setup="${setup:-}" '
      NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
      $col["block"] == "fluid" { step[NR] = $col["step"]; it[NR] = $col["iteration"];
                                 e[NR] = $col["mean_error"]; r[NR] = $col["relative_residual"];
                                 s[NR] = $col["seconds"]; last = $col["step"]; n = NR }
      END {
        split("1e-2 1e-3 1e-4 1e-5", te, " "); split("1e-2 1e-3 1e-6", tr, " ")
        for (k = 1; k <= 4; k++) fe[k] = ""
        for (k = 1; k <= 3; k++) fr[k] = ""
        e0 = ""; maxit = 0; secs = 0
        for (i = 1; i <= n; i++) {
          if (!(i in step) || step[i] != last) continue
          if (it[i] == 0) e0 = e[i]
          for (k = 1; k <= 4; k++) if (fe[k] == "" && e[i] + 0 <= te[k] + 0) fe[k] = it[i]
          for (k = 1; k <= 3; k++) if (fr[k] == "" && r[i] + 0 <= tr[k] + 0) fr[k] = it[i]
          if (it[i] + 0 > maxit) { maxit = it[i] + 0; secs = s[i] + 0 }
        }
        printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%.3g\n", op, solver, pre, sym, omega,
               e0, fe[1], fe[2], fe[3], fe[4], fr[1], fr[2], fr[3], setup,
               (maxit > 0 ? secs / maxit : 0)
      }' "$cases/$id/convergence.csv" >>"$tmp"
  done
done
mv "$tmp" "$table"
echo "table: $table"
