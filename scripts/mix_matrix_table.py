#!/usr/bin/env python3
"""mix_matrix_table.py — class the runs of scripts/mix_matrix.sh (see its head comment for the
scenes and the plausible ranges): OUT/table.csv, one row per run, and OUT/classes.txt, the counts
per class overall and per scene. Usage: mix_matrix_table.py OUT"""
import csv
import json
import math
import os
import sys

out = sys.argv[1]


def series(d):
    try:
        with open(os.path.join(d, "series.csv")) as f:
            return list(csv.DictReader(f))
    except OSError:
        return []


def num(v):
    try:
        x = float(v)
        return x if math.isfinite(x) else None
    except (TypeError, ValueError):
        return None


def plausible(scene, m, rows, t_end):
    """(bool, why) for a run that finished after t_end seconds."""
    last = rows[-1] if rows else {}
    speed = num(last.get("max_speed"))
    if scene == "hydrostatic":
        h0, h = num(rows[0].get("surface_height")) if rows else None, num(last.get("surface_height"))
        p = num(m.get("pressure_error_smoothed"))
        ok = (speed is not None and speed < 0.1 and h is not None and h0 is not None
              and abs(h - h0) <= 0.02 and p is not None and p < 0.25)
        return ok, f"max_speed {speed} surface {h0}->{h} pressure_error {p}"
    if scene == "dam_break":
        front = num(m.get("front_error"))
        speeds = [num(r.get("max_speed")) for r in rows]
        highs = [num(r.get("height_over_column")) for r in rows]
        top = max((math.inf if v is None else v for v in speeds), default=math.inf)
        high = max((math.inf if v is None else v for v in highs), default=math.inf)
        ok = front is not None and front <= 0.25 and top <= 3.0 and high <= 1.05
        return ok, f"front_error {front} max_speed {top} height/column {high}"
    ratio = num(m.get("submerged_ratio"))
    if t_end >= 1.5:  # at rest: Archimedes within 0.05
        ok = ratio is not None and abs(ratio - 0.5) <= 0.05 and speed is not None and speed < 1.0
    else:  # still settling: held up, not thrown out
        ok = ratio is not None and 0.3 <= ratio <= 0.7 and speed is not None and speed < 1.0
    return ok, f"submerged_ratio {ratio} max_speed {speed}"


table = []
for name in sorted(os.listdir(out)):
    if not name.endswith(".rc"):
        continue
    case = name[:-3]
    scene, coupler, constraint, solver = case.split(".")
    fields = open(os.path.join(out, name)).read().split()
    rc, wall = int(fields[0]), float(fields[-2]) if len(fields) >= 3 else float("nan")
    seconds = float(fields[-1]) if len(fields) >= 3 else float("nan")  # user CPU seconds
    d = os.path.join(out, case)
    log = open(d + ".log", errors="replace").read().strip()
    first = log.splitlines()[0] if log else ""
    summary = None
    try:
        summary = json.load(open(os.path.join(d, "summary.json")))
    except (OSError, ValueError):
        pass
    warnings = [w["code"] for w in (summary or {}).get("warnings", [])]
    why = ""
    if rc == 124:
        cls = "hung"
    elif rc == 2:
        # refused before step 1: no step was run (no summary, no "step N" in the message)
        cls = "refused" if summary is None and " step " not in first else "refused_late"
        why = first
    elif rc == 3:
        cls = "failed"
        why = [l for l in log.splitlines() if not l.startswith("vbc: warning")][:1]
        why = why[0] if why else first
    elif rc == 0 and summary is not None:
        t_end = num(summary.get("scene", {}).get("time", {}).get("end")) or 0.0
        ok, why = plausible(scene, summary.get("metrics", {}), series(d), t_end)
        cls = ("flagged" if warnings else "plausible") if ok else (
            "flagged" if warnings else "silent_nonsense")
        if warnings and ok:
            cls = "flagged_plausible"
    else:
        cls = f"exit_{rc}"
        why = first
    try:
        validate = int(open(d + ".validate").read().split()[0])
    except (OSError, ValueError, IndexError):
        validate = None
    table.append([scene, coupler, constraint, solver, rc, cls, " ".join(warnings), why,
                  seconds, wall, validate])

with open(os.path.join(out, "table.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["scene", "coupler", "constraint", "solver", "exit", "class", "warnings", "why",
                "cpu_seconds", "wall_seconds", "validate_exit"])
    w.writerows(table)

classes = ["plausible", "flagged_plausible", "flagged", "refused", "failed", "silent_nonsense",
           "refused_late", "hung"]
classes += sorted({r[5] for r in table} - set(classes))
scenes = ["hydrostatic", "dam_break", "buoyancy"]
with open(os.path.join(out, "classes.txt"), "w") as f:
    f.write("class," + ",".join(scenes) + ",all\n")
    for c in classes:
        counts = [sum(1 for r in table if r[0] == s and r[5] == c) for s in scenes]
        f.write(f"{c},{','.join(map(str, counts))},{sum(counts)}\n")
    f.write(f"runs,{','.join(str(sum(1 for r in table if r[0] == s)) for s in scenes)},"
            f"{len(table)}\n")
    # vbc validate refuses (exit 2) exactly the cases the run refuses
    disagree = [sum(1 for r in table if r[0] == s and r[10] is not None and
                    (r[10] == 2) != (r[5] in ("refused", "refused_late"))) for s in scenes]
    f.write(f"validate_disagrees,{','.join(map(str, disagree))},{sum(disagree)}\n")
    f.write(f"cpu_seconds,,,,{sum(r[8] for r in table if r[8] == r[8]):.0f}\n")
print(open(os.path.join(out, "classes.txt")).read(), end="")
