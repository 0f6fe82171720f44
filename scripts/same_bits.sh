#!/bin/sh
# same_bits.sh — does a change keep every shipped scene's results bit for bit?
#
#   scripts/same_bits.sh OLD_VBC NEW_VBC [OUT_DIR]
#
# Runs short versions of every scene in experiments/scenes/ (and the couplers the scenes do not
# ship with: PMS, Akinci and staggered on the buoyancy box) with both binaries, on 1 and on 2
# threads, and compares their series.csv byte for byte. A refactor must print "same bits" for
# every run; the last line counts them. Exit 0 when all are identical, 1 otherwise.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 OLD_VBC NEW_VBC [OUT_DIR]" >&2; exit 2; }
old=$1
new=$2
out=${3:-$(mktemp -d)}
top=$(cd "$(dirname "$0")/.." && pwd)
scenes=$top/experiments/scenes
mkdir -p "$out"

# name|scene|--set options (a run of 8-40 steps at the scene's own or a coarser spacing)
runs() {
  cat <<EOF
bench_pysph|bench_pysph_dam_break_2d.json|time.end=0.02
bench_splishsplash|bench_splishsplash_dambreak_3d.json|time.end=0.04 spacing=0.1
buoyancy|buoyancy.json|time.end=0.05 spacing=0.04
buoyancy_pms|buoyancy.json|time.end=0.05 spacing=0.04 method.coupler=pms
buoyancy_akinci|buoyancy.json|time.end=0.05 spacing=0.04 method.coupler=akinci method.fluid.constraint=sph_density method.fluid.solver=jacobi method.fluid.error_tolerance=0.001 method.fluid.min_iterations=2
buoyancy_staggered|buoyancy.json|time.end=0.05 spacing=0.04 method.coupler=staggered method.fluid.constraint=staggered method.fluid.solver=cg method.fluid.body_load=implicit
circular_patch|circular_patch.json|time.end=0.02 spacing=0.02
complex|complex.json|time.end=0.02
cylinder_entry|cylinder_entry.json|time.end=0.01 spacing=0.011
cylinder_flow|cylinder_flow.json|time.end=0.01 spacing=0.02
dam_break|dam_break.json|time.end=0.01 spacing=0.02
dam_break_3d|dam_break_3d.json|time.end=0.01 spacing=0.03
hydrostatic|hydrostatic.json|time.end=0.02
kurose_bodies|kurose_bodies.json|time.end=0.04
kurose_bodies_3d|kurose_bodies_3d.json|time.end=0.02 spacing=0.04
many_contacts|many_contacts.json|time.end=0.04
mesh_bodies|mesh_bodies.json|time.end=0.02
rigid_pile|rigid_pile.json|time.end=0.05
seesaw|seesaw.json|time.end=0.02
wedge_entry|wedge_entry.json|time.end=0.006
wedge_entry_3d|wedge_entry_3d.json|time.end=0.003 spacing=0.04
EOF
}

same=0
differ=0
runs > "$out/runs.txt"
while IFS='|' read -r name scene sets; do
  args=""
  for s in $sets; do args="$args --set $s"; done
  for threads in 1 2; do
    for which in old new; do
      eval "bin=\$$which"
      dir=$out/$which/$name.t$threads
      rm -rf "$dir"
      # shellcheck disable=SC2086
      "$bin" run "$scenes/$scene" $args --set time.output_interval=0.002 --threads "$threads" \
        --quiet --out "$dir" >"$out/$which.$name.t$threads.log" 2>&1 || echo "exit $? ($which)" >>"$dir.rc"
    done
    if cmp -s "$out/old/$name.t$threads/series.csv" "$out/new/$name.t$threads/series.csv" &&
       [ -s "$out/new/$name.t$threads/series.csv" ]; then
      echo "same bits  $name ($threads threads)"
      same=$((same + 1))
    else
      echo "DIFFERENT  $name ($threads threads): $out/{old,new}/$name.t$threads"
      differ=$((differ + 1))
    fi
  done
done < "$out/runs.txt"
echo "$same runs with the same bits, $differ different (outputs in $out)"
[ "$differ" -eq 0 ]
