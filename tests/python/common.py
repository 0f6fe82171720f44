"""common.py — what the Python test scripts share: their arguments (VBC binary, source tree,
a scratch directory), a small scene, `vbc run`, and checks that count themselves. Run by
tests/test_python.c with VBC_LIBRARY pointing at the build tree's libvbc.so and PYTHONPATH at
python/; each script prints "ok N" (N checks) as its last line."""
import json
import os
import subprocess
import sys

VBC, SRC, TMP = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(TMP, exist_ok=True)
HYDROSTATIC = os.path.join(SRC, "experiments", "scenes", "hydrostatic.json")
SMALL = {"spacing": 0.05, "time.end": 0.01}  # 282 particles, 144 of them fluid
checks = 0


def expect(condition, what):
    global checks
    if not condition:
        raise AssertionError(what)
    checks += 1


def vbc_run(scene, out, sets):
    args = [VBC, "run", scene, "--out", out, "--quiet"]
    for key, value in sets.items():
        args += ["--set", f"{key}={json.dumps(value)}"]
    subprocess.run(args, check=True)


def raises(exc_type, fn, *words, code=None):
    """fn() raises exc_type whose message has every word (and exit code `code`)."""
    try:
        fn()
    except exc_type as e:
        msg = str(e)
        for w in words:
            expect(w in msg, f"{w!r} not in {msg!r}")
        if code is not None:
            expect(e.code == code, f"code {e.code} != {code} ({msg})")
        return e
    raise AssertionError(f"{fn} did not raise {exc_type.__name__}")


def done():
    print(f"ok {checks}")
