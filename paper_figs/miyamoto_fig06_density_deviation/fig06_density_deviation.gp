# Miyamoto & Koshizuka, Figure 6 (deviation (n_i - n0)/n0 of the particle number density
# at t = 1.0 s in the hydrostatic tank), drawn as a histogram instead of the paper's colour map.
# Input:  RUN/hydrostatic_profile.csv (one row per fluid particle), RUN/summary.json (title);
#         RUN from  vbc run experiments/scenes/hydrostatic.json --out RUN
# Output: OUT.png and OUT.svg. Drawn by the runner (`make figs`, `make demo`, or
#   build/vbc sweep paper_figs/miyamoto_fig06_density_deviation/sweep.json), which sets run and out;
#   by hand: gnuplot -e "run='RUN'; out='PREFIX'" paper_figs/miyamoto_fig06_density_deviation/fig06_density_deviation.gp
if (!exists("run") || !exists("out")) { print "usage: gnuplot -e \"run='DIR'; out='PREFIX'\" fig06_density_deviation.gp"; exit status 2 }

json(key) = system(sprintf('sed -n "s/.*.%s.:[[:space:]]*\([-0-9.e+][-0-9.e+]*\).*/\1/p" "%s/summary.json" | head -n 1', key, run))
file = run."/hydrostatic_profile.csv"
set datafile separator comma
set datafile columnheaders
dev = 'column("density_deviation")'

# Bin widths from the data: 60 bins over all particles; 40 over those within ±1 %, which the
# lower panel shows in units of 1e-6.
stats file using (@dev) nooutput
n_all = STATS_records
w_all = (STATS_max > STATS_min) ? (STATS_max - STATS_min) / 60 : 1e-4
stats file using (abs(@dev) < 0.01 ? 1e6 * @dev : NaN) nooutput
n_in = STATS_records
w_in = (STATS_max > STATS_min) ? (STATS_max - STATS_min) / 40 : 1e-2
x_in_min = STATS_min - w_in
x_in_max = STATS_max + w_in
bin(x, w) = w * (floor(x / w) + 0.5)

set style fill solid 0.6 border lc rgb "#1f4e8c"
set grid ytics
set ylabel "number of fluid particles"
set logscale y
set yrange [0.7:*]

do for [fmt in "png svg"] {
  if (fmt eq "png") { set terminal pngcairo size 900,900 font ",11" } else { set terminal svg size 900,900 dynamic font ",11" }
  set output out.".".fmt
  set multiplot layout 2,1 title sprintf("Density deviation (n_i - n_0)/n_0 of the fluid particles, hydrostatic tank at t = %s s (l = %s m, r_e/l = %s)\nparticles near the free surface are under-dense by construction (the negative tail)", json("time"), json("spacing"), json("re_over_l"))

  set title sprintf("all %d fluid particles (bin width %.2g)", n_all, w_all)
  set xlabel "(n_i - n_0)/n_0 [-]"
  set key top left box opaque
  set boxwidth w_all absolute
  set xrange [*:*]
  set arrow 1 from -0.01, graph 0 to -0.01, graph 1 nohead dt 2 lw 2 lc rgb "#d62728" front
  set arrow 2 from  0.01, graph 0 to  0.01, graph 1 nohead dt 2 lw 2 lc rgb "#d62728" front
  plot file using (bin(@dev, w_all)):(1) smooth frequency with boxes lc rgb "#9db4d8" title "particles per bin", \
       NaN with lines dt 2 lw 2 lc rgb "#d62728" title "±1 %"

  set title sprintf("zoom on the %d particles within ±1 %% (bin width %.2g × 10^{-6}; the ±1 %% lines are far outside)", n_in, w_in)
  set xlabel "(n_i - n_0)/n_0 [10^{-6}]"
  unset key
  unset arrow
  set boxwidth w_in absolute
  set xrange [x_in_min:x_in_max]
  # weight 0 rather than NaN for the excluded particles: NaN splits the frequency sums
  plot file using (bin(1e6 * @dev, w_in)):(abs(@dev) < 0.01 ? 1 : 0) smooth frequency with boxes lc rgb "#9db4d8"
  unset multiplot
  set output
}
