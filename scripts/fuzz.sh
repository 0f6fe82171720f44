#!/bin/sh
# fuzz.sh — build the libFuzzer harnesses (fuzz/, clang with ASan + UBSan) and run each of them.
#
#   scripts/fuzz.sh [SECONDS] [HARNESS...]   fuzz each harness (default all) for SECONDS
#                                            (default 600) in build-fuzz/, its generated corpus in
#                                            build-fuzz/corpus/NAME (not committed), crashes in
#                                            build-fuzz/crashes/NAME/
#   scripts/fuzz.sh --make-seeds             write fuzz/corpus/state and the generated .lcp seed
#                                            again with build/vbc (after a format change)
#
# The seed corpora (fuzz/corpus/NAME, plus experiments/scenes and experiments/sweeps) are run once
# by `make test` through fuzz_NAME_seeds (fuzz/driver.c, no clang needed). Every crash found
# becomes a regression input in fuzz/corpus/NAME and, where it shows a behaviour, a test in tests/.
set -eu
cd "$(dirname "$0")/.."
ROOT=$(pwd)
BUILD=${VBC_FUZZ_BUILD:-build-fuzz}

if [ "${1:-}" = "--make-seeds" ]; then
  vbc=build/vbc
  tmp=$(mktemp -d)
  scene=experiments/scenes/hydrostatic.json
  sets="--set spacing=0.1 --set time.end=0.005 --set time.output_interval=0.001"
  sets="$sets --set method.fluid.max_iterations=50" # as fuzz/state.c
  # a checkpoint of step 2: the run fails its third step's write under a 20 kB file size limit
  # (40 blocks of 512 bytes: POSIX sh) and keeps the checkpoint (exit 4), since a completed run
  # removes it
  (ulimit -f 40; $vbc run $scene $sets --checkpoint-every 1 --out "$tmp/ck" --quiet 2>/dev/null) || true
  cp "$tmp/ck/checkpoint.vbc" fuzz/corpus/state/checkpoint_step2.vbc
  $vbc run $scene $sets --dump-state 3 fuzz/corpus/state/state_step3.vbc --out "$tmp/dump" --quiet
  $vbc run experiments/scenes/kurose_bodies.json --set spacing=0.1 --set time.end=0.01 \
    --dump-lcp 2 "$tmp/lcp" --out "$tmp/k" --quiet
  cp "$tmp/lcp/step000002_solve1_contact.lcp" fuzz/corpus/lcp/contacts.lcp
  rm -rf "$tmp"
  ls -l fuzz/corpus/state fuzz/corpus/lcp/contacts.lcp
  exit 0
fi

SECONDS_EACH=${1:-600}
[ $# -gt 0 ] && shift
HARNESSES=${*:-scene set sweep_spec state lcp}
# seconds one input may take before libFuzzer calls it a hang; a machine busy with other jobs
# needs more (a state input runs up to two simulations: 1.7 s alone, 21 s at a load of 16)
TIMEOUT=${VBC_FUZZ_TIMEOUT:-20}
command -v clang >/dev/null || { echo "fuzz.sh: clang is needed (apt-get install clang)" >&2; exit 4; }

CC=clang cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g" \
  -DVBC_SANITIZE=ON -DVBC_FUZZ=ON -DVBC_TESTS=OFF >/dev/null
targets=""
for h in $HARNESSES; do targets="$targets fuzz_$h"; done
cmake --build "$BUILD" -j "${JOBS:-2}" --target $targets

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1
export LSAN_OPTIONS=suppressions=$ROOT/tests/lsan.supp
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
[ -d /dev/shm ] && export TMPDIR=${TMPDIR:-/dev/shm} # the harnesses' scratch files
status=0
for h in $HARNESSES; do
  case $h in
    scene) seeds="experiments/scenes fuzz/corpus/scene" ;;
    sweep_spec) seeds="experiments/sweeps fuzz/corpus/sweep_spec" ;;
    *) seeds="fuzz/corpus/$h" ;;
  esac
  mkdir -p "$BUILD/corpus/$h" "$BUILD/crashes/$h"
  log="$BUILD/fuzz_$h.log"
  echo "== fuzz_$h for $SECONDS_EACH s (log: $log)"
  if "$BUILD/fuzz/fuzz_$h" -max_total_time="$SECONDS_EACH" -timeout="$TIMEOUT" -rss_limit_mb=2048 \
      -malloc_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$BUILD/crashes/$h/" \
      "$BUILD/corpus/$h" $seeds >"$log" 2>&1; then
    :
  else
    status=1
    echo "fuzz_$h: FOUND A PROBLEM, see $log and $BUILD/crashes/$h/" >&2
  fi
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|cov:" "$log" | tail -3
done
exit $status
