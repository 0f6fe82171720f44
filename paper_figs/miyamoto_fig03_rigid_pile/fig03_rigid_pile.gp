# Miyamoto & Koshizuka, Figure 3: snapshots of the collapsing pile of boxes (§5.1).
# Input:  RUN/snapshots.csv (time, x, y, z, body of every body particle every 0.25 s, written by
#           the bodies benchmark), RUN/summary.json; RUN from
#           vbc run experiments/scenes/rigid_pile.json --out RUN
# Output: OUT.png and OUT.svg: nine panels, t = 0 ... 2 s, particles as circles of diameter l
#         coloured by body. Drawn by the runner, which sets run and out; by hand:
#   gnuplot -e "run='RUN'; out='PREFIX'" paper_figs/miyamoto_fig03_rigid_pile/fig03_rigid_pile.gp
if (!exists("run") || !exists("out")) { print "usage: gnuplot -e \"run='DIR'; out='PREFIX'\" fig03_rigid_pile.gp"; exit status 2 }

json(key) = system(sprintf('sed -n "s/.*.%s.:[[:space:]]*\([-0-9.e+][-0-9.e+]*\).*/\1/p" "%s/summary.json" | head -n 1', key, run))
file = run."/snapshots.csv"
l = real(json("spacing"))
set datafile separator ','
set datafile columnheaders
unset key
set size ratio -1
set xrange [-2.6:2.6]
set yrange [-0.12:1.4]
set tics font ",8"
set palette defined (0 "#444444", 1 "#1f77b4", 2 "#ff7f0e", 3 "#2ca02c", 4 "#d62728", 5 "#9467bd", 6 "#8c564b", 7 "#e377c2", 8 "#17becf", 9 "#bcbd22", 10 "#7f7f7f")
unset colorbox
set cbrange [0:10]

do for [fmt in "png svg"] {
  if (fmt eq "png") { set terminal pngcairo size 1200,700 font ",10" } else { set terminal svg size 1200,700 dynamic font ",10" }
  set output out.".".fmt
  set multiplot layout 3,3 title sprintf("Rigid pile (Miyamoto Fig. 3): l = %g m, h = %s s, e = %s; max penetration over the run %.2g l", l, json("dt"), json("restitution"), real(json("max_penetration")))
  do for [k=0:8] {
    t = 0.25 * k
    set title sprintf("t = %.2f s", t) font ",9"
    plot file using (abs(column("time") - t) < 1e-6 ? column("x") : NaN):"y":(l / 2):"body" with circles fill solid 0.8 noborder lc palette
  }
  unset multiplot
  set output
}
