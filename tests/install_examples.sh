#!/bin/sh
# install_examples.sh BUILD_DIR SOURCE_DIR WORK_DIR — the installable library, end to end: install
# vbc into a temporary prefix, check that the public headers compile as C11 and as C++, build the
# three examples out of tree (pkg-config + make, CMake + find_package) and run them on a small
# scene, and import the installed Python package with the one PYTHONPATH line of docs/python.md.
set -eu
build=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" > "$work/install.log"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
export LD_LIBRARY_PATH="$prefix/lib"
cflags=$(pkg-config --cflags vbc)

# the public headers: C11 and C++17, pedantic, warnings as errors
printf '#include <vbc/vbc.h>\nint main(void) { return vbc_version()[0] == 0; }\n' > "$work/c11.c"
cc -std=c11 -pedantic -Wall -Wextra -Werror $cflags -c "$work/c11.c" -o "$work/c11.o"
printf '#include <vbc/vbc.h>\nint main() { vbc_registry r; vbc_error e = {}; return vbc_registry_builtin(&r, &e); }\n' > "$work/cxx.cpp"
c++ -std=c++17 -pedantic -Wall -Wextra -Werror $cflags -c "$work/cxx.cpp" -o "$work/cxx.o"

scene="$src/experiments/scenes/hydrostatic.json"
set -- spacing=0.05 time.end=0.01

cp -r "$src/examples/run_scene" "$work/run_scene"
make -s -C "$work/run_scene" > "$work/make.log"
"$work/run_scene/run_scene" "$scene" "$work/out1" "$@" > "$work/run_scene.txt"
grep -q '^vbc .*hydrostatic, coupler strong$' "$work/run_scene.txt"
grep -q '^pressure_error_raw [0-9]' "$work/run_scene.txt"

cp -r "$src/examples/custom_solver" "$work/custom_solver"
cmake -S "$work/custom_solver" -B "$work/custom_solver/build" -DCMAKE_PREFIX_PATH="$prefix" \
  > "$work/cmake.log"
cmake --build "$work/custom_solver/build" > "$work/cmake-build.log"
"$work/custom_solver/build/custom_solver" "$scene" "$work/out2" "$@" > "$work/custom.txt"
grep -q 'solvers: .*"damped_jacobi"' "$work/custom.txt"
grep -q '"solver":	"damped_jacobi"' "$work/out2/summary.json"
cp -r "$src/examples/step_scene" "$work/step_scene"
make -s -C "$work/step_scene" > "$work/make-step.log"
"$work/step_scene/step_scene" "$scene" "$work/out3" 8 "$@" > "$work/step.txt"
grep -q '^particles 282 fluid 144 bodies 0$' "$work/step.txt"
grep -q '^step 8 t 0.008 deepest_pressure [0-9]' "$work/step.txt"
grep -q '"steps":	8,' "$work/out3/summary.json"
test -f "$work/out3/frames/frame_000000.vtu"

# the installed Python package finds the installed library by itself (no VBC_LIBRARY)
env -u VBC_LIBRARY PYTHONPATH="$prefix/lib/python3/dist-packages" /usr/bin/python3 -c "
import vbc
s = vbc.Simulation(vbc.Scene.load('$scene', set={'time.end': 0.01, 'spacing': 0.05}))
s.step(5)
assert s.positions.shape == (282, 2) and s.positions.base is not None, s.positions.shape
assert vbc.__file__.startswith('$prefix/'), vbc.__file__
print('python ok')" > "$work/python.txt"
grep -q '^python ok$' "$work/python.txt"
echo "install_examples: ok"
