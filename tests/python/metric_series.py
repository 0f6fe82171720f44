"""metric_series.py — metrics defined in Python become series.csv columns of `vbc run` (every
other column byte-identical to a run without them); results.load and results.table read runs
and a sweep's table as structured arrays."""
import json
import os
import subprocess

import numpy as np

import vbc
from common import HYDROSTATIC, SMALL, TMP, VBC, done, expect, vbc_run

sets = dict(SMALL, **{"time.output_interval": 0.002})
plain = os.path.join(TMP, "plain")
vbc_run(HYDROSTATIC, plain, sets)

seen = []


def mean_fluid_y(state):
    fluid = state.kind == vbc.FLUID
    seen.append((state.step_index, state.time))
    return float(np.mean(state.positions[fluid, 1]))


def max_pressure(state):
    return float(state.pressure.max())


observed = os.path.join(TMP, "observed")
res = vbc.run(vbc.Scene.load(HYDROSTATIC, set=sets), observed,
              metrics={"mean_fluid_y": mean_fluid_y, "max_pressure": max_pressure}, every=2)
expect([s for s, _ in seen] == [0, 2, 4, 6, 8, 10], seen)

a = open(os.path.join(plain, "series.csv")).read().splitlines()
b = open(os.path.join(observed, "series.csv")).read().splitlines()
expect(len(a) == len(b) == 7, (len(a), len(b)))
expect(b[0] == a[0] + ",mean_fluid_y,max_pressure", b[0])
expect(all(x == y.rsplit(",", 2)[0] for x, y in zip(a, b)), "the other columns changed")

series = res.series
expect(series.dtype.names[-2:] == ("mean_fluid_y", "max_pressure"), series.dtype.names)
expect(list(series["step"]) == [0, 2, 4, 6, 8, 10], series["step"])
# t = 0: the initial lattice's fluid, rows at (k + 1/2) l up to 0.6 m: mean 0.3 m
expect(abs(series["mean_fluid_y"][0] - 0.3) < 1e-12, series["mean_fluid_y"][0])
expect(series["max_pressure"][0] == 0.0 and series["max_pressure"][-1] > 1000.0, series)
# the rows hold the values of their own step: step 10's mean y from a stepped simulation
sim = vbc.Simulation(vbc.Scene.load(HYDROSTATIC, set=sets))
sim.step(10)
expect(abs(series["mean_fluid_y"][-1] - np.mean(sim.positions[sim.kind == 0, 1])) < 1e-8,
       series["mean_fluid_y"][-1])

expect(res.summary["status"] == "ok" and res.summary["steps"] == 10, res.summary["status"])
conv = res.convergence
expect(conv.dtype["block"].kind == "U" and conv.dtype["residual"].kind == "f", conv.dtype)
expect(1.0 in set(conv["step"]) and len(conv) > 10, set(conv["step"]))
expect(np.all(np.isnan(conv["reference_error"])), "empty fields are NaN")
if res.series_frame is not None:  # pandas present
    expect(list(res.series_frame["step"]) == [0, 2, 4, 6, 8, 10], "pandas")

# a sweep's table
spec = {"name": "py_table", "scene": HYDROSTATIC,
        "set": {"spacing": 0.05, "time.end": 0.003},
        "vary": {"method.fluid.max_iterations": [20, 40]},
        "metrics": ["iterations_total", "steps"]}
spec_path = os.path.join(TMP, "spec.json")
json.dump(spec, open(spec_path, "w"))
sweep_dir = os.path.join(TMP, "sweep dir")
subprocess.run([VBC, "sweep", spec_path, "--out", sweep_dir, "-j", "1"], check=True,
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
table = vbc.results.table(sweep_dir)
expect(len(table) == 2 and list(table["steps"]) == [3.0, 3.0], table)
expect(list(table["method.fluid.max_iterations"]) == [20.0, 40.0], table.dtype.names)
expect(list(table["state"]) == ["done", "done"] and table["iterations_total"][0] <= 60, table)
done()
