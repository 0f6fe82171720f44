#!/bin/sh
# bench/peers/run.sh — vbc against its peers on the same scenes (bench/peers/README.md): the
# 3D dam break of SPlisHSPlasH's DamBreakModel (with an SPlisHSPlasH binary given by path) and
# PySPH's dam_break_2d --scheme iisph (where `import pysph` works). Each code runs RUNS times per
# thread count, alternating with its peer so that both see the same machine load; the table gives
# medians of particle-steps/s (fluid particles x steps / wall seconds of the time loop),
# iterations per step and the ratio vbc / peer.
#
#   bench/peers/run.sh [--vbc BUILD/vbc] [--splishsplash PATH/SPHSimulator] [--threads "1 2"]
#                      [--sph-methods "iisph dfsph"] [--scenes "3d 2d"] [--runs 3] [--end SECONDS]
#                      [--out DIR] [--set KEY=VALUE]...
#
# --sph-methods: SPlisHSPlasH's pressure solvers to run (default iisph, the scene's match; dfsph
# is its divergence-free SPH at the same density tolerance and 0.1 % divergence error). With
# dfsph, vbc's DFSPH runs the 3D scene too (rows vbc_dfsph: the dfsph coupler, block and solver
# with SPlisHSPlasH's error definition, the scene's 0.05 %, at least 2 iterations, warm start
# 0.5, the divergence solve's default 0.1 %), and the table pairs it with the peer's DFSPH.
# --scenes: which of the two to run (default both; e.g. "2d" with --set fluid.sph_support_over_l=3,
# where the 3D scene's relaxed Jacobi diverges).
# --end shortens both codes' runs alike (the scenes run 1 s); --set goes to vbc only (e.g.
# fluid.sph_support_over_l=3 for the 2D matched neighbourhood). Not a test: nothing asserts.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
vbc="$root/build/vbc"
sph=""
sph_methods="iisph"
scenes="3d 2d"
threads="1 2"
runs=3
end=""
out="$root/results/bench_peers"
sets=""
py=/usr/bin/python3
while [ $# -gt 0 ]; do
  case "$1" in
    --vbc) vbc=$2; shift 2 ;;
    --splishsplash) sph=$2; shift 2 ;;
    --sph-methods) sph_methods=$2; shift 2 ;;
    --scenes) scenes=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --end) end=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --set) sets="$sets --set $2"; shift 2 ;;
    *) echo "run.sh: unknown argument $1 (see the comment at the top)" >&2; exit 2 ;;
  esac
done
run3d=0 run2d=0
for c in $scenes; do
  case "$c" in 3d) run3d=1 ;; 2d) run2d=1 ;; *) echo "run.sh: --scenes: expected 3d and/or 2d, got \"$c\"" >&2; exit 2 ;; esac
done
for m in $sph_methods; do
  case "$m" in iisph|dfsph) ;; *) echo "run.sh: --sph-methods: expected iisph and/or dfsph, got \"$m\"" >&2; exit 2 ;; esac
done
[ -x "$vbc" ] || { echo "run.sh: no vbc binary at $vbc (build first, or --vbc PATH)" >&2; exit 2; }
mkdir -p "$out"
rows="$out/rows.csv"
echo "scene,code,threads,run,particle_steps_per_second,iterations_per_step,density_error,kinetic_05" > "$rows"

# vbc: particle_steps_per_second and the primary stage's mean iterations from summary.json (for
# DFSPH the density solve's, as SPlisHSPlasH prints them). A fourth argument "dfsph" runs vbc's
# DFSPH at the peer's settings (rows vbc_dfsph).
vbc_dfsph_sets="--set method.coupler=dfsph --set method.fluid.constraint=dfsph \
  --set method.fluid.solver=dfsph_jacobi --set method.fluid.error_measure=compression"
run_vbc() { # scene threads run [dfsph]
  code=vbc
  m=""
  if [ "${4:-}" = dfsph ]; then code=vbc_dfsph; m=$vbc_dfsph_sets; fi
  d="$out/${code}_$1_t$2_r$3"
  e=""
  [ -n "$end" ] && e="--set time.end=$end"
  # shellcheck disable=SC2086
  # output every 0.1 s (25 steps; the scene's 0.04 s has no row at 0.5 s) for the kinetic energy at 0.5 s
  "$vbc" run "$root/experiments/scenes/$1.json" --threads "$2" --quiet --out "$d" $e $m \
    --set time.output_interval=0.1 $sets
  "$py" - "$d/summary.json" "$1" "$2" "$3" "$code" "$d/series.csv" >> "$rows" <<'PY'
import csv, json, sys
s = json.load(open(sys.argv[1]))
its = s["solver"]["iterations_mean"]  # the primary stage's: the fluid (density) solve
# the density solve's error at its stop, averaged over the steps (its error_measure: for
# vbc_dfsph SPlisHSPlasH's DFSPH definition, for vbc the scene's positive_pressure)
err = s["solver"].get("final_mean_error_mean", "")
# the fluid's kinetic energy per unit mass at 0.5 s, (1/N) sum |v|^2 / 2, in J/kg
ke = ""
if sys.argv[2] == "bench_splishsplash_dambreak_3d":
    for row in csv.DictReader(open(sys.argv[6])):
        if abs(float(row["time"]) - 0.5) < 1e-9:
            ke = f"{float(row['kinetic_energy']) / (s['particles']['fluid'] * 1000 * 0.05**3):.5f}"
print(f"{sys.argv[2]},{sys.argv[5]},{sys.argv[3]},{sys.argv[4]},{s['particle_steps_per_second']:.0f},{its:.3f},{err},{ke}")
PY
}

# PySPH's example, its time from the info file's cpu_time (the run without the set-up and the
# compilation of its kernels), its steps from the debug log; --iisph-debug prints one line per
# convergence check, which its iterated group makes after every iteration but the first
# (min_iterations 2), so iterations = lines + steps.
run_pysph() { # scene threads run
  d="$out/pysph_t$2_r$3"
  rm -rf "$d"
  omp="--no-openmp"
  [ "$2" -gt 1 ] && omp="--openmp"
  OMP_NUM_THREADS=$2 "$py" -m pysph.examples.dam_break_2d --scheme iisph --iisph-debug -v debug \
    --tf "${end:-1.0}" -d "$d" --disable-output $omp > "$d.stdout" 2>&1
  "$py" - "$d" "$1" "$2" "$3" >> "$rows" <<'PY'
import json, re, sys
d = sys.argv[1]
info = json.load(open(f"{d}/dam_break_2d.info"))
steps = max(int(m) for m in re.findall(r"Iteration=(\d+)", open(f"{d}/dam_break_2d.log").read()))
text = open(d + ".stdout").read()
its = len(re.findall(r"^(?:Not converged|Converged):", text, re.M))
print(f"{sys.argv[2]},pysph,{sys.argv[3]},{sys.argv[4]},{2278 * steps / info['cpu_time']:.0f},{(its + steps) / steps:.3f},,")
PY
}

# SPlisHSPlasH: DamBreakModel with IISPH (or DFSPH) at fixed 0.004 s steps
# (bench/peers/README.md); the scene file is written next to the binary's data folder (its
# UnitBox.obj); the time is the sum of its steps as it reports them (its time loop, as vbc's
# particle_steps_per_second). Rows name the code splishsplash (IISPH) or splishsplash_dfsph.
run_splishsplash() { # scene threads run method
  code=splishsplash
  [ "$4" = iisph ] || code="splishsplash_$4"
  d="$out/${code}_t$2_r$3"
  mkdir -p "$d"
  data=$(cd "$(dirname "$sph")/../data" 2>/dev/null && pwd) || data=""
  [ -n "$data" ] || { echo "run.sh: no data/ folder next to $sph" >&2; return 0; }
  "$py" - "$d/scene.json" "$data/models/UnitBox.obj" "${end:-1.0}" "$4" <<'PY'
import json, sys
# the solver's and the viscosity's parameters both flat (older releases) and in their method's
# namespace (releases since the one that added Liu et al. 2021's vorticity refinement);
# simulationMethod 1 is IISPH, 4 DFSPH (maxErrorV: the divergence solve's tolerance in %)
if sys.argv[4] == "dfsph":
    method, name = 4, "DFSPH"
    solver = {"maxIterations": 100, "maxError": 0.05, "maxIterationsV": 100, "maxErrorV": 0.1,
              "enableDivergenceSolver": True}
else:
    method, name = 1, "IISPH"
    solver = {"maxIterations": 100, "minIterations": 2, "maxError": 0.05}
scene = {
  "Configuration": dict({"particleRadius": 0.025, "density0": 1000, "simulationMethod": method,
                    "gravitation": [0, -9.81, 0], "timeStepSize": 0.004, "cflMethod": 0,
                    "boundaryHandlingMethod": 2, "stopAt": float(sys.argv[3]),
                    # velocities at 0, 0.5 and 1 s (frames 1, 2, 3) for the kinetic energy at
                    # 0.5 s; the export is outside the steps' timing that gives the rate
                    "enableVTKExport": True, "dataExportFPS": 2, "particleAttributes": "velocity",
                    "enablePartioExport": False, name: solver},
                    **solver),
  "Materials": [{"id": "Fluid", "density0": 1000, "viscosity": 0.01, "viscosityMethod": 1,
                 "Standard viscosity": {"viscosity": 0.01}}],
  "RigidBodies": [{"geometryFile": sys.argv[2], "translation": [0, 1.5, 0],
                   "scale": [4, 3, 1.5], "isDynamic": False, "isWall": True,
                   "mapInvert": True, "mapThickness": 0.0, "mapResolution": [40, 30, 15]}],
  "FluidBlocks": [{"denseMode": 0, "start": [-0.5, 0.0, -0.5], "end": [0.5, 1.0, 0.5],
                   "translation": [-1.45, 0.05, 0.0], "scale": [1, 1, 1]}]}
json.dump(scene, open(sys.argv[1], "w"), indent=1)
PY
  OMP_NUM_THREADS=$2 "$sph" --no-gui --no-initial-pause --stopAt "${end:-1.0}" \
    --output-dir "$d" "$d/scene.json" > "$d.stdout" 2>&1
  "$py" - "$d.stdout" "$1" "$2" "$3" "$code" "$d/vtk/ParticleData_Fluid_2.vtk" >> "$rows" <<'PY'
import os, re, struct, sys
# the simulator's own timing of its steps (its time loop, as vbc's rate), not the process: the
# set-up builds the tank's volume map, 13 s on the test machine, every run (its cache is per run)
log = open(sys.argv[1], errors="replace").read()
step_ms = float(re.findall(r"Time sum: SimStep: ([0-9.eE+-]+) ms", log)[-1])
total = float(re.findall(r"Total number: Time step size: ([0-9.eE+-]+)", log)[-1])
steps = round(total / 0.004)
# the density solve's mean iterations where the method prints them (DFSPH does; this IISPH not)
its = re.findall(r"Average number: \w+ - iterations: ([0-9.eE+-]+)", log)
# the kinetic energy per unit mass at its frame 2 (the first step ending at t >= 0.5 s), from the
# legacy VTK file: "velocity 3 N float" and N big-endian float triples; it prints no density error
ke = ""
if os.path.exists(sys.argv[6]):
    data = open(sys.argv[6], "rb").read()
    m = re.search(rb"\nvelocity 3 (\d+) (float|double)\n", data)
    if m:
        n, fmt = int(m.group(1)), ">f" if m.group(2) == b"float" else ">d"
        v = struct.unpack_from(fmt[0] + fmt[1] * (3 * n), data, m.end())
        ke = f"{sum(x * x for x in v) / (2 * n):.5f}"
print(f"{sys.argv[2]},{sys.argv[5]},{sys.argv[3]},{sys.argv[4]},{6859 * steps / (step_ms / 1e3):.0f},"
      f"{its[-1] if its else ''},,{ke}")
PY
}

have_pysph=0
"$py" -c "import pysph" 2>/dev/null && have_pysph=1
[ $have_pysph = 1 ] || echo "run.sh: PySPH not importable by $py: 2D peer skipped" >&2
[ -n "$sph" ] || echo "run.sh: no --splishsplash PATH: 3D peer skipped" >&2

for t in $threads; do
  r=1
  while [ $r -le "$runs" ]; do
    if [ $run3d = 1 ]; then
      run_vbc bench_splishsplash_dambreak_3d "$t" "$r"
      case " $sph_methods " in *" dfsph "*) run_vbc bench_splishsplash_dambreak_3d "$t" "$r" dfsph ;; esac
      if [ -n "$sph" ]; then
        for m in $sph_methods; do run_splishsplash bench_splishsplash_dambreak_3d "$t" "$r" "$m"; done
      fi
    fi
    if [ $run2d = 1 ]; then
      run_vbc bench_pysph_dam_break_2d "$t" "$r"
      [ $have_pysph = 1 ] && run_pysph bench_pysph_dam_break_2d "$t" "$r"
    fi
    r=$((r + 1))
  done
done

"$py" - "$rows" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def med(scene, code, t, key):
    v = [float(r[key]) for r in rows if r["scene"] == scene and r["code"] == code
         and r["threads"] == t and r.get(key)]
    return statistics.median(v) if v else None
print("| scene | threads | vbc particle-steps/s | vbc iterations/step | peer | peer particle-steps/s | peer iterations/step | vbc / peer |")
print("|---|---|---|---|---|---|---|---|")
accuracy = []
own = ("vbc", "vbc_dfsph")
for scene in sorted({r["scene"] for r in rows}):
  for t in sorted({r["threads"] for r in rows}):
    for code in own:
        v, vi = med(scene, code, t, "particle_steps_per_second"), med(scene, code, t, "iterations_per_step")
        if v is None: continue
        peers = sorted({r["code"] for r in rows if r["scene"] == scene and r["code"] not in own}) or ["-"]
        for p in peers:
            pv, pi = med(scene, p, t, "particle_steps_per_second"), med(scene, p, t, "iterations_per_step")
            f = lambda x, d: "-" if x is None else f"{x:.{d}f}"
            ratio = f"{v / pv:.2f}" if pv else "-"
            print(f"| {scene} | {t} | {code}: {v:.0f} | {f(vi, 2)} | {p} | {f(pv, 0)} | {f(pi, 2)} | {ratio} |")
# accuracy of every code: the density solve's mean error at its stop (vbc; SPlisHSPlasH does not
# print it: its solve stops at or below its maxError) and the kinetic energy per unit mass at 0.5 s
print()
print("| scene | threads | code | mean density error at the stop | (1/N) sum v^2/2 at 0.5 s, J/kg |")
print("|---|---|---|---|---|")
for scene in sorted({r["scene"] for r in rows}):
  for t in sorted({r["threads"] for r in rows}):
    for code in sorted({r["code"] for r in rows if r["scene"] == scene}):
        e, k = med(scene, code, t, "density_error"), med(scene, code, t, "kinetic_05")
        if e is None and k is None: continue
        print(f"| {scene} | {t} | {code} | {'-' if e is None else f'{e:.3g}'} | {'-' if k is None else f'{k:.4f}'} |")
PY
