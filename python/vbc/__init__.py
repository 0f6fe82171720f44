"""vbc — the vbc library from Python (docs/python.md): scenes, simulations stepped from
Python with NumPy views of their state, `vbc run` with metrics defined in Python, the registry
of modules, and run and sweep results as NumPy structured arrays.

    import vbc
    sim = vbc.Simulation(vbc.Scene.load("experiments/scenes/hydrostatic.json",
                                        set={"time.end": 0.01}))
    sim.step(5)
    sim.positions  # (n, 2) view of the library's memory

Errors are vbc.Error subclasses carrying vbc's one-line message and exit code: BadInput (2),
SimulationFailed (3), SystemFailure (4)."""
from . import results
from ._lib import BadInput, Error, SimulationFailed, SystemFailure, lib as _c
from .simulation import FLUID, RIGID, WALL, Scene, Simulation, State, modules, run

__version__ = _c.vbc_version().decode()
__all__ = ["Scene", "Simulation", "State", "run", "modules", "results", "Error", "BadInput",
           "SimulationFailed", "SystemFailure", "FLUID", "RIGID", "WALL", "__version__"]
