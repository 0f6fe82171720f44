#!/usr/bin/python3
"""make_mesh.py - the small meshes vbc ships for its mesh bodies (experiments/scenes/meshes/).

    /usr/bin/python3 scripts/make_mesh.py [OUTDIR]     (default: experiments/scenes/meshes)

writes, with the Python standard library only and byte for byte the same on every run:

  blob.stl   binary STL, 320 triangles: an icosphere (an icosahedron whose faces are split in 4,
             twice, with the new corners pushed onto the unit sphere) whose radius is modulated
             r = 1 + 0.2 cos(3 theta) sin(phi)^2 + 0.15 z: a lumpy, rabbit-sized-when-scaled
             blob with concave dents, so the inside test meets a non-convex surface.
  torus.stl  ASCII STL, 2 x 16 x 8 = 256 triangles: a torus of major radius 1 and minor radius
             0.4 about the y axis (a closed surface with a hole).

Both are closed, consistently oriented outward (counter-clockwise seen from outside) and about
2 units across: a scene places them with the mesh keys scale, rotate and translate
(docs/scene-format.md#mesh-bodies). They are ours, made by this script; no licence of others
applies.
"""
import math
import os
import struct
import sys


def icosphere(subdivisions):
    t = (1.0 + 5.0 ** 0.5) / 2.0
    verts = [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t),
             (0, -1, -t), (0, 1, -t), (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]
    verts = [unit(v) for v in verts]
    faces = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4),
             (11, 10, 2), (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8),
             (3, 8, 9), (4, 9, 5), (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    for _ in range(subdivisions):
        middle = {}

        def mid(a, b):
            key = (min(a, b), max(a, b))
            if key not in middle:
                verts.append(unit(tuple((p + q) / 2 for p, q in zip(verts[a], verts[b]))))
                middle[key] = len(verts) - 1
            return middle[key]

        new = []
        for a, b, c in faces:
            ab, bc, ca = mid(a, b), mid(b, c), mid(c, a)
            new += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
        faces = new
    return verts, faces


def unit(v):
    n = math.sqrt(sum(x * x for x in v))
    return tuple(x / n for x in v)


def blob():
    verts, faces = icosphere(2)
    out = []
    for x, y, z in verts:
        theta, phi = math.atan2(y, x), math.acos(max(-1.0, min(1.0, z)))
        r = 1.0 + 0.2 * math.cos(3 * theta) * math.sin(phi) ** 2 + 0.15 * z
        out.append((r * x, r * y, r * z))
    return out, faces


def torus(major=1.0, minor=0.4, nu=16, nv=8):
    verts = []
    for i in range(nu):
        u = 2 * math.pi * i / nu
        for j in range(nv):
            v = 2 * math.pi * j / nv
            rho = major + minor * math.cos(v)
            verts.append((rho * math.cos(u), minor * math.sin(v), rho * math.sin(u)))
    faces = []
    for i in range(nu):
        for j in range(nv):
            a, b = i * nv + j, ((i + 1) % nu) * nv + j
            c, d = ((i + 1) % nu) * nv + (j + 1) % nv, i * nv + (j + 1) % nv
            faces += [(a, d, c), (a, c, b)]
    return verts, faces


def oriented_outward(verts, faces):
    """Flip every face if the signed volume is negative."""
    vol = 0.0
    for a, b, c in faces:
        p, q, r = verts[a], verts[b], verts[c]
        vol += (p[0] * (q[1] * r[2] - q[2] * r[1]) - p[1] * (q[0] * r[2] - q[2] * r[0]) +
                p[2] * (q[0] * r[1] - q[1] * r[0]))
    return faces if vol > 0 else [(a, c, b) for a, b, c in faces]


def normal(p, q, r):
    u = [q[k] - p[k] for k in range(3)]
    w = [r[k] - p[k] for k in range(3)]
    n = (u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0])
    return unit(n)


def write_binary(path, verts, faces):
    with open(path, "wb") as f:
        f.write(b"vbc scripts/make_mesh.py".ljust(80, b" "))
        f.write(struct.pack("<I", len(faces)))
        for a, b, c in faces:
            p, q, r = verts[a], verts[b], verts[c]
            f.write(struct.pack("<12fH", *normal(p, q, r), *p, *q, *r, 0))


def write_ascii(path, name, verts, faces):
    with open(path, "w", newline="\n") as f:
        f.write("solid %s\n" % name)
        for a, b, c in faces:
            p, q, r = verts[a], verts[b], verts[c]
            f.write("facet normal %.6g %.6g %.6g\n outer loop\n" % normal(p, q, r))
            for x in (p, q, r):
                f.write("  vertex %.9g %.9g %.9g\n" % x)
            f.write(" endloop\nendfacet\n")
        f.write("endsolid %s\n" % name)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "experiments", "scenes",
                                                             "meshes")
    os.makedirs(out, exist_ok=True)
    verts, faces = blob()
    write_binary(os.path.join(out, "blob.stl"), verts, oriented_outward(verts, faces))
    verts, faces = torus()
    write_ascii(os.path.join(out, "torus.stl"), "torus", verts, oriented_outward(verts, faces))
    return 0


if __name__ == "__main__":
    sys.exit(main())
