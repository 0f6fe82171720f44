# Miyamoto & Koshizuka, Figure 10 (a) and (b): semi-minor and semi-major axes of the
# stretching circular patch against time, with the theory of eq. 74-77 (one plot here).
# Input:  RUN/series.csv (one row per output time), RUN/summary.json (title); RUN from
#           vbc run experiments/scenes/circular_patch.json --set spacing=0.01 --out RUN
#         (the demo resolution; the paper and the scene use l = 0.005)
# Output: OUT.png and OUT.svg. Drawn by the runner (`make figs`, `make demo`, or
#   build/vbc sweep paper_figs/miyamoto_fig10_circular_patch/sweep.json), which sets run and out;
#   by hand: gnuplot -e "run='RUN'; out='PREFIX'" paper_figs/miyamoto_fig10_circular_patch/fig10_circular_patch_axes.gp
if (!exists("run") || !exists("out")) { print "usage: gnuplot -e \"run='DIR'; out='PREFIX'\" fig10_circular_patch_axes.gp"; exit status 2 }

json(key) = system(sprintf('sed -n "s/.*.%s.:[[:space:]]*\([-0-9.e+][-0-9.e+]*\).*/\1/p" "%s/summary.json" | head -n 1', key, run))
file = run."/series.csv"
set datafile separator ','
set datafile columnheaders
set title sprintf("Circular patch (R = %s m, initial velocity A (x, -y) with A = %s s^{-1}): semi-axes up to t = %s s\nl = %s m, r_e/l = %s, h = %s s, PGS to relative residual %s", json("radius"), json("strain_rate"), json("time"), json("spacing"), json("re_over_l"), json("dt"), json("tolerance"))
set xlabel "time [s]"
set ylabel "semi-axis [m]"
set key top left box opaque
set grid
set xrange [0:*]
set yrange [0:*]

do for [fmt in "png svg"] {
  if (fmt eq "png") { set terminal pngcairo size 900,640 font ",11" } else { set terminal svg size 900,640 dynamic font ",11" }
  set output out.".".fmt
  plot file using "time":"semi_major_theory" with lines lw 2 lc rgb "#1f4e8c" title "semi-major b, theory (eq. 74-77)", \
       ""   using "time":"semi_major"        with points pt 6 ps 0.8 lc rgb "#1f4e8c" title "semi-major b, simulated", \
       ""   using "time":"semi_minor_theory" with lines lw 2 lc rgb "#d62728" title "semi-minor a, theory (eq. 74-77)", \
       ""   using "time":"semi_minor"        with points pt 4 ps 0.8 lc rgb "#d62728" title "semi-minor a, simulated"
  set output
}
