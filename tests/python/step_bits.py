"""step_bits.py — Simulation.step gives the bits of `vbc run`: the frame after 5 steps is
byte-identical to vbc run's, the iterations of the five solves add up to its summary.json, and
the kinetic energy from the NumPy views matches series.csv; method presets replace the method."""
import json
import os

import numpy as np

import vbc
from common import HYDROSTATIC, SMALL, TMP, done, expect, raises, vbc_run

sets = dict(SMALL, **{"time.end": 0.005, "output.frames": True, "output.frame_interval": 0.005})
run_dir = os.path.join(TMP, "cli")
vbc_run(HYDROSTATIC, run_dir, sets)

sim = vbc.Simulation(vbc.Scene.load(HYDROSTATIC, set=sets))
api_dir = os.path.join(TMP, "api")
sim.write_frame(api_dir)
iterations = 0
for k in range(5):
    sim.step(1)
    report = sim.report
    expect(report["step"] == k + 1 and len(report["stages"]) == 1, report)
    stage = report["stages"][0]
    expect(stage["solver"] == "pgs" and stage["solved"] and stage["iterations"] > 0, stage)
    expect(stage["stop_reason"] == "tolerance" and stage["relative_residual"] <= 1e-3, stage)
    iterations += stage["iterations"]
sim.write_frame(api_dir)
sim.write_summary(api_dir)
expect(sim.step_index == 5 and abs(sim.time - 0.005) < 1e-15, (sim.step_index, sim.time))

for frame in ("frame_000000.vtu", "frame_000001.vtu"):
    a = open(os.path.join(run_dir, "frames", frame), "rb").read()
    b = open(os.path.join(api_dir, "frames", frame), "rb").read()
    expect(a == b, f"{frame} differs between vbc run and Simulation.step")

cli = json.load(open(os.path.join(run_dir, "summary.json")))
api = json.load(open(os.path.join(api_dir, "summary.json")))
expect(api["steps"] == 5 and api["status"] == "ok", api["steps"])
expect(cli["solver"]["iterations_total"] == iterations == api["solver"]["iterations_total"],
       (cli["solver"]["iterations_total"], iterations))

# kinetic energy sum m |u|^2 / 2 over the fluid (series.csv, %.9g)
series = vbc.results.load(run_dir).series
fluid = sim.kind == vbc.FLUID
mass = 1000.0 * 0.05 ** 2
ke = 0.5 * mass * np.sum(sim.velocities[fluid] ** 2)
expect(abs(ke - series["kinetic_energy"][-1]) <= 1e-8 * abs(ke), (ke, series["kinetic_energy"][-1]))
expect(sim.fluid_count == int(fluid.sum()) == 144 and sim.particle_count == 282, sim.fluid_count)
expect(sim.positions.shape == (282, 2) and sim.positions.base is not None, sim.positions.shape)
expect(not sim.positions.flags.writeable and sim.velocities.flags.writeable, "flags")
expect(sim.pressure.shape == (282,) and np.all(sim.number_density[fluid] > 0), "scalars")

# a method preset: a dict, a file, a name without a file
jacobi = {"coupler": "strong", "fluid": {"constraint": "mps", "solver": "jacobi", "omega": 0.2,
                                         "max_iterations": 50}}
s2 = vbc.Simulation(vbc.Scene.load(HYDROSTATIC, set=SMALL), method=jacobi)
s2.step(2)
expect(s2.report["stages"][0]["solver"] == "jacobi", s2.report)
expect(s2.report["stages"][0]["iterations"] <= 50, s2.report)
expect(s2.scene.sets == ["spacing=0.05", "time.end=0.01"], s2.scene.sets)
expect(s2.particle_count == 282, "the scene's own assignments are kept")
preset = os.path.join(TMP, "jacobi.json")
json.dump({"description": "MPS rows under relaxed Jacobi, for the test",
           "citation": "none: a test's own preset", "method": jacobi}, open(preset, "w"))
s3 = vbc.Simulation(vbc.Scene.load(HYDROSTATIC, set=SMALL), method=preset, set={"time.end": 0.02})
s3.run()
expect(s3.step_index == 20 and s3.report["stages"][0]["solver"] == "jacobi", s3.step_index)
raises(vbc.BadInput, lambda: vbc.Simulation(vbc.Scene.load(HYDROSTATIC), method="no_such_preset"),
       "no_such_preset: no such method preset", code=2)

# the registry as data, as `vbc list` prints it
modules = vbc.modules()
pgs = [m for m in modules["solvers"] if m["name"] == "pgs"][0]
omega = [p for p in pgs["params"] if p["key"] == "omega"][0]
expect(omega["default"] == 1 and omega["max"] == 2 and omega["type"] == "number", omega)
strong = [c for c in modules["couplers"] if c["name"] == "strong"][0]
expect(strong["stages"][0]["primary"] and "fluid" in strong["stages"][0]["blocks"], strong)
expect({"blocks", "solvers", "couplers", "benchmarks", "presets"} <= set(modules), modules.keys())

# run(until) stops at the first step at or after it
s4 = vbc.Simulation(vbc.Scene.load(HYDROSTATIC, set=SMALL))
s4.run(until=0.0035)
expect(s4.step_index == 4, s4.step_index)
done()
