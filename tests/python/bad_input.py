"""bad_input.py — every kind of bad input from Python is an exception carrying vbc's one-line
message and exit code, and none crashes the interpreter: wrong types, unknown keys, missing
files, a closed simulation (whose earlier views stay readable), a failed simulation, a missing,
unfinished or closed results directory, a metric that raises."""
import gc
import os

import numpy as np

import vbc
from common import HYDROSTATIC, SMALL, TMP, done, expect, raises

# wrong types
raises(TypeError, lambda: vbc.Scene.load(42), "path", "int", code=2)
raises(vbc.BadInput, lambda: vbc.Scene.load(HYDROSTATIC, set=["time.end=1"]), "dict", "list")
raises(vbc.BadInput, lambda: vbc.Scene.load(HYDROSTATIC, set={"time.end": object()}),
       "time.end", "JSON value")
raises(vbc.BadInput, lambda: vbc.Scene.load(HYDROSTATIC, set={"time.end": float("nan")}),
       "time.end")
raises(vbc.BadInput, lambda: vbc.Scene(), "Scene.load")
raises(vbc.BadInput, lambda: vbc.Simulation(HYDROSTATIC), "expected a vbc.Scene", "str")
scene = vbc.Scene.load(HYDROSTATIC, set=SMALL)
raises(vbc.BadInput, lambda: vbc.Simulation(scene, threads=0), "threads")
raises(vbc.BadInput, lambda: vbc.Simulation(scene, method=3), "method", "int")
raises(vbc.BadInput, lambda: vbc.Simulation(scene, method="{not json"), "method",
       "expected a JSON object")
# values and keys vbc's validation refuses: its own messages
raises(vbc.BadInput, lambda: vbc.Scene.load(HYDROSTATIC, set={"time.end": "soon"}),
       "hydrostatic.json: time.end: expected", code=2)
raises(vbc.BadInput, lambda: vbc.Scene.load(HYDROSTATIC, set={"fluid.colour": 1}),
       "hydrostatic.json", "colour", code=2)
raises(vbc.BadInput, lambda: vbc.Simulation(scene, set={"method.fluid.solver": "nope"}),
       "method.fluid.solver", "nope", code=2)
raises(vbc.BadInput, lambda: vbc.Scene.load(os.path.join(TMP, "missing.json")), "missing.json",
       code=2)
broken = os.path.join(TMP, "broken.json")
open(broken, "w").write('{"dim": 2,')
raises(vbc.BadInput, lambda: vbc.Scene.load(broken), "broken.json", code=2)

sim = vbc.Simulation(scene)
raises(vbc.BadInput, lambda: sim.step(-1), "n", "-1")
raises(vbc.BadInput, lambda: sim.step(1.5), "n", "1.5")
raises(vbc.BadInput, lambda: sim.run(until="later"), "until")
raises(ValueError, lambda: sim.positions.__setitem__((0, 0), 1.0), "read-only")
sim.step(2)
pos, vel, kind = sim.positions, sim.velocities, sim.kind
kept = pos.copy()

# a closed simulation raises; views taken before stay valid (they keep the C memory alive)
sim.close()
for use in (lambda: sim.step(1), lambda: sim.positions, lambda: sim.time, lambda: sim.report,
            lambda: sim.write_frame(TMP)):
    raises(vbc.BadInput, use, "closed", code=2)
del sim
gc.collect()
junk = [np.ones(10000) for _ in range(100)]  # reuse freed memory, if it had been freed
expect(np.array_equal(pos, kept) and kind.shape == (282,), "views after close")
vel[:] = 0.0  # writable, still the live buffer of the kept simulation
expect(float(np.abs(vel).max()) == 0.0, "write through a kept view")
del pos, vel, kind, junk
gc.collect()

# a simulation that fails: SimulationFailed with step and time, then every step repeats it
bad = vbc.Simulation(vbc.Scene.load(HYDROSTATIC, set=dict(SMALL, gravity=[0, -1e12])))
e = raises(vbc.SimulationFailed, lambda: bad.step(3), "step 1 (t = 0.001 s)", code=3)
expect(bad.failed and bad.step_index == 1, (bad.failed, bad.step_index))
raises(vbc.SimulationFailed, lambda: bad.step(1), e.message, code=3)
bad.write_summary(os.path.join(TMP, "failed"))
summary = vbc.results.load(os.path.join(TMP, "failed")).summary
expect(summary["status"] == "failed" and summary["error"] == e.message, summary["status"])
raises(vbc.SystemFailure, lambda: bad.write_summary("/proc/vbc-cannot-write-here"), code=4)

# results: missing, not a directory, unfinished, closed
raises(vbc.BadInput, lambda: vbc.results.load(os.path.join(TMP, "nothing")), "no such directory")
raises(vbc.BadInput, lambda: vbc.results.load(broken), "a file")
raises(vbc.BadInput, lambda: vbc.results.load(3), "int")
unfinished = os.path.join(TMP, "unfinished")
os.makedirs(unfinished, exist_ok=True)
open(os.path.join(unfinished, "series.csv.part"), "w").write("time,step\n")
raises(vbc.BadInput, lambda: vbc.results.load(unfinished), "unfinished")
raises(vbc.BadInput, lambda: vbc.results.table(unfinished), "table.csv")
res = vbc.results.load(os.path.join(TMP, "failed"))
res.close()
raises(vbc.BadInput, lambda: res.summary, "closed")
raises(vbc.BadInput, lambda: res.series, "closed")

# a metric that raises ends the run with its message; the Python exception is the cause
def broken_metric(state):
    if state.step_index >= 2:
        raise ZeroDivisionError("no depth")
    return 1.0


e = raises(vbc.BadInput, lambda: vbc.run(scene, os.path.join(TMP, "metric"),
                                         metrics={"depth": broken_metric}),
           "metric 'depth'", "ZeroDivisionError", "no depth", code=2)
expect(isinstance(e.__cause__, ZeroDivisionError), e.__cause__)
states = []
vbc.run(scene, os.path.join(TMP, "metric"), metrics={"k": lambda s: states.append(s) or 0.0},
        every=5)
raises(vbc.BadInput, lambda: states[0].positions, "after it returned")
raises(vbc.BadInput, lambda: vbc.run(scene, os.path.join(TMP, "m"), metrics={"a,b": len}), "a,b")
raises(vbc.BadInput, lambda: vbc.run(scene, os.path.join(TMP, "m"), metrics={"a": 1}), "callable")
raises(vbc.BadInput, lambda: vbc.run(scene, os.path.join(TMP, "m"), every=0), "every")
done()
