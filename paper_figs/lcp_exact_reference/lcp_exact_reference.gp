# lcp_exact_reference.gp — PGS and Jacobi iterates against Lemke's exact solution, on LCPs dumped
# from simulations (paper_figs/lcp_exact_reference/README.md).
# Input:  DATA/<problem>/{pgs,jacobi}.csv (vbc lcp --trace: iteration,seconds,lcp_error,z_error,
#         w_error) and DATA/<problem>/lemke.json, for each word of `problems`.
# Output: lcp_exact_reference.{png,svg,pdf} in the current directory. Drawn by run.sh beside this
#   file; by hand: gnuplot -e "data='paper_figs/out/lcp_exact_reference'; problems='hydrostatic dam_break'" lcp_exact_reference.gp
if (!exists("data") || !exists("problems")) { print "usage: gnuplot -e \"data='DIR'; problems='P1 P2'\" lcp_exact_reference.gp"; exit status 2 }

# A number under KEY in a JSON file printed by vbc lcp (one key per line).
json(file, key) = system(sprintf('sed -n "s/^[[:space:]]*.%s.:[[:space:]]*\([-0-9.e+]*\).*/\1/p" "%s" | head -n 1', key, file))
n(p) = json(data."/".p."/lemke.json", "n")
pivots(p) = json(data."/".p."/lemke.json", "pivots")
trace(p, s) = data."/".p."/".s.".csv"
label(p, s) = sprintf("%s (n = %s), %s", p, n(p), s eq "pgs" ? "PGS" : "Jacobi")

set encoding utf8
set datafile separator comma
set datafile columnheaders
set logscale xy
set format x "10^{%T}"
set format y "10^{%T}"
set xrange [1:*]
set yrange [1e-14:3]
set grid
set key bottom left box opaque font ",9"
set xlabel "iteration"
colour(i) = word("#1f77b4 #d62728 #2ca02c #9467bd", i)
np = words(problems)

# (iteration 0, z = 0 with both errors 1, has no place on the log axis)
do for [fmt in "png svg pdf"] {
  if (fmt eq "png") {
    if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) { set terminal pngcairo size 1400,600 font ",11" } else { set terminal png size 1400,600 }
  }
  if (fmt eq "svg") { set terminal svg size 1400,600 dynamic font "sans,11" }
  if (fmt eq "pdf") {
    if (strstrt(GPVAL_TERMINALS, "pdfcairo") == 0) { continue }
    set terminal pdfcairo size 11in,4.7in font ",9"
  }
  set output "lcp_exact_reference.".fmt
  set multiplot layout 1,2 title "PGS (solid) and relaxed Jacobi (dashed) against Lemke's exact solution, on LCPs dumped by vbc run --dump-lcp"
  set title "impulses: |z_k - z*|_∞ / |z*|_∞"
  set ylabel "relative distance to Lemke's z*"
  plot for [i=1:np] trace(word(problems, i), "pgs") using 1:4 with lines lw 2 lc rgb colour(i) title label(word(problems, i), "pgs") noenhanced, \
       for [i=1:np] trace(word(problems, i), "jacobi") using 1:4 with lines lw 2 dt 2 lc rgb colour(i) title label(word(problems, i), "jacobi") noenhanced, \
       1e-3 with lines lc rgb "gray" dt 3 notitle, 1e-6 with lines lc rgb "gray" dt 3 notitle
  set title "velocities: |w_k - w*|_∞ / |w* - q|_∞  (w = J v - b)"
  set ylabel "relative distance to Lemke's w*"
  plot for [i=1:np] trace(word(problems, i), "pgs") using 1:5 with lines lw 2 lc rgb colour(i) title label(word(problems, i), "pgs") noenhanced, \
       for [i=1:np] trace(word(problems, i), "jacobi") using 1:5 with lines lw 2 dt 2 lc rgb colour(i) title label(word(problems, i), "jacobi") noenhanced, \
       1e-3 with lines lc rgb "gray" dt 3 notitle, 1e-6 with lines lc rgb "gray" dt 3 notitle
  unset multiplot
  set output
}
