# No paper figure: the paper reports no iteration counts or residual histories (its §3 only says
# that the PGS iteration converges). This diagnostic shows the relative residual of the fluid
# block against the PGS iteration for up to 5 sampled time steps spread over a run.
# Input:  RUN/convergence.csv (step,time,block,iteration,residual,relative_residual; the steps
#         sampled by output.convergence_every), RUN/summary.json (title); any vbc run, e.g.
#           vbc run experiments/scenes/hydrostatic.json --out RUN
# Output: OUT.png and OUT.svg.  Rerun by hand (or `make demo`); steps='1 500 1000' overrides
# the choice of steps:
#   gnuplot -e "run='results/demo/hydrostatic'; out='results/demo/pgs_convergence_hydrostatic'" \
#     paper_figs/miyamoto_koshizuka/pgs_convergence.gp
if (!exists("run") || !exists("out")) { print "usage: gnuplot -e \"run='DIR'; out='PREFIX' [; steps='S1 S2 ...']\" pgs_convergence.gp"; exit status 2 }

json(key) = system(sprintf('sed -n "s/.*.%s.:[[:space:]]*\([-0-9.e+][-0-9.e+]*\).*/\1/p" "%s/summary.json" | head -n 1', key, run))
name = system(sprintf('sed -n "s/.*.name.:[[:space:]]*.\([^\",]*\).*/\1/p" "%s/summary.json" | head -n 1', run))

# The fluid rows only (step, time, iteration, relative residual): the rows of one solve stay
# consecutive, so a curve can be cut out of them without gaps.
set datafile separator comma
set datafile columnheaders
set table $FLUID
plot run."/convergence.csv" using "step":"time":"iteration":"relative_residual" with table if (strcol("block") eq "fluid")
unset table
set datafile separator whitespace
set datafile nocolumnheaders

# Default steps: the last sampled step at or before 5 equally spaced targets (first to last).
if (!exists("steps")) {
  stats $FLUID using 1 nooutput
  first = STATS_min; last = STATS_max
  steps = ""
  do for [k=0:4] {
    stats $FLUID using ($1 <= first + k * (last - first) / 4.0 ? $1 : NaN) nooutput
    s = sprintf("%d", STATS_max)
    if (strstrt(" ".steps." ", " ".s." ") == 0) { steps = steps." ".s }
  }
}
array T[words(steps)]
array N[words(steps)]
nmin = 1e30; nmax = 0
do for [k=1:words(steps)] {
  stats $FLUID using ($1 == word(steps, k) + 0 ? $2 : NaN):($1 == word(steps, k) + 0 ? $3 : NaN) nooutput
  T[k] = STATS_max_x; N[k] = STATS_max_y  # iteration 0 is the residual before the first sweep
  nmin = (N[k] < nmin) ? N[k] : nmin; nmax = (N[k] > nmax) ? N[k] : nmax
}
tol = json("tolerance") + 0

set title sprintf("PGS convergence, %s run: fluid block at %d sampled steps\nl = %s m, h = %s s, stop at relative residual %g (of all blocks together) or %s iterations", name, words(steps), json("spacing"), json("dt"), tol, json("max_iterations")) noenhanced
# A log x axis when one solve is over 20 times longer than another, so short solves stay visible.
if (nmax > 20 * nmin) {
  set logscale x
  set xlabel "PGS iteration + 1 (log scale)"
  set xrange [1:nmax + 1]
} else {
  set xlabel "PGS iteration"
  set xrange [0:nmax]
}
set ylabel "relative residual of the fluid block [-]"
set logscale y
set format y "10^{%T}"
set grid
set key top right box opaque
set yrange [tol / 3:*]

do for [fmt in "png svg"] {
  if (fmt eq "png") { set terminal pngcairo size 900,640 font ",11" } else { set terminal svg size 900,640 dynamic font ",11" }
  set output out.".".fmt
  plot for [k=1:words(steps)] $FLUID using ($3 + (nmax > 20 * nmin)):($1 == word(steps, k) + 0 && $4 > 0 ? $4 : NaN) with lines lw 2 \
         title sprintf("step %s (t = %g s, %d iterations)", word(steps, k), T[k], N[k]), \
       tol with lines dt 2 lw 1 lc rgb "black" title "tolerance"
  set output
}
