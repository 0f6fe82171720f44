"""vbc/simulation.py — scenes, simulations stepped from Python, and `vbc run` with metrics
defined in Python (sim/sim_api.h underneath; docs/python.md).

Memory: a Simulation's arrays view the library's memory without copying. Each view keeps the
C simulation alive (its buffer refers to the handle), so a view stays valid after
Simulation.close() or after the Simulation object is gone: the C memory is freed when the last
view is. Calls on a closed Simulation raise BadInput instead of touching freed memory."""
import ctypes
import json
import math
import os
import sys
import time as _time

import numpy as np

from . import _lib
from ._lib import BadInput, CError, check, lib

_registry = None  # the built-in registry: scenes point into it, so it lives with the process


def _builtin_registry():
    global _registry
    if _registry is None:
        err = CError()
        ptr = lib.vbc_registry_new_builtin(ctypes.byref(err))
        if not ptr:
            check(err.code or _lib.EXIT_SYSTEM, err)
        _registry = ptr
    return _registry


def modules():
    """The registry as data: {"blocks", "solvers", "couplers", "benchmarks"}, each a list of
    modules with name, summary and params (key, type, default, range, doc); couplers also with
    their groups and stages; "presets": the method presets, each with name, description,
    citation, requires and method (what `vbc list --format json` prints)."""
    err = CError()
    return json.loads(_lib.take_text(lib.vbc_modules_json(_builtin_registry(), ctypes.byref(err)),
                                     err))


def _path(what, value):
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str):
        raise BadInput(f"{what}: expected a path (str or os.PathLike), got {type(value).__name__}")
    return value


def _assignments(what, sets):
    """{"time.end": 0.01} as ["time.end=0.01"], the values as JSON (vbc run's --set)."""
    if sets is None:
        return []
    if not isinstance(sets, dict):
        raise BadInput(f"{what}: set: expected a dict of KEY: VALUE, got {type(sets).__name__}")
    out = []
    for key, value in sets.items():
        if not isinstance(key, str) or not key:
            raise BadInput(f"{what}: set: expected dotted keys as str (\"time.end\"), got {key!r}")
        try:
            text = json.dumps(value, allow_nan=False)
        except (TypeError, ValueError) as e:
            raise BadInput(f"{what}: set: {key}: expected a JSON value, got {value!r} ({e})") from None
        out.append(f"{key}={text}")
    return out


class Scene:
    """A validated scene (docs/scene-format.md): Scene.load(path, set={...})."""

    def __init__(self, *args, **kwargs):
        raise BadInput("vbc.Scene: use vbc.Scene.load(path, set={...})")

    @classmethod
    def load(cls, path, set=None):
        path = _path("Scene.load: path", path)
        sets = _assignments("Scene.load", set)
        arr, keep = _lib.c_strings(sets)
        err = CError()
        ptr = lib.vbc_scene_new(path.encode("utf-8"), arr, len(sets), _builtin_registry(),
                                ctypes.byref(err))
        if not ptr:
            check(err.code or _lib.EXIT_SYSTEM, err)
        self = object.__new__(cls)
        self._ptr, self.path, self.sets = ptr, path, sets
        return self

    def __del__(self, _delete=lib.vbc_scene_delete):  # bound now: module globals go at exit
        ptr = getattr(self, "_ptr", None)
        if ptr:
            _delete(ptr)
            self._ptr = None

    @property
    def resolved(self):
        """The resolved scene (every default filled in) as a dict: summary.json's `scene`."""
        err = CError()
        return json.loads(_lib.take_text(lib.vbc_scene_json(self._ptr, ctypes.byref(err)), err))

    def __repr__(self):
        return f"vbc.Scene.load({self.path!r}, set={self.sets!r})"


class _Handle:
    """Owns one C simulation; freed when the last Simulation or view lets go of it."""

    def __init__(self, ptr, scene):
        self.ptr, self.scene = ptr, scene  # the scene outlives the simulation

    def __del__(self, _close=lib.vbc_simulation_close):  # bound now: module globals go at exit
        if self.ptr:
            _close(self.ptr)
            self.ptr = None


_DTYPES = {0: np.float64, 1: np.intc, 2: np.uint8}
_FIELDS = {"positions": 0, "velocities": 1, "pressure": 2, "pressure_smoothed": 3,
           "number_density": 4, "kind": 5, "body": 6, "body_positions": 7,
           "body_orientations": 8, "body_velocities": 9, "body_angular_velocities": 10}
_SCALAR = {"pressure", "pressure_smoothed", "number_density", "kind", "body"}
FLUID, RIGID, WALL = 0, 1, 2


def _array(ptr, name, owner, copy):
    """The field as a NumPy array over the library's memory (owner keeps it alive), read-only
    unless the library says writing is allowed; a copy when copy is true."""
    view, err = _lib.CArrayView(), CError()
    check(lib.vbc_simulation_field(ptr, _FIELDS[name], ctypes.byref(view), ctypes.byref(err)), err)
    dtype = np.dtype(_DTYPES[view.element])
    scalar = name in _SCALAR
    shape = (view.length,) if scalar else (view.length, view.components)
    if view.length == 0:
        out = np.zeros(shape, dtype)
        out.flags.writeable = copy
        return out
    nbytes = (view.length - 1) * view.stride + view.components * view.element_size
    buf = (ctypes.c_char * nbytes).from_address(view.data)
    buf._vbc_owner = owner
    strides = (view.stride,) if scalar else (view.stride, view.element_size)
    base = memoryview(buf) if view.writable else memoryview(buf).toreadonly()
    arr = np.ndarray(shape, dtype, buffer=base, strides=strides)
    return arr.copy() if copy else arr


class _StateReader:
    """What a simulation's state offers; subclasses say where the C pointer comes from."""

    _copy = False

    def _field(self, name):
        return _array(self._live(), name, self._owner(), self._copy)

    positions = property(lambda self: self._field("positions"),
                         doc="(n, dim) particle positions [m], read-only")
    velocities = property(lambda self: self._field("velocities"),
                          doc="(n, dim) particle velocities [m/s], writable between steps")
    pressure = property(lambda self: self._field("pressure"), doc="(n,) p_i [Pa] of the last solve")
    pressure_smoothed = property(lambda self: self._field("pressure_smoothed"),
                                 doc="(n,) smoothed pressure (Miyamoto eq. 42)")
    number_density = property(lambda self: self._field("number_density"),
                              doc="(n,) particle number density n_i")
    kind = property(lambda self: self._field("kind"), doc="(n,) 0 fluid, 1 rigid, 2 wall")
    body = property(lambda self: self._field("body"), doc="(n,) body index, -1 for fluid and walls")
    body_positions = property(lambda self: self._field("body_positions"),
                              doc="(bodies, dim) centres of mass [m]")
    body_orientations = property(lambda self: self._field("body_orientations"),
                                 doc="(bodies, 4) unit quaternions (w, x, y, z)")
    body_velocities = property(lambda self: self._field("body_velocities"),
                               doc="(bodies, dim) linear velocities [m/s]")
    body_angular_velocities = property(lambda self: self._field("body_angular_velocities"),
                                       doc="(bodies, 3) angular velocities [rad/s]")

    @property
    def time(self):
        return lib.vbc_simulation_time(self._live())

    @property
    def step_index(self):
        """Steps done so far (0 before the first)."""
        return lib.vbc_simulation_step_index(self._live())

    @property
    def dim(self):
        return lib.vbc_simulation_dim(self._live())

    @property
    def dt(self):
        """The size of the last step (time.dt with fixed steps)."""
        return lib.vbc_simulation_dt(self._live())

    @property
    def particle_count(self):
        return lib.vbc_simulation_particles(self._live())

    @property
    def fluid_count(self):
        return lib.vbc_simulation_fluid_particles(self._live())

    @property
    def body_count(self):
        return lib.vbc_simulation_bodies(self._live())

    @property
    def report(self):
        """The last step's solves: {"step", "time", "stages": [{"label", "solver", "solved",
        "rows", "iterations", "stop_reason", "residual", "relative_residual", "mean_error",
        "solve_seconds", ...}]}, one entry per stage of summary.json's solver.stages."""
        err = CError()
        text = lib.vbc_simulation_report_json(self._live(), ctypes.byref(err))
        if text is None:
            check(err.code or _lib.EXIT_SYSTEM, err)
        return json.loads(text.decode("utf-8"))


class Simulation(_StateReader):
    """A simulation stepped from Python: Simulation(scene, method=None, set=None, threads=None,
    strict=False).

    method: a method preset replacing the scene's `method` (a dict, JSON text, a path to a JSON
    file, or a preset name); set: further --set assignments. With either, the library loads the
    scene's file again with the scene's own assignments, the method, then `set`. Every step runs
    vbc run's run-time monitors (`warnings`); strict=True (or the scene's output.strict) makes
    the first warning fail the step, as `vbc run --strict` does (vbc.SimulationFailed, exit
    code 3)."""

    def __init__(self, scene, method=None, set=None, threads=None, strict=False):
        if not isinstance(scene, Scene):
            raise BadInput("Simulation: scene: expected a vbc.Scene (vbc.Scene.load(path)), got "
                           f"{type(scene).__name__}")
        if threads is not None and (not isinstance(threads, int) or isinstance(threads, bool)
                                    or threads < 1):
            raise BadInput(f"Simulation: threads: expected a positive int, got {threads!r}")
        if not isinstance(strict, bool):
            raise BadInput(f"Simulation: strict: expected True or False, got {strict!r}")
        if isinstance(method, dict):
            method = json.dumps(method)
        elif isinstance(method, os.PathLike):
            method = os.fspath(method)
        if method is not None and not isinstance(method, str):
            raise BadInput("Simulation: method: expected a dict, JSON text, a file or a preset "
                           f"name, got {type(method).__name__}")
        extra = _assignments("Simulation", set)
        sets = scene.sets + extra if (method is not None or extra) else []
        arr, keep = _lib.c_strings(sets)
        opts = _lib.CSimulationOptions(method.encode("utf-8") if method is not None else None,
                                       arr, len(sets), threads or 0, int(strict))
        ptr, err = ctypes.c_void_p(), CError()
        check(lib.vbc_simulation_open(ctypes.byref(ptr), scene._ptr, ctypes.byref(opts),
                                      ctypes.byref(err)), err)
        self._handle = _Handle(ptr.value, scene)
        self._err = CError()
        self.scene = scene

    def _live(self):
        h = self.__dict__.get("_handle")
        if h is None:
            raise BadInput("vbc.Simulation: expected an open simulation, got a closed one "
                           "(Simulation.close() was called)")
        return h.ptr

    def _owner(self):
        return self._handle

    def close(self):
        """Let go of the C simulation (freed now, or when the last array view is gone). Every
        later call on this object raises BadInput."""
        self.__dict__["_handle"] = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def closed(self):
        return self.__dict__.get("_handle") is None

    @property
    def end_time(self):
        """The scene's time.end."""
        return lib.vbc_simulation_end_time(self._live())

    @property
    def failed(self):
        return bool(lib.vbc_simulation_failed(self._live()))

    @property
    def warnings(self):
        """The run-time monitors' warnings so far, as summary.json's `warnings`: a list of
        {"code", "what", "first_step", "first_time", "count", "worst"}, empty when none fired."""
        err = CError()
        text = lib.vbc_simulation_warnings_json(self._live(), ctypes.byref(err))
        if text is None:
            check(err.code or _lib.EXIT_SYSTEM, err)
        return json.loads(text.decode("utf-8"))

    def step(self, n=1):
        """Advance n time steps, exactly as `vbc run` does."""
        ptr = self._live()
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise BadInput(f"Simulation.step: n: expected an int >= 0, got {n!r}")
        rc = lib.vbc_simulation_step(ptr, n, self._err)
        if rc:  # vbc_error keeps its first message: the next call gets a fresh one
            err, self._err = self._err, CError()
            check(rc, err)
        return self

    def run(self, until=None, progress=False):
        """Step until the time reaches `until` (default: the scene's time.end); progress: a line
        on stderr about once a second."""
        ptr = self._live()
        end = self.end_time if until is None else until
        if not isinstance(end, (int, float)) or isinstance(end, bool) or not math.isfinite(end):
            raise BadInput(f"Simulation.run: until: expected a finite time in s, got {until!r}")
        last = _time.monotonic()
        while lib.vbc_simulation_time(ptr) < end - 1e-9 * max(1.0, abs(end)):
            self.step(1)
            if progress and _time.monotonic() - last >= 1.0:
                last = _time.monotonic()
                print(f"vbc: step {self.step_index}, t = {self.time:.6g} s of {end:g} s",
                      file=sys.stderr, flush=True)
        if progress:
            print(f"vbc: step {self.step_index}, t = {self.time:.6g} s", file=sys.stderr,
                  flush=True)
        return self

    def write_frame(self, directory):
        """Write the state as DIR/frames/frame_NNNNNN.vtu (+ frames.pvd), numbered per DIR."""
        ptr, err = self._live(), CError()
        check(lib.vbc_simulation_write_frame(ptr, _path("write_frame", directory).encode(),
                                             ctypes.byref(err)), err)

    def write_summary(self, directory):
        """Write DIR/summary.json for the steps so far (metrics empty)."""
        ptr, err = self._live(), CError()
        check(lib.vbc_simulation_write_summary(ptr, _path("write_summary", directory).encode(),
                                               ctypes.byref(err)), err)


class State(_StateReader):
    """The state a metric sees during `vbc.run`: the same properties as Simulation, each array
    a copy (the run's memory is gone when the run ends)."""

    _copy = True

    def __init__(self, ptr):
        self._ptr = ptr

    def _live(self):
        if self._ptr is None:
            raise BadInput("vbc.State: expected the state during a metric call, got one kept "
                           "after it returned (copy the arrays you need)")
        return self._ptr

    def _owner(self):
        return None


def run(scene, out, metrics=None, every=1, progress=False):
    """`vbc run` on scene into directory out, with metrics={"column": fn(state) -> float}
    called at t = 0 and after every `every`-th step; their values become series.csv columns
    (each row holds the latest values). Returns vbc.results.load(out)."""
    from . import results
    if not isinstance(scene, Scene):
        raise BadInput(f"run: scene: expected a vbc.Scene, got {type(scene).__name__}")
    out = _path("run: out", out)
    metrics = metrics or {}
    if not isinstance(metrics, dict) or not all(isinstance(k, str) and k and callable(f)
                                                for k, f in metrics.items()):
        raise BadInput("run: metrics: expected a dict of column name: callable(state)")
    for name in metrics:
        if not all(c.isalnum() or c in "_-." for c in name):
            raise BadInput(f"run: metrics: {name!r}: expected letters, digits, '_', '-', '.'")
    if not isinstance(every, int) or isinstance(every, bool) or every < 1:
        raise BadInput(f"run: every: expected an int >= 1, got {every!r}")
    names = list(metrics)
    raised = []

    def observe(ctx, sim, values, err):
        state, k = State(sim), 0
        try:
            for k, name in enumerate(names):
                values[k] = float(metrics[name](state))
            return 0
        except BaseException as e:  # noqa: BLE001 (re-raised after the run)
            raised.append(e)
            msg = f"metric {names[k]!r}: {type(e).__name__}: {e}"
            err.contents.code = _lib.EXIT_INPUT
            err.contents.message = msg.encode("utf-8", "replace")[:1023]
            return _lib.EXIT_INPUT
        finally:
            state._ptr = None

    callback = _lib.OBSERVE(observe)
    cols, keep = _lib.c_strings(names)
    obs = _lib.CRunObserver(every, len(names), cols, callback, None)
    err = CError()
    rc = lib.vbc_run_observed(scene._ptr, out.encode("utf-8"), 2 if progress else 0,
                              ctypes.byref(obs) if names else None, ctypes.byref(err))
    if rc and raised and not isinstance(raised[0], Exception):
        raise raised[0]  # KeyboardInterrupt, SystemExit: the run stopped for them
    if rc and raised:
        raise _lib.error_for(rc, err.message.decode("utf-8", "replace")) from raised[0]
    check(rc, err)
    return results.load(out)
