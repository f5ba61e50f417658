"""libboids through ctypes: finding the library, the C structs the package reads, and errors.

The library is, in this order: $BOIDS_LIBRARY; the package's own (boids/_bin/libboids.so.0, which
`pip install ./python` copies in from the build); the build tree's (build/release/src/libboids.so.0
beside this source tree, for PYTHONPATH=python after a build); the installed one the loader
finds (libboids.so.0). Only structs whose layout is fixed by the C header are mirrored here;
everything sized by the model lists (the parameters, the passes) is asked of the library. Each
mirror is checked at import against the library's own layout (boids_type_layout): every field's
offset and the struct's size, so a mirror cannot drift from the header unnoticed.
"""
import ctypes
import ctypes.util
import os

_HERE = os.path.dirname(os.path.abspath(__file__))
_PACKAGE_LIB = os.path.join(_HERE, "_bin", "libboids.so.0")
_BUILD_LIB = os.path.join(_HERE, "..", "..", "build", "release", "src", "libboids.so.0")


class Error(Exception):
    """An error of the boids library: `id` is its stable name ("PARAM_RANGE"), `key` the
    setting, parameter or column it is about, `path` and `line` the file, `index` the boid
    (-1: none), `message` the whole line the command-line program would print."""

    def __init__(self, id, message, key="", related="", path="", line=0, index=-1, detail=""):
        super().__init__(message)
        self.id, self.message, self.key, self.related = id, message, key, related
        self.path, self.line, self.index, self.detail = path, line, index, detail or message

    def __reduce__(self):  # whole through pickle: an executor's worker raises it to its client
        return (type(self), (self.id, self.message, self.key, self.related, self.path,
                             self.line, self.index, self.detail))


def _find_library():
    given = os.environ.get("BOIDS_LIBRARY")
    if given:  # the one asked for, or an error naming it: never another one in its place
        try:
            found = ctypes.CDLL(given)
        except OSError as e:
            raise ImportError(f"boids: BOIDS_LIBRARY={given}: {e} (unset it to take the "
                              "package's, the build's or the installed library)") from None
        if not hasattr(found, "boids_world_open"):  # a library, but not this one
            raise ImportError(f"boids: BOIDS_LIBRARY={given} is not libboids (it has no "
                              "boids_world_open); unset it to take the package's, the build's or "
                              "the installed library")
        return found, given
    candidates = [_PACKAGE_LIB, os.path.normpath(_BUILD_LIB), ctypes.util.find_library("boids"),
                  "libboids.so.0"]
    tried = []
    for name in candidates:
        if not name:
            continue
        if os.sep in name and not os.path.exists(name):
            tried.append(name)
            continue
        try:
            return ctypes.CDLL(name), name
        except OSError as e:
            tried.append(f"{name} ({e})")
    raise ImportError("boids: libboids not found; build it (cmake --build --preset release), "
                      "install it, or set BOIDS_LIBRARY. Tried: " + "; ".join(tried))


lib, path = _find_library()
c_float_p = ctypes.POINTER(ctypes.c_float)


class ErrorInfo(ctypes.Structure):
    _fields_ = [("id", ctypes.c_int), ("status", ctypes.c_int), ("key", ctypes.c_char_p),
                ("related", ctypes.c_char_p), ("path", ctypes.c_char_p), ("line", ctypes.c_long),
                ("index", ctypes.c_longlong), ("detail", ctypes.c_char_p),
                ("message", ctypes.c_char_p)]


class ParamInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("block", ctypes.c_int), ("offset", ctypes.c_size_t),
                ("unit", ctypes.c_char_p), ("min", ctypes.c_float), ("max", ctypes.c_float),
                ("ui_max", ctypes.c_float), ("flags", ctypes.c_uint),
                ("block_default", ctypes.c_float), ("description", ctypes.c_char_p)]


class AttributeInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("is_uint", ctypes.c_bool),
                ("offset", ctypes.c_size_t), ("min", ctypes.c_float), ("max", ctypes.c_float),
                ("description", ctypes.c_char_p)]


class WorldInfo(ctypes.Structure):
    """boids_world_info up to its parameters (the header keeps them last for this)."""
    _fields_ = [("model", ctypes.c_int), ("backend", ctypes.c_int), ("count", ctypes.c_uint32),
                ("swarms", ctypes.c_uint32), ("width", ctypes.c_float),
                ("height", ctypes.c_float), ("grid_w", ctypes.c_uint32),
                ("grid_h", ctypes.c_uint32), ("cell_w", ctypes.c_float),
                ("cell_h", ctypes.c_float), ("threads", ctypes.c_int),
                ("renderer", ctypes.c_char_p), ("steps", ctypes.c_uint64),
                ("replicas", ctypes.c_uint32), ("predators", ctypes.c_uint32),
                ("obstacles", ctypes.c_uint32), ("dt", ctypes.c_float), ("seed", ctypes.c_uint64),
                ("device", ctypes.c_char_p), ("dims", ctypes.c_uint32), ("depth", ctypes.c_float),
                ("grid_d", ctypes.c_uint32), ("cell_d", ctypes.c_float),
                ("fine_w", ctypes.c_uint32), ("fine_h", ctypes.c_uint32),
                ("fine_d", ctypes.c_uint32)]


class Metrics(ctypes.Structure):
    _fields_ = [("step", ctypes.c_uint64), ("alive", ctypes.c_uint32),
                ("groups", ctypes.c_uint32), ("catches", ctypes.c_uint32),
                ("polarization", ctypes.c_double), ("mean_nn", ctypes.c_double),
                ("mean_speed", ctypes.c_double), ("min_speed", ctypes.c_double),
                ("max_speed", ctypes.c_double), ("milling", ctypes.c_double)]


# boids.h's BOIDS_FIELD_BINS and BOIDS_FIELD_RANKS: the most bins of C(r), ranks of gamma(n)
FIELD_BINS, FIELD_RANKS = 256, 32


class FieldOptions(ctypes.Structure):
    _fields_ = [("r_max", ctypes.c_float), ("bins", ctypes.c_uint32),
                ("ranks", ctypes.c_uint32), ("margin", ctypes.c_float), ("flock", ctypes.c_uint32),
                ("xi_from", ctypes.c_float)]


class Field(ctypes.Structure):
    _fields_ = [("step", ctypes.c_uint64), ("alive", ctypes.c_uint32),
                ("bins", ctypes.c_uint32), ("ranks", ctypes.c_uint32), ("n_c", ctypes.c_uint32),
                ("dr", ctypes.c_double), ("r_max", ctypes.c_double), ("xi", ctypes.c_double),
                ("xi_speed", ctypes.c_double), ("diameter", ctypes.c_double),
                ("pairs", ctypes.c_double * FIELD_BINS),
                ("c_velocity", ctypes.c_double * FIELD_BINS),
                ("c_speed", ctypes.c_double * FIELD_BINS),
                ("gamma", ctypes.c_double * FIELD_RANKS)]


class Event(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_uint32), ("step", ctypes.c_uint32),
                ("subject", ctypes.c_uint32), ("other", ctypes.c_uint32),
                ("value", ctypes.c_float * 4)]


class Events(ctypes.Structure):
    _fields_ = [("events", ctypes.POINTER(Event)), ("count", ctypes.c_size_t),
                ("lost", ctypes.c_uint64)]


class Predator(ctypes.Structure):
    _fields_ = [("x", ctypes.c_float), ("y", ctypes.c_float), ("vx", ctypes.c_float),
                ("vy", ctypes.c_float), ("z", ctypes.c_float), ("vz", ctypes.c_float)]


class ModelLoadInfo(ctypes.Structure):
    _fields_ = [("first", ctypes.c_int), ("models", ctypes.c_int), ("compiled", ctypes.c_bool),
                ("seconds", ctypes.c_double), ("object", ctypes.c_char * 1024)]


# The model folders this process loaded (boids.load_model), for the programs it runs.
loaded_folders = []

PASSES = lib.boids_pass_count()


class Profile(ctypes.Structure):
    _fields_ = [("ms", ctypes.c_double * PASSES), ("samples", ctypes.c_uint64 * PASSES),
                ("step_ms", ctypes.c_double), ("dispatches_per_step", ctypes.c_double),
                ("barriers_per_step", ctypes.c_double), ("clears_per_step", ctypes.c_double)]


def check_mirror(cls, c_type, prefix=False):
    """Raises ImportError where the ctypes mirror `cls` is not laid out as the loaded library's
    struct `c_type`: every field at the library's offset, the size the library's (`prefix`: the
    mirror is the struct's first fields only). A package and a library of different versions
    then fail at import, not with wrong numbers later."""
    at = ctypes.c_size_t()
    where = f"{cls.__name__} mirrors {c_type}, but the library ({path})"
    for name, _ in cls._fields_:
        if lib.boids_type_layout(c_type.encode(), name.encode(), ctypes.byref(at)) != 0:
            raise ImportError(f"boids: {where} has no field {name}: the package and the "
                              "library are of different versions")
        if getattr(cls, name).offset != at.value:
            raise ImportError(f"boids: {where} has {name} at byte {at.value}, the mirror at "
                              f"{getattr(cls, name).offset}: the package and the library are "
                              "of different versions")
    lib.boids_type_layout(c_type.encode(), None, ctypes.byref(at))
    size = ctypes.sizeof(cls)
    if size > at.value or (size != at.value and not prefix):
        raise ImportError(f"boids: {where} is {at.value} bytes, the mirror {size}: the package "
                          "and the library are of different versions")


def _sig(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype, f.argtypes = restype, list(argtypes)


_p, _pp, _s, _i = ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_char_p, ctypes.c_int
_sp = ctypes.POINTER(ctypes.c_char_p)
_sig("boids_last_error_info", ctypes.POINTER(ErrorInfo))
_sig("boids_error_name", _s, _i)
_sig("boids_world_open", _i, _s, _sp, _sp, ctypes.c_size_t, _pp)
_sig("boids_world_destroy", None, _p)
_sig("boids_world_step", _i, _p, ctypes.c_uint32)
_sig("boids_world_finish", None, _p)
_sig("boids_world_interrupt", None, _p, ctypes.c_bool)
_sig("boids_world_get_info", None, _p, _p)
_sig("boids_world_info_size", ctypes.c_size_t)
_sig("boids_type_layout", _i, _s, _s, ctypes.POINTER(ctypes.c_size_t))
_sig("boids_world_neighbors_per_agent", ctypes.c_double, _p)
_sig("boids_world_read_columns", _i, _p, _sp, _pp, ctypes.c_size_t)
_sig("boids_world_write_columns", _i, _p, _sp, _pp, ctypes.c_size_t)
_sig("boids_world_get_param", _i, _p, _s, c_float_p)
_sig("boids_world_set_param", _i, _p, _s, _s)
_sig("boids_world_read_predators", _i, _p, ctypes.POINTER(Predator), ctypes.c_size_t)
_sig("boids_world_metrics", _i, _p, ctypes.POINTER(Metrics), ctypes.c_size_t)
_sig("boids_world_field", _i, _p, ctypes.POINTER(FieldOptions), ctypes.POINTER(Field),
     ctypes.c_size_t)
_sig("boids_world_image", _i, _p, ctypes.c_uint32, ctypes.c_uint32, _p)
_sig("boids_world_save_png", _i, _p, ctypes.c_uint32, ctypes.c_uint32, _s)
_sig("boids_world_take_events", _i, _p, ctypes.POINTER(Events))
_sig("boids_world_get_profile", None, _p, ctypes.POINTER(Profile))
_sig("boids_world_reset_profile", None, _p)
_sig("boids_model_count", _i)
_sig("boids_model_load", _i, _s, ctypes.c_void_p)
_sig("boids_model_name", _s, _i)
_sig("boids_model_summary", _s, _i)
_sig("boids_model_attributes", ctypes.c_uint, _i)
_sig("boids_model_params", ctypes.POINTER(ParamInfo), _i, ctypes.POINTER(ctypes.c_size_t))
_sig("boids_model_param_default", _i, _i, _s, c_float_p)
_sig("boids_attribute_count", _i)
_sig("boids_attribute_info_of", ctypes.POINTER(AttributeInfo), _i)
_sig("boids_pass_name", _s, _i)
_sig("boids_status_text", _s, _i)


def text(b):
    return b.decode("utf-8", "replace") if b else ""


def last_error():
    """The library's last error on this thread, as an Error."""
    e = lib.boids_last_error_info().contents
    return Error(text(lib.boids_error_name(e.id)), text(e.message), key=text(e.key),
                 related=text(e.related), path=text(e.path), line=e.line, index=e.index,
                 detail=text(e.detail))


def check(status):
    if status != 0:
        raise last_error()


def encoded(value, what):
    """value's UTF-8 bytes for C; a NUL inside (which C would cut the text at, so that
    "max_speed\\0junk" once set max_speed) is an error naming `what`, before any C call."""
    data = str(value).encode("utf-8")
    if b"\0" in data:
        raise Error("ARGUMENT", f"{what}: {str(value)!r} holds a NUL character", key=what)
    return data


def strings(values, what="setting"):
    """A C array of UTF-8 strings, and the bytes that must outlive it."""
    data = [encoded(v, what) for v in values]
    return (ctypes.c_char_p * max(len(data), 1))(*data), data


# Every struct mirrored above, and the C struct it mirrors (test_boids checks none is left out).
MIRRORS = {ErrorInfo: "boids_error", ParamInfo: "boids_param_info",
           AttributeInfo: "boids_attribute_info", WorldInfo: "boids_world_info",
           Metrics: "boids_metrics", FieldOptions: "boids_field_options", Field: "boids_field",
           Event: "boids_event", Events: "boids_events", Predator: "boids_predator",
           Profile: "boids_profile", ModelLoadInfo: "boids_model_load_info"}
for _mirror, _c_type in MIRRORS.items():
    check_mirror(_mirror, _c_type, prefix=_mirror is WorldInfo)
