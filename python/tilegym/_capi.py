"""The C API of libtilegym_bundle.so (include/tilegym/Bundle/tilegym_bundle.h)
through ctypes: its structures, the library and its entry points' types,
errors, and the conversion of Python arguments (torch tensors, View, ints,
floats) into its tg_arg. The classes users call are in tilegym/__init__.py.
"""
import ctypes
import importlib.machinery
import importlib.util
import os
import struct
import threading

TG_MAX_RANK = 8
TG_DYNAMIC = -1
DTYPES = ["f32", "f16", "bf16", "f64", "i1", "i8", "i32", "i64", "f8e4m3",
          "f8e5m2"]
STATUS = ["TG_SUCCESS", "TG_ERROR_NO_DRIVER", "TG_ERROR_NO_DEVICE",
          "TG_ERROR_CUDA", "TG_ERROR_INVALID_VALUE",
          "TG_ERROR_ARGUMENT_MISMATCH"]
VIEW, SCALAR = 0, 1


class TileGymError(RuntimeError):
    def __init__(self, status, message):
        self.status = STATUS[status] if 0 <= status < len(STATUS) else str(status)
        self.message = message
        super().__init__(f"{self.status}: {message}")


class Arg(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int), ("dtype", ctypes.c_int),
                ("data", ctypes.c_uint64), ("rank", ctypes.c_int32),
                ("sizes", ctypes.c_int64 * TG_MAX_RANK),
                ("strides", ctypes.c_int64 * TG_MAX_RANK),
                ("int_value", ctypes.c_int64), ("float_value", ctypes.c_double)]


# One Arg as bytes, packed by one struct call per argument on the launch
# path (ctypes field by field costs a microsecond per argument).
_ARG_STRUCT = struct.Struct(f"<iiQi4x{TG_MAX_RANK}q{TG_MAX_RANK}qqd")
assert _ARG_STRUCT.size == ctypes.sizeof(Arg)
# A view of rank r: its kind, dtype, data, rank, sizes and strides, the
# bytes past them left alone (the library reads `rank` of each).
_VIEW_STRUCTS = [struct.Struct(f"<iiQi4x{r}q{8 * (TG_MAX_RANK - r)}x{r}q")
                 for r in range(TG_MAX_RANK + 1)]


class Param(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("kind", ctypes.c_int),
                ("dtype", ctypes.c_int), ("rank", ctypes.c_int32),
                ("sizes", ctypes.c_int64 * TG_MAX_RANK),
                ("dims", ctypes.c_char_p * TG_MAX_RANK)]


class Dim3(ctypes.Structure):
    _fields_ = [("x", ctypes.c_uint32), ("y", ctypes.c_uint32),
                ("z", ctypes.c_uint32)]

    def tuple(self):
        return (self.x, self.y, self.z)


class KernelInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("entry", ctypes.c_char_p),
                ("num_warps", ctypes.c_int32), ("block", Dim3),
                ("shared_bytes", ctypes.c_uint32),
                ("num_params", ctypes.c_size_t), ("ptx", ctypes.c_char_p),
                ("cubin", ctypes.c_char_p)]


class ProgramInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("num_kernels", ctypes.c_size_t),
                ("num_params", ctypes.c_size_t)]


class View:
    """A view of device memory: dtype name, device address, sizes, strides
    (in elements; None means row-major)."""

    def __init__(self, dtype, data, sizes, strides=None):
        self.dtype, self.data = dtype, int(data)
        self.sizes = list(sizes)
        if strides is None:
            strides, acc = [], 1
            for s in reversed(self.sizes):
                strides.insert(0, acc)
                acc *= s
        self.strides = list(strides)


_TORCH_DTYPES = None


def _torch_dtype_name(t):
    global _TORCH_DTYPES
    if _TORCH_DTYPES is None:
        import torch
        _TORCH_DTYPES = {torch.float32: "f32", torch.float16: "f16",
                         torch.bfloat16: "bf16", torch.float64: "f64",
                         torch.bool: "i1", torch.int8: "i8",
                         torch.int32: "i32", torch.int64: "i64",
                         torch.float8_e4m3fn: "f8e4m3",
                         torch.float8_e5m2: "f8e5m2"}
    if t.dtype not in _TORCH_DTYPES:
        raise TileGymError(5, f"tensor dtype {t.dtype} has no TileGym type")
    return _TORCH_DTYPES[t.dtype]


def to_arg(value, param=None):
    """A tg_arg from a tensor, a View, or a Python number (scalar of the
    parameter's type, or i64/f32 when no parameter is known)."""
    a = Arg()
    if isinstance(value, View) or hasattr(value, "data_ptr"):
        if not isinstance(value, View):
            if value.dim() > TG_MAX_RANK:
                raise TileGymError(5, f"tensor of rank {value.dim()}")
            if not value.is_cuda:
                raise TileGymError(5, "tensor is not on a CUDA device")
            value = View(_torch_dtype_name(value), value.data_ptr(),
                         value.shape, value.stride())
        a.kind, a.dtype, a.data = VIEW, DTYPES.index(value.dtype), value.data
        a.rank = len(value.sizes)
        for d, (s, st) in enumerate(zip(value.sizes, value.strides)):
            a.sizes[d], a.strides[d] = int(s), int(st)
        return a
    a.kind = SCALAR
    what = f"parameter '{param['name']}'" if param and param.get("name") \
        else "a parameter"
    if not isinstance(value, (int, float, bool)) and not hasattr(
            value, "__index__") and not hasattr(value, "__float__"):
        raise TileGymError(5, f"{what}: expected a tensor, a tilegym.View or "
                           f"a number, got {type(value).__name__}")
    if param is not None and param["kind"] == "scalar":
        a.dtype = DTYPES.index(param["dtype"])
    else:
        a.dtype = DTYPES.index("f32" if isinstance(value, float) else "i64")
    if DTYPES[a.dtype] in ("f32", "f64"):
        a.float_value = float(value)
    else:
        a.int_value = int(value)
    return a


def _find_library():
    env = os.environ.get("TILEGYM_BUNDLE_LIB")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    for p in (os.path.join(here, "libtilegym_bundle.so"),
              os.path.join(here, "..", "libtilegym_bundle.so"),
              os.path.join(here, "..", "..", "build", "lib",
                           "libtilegym_bundle.so")):
        if os.path.exists(p):
            return p
    return "libtilegym_bundle.so"


def _load_fastlaunch(library_path):
    """tilegym._fastlaunch (python/tilegym/_fastlaunch.c), found beside the
    package or the bundle library; None when it is not there or
    $TILEGYM_NO_FASTLAUNCH is set, and launches go through ctypes."""
    if os.environ.get("TILEGYM_NO_FASTLAUNCH"):
        return None
    here = os.path.dirname(os.path.abspath(__file__))
    name = "_fastlaunch.abi3.so"
    for p in (os.path.join(here, name),
              os.path.join(os.path.dirname(os.path.abspath(library_path)),
                           name)):
        if os.path.exists(p):
            loader = importlib.machinery.ExtensionFileLoader(
                "tilegym._fastlaunch", p)
            spec = importlib.util.spec_from_file_location(
                "tilegym._fastlaunch", p, loader=loader)
            module = importlib.util.module_from_spec(spec)
            loader.exec_module(module)
            return module
    return None


class Library:
    _instance = None
    # tilegym.tune compiles and opens variants from several threads: one
    # thread loads the library (and the fast-launch module) while the
    # others wait. (A submodule imported inside a function by two threads
    # at once can be seen before its parent has the attribute: the
    # importlib.machinery imports are at the top for that reason.)
    _lock = threading.Lock()

    @classmethod
    def get(cls, path=None):
        with cls._lock:
            if cls._instance is None or path:
                cls._instance = cls(path or _find_library())
            return cls._instance

    def __init__(self, path):
        self.path = path
        L = self.lib = ctypes.CDLL(path)
        P, I, S, U64 = ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t, ctypes.c_uint64
        C = ctypes.c_char_p
        sig = {
            "tgb_last_error": (C, []), "tgb_format_version": (I, []),
            "tgb_open": (I, [C, ctypes.POINTER(P)]), "tgb_close": (I, [P]),
            "tgb_target": (C, [P]), "tgb_source": (C, [P]),
            "tgb_num_consts": (S, [P]),
            "tgb_const": (I, [P, S, ctypes.POINTER(C), ctypes.POINTER(C)]),
            "tgb_num_kernels": (S, [P]), "tgb_kernel_name": (C, [P, S]),
            "tgb_kernel_info_get": (I, [P, C, ctypes.POINTER(KernelInfo)]),
            "tgb_kernel_param": (I, [P, C, S, ctypes.POINTER(Param)]),
            "tgb_grid_program": (C, [P, C]),
            "tgb_check_args": (I, [P, C, ctypes.POINTER(Arg), S]),
            "tgb_grid": (I, [P, C, ctypes.POINTER(Arg), S, ctypes.POINTER(Dim3)]),
            "tgb_load": (I, [P, C, I, ctypes.POINTER(P)]),
            "tgb_kernel_image": (C, [P]), "tgb_kernel_image_is_cubin": (I, [P]),
            "tgb_launch": (I, [P, ctypes.POINTER(Arg), S, U64]),
            "tgb_plan_create": (I, [P, ctypes.POINTER(Arg), S, ctypes.POINTER(P)]),
            "tgb_plan_grid": (I, [P, ctypes.POINTER(Dim3)]),
            "tgb_plan_launch": (I, [P, U64]), "tgb_plan_destroy": (I, [P]),
            "tgb_synchronize": (I, [I]),
            "tgb_num_programs": (S, [P]), "tgb_program_name": (C, [P, S]),
            "tgb_program_info_get": (I, [P, C, ctypes.POINTER(ProgramInfo)]),
            "tgb_program_kernel": (C, [P, C, S]),
            "tgb_program_param": (I, [P, C, S, ctypes.POINTER(Param)]),
            "tgb_program_check_args": (I, [P, C, ctypes.POINTER(Arg), S]),
            "tgb_load_program": (I, [P, C, I, ctypes.POINTER(P)]),
            "tgb_program_launch": (I, [P, ctypes.POINTER(Arg), S, U64]),
            "tgb_num_variants": (S, [P]), "tgb_variant_tuned": (C, [P, S]),
            "tgb_select_variant": (I, [P, C, ctypes.POINTER(Arg), S,
                                       ctypes.POINTER(S)]),
            "tgb_set_rule": (I, [P, C, ctypes.POINTER(Arg), S, S]),
            "tgb_launch_variant": (I, [P, S, ctypes.POINTER(Arg), S, U64]),
            "tg_init": (I, []), "tg_last_error": (C, []),
        }
        for name, (res, args) in sig.items():
            f = getattr(L, name)
            f.restype, f.argtypes = res, args
        self.fastlaunch = _load_fastlaunch(path)

    def check(self, status, runtime=False):
        if status != 0:
            msg = (self.lib.tg_last_error() if runtime
                   else self.lib.tgb_last_error()).decode()
            raise TileGymError(status, msg)


def _name(kernel):
    return None if kernel is None else kernel.encode()


def _args_array(args):
    arr = (Arg * max(len(args), 1))(*args)
    return arr, len(args)
