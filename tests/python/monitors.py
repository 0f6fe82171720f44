"""monitors.py — Simulation.step runs vbc run's run-time monitors: a stale mean-error test (the
wedge scene switched to MPS-LCP, whose rows under the wedge are far off while the mean passes at
iteration 0) appears in Simulation.warnings and summary.json as under `vbc run`; strict=True fails
the first step that warns (SimulationFailed, exit code 3); a still tank has none."""
import json
import os

import vbc
from common import HYDROSTATIC, SMALL, SRC, TMP, done, expect, raises, vbc_run

WEDGE = os.path.join(SRC, "experiments", "scenes", "wedge_entry.json")
STALE = {"spacing": 0.02, "time.end": 0.012, "method.coupler": "strong",
         "method.fluid.constraint": "mps", "method.fluid.solver": "pgs"}

sim = vbc.Simulation(vbc.Scene.load(HYDROSTATIC, set=SMALL))
sim.step(5)
expect(sim.warnings == [], sim.warnings)

wedge = vbc.Scene.load(WEDGE, set=STALE)
sim = vbc.Simulation(wedge)
sim.step(3)
codes = [w["code"] for w in sim.warnings]
expect(codes == ["iteration_zero"], codes)
w = sim.warnings[0]
expect(w["first_step"] == 1 and w["count"] == 3 and w["worst"] > 10, w)
out = os.path.join(TMP, "api")
sim.write_summary(out)
summary = json.load(open(os.path.join(out, "summary.json")))
expect(summary["warnings"] == sim.warnings, summary["warnings"])

run_dir = os.path.join(TMP, "cli")
vbc_run(WEDGE, run_dir, dict(STALE, **{"time.end": 0.0018}))  # 3 steps of 0.6 ms
cli = json.load(open(os.path.join(run_dir, "summary.json")))
expect(cli["warnings"] == sim.warnings, (cli["warnings"], sim.warnings))

strict = vbc.Simulation(wedge, strict=True)
e = raises(vbc.SimulationFailed, lambda: strict.step(1), "step 1 ",
           "--strict: warning iteration_zero", code=3)
expect(strict.failed, "a strict step that warned leaves the simulation failed")
raises(vbc.BadInput, lambda: vbc.Simulation(wedge, strict="yes"), "strict", "True or False",
       code=2)
done()
