# Miyamoto & Koshizuka, Figures 14 and 15: the seesaw after the first step's solve (§5.6), under
# whichever coupler the run used (strong: Fig. 14; pms: Fig. 15).
# Input:  RUN/first_step.csv (x, y, kind, body, pressure_smoothed, u, v of every particle, written
#           by the seesaw benchmark; fluid moved back by h u to where the solve saw it),
#         RUN/summary.json; RUN from
#           vbc run experiments/scenes/seesaw.json --set time.end=0.005 [--set method.coupler=pms] --out RUN
# Output: OUT.png and OUT.svg: left, particles coloured by smoothed pressure with velocity arrows;
#         right, pressure alone (the paper's two panels). Drawn by the runner, which sets run and
#         out; by hand: gnuplot -e "run='RUN'; out='PREFIX'" paper_figs/miyamoto_fig14_15_seesaw/seesaw_first_step.gp
if (!exists("run") || !exists("out")) { print "usage: gnuplot -e \"run='DIR'; out='PREFIX'\" seesaw_first_step.gp"; exit status 2 }

json(key) = system(sprintf('sed -n "s/.*.%s.:[[:space:]]*\([-0-9.e+][-0-9.e+]*\).*/\1/p" "%s/summary.json" | head -n 1', key, run))
jstr(key) = system(sprintf('sed -n "s/.*.%s.:[[:space:]]*.\([a-z_]*\).*/\1/p" "%s/summary.json" | head -n 1', key, run))
coupler = jstr("coupler")
figure = coupler eq "pms" ? "passively moving solid (Miyamoto Fig. 15)" : "strong coupling (Miyamoto Fig. 14)"
file = run."/first_step.csv"
l = real(json("spacing"))
set datafile separator ','
set datafile columnheaders
unset key
set size ratio -1
set xrange [-0.15:0.65]
set yrange [-0.1:1.1]
set palette defined (0 "#313695", 0.25 "#74add1", 0.5 "#ffffbf", 0.75 "#f46d43", 1 "#a50026")
set cblabel "smoothed pressure [Pa]"
set cbrange [0:*]

do for [fmt in "png svg"] {
  if (fmt eq "png") { set terminal pngcairo size 1100,700 font ",10" } else { set terminal svg size 1100,700 dynamic font ",10" }
  set output out.".".fmt
  set multiplot layout 1,2 title sprintf("Seesaw after one step, %s: bottom block mean pressure %.4g Pa, mean speed %.3g m/s; bar w = %.3g rad/s", figure, real(json("bottom_pressure_mean")), real(json("bottom_velocity_mean")), real(json("body_angular_velocity")))
  set title "pressure and velocity"
  plot file using "x":"y":(l / 2):(column("kind") == 0 ? column("pressure_smoothed") : 1/0) with circles fill solid 0.9 noborder lc palette, \
       ""   using (column("kind") == 1 ? column("x") : 1/0):"y":(l / 2) with circles fill solid 0.9 noborder lc rgb "#999999", \
       ""   using "x":"y":(0.05 * column("u")):(0.05 * column("v")) with vectors head size 0.01,20 lc rgb "black"
  set title "pressure"
  plot file using "x":"y":(l / 2):(column("kind") == 0 ? column("pressure_smoothed") : 1/0) with circles fill solid 0.9 noborder lc palette, \
       ""   using (column("kind") == 1 ? column("x") : 1/0):"y":(l / 2) with circles fill solid 0.9 noborder lc rgb "#999999"
  unset multiplot
  set output
}
