# Miyamoto & Koshizuka, Figure 5 (raw and smoothed hydrostatic pressure at t = 1.0 s),
# drawn as pressure against depth instead of the paper's two colour maps.
# Input:  RUN/hydrostatic_profile.csv (one row per fluid particle at the end of the run),
#         RUN/summary.json (settings for the title); RUN from
#           vbc run experiments/scenes/hydrostatic.json --out RUN
# Output: OUT.png and OUT.svg. Drawn by the runner (`make figs`, `make demo`, or
#   build/vbc sweep paper_figs/miyamoto_fig05_hydrostatic_pressure/sweep.json), which sets run and out;
#   by hand: gnuplot -e "run='RUN'; out='PREFIX'" paper_figs/miyamoto_fig05_hydrostatic_pressure/fig05_hydrostatic_pressure.gp
if (!exists("run") || !exists("out")) { print "usage: gnuplot -e \"run='DIR'; out='PREFIX'\" fig05_hydrostatic_pressure.gp"; exit status 2 }

# First number stored under KEY in summary.json (the pretty-printed JSON has one key per line).
json(key) = system(sprintf('sed -n "s/.*.%s.:[[:space:]]*\([-0-9.e+][-0-9.e+]*\).*/\1/p" "%s/summary.json" | head -n 1', key, run))

set datafile separator comma
set datafile columnheaders
# The coupler's name (first "coupler": "NAME" in summary.json): the same script draws the MPS-LCP
# and He et al.'s staggered coupler (paper_figs/he_hydrostatic_staggered).
coupler = system(sprintf('sed -n "s/.*.coupler.:[[:space:]]*.\\([a-z_]*\\).*/\\1/p" "%s/summary.json" | head -n 1', run))
set title sprintf("Hydrostatic pressure at t = %s s, coupler %s (l = %s m, r_e/l = %s, h = %s s)", json("time"), coupler, json("spacing"), json("re_over_l"), json("dt"))
set xlabel "depth below the free surface [m]"
set ylabel "pressure [Pa]"
set key top left box opaque
set grid
set xrange [0:*]
set yrange [*:*]

do for [fmt in "png svg"] {
  if (fmt eq "png") { set terminal pngcairo size 900,640 font ",11" } else { set terminal svg size 900,640 dynamic font ",11" }
  set output out.".".fmt
  plot run."/hydrostatic_profile.csv" using "depth":"pressure" with points pt 7 ps 0.5 lc rgb "#9db4d8" title "raw p (the rows' impulses / h)", \
       ""                              using "depth":"pressure_smoothed" with points pt 7 ps 0.5 lc rgb "#d62728" title "smoothed p (MPS: eq. 42; staggered: Shepard)", \
       ""                              using "depth":"pressure_theory" smooth unique with lines lw 2 lc rgb "black" title "rho g depth"
  set output
}
