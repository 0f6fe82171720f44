#!/bin/sh
# Install the Debian packages vbc needs, when some are missing (the README's commands call this).
set -eu
# python3-vtk9: VTK's own reader for the frame test (tests/vtk_frames.py, run by /usr/bin/python3)
# zlib1g-dev: compressed frames (output.compress_frames); ffmpeg: `vbc animate` makes MP4 with
# it (without it, an animated GIF); python3-numpy: the Python package's arrays (python/vbc,
# docs/python.md)
# parallel, munge, slurmctld, slurmd, slurm-client: the cluster engines `vbc sweep --emit-jobs`
# and `--emit-slurm` write for, run for real by tests/test_sweep_engines.c (GNU parallel -j 2) and
# tests/test_sweep_slurm.c (a single-node Slurm it starts in a temporary directory and stops; it
# neither uses nor needs the system services these packages set up)
# chromium: tests/test_atlas_browser.c opens the atlas page in a headless browser
PACKAGES="gcc g++ make cmake pkg-config libgsl-dev libcjson-dev libcriterion-dev gnuplot-nox
  python3 python3-vtk9 python3-numpy zlib1g-dev ffmpeg parallel munge slurmctld slurmd slurm-client
  chromium"
missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing"
if [ "$(id -u)" = 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1; then
  SUDO="sudo"
else
  echo "missing packages:$missing (run as root, or install them)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
