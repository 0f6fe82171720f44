#!/bin/sh
# He et al. 2012 Fig. 12: flow around a no-slip cylinder at rest and turning at +-10 rad/s, free-slip
# outer walls (experiments/scenes/cylinder_flow.json: a scripted cylinder moving at 1 m/s through
# a channel of still water, which in its own frame is a uniform stream past it).
# Each case: frames every 0.3 s drawn by `vbc animate --keep-png`, fluid coloured by its speed |v|
# in the channel's frame (the disturbance the cylinder makes), and the drag and lift per metre on
# the cylinder (benchmark cylinder_flow, 0.6-1.4 s; the scene's body_load implicit gives the body
# the pressure) in forces.csv, with the same flow under IISPH and Akinci's boundaries (akinci
# coupler, relaxed Jacobi to a mean density error of 0.1 %; its boundaries have no friction, so
# only omega = 0) as the reference the drag of another method gives.
#   usage: run.sh VBC OUTDIR        (VBC_FIGS_QUICK=1: l = 0.02 instead of the scene's 0.01)
set -eu
vbc=$1
out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
spacing=0.01
[ "${VBC_FIGS_QUICK:-0}" = 1 ] && spacing=0.02

echo "method,omega,drag_per_m,lift_per_m,drag_coefficient,lift_coefficient" > "$out/forces.csv"
# run_case NAME OMEGA DIR [--set ...]: one run, its forces appended to forces.csv
run_case() {
  name=$1 w=$2 case_dir=$3
  shift 3
  "$vbc" run "$root/experiments/scenes/cylinder_flow.json" --set "spacing=$spacing" \
    --set "bodies.0.angular_velocity=$w" --quiet --out "$case_dir" "$@"
  metric() { sed -n "s/.*\"$1\":[[:space:]]*\([-0-9.eE+]*\).*/\1/p" "$case_dir/summary.json" | head -n 1; }
  echo "$name,$w,$(metric drag_mean),$(metric lift_mean),$(metric drag_coefficient),$(metric lift_coefficient)" \
    >> "$out/forces.csv"
}
for w in 0 10 -10; do
  run_case staggered "$w" "$out/omega_$w" --set output.frames=true --set output.frame_interval=0.3
  "$vbc" animate "$out/omega_$w" --array velocity --out "$out/fig12_omega_$w.gif" --fps 1 --keep-png
done
run_case iisph_akinci 0 "$out/iisph_akinci" --set method.coupler=akinci \
  --set method.fluid.constraint=sph_density --set method.fluid.solver=jacobi \
  --set method.fluid.error_tolerance=0.001 --set method.fluid.min_iterations=2 \
  --set method.fluid.max_iterations=200
echo "fig12: panels in $out/fig12_omega_*_frames, forces in $out/forces.csv"
