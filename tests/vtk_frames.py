#!/usr/bin/python3
"""vtk_frames.py - every kind of frame vbc writes, read by VTK's own XML reader.

    /usr/bin/python3 tests/vtk_frames.py VBC_BINARY SOURCE_DIR TMP_DIR

Runs four small scenes with frames (2D and 3D, fluid only and with bodies: a box in 2D, the
shipped blob mesh in 3D), then reads frames.pvd (xml.etree) and every .vtu it lists with
vtkXMLUnstructuredGridReader (python3-vtk9) and checks: the point count and the kind counts
against summary.json's particles; the array names, components and tuple counts; that every
frame time is a series.csv time, and kinetic_energy and max_speed recomputed from the frame's
velocities against that series.csv row; with bodies, the pose FieldData (body_position =
the mean of the body's particles, a unit body_orientation, and in 2D body_position.y against the
buoyancy benchmark's body_y column) and the bodies' own .vtu (part 1 of the .pvd). Fluid-only
frames carry no FieldData and the .pvd no part 1. Each scene runs again with
output.compress_frames (zlib, vtkZLibDataCompressor): the same checks hold, and every array VTK
reads from a compressed frame equals the uncompressed frame's, value for value.

Exit 0 when everything holds, 1 on the first failure, 77 (ctest SKIP_RETURN_CODE) only when
`import vtk` fails.
"""
import csv
import json
import math
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

try:
    import vtk
except ImportError as e:
    print("SKIP: cannot import vtk (%s); the Debian package python3-vtk9 provides it "
          "(scripts/install-deps.sh installs it)" % e)
    sys.exit(77)

POINT_ARRAYS = {"velocity": 3, "pressure": 1, "pressure_smoothed": 1, "number_density": 1,
                "kind": 1, "body": 1}
FIELD_ARRAYS = {"body_position": 3, "body_orientation": 4, "body_velocity": 3,
                "body_angular_velocity": 3}
BODY_ARRAYS = {"body": 1, "orientation": 4, "axis_x": 3, "axis_y": 3, "axis_z": 3,
               "velocity": 3, "angular_velocity": 3}

TANK_2D = [{"type": "fluid_box", "min": [0, 0], "max": [0.3, 0.2]},
           {"type": "tank", "min": [0, 0], "max": [0.3, 0.4]}]
TANK_3D = [{"type": "fluid_box", "min": [0, 0, 0], "max": [0.2, 0.1, 0.2]},
           {"type": "tank", "min": [0, 0, 0], "max": [0.2, 0.3, 0.2]}]


def scene(dim, bodies, source, compress):
    s = {"dim": dim, "spacing": 0.02 if dim == 2 else 0.025,
         "time": {"dt": 0.002, "end": 0.012, "output_interval": 0.004},
         "geometry": TANK_2D if dim == 2 else TANK_3D,
         "output": {"frames": True, "compress_frames": compress}}
    if bodies and dim == 2:
        s["bodies"] = [{"name": "crate", "shape": {"type": "box", "min": [0.1, 0.16],
                                                   "max": [0.2, 0.24]}, "density_ratio": 0.5}]
        s["benchmark"] = {"type": "buoyancy", "body": 0}
    elif bodies:
        mesh = os.path.join(source, "experiments", "scenes", "meshes", "blob.stl")
        s["bodies"] = [{"name": "blob", "shape": {"type": "mesh", "file": mesh, "scale": 0.04,
                                                  "translate": [0.1, 0.15, 0.1]},
                        "density_ratio": 0.5, "angular_velocity": [0.0, 2.0, 1.0]}]
    return s


class Failure(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failure(what)


def close(a, b, rel, what):
    check(abs(a - b) <= rel * max(abs(a), abs(b), 1e-300), "%s: %.17g vs %.17g" % (what, a, b))


def read_vtu(path):
    r = vtk.vtkXMLUnstructuredGridReader()
    r.SetFileName(path)
    r.Update()
    check(r.GetErrorCode() == 0, "%s: reader error %d" % (path, r.GetErrorCode()))
    return r.GetOutput()


def arrays(data, expected, tuples, where):
    names = sorted(data.GetArrayName(i) for i in range(data.GetNumberOfArrays()))
    check(names == sorted(expected), "%s: arrays %s, expected %s" % (where, names, sorted(expected)))
    out = {}
    for name, comps in expected.items():
        a = data.GetArray(name)
        check(a.GetNumberOfComponents() == comps, "%s: %s has %d components" %
              (where, name, a.GetNumberOfComponents()))
        check(a.GetNumberOfTuples() == tuples, "%s: %s has %d tuples, expected %d" %
              (where, name, a.GetNumberOfTuples(), tuples))
        out[name] = [a.GetTuple(i) for i in range(tuples)]
    return out


def check_frame(path, dim, summary, series_row, nbodies, where):
    g = read_vtu(path)
    n = summary["particles"]["total"]
    check(g.GetNumberOfPoints() == n, "%s: %d points, summary says %d" %
          (where, g.GetNumberOfPoints(), n))
    check(g.GetNumberOfCells() == n, "%s: %d cells" % (where, g.GetNumberOfCells()))
    pd = arrays(g.GetPointData(), POINT_ARRAYS, n, where)
    pts = [g.GetPoint(i) for i in range(n)]
    kinds = [int(k[0]) for k in pd["kind"]]
    for k, name in enumerate(["fluid", "rigid", "wall"]):
        check(kinds.count(k) == summary["particles"][name], "%s: %d %s particles" %
              (where, kinds.count(k), name))
    if dim == 2:
        check(all(p[2] == 0.0 for p in pts), "%s: z != 0 in 2D" % where)
    m = summary["scene"]["fluid"]["density"] * summary["scene"]["spacing"] ** dim
    fluid = [i for i in range(n) if kinds[i] == 0]
    check(all(int(pd["body"][i][0]) == -1 for i in fluid), "%s: fluid body != -1" % where)
    speeds = [math.sqrt(sum(c * c for c in pd["velocity"][i])) for i in fluid]
    close(sum(0.5 * m * s * s for s in speeds), float(series_row["kinetic_energy"]), 1e-6,
          where + ": kinetic_energy against series.csv")
    close(max(speeds), float(series_row["max_speed"]), 1e-6, where + ": max_speed")
    fd = g.GetFieldData()
    if nbodies == 0:
        check(fd is None or fd.GetNumberOfArrays() == 0, "%s: FieldData without bodies" % where)
        return None
    pose = arrays(fd, FIELD_ARRAYS, nbodies, where + " FieldData")
    for b in range(nbodies):
        mine = [pts[i] for i in range(n) if kinds[i] == 1 and int(pd["body"][i][0]) == b]
        centre = [sum(p[a] for p in mine) / len(mine) for a in range(3)]
        for a in range(3):
            check(abs(pose["body_position"][b][a] - centre[a]) < 1e-9,
                  "%s: body %d position %s, its particles' mean %s" %
                  (where, b, pose["body_position"][b], centre))
        close(sum(q * q for q in pose["body_orientation"][b]), 1.0, 1e-12,
              where + ": |orientation|")
    return pose


def check_bodies_vtu(path, pose, nbodies, where):
    g = read_vtu(path)
    check(g.GetNumberOfPoints() == nbodies, "%s: %d points" % (where, g.GetNumberOfPoints()))
    d = arrays(g.GetPointData(), BODY_ARRAYS, nbodies, where)
    for b in range(nbodies):
        check(g.GetPoint(b) == pose["body_position"][b], "%s: centre %s vs FieldData %s" %
              (where, g.GetPoint(b), pose["body_position"][b]))
        check(d["orientation"][b] == pose["body_orientation"][b], where + ": orientation")
        check(d["angular_velocity"][b] == pose["body_angular_velocity"][b], where + ": w")
        ax = [d["axis_x"][b], d["axis_y"][b], d["axis_z"][b]]
        for i in range(3):
            for j in range(3):
                dot = sum(ax[i][k] * ax[j][k] for k in range(3))
                close(dot + 1.0, (1.0 if i == j else 0.0) + 1.0, 1e-12, where + ": axes")


def all_arrays(data):
    """{name: every tuple} of a vtkFieldData (point or field data); {} for None."""
    if data is None:
        return {}
    out = {}
    for i in range(data.GetNumberOfArrays()):
        a = data.GetAbstractArray(i)
        out[a.GetName()] = [a.GetTuple(j) for j in range(a.GetNumberOfTuples())]
    return out


def same_frame(raw, packed, where):
    """The compressed frame holds exactly the uncompressed one's points and arrays."""
    a, b = read_vtu(raw), read_vtu(packed)
    check(a.GetNumberOfPoints() == b.GetNumberOfPoints(), where + ": point counts differ")
    check(all(a.GetPoint(i) == b.GetPoint(i) for i in range(a.GetNumberOfPoints())),
          where + ": points differ")
    for what in ("GetPointData", "GetFieldData"):
        x, y = all_arrays(getattr(a, what)()), all_arrays(getattr(b, what)())
        check(sorted(x) == sorted(y), "%s: %s arrays %s vs %s" % (where, what, sorted(x),
                                                                    sorted(y)))
        for name in x:
            check(x[name] == y[name], "%s: %s differs" % (where, name))


def compressed(path):
    with open(path, "rb") as f:
        return b'compressor="vtkZLibDataCompressor"' in f.read(400)


def run_case(vbc, source, tmp, dim, bodies, compress=False):
    name = "%dd_%s%s" % (dim, "bodies" if bodies else "fluid", "_zlib" if compress else "")
    d = os.path.join(tmp, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    path = os.path.join(d, "scene.json")
    with open(path, "w") as f:
        json.dump(scene(dim, bodies, source, compress), f)
    out = os.path.join(d, "out")
    subprocess.run([vbc, "run", path, "--out", out, "--quiet", "--threads", "1"], check=True)
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    with open(os.path.join(out, "series.csv")) as f:
        series = list(csv.DictReader(f))
    root = ET.parse(os.path.join(out, "frames.pvd")).getroot()
    sets = root.find("Collection").findall("DataSet")
    parts = [s for s in sets if s.get("part") == "0"]
    body_parts = [s for s in sets if s.get("part") == "1"]
    nbodies = len(summary["scene"].get("bodies", []))
    check(len(parts) == len(series) == 4, "%s: %d frames, %d series rows" %
          (name, len(parts), len(series)))
    check(len(body_parts) == (len(parts) if nbodies else 0), "%s: %d body entries" %
          (name, len(body_parts)))
    sizes = []
    for k, ds in enumerate(parts):
        t = float(ds.get("timestep"))
        row = [r for r in series if abs(float(r["time"]) - t) < 1e-12]
        check(len(row) == 1, "%s: frame time %g not in series.csv" % (name, t))
        vtu = os.path.join(out, ds.get("file"))
        check(compressed(vtu) == compress, "%s: compressor attribute" % vtu)
        sizes.append(os.path.getsize(vtu))
        pose = check_frame(vtu, dim, summary, row[0], nbodies, "%s frame %d" % (name, k))
        if nbodies:
            check(body_parts[k].get("timestep") == ds.get("timestep"), name + ": body time")
            check_bodies_vtu(os.path.join(out, body_parts[k].get("file")), pose, nbodies,
                             "%s bodies %d" % (name, k))
            if "body_y" in row[0]:
                close(pose["body_position"][0][1], float(row[0]["body_y"]), 1e-8,
                      "%s frame %d: body_y against series.csv" % (name, k))
    print("%s: %d frames of %d points, %d bytes each, read by VTK %s" %
          (name, len(parts), summary["particles"]["total"], sizes[-1],
           vtk.vtkVersion.GetVTKVersion()))
    return out, [ds.get("file") for ds in sets]


def compare_runs(raw, packed, name):
    """Every .vtu of the compressed run against the uncompressed run's."""
    check(raw[1] == packed[1], name + ": the .pvd lists other files")
    for rel in raw[1]:
        same_frame(os.path.join(raw[0], rel), os.path.join(packed[0], rel),
                   "%s %s" % (name, rel))
    a = sum(os.path.getsize(os.path.join(raw[0], r)) for r in raw[1])
    b = sum(os.path.getsize(os.path.join(packed[0], r)) for r in raw[1])
    print("%s: compressed frames hold the same values, %d of %d bytes (%.2f)" %
          (name, b, a, b / a))


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    vbc, source, tmp = sys.argv[1:]
    try:
        for dim in (2, 3):
            for bodies in (False, True):
                raw = run_case(vbc, source, tmp, dim, bodies)
                packed = run_case(vbc, source, tmp, dim, bodies, compress=True)
                compare_runs(raw, packed, "%dd_%s" % (dim, "bodies" if bodies else "fluid"))
    except (Failure, subprocess.CalledProcessError) as e:
        print("FAIL: %s" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
