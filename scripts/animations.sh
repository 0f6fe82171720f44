#!/bin/sh
# The animations of `make demo`: short runs of the 2D dam break and of Kurose & Takahashi's bodies
# in water, with frames, each turned into OUTDIR/NAME/animation.mp4 (animation.gif without
# ffmpeg) by `vbc animate` (docs/cli.md#watching-a-run-vbc-animate). Coarse and short so that the demo
# stays quick: about 40 s in all on two shared cores.
#
#   usage: scripts/animations.sh VBC OUTDIR
set -eu

[ $# -eq 2 ] || { echo "usage: $0 VBC OUTDIR" >&2; exit 2; }
vbc=$1
out=$2
case $vbc in /*) ;; */*) vbc=$(pwd)/$vbc ;; esac
[ -x "$vbc" ] || { echo "animations.sh: no vbc executable at '$vbc'" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.."

# name | scene | --set assignments
runs='
dam_break|experiments/scenes/dam_break.json|spacing=0.01 time.end=0.3 output.frame_interval=0.01
kurose_bodies|experiments/scenes/kurose_bodies.json|spacing=0.04 time.end=1.2 output.frame_interval=0.04
'
printf '%s\n' "$runs" | while IFS='|' read -r name scene sets; do
  [ -n "$name" ] || continue
  args=""
  for s in $sets output.frames=true; do args="$args --set $s"; done
  echo "== $name: $scene ($sets)"
  # shellcheck disable=SC2086 # $args is a list of --set KEY=VALUE pairs without spaces
  "$vbc" run "$scene" --quiet --out "$out/$name" $args
  "$vbc" animate "$out/$name"
done
