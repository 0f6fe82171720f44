"""vbc/_lib.py — libvbc through ctypes: finding the shared library, the C signatures of
sim/sim_api.h, and vbc's errors as Python exceptions.

The library is found, in this order, at $VBC_LIBRARY (a path to libvbc.so; the test suite points
it at the build tree's), at the place `cmake --install` put it relative to this package
(_install.py, written at install time), and by the dynamic loader's search (LD_LIBRARY_PATH,
the system's directories)."""
import ctypes
import os

OK, EXIT_INPUT, EXIT_FAILED, EXIT_SYSTEM = 0, 2, 3, 4


class Error(Exception):
    """A vbc error: `message` is vbc's one-line message, `code` its exit code (2 bad input,
    3 the simulation failed, 4 a system error)."""

    code = EXIT_SYSTEM

    def __init__(self, message, code=None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class BadInput(Error, TypeError, ValueError):
    """Exit code 2: the scene, an argument, a parameter, a file that is not what was expected.
    Also a TypeError and a ValueError, so that callers that catch those see it."""

    code = EXIT_INPUT


class SimulationFailed(Error, RuntimeError):
    """Exit code 3: the simulation failed (non-finite values, a particle left the domain, a
    solver broke down); the message has the step and the time."""

    code = EXIT_FAILED


class SystemFailure(Error, OSError):
    """Exit code 4: the machine refused (out of memory, a file that cannot be written)."""

    code = EXIT_SYSTEM


def error_for(code, message):
    """The exception of a vbc status."""
    cls = {EXIT_INPUT: BadInput, EXIT_FAILED: SimulationFailed}.get(code, SystemFailure)
    return cls(message, code)


class CError(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("message", ctypes.c_char * 1024)]


class CSimulationOptions(ctypes.Structure):
    _fields_ = [("method", ctypes.c_char_p), ("sets", ctypes.POINTER(ctypes.c_char_p)),
                ("nsets", ctypes.c_int), ("threads", ctypes.c_int), ("strict", ctypes.c_int)]


class CArrayView(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t),
                ("components", ctypes.c_size_t), ("stride", ctypes.c_size_t),
                ("element_size", ctypes.c_size_t), ("element", ctypes.c_int),
                ("writable", ctypes.c_int)]


OBSERVE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p,
                           ctypes.POINTER(ctypes.c_double), ctypes.POINTER(CError))


class CRunObserver(ctypes.Structure):
    _fields_ = [("every", ctypes.c_long), ("ncolumns", ctypes.c_size_t),
                ("columns", ctypes.POINTER(ctypes.c_char_p)), ("observe", OBSERVE),
                ("ctx", ctypes.c_void_p)]


_P, _E = ctypes.c_void_p, ctypes.POINTER(CError)
_SIGNATURES = {
    "vbc_version": (ctypes.c_char_p, []),
    "vbc_registry_new_builtin": (_P, [_E]),
    "vbc_modules_json": (_P, [_P, _E]),
    "vbc_scene_new": (_P, [ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p), ctypes.c_int, _P, _E]),
    "vbc_scene_delete": (None, [_P]),
    "vbc_scene_json": (_P, [_P, _E]),
    "vbc_free": (None, [_P]),
    "vbc_simulation_open": (ctypes.c_int, [ctypes.POINTER(_P), _P,
                                           ctypes.POINTER(CSimulationOptions), _E]),
    "vbc_simulation_close": (None, [_P]),
    "vbc_simulation_step": (ctypes.c_int, [_P, ctypes.c_long, _E]),
    "vbc_simulation_field": (ctypes.c_int, [_P, ctypes.c_int, ctypes.POINTER(CArrayView), _E]),
    "vbc_simulation_dim": (ctypes.c_int, [_P]),
    "vbc_simulation_particles": (ctypes.c_size_t, [_P]),
    "vbc_simulation_fluid_particles": (ctypes.c_size_t, [_P]),
    "vbc_simulation_bodies": (ctypes.c_size_t, [_P]),
    "vbc_simulation_time": (ctypes.c_double, [_P]),
    "vbc_simulation_step_index": (ctypes.c_long, [_P]),
    "vbc_simulation_dt": (ctypes.c_double, [_P]),
    "vbc_simulation_end_time": (ctypes.c_double, [_P]),
    "vbc_simulation_failed": (ctypes.c_int, [_P]),
    "vbc_simulation_report_json": (ctypes.c_char_p, [_P, _E]),
    "vbc_simulation_warnings_json": (ctypes.c_char_p, [_P, _E]),
    "vbc_simulation_write_frame": (ctypes.c_int, [_P, ctypes.c_char_p, _E]),
    "vbc_simulation_write_summary": (ctypes.c_int, [_P, ctypes.c_char_p, _E]),
    "vbc_run_observed": (ctypes.c_int, [_P, ctypes.c_char_p, ctypes.c_int,
                                        ctypes.POINTER(CRunObserver), _E]),
}


def _candidates():
    env = os.environ.get("VBC_LIBRARY")
    if env:
        return [env]
    here = os.path.dirname(os.path.abspath(__file__))
    found = []
    try:
        from . import _install  # written by `cmake --install`
        found.append(os.path.normpath(os.path.join(here, _install.LIBDIR_FROM_PACKAGE,
                                                   "libvbc.so.0")))
    except ImportError:
        pass
    return found + ["libvbc.so.0"]


def _load():
    tried = []
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append(path + " (missing)")
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append(f"{path} ({e})")
            continue
        for name, (res, args) in _SIGNATURES.items():
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = res, args
        return lib
    raise ImportError("vbc: cannot load libvbc.so; tried " + "; ".join(tried) +
                      " (set VBC_LIBRARY to the library's path, docs/python.md)")


lib = _load()


def check(rc, err):
    """Raise the exception of a failed call."""
    if rc != OK:
        raise error_for(rc, err.message.decode("utf-8", "replace"))


def take_text(ptr, err):
    """A malloc'd C string as str (freed), or the error."""
    if not ptr:
        check(err.code or EXIT_SYSTEM, err)
    try:
        return ctypes.string_at(ptr).decode("utf-8")
    finally:
        lib.vbc_free(ptr)


def c_strings(items):
    """A NULL-terminated char *[] for the C side, and the list that keeps its bytes alive."""
    encoded = [s.encode("utf-8") for s in items]
    arr = (ctypes.c_char_p * (len(encoded) + 1))(*encoded, None)
    return arr, encoded
