"""docs_example.py — runs the worked example of docs/python.md as it stands (the code block
after its `<!-- example: ... -->` line) in a scratch directory, and checks what it wrote: the
pressure against depth as a PNG (with Matplotlib) or a CSV whose slope is rho g."""
import contextlib
import io
import os
import re

import numpy as np

from common import SRC, TMP, done, expect

text = open(os.path.join(SRC, "docs", "python.md"), encoding="utf-8").read()
match = re.search(r"<!-- example: tests/python/docs_example.py runs the next block -->\n"
                  r"```python\n(.*?)```", text, re.S)
expect(match is not None, "the example block of docs/python.md")
os.chdir(TMP)
if not os.path.exists("experiments"):
    os.symlink(os.path.join(SRC, "experiments"), "experiments")
out = io.StringIO()
with contextlib.redirect_stdout(out):
    exec(compile(match.group(1), "docs/python.md", "exec"), {})
line = out.getvalue().strip()
print(line)
m = re.match(r"100 steps, mean ([0-9.]+) PGS iterations, dp/dd = (-?[0-9]+) Pa/m", line)
expect(m is not None, line)
expect(0 < float(m.group(1)) < 1000, line)
# the hydrostatic gradient rho g within 5 % (the smoothed pressure of 100 steps at l = 0.04)
expect(abs(float(m.group(2)) - 10000.0) < 500.0, line)
if os.path.exists("hydrostatic_pressure.png"):
    expect(os.path.getsize("hydrostatic_pressure.png") > 1000, "the plot")
else:
    data = np.loadtxt("hydrostatic_pressure.csv", delimiter=",", skiprows=1)
    expect(data.shape == (225, 2), data.shape)  # (0.6 / 0.04)^2 fluid particles
    expect(abs(np.polyfit(data[:, 0], data[:, 1], 1)[0] - 10000.0) < 500.0, "CSV slope")
done()
