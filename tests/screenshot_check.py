#!/usr/bin/python3
"""screenshot_check.py — how much of a browser screenshot is not page background.

Usage: screenshot_check.py SHOT.png. Prints the fraction of pixels darker than near-white (any of
R, G, B below 230), read with VTK's PNG reader (python3-vtk9, installed by
scripts/install-deps.sh); a blank page prints 0. Exit 77 (a skip) when VTK cannot be imported.
"""
import sys

try:
    from vtkmodules.vtkIOImage import vtkPNGReader
    from vtkmodules.util.numpy_support import vtk_to_numpy
except ImportError as e:
    print(f"SKIPPED: cannot import VTK's PNG reader: {e}", file=sys.stderr)
    sys.exit(77)

reader = vtkPNGReader()
reader.SetFileName(sys.argv[1])
reader.Update()
image = reader.GetOutput()
scalars = image.GetPointData().GetScalars()
if scalars is None:
    print(f"{sys.argv[1]}: not a PNG image", file=sys.stderr)
    sys.exit(1)
pixels = vtk_to_numpy(scalars)
print(f"{(pixels[:, :3].min(axis=1) < 230).mean():.6f}")
