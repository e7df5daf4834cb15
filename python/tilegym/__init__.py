"""TileGym from Python: compile .tile kernels, load their bundles and launch
them on PyTorch tensors, over libtilegym_bundle.so
(include/tilegym/Bundle/tilegym_bundle.h) through ctypes, without MLIR, LLVM
or a CUDA build:

    import tilegym
    b = tilegym.compile("rmsnorm.tile", defines={"T": "bf16"})  # tilegym-cc
    b = tilegym.Bundle("rmsnorm.tgb")     # or a bundle built elsewhere
    k = b.load()                          # the only kernel, on GPU 0
    k(x, w, y)                            # torch tensors; current stream;
                                          # eps takes the source's default
    k(x=x, w=w, y=y, eps=1e-6)            # by parameter name
    plan = k.plan(x, w, y)                # checked and packed once
    plan.launch()                         # just the driver call

Arguments are torch tensors (data_ptr, shape, stride in elements),
`View(dtype, data, sizes, strides)` for raw memory, or ints/floats for
scalar parameters. Every argument is checked against the kernel's signature
before the launch (element types, ranks, static sizes, dimensions of one
name equal, 32-bit offsets); every failure raises TileGymError with the
library's message. Needs only the standard library; torch is imported when
a tensor is passed. The library is found through $TILEGYM_BUNDLE_LIB, next
to this package, or in the source tree's build/lib.
"""
import ctypes
import json
import os
import shutil
import subprocess

from ._capi import (  # noqa: F401 (the package's names)
    DTYPES, STATUS, SCALAR, TG_DYNAMIC, TG_MAX_RANK, VIEW, Arg, Dim3,
    KernelInfo, Library, Param, ProgramInfo, TileGymError, View, _ARG_STRUCT,
    _VIEW_STRUCTS, _args_array, _name, to_arg)


class Bundle:
    def __init__(self, path, library=None):
        self.path = path
        self.L = library or Library.get()
        self.handle = ctypes.c_void_p()
        self.path = str(path)
        self.L.check(self.L.lib.tgb_open(self.path.encode(),
                                         ctypes.byref(self.handle)))
        self._kernels = {}

    def close(self):
        if self.handle:
            h, self.handle = self.handle, ctypes.c_void_p()
            self.L.check(self.L.lib.tgb_close(h))

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    @property
    def target(self):
        return self.L.lib.tgb_target(self.handle).decode()

    @property
    def source(self):
        return self.L.lib.tgb_source(self.handle).decode()

    @property
    def consts(self):
        out = {}
        for i in range(self.L.lib.tgb_num_consts(self.handle)):
            n, v = ctypes.c_char_p(), ctypes.c_char_p()
            self.L.check(self.L.lib.tgb_const(self.handle, i, ctypes.byref(n),
                                              ctypes.byref(v)))
            out[n.value.decode()] = v.value.decode()
        return out

    @property
    def kernels(self):
        return [self.L.lib.tgb_kernel_name(self.handle, i).decode()
                for i in range(self.L.lib.tgb_num_kernels(self.handle))]

    def info(self, kernel=None):
        i = KernelInfo()
        self.L.check(self.L.lib.tgb_kernel_info_get(self.handle, _name(kernel),
                                                    ctypes.byref(i)))
        return {"name": i.name.decode(), "entry": i.entry.decode(),
                "num_warps": i.num_warps, "block": i.block.tuple(),
                "shared_bytes": i.shared_bytes, "num_params": i.num_params,
                "ptx": i.ptx.decode(), "cubin": i.cubin.decode()}

    def _read_params(self, count, getter, name):
        out = []
        for idx in range(count):
            p = Param()
            self.L.check(getter(self.handle, _name(name), idx, ctypes.byref(p)))
            entry = {"name": p.name.decode(),
                     "kind": "view" if p.kind == VIEW else "scalar",
                     "dtype": DTYPES[p.dtype], "rank": p.rank,
                     "sizes": list(p.sizes[:p.rank])}
            dims = [p.dims[d].decode() if p.dims[d] else ""
                    for d in range(p.rank)]
            if any(dims):
                entry["dims"] = dims
            out.append(entry)
        return out

    def params(self, kernel=None):
        """The kernel's parameters: name, kind, dtype, rank, sizes, dims
        and, for views, "access" ("read", "write" or "readwrite", from the
        manifest; absent when the bundle does not say)."""
        out = self._read_params(self.info(kernel)["num_params"],
                                self.L.lib.tgb_kernel_param, kernel)
        name = self.info(kernel)["name"]
        for k in self._manifest().get("kernels", []):
            if k.get("name") == name:
                for p, m in zip(out, k.get("params", [])):
                    if p["kind"] == "view" and m.get("name") == p["name"] \
                            and m.get("access"):
                        p["access"] = m["access"]
        return out

    def _manifest(self):
        """The manifest of kernels: a bundle of variants' default one (the
        reader checked that every variant has the same signatures)."""
        def read(folder):
            with open(os.path.join(folder, "manifest.json")) as f:
                return json.load(f)
        try:
            top = read(self.path)
            if "variants" in top:
                chosen = top["variants"][top.get("default", 0)]
                return read(os.path.join(self.path, chosen["folder"]))
            return top
        except (OSError, ValueError, KeyError, IndexError, TypeError):
            return {}

    @property
    def variants(self):
        """What each variant was tuned with ("BM=128 BN=64"), in order; [""]
        for a bundle of kernels, its own only variant."""
        return [self.L.lib.tgb_variant_tuned(self.handle, i).decode()
                for i in range(self.L.lib.tgb_num_variants(self.handle))]

    def select_variant(self, kernel, *values):
        """The variant a launch of `kernel` (or program) with these values
        runs, by the bundle's dispatch table."""
        params = (self.program_params(kernel) if kernel in self.programs
                  else self.params(kernel))
        args = [to_arg(v, params[i] if i < len(params) else None)
                for i, v in enumerate(values)]
        arr, n = _args_array(args)
        out = ctypes.c_size_t()
        self.L.check(self.L.lib.tgb_select_variant(
            self.handle, _name(kernel), arr, n, ctypes.byref(out)))
        return out.value

    @property
    def programs(self):
        """The source's programs (`program NAME = a, b;`) by name, each the
        list of its kernels in launch order."""
        out = {}
        for i in range(self.L.lib.tgb_num_programs(self.handle)):
            name = self.L.lib.tgb_program_name(self.handle, i).decode()
            info = ProgramInfo()
            self.L.check(self.L.lib.tgb_program_info_get(
                self.handle, name.encode(), ctypes.byref(info)))
            out[name] = [self.L.lib.tgb_program_kernel(
                self.handle, name.encode(), k).decode()
                for k in range(info.num_kernels)]
        return out

    def program_params(self, program=None):
        """The program's merged signature: parameters of one name across its
        kernels are one, in order of first appearance."""
        info = ProgramInfo()
        self.L.check(self.L.lib.tgb_program_info_get(
            self.handle, _name(program), ctypes.byref(info)))
        return self._read_params(info.num_params,
                                 self.L.lib.tgb_program_param, program)

    def defaults(self, kernel=None):
        """The scalar parameters' defaults from the source, by name; for a
        program, those of all its kernels."""
        manifest = self._manifest()
        name = kernel or self.kernels[0]
        names = self.programs.get(name, [name])
        out = {}
        for k in manifest.get("kernels", []):
            if k.get("name") in names:
                for p in k.get("params", []):
                    if "default" in p and "name" in p:
                        out.setdefault(p["name"], p["default"])
        return out

    def grid_program(self, kernel=None):
        s = self.L.lib.tgb_grid_program(self.handle, _name(kernel)).decode()
        if not s:
            self.L.check(4)
        return s

    def _args(self, kernel, values):
        params = self.params(kernel)
        return [to_arg(v, params[i] if i < len(params) else None)
                for i, v in enumerate(values)]

    def check_args(self, kernel, *values):
        arr, n = _args_array(self._args(kernel, values))
        self.L.check(self.L.lib.tgb_check_args(self.handle, _name(kernel), arr, n))

    def grid(self, kernel, *values):
        arr, n = _args_array(self._args(kernel, values))
        g = Dim3()
        self.L.check(self.L.lib.tgb_grid(self.handle, _name(kernel), arr, n,
                                         ctypes.byref(g)))
        return g.tuple()

    def load(self, kernel=None, device=0):
        """A kernel, or a program of the bundle by its name, loaded on GPU
        `device` and ready to call; without a name, the bundle's only kernel,
        or else its only program."""
        h = ctypes.c_void_p()
        # No name: the only kernel, or else the only program, as the tools.
        if kernel is None and len(self.kernels) != 1 and len(self.programs) == 1:
            kernel = next(iter(self.programs))
        if kernel is not None and kernel in self.programs:
            self.L.check(self.L.lib.tgb_load_program(
                self.handle, kernel.encode(), device, ctypes.byref(h)))
            return Program(self, kernel, h)
        self.L.check(self.L.lib.tgb_load(self.handle, _name(kernel), device,
                                         ctypes.byref(h)))
        return Kernel(self, kernel, h)


def _current_stream():
    import torch
    return torch.cuda.current_stream().cuda_stream


def _arguments(name, params, values, named, defaults):
    """A kernel's argument list: positional values, then parameters by name,
    then the source's defaults (`defaults()`, read only when one is
    needed) for the scalars still missing."""
    values = list(values)
    names = [p["name"] for p in params]
    if len(values) > len(names):
        raise TileGymError(5, f"kernel '{name or ''}' takes "
                           f"{len(names)} arguments, got {len(values)}")
    for key, value in named.items():
        if key not in names:
            raise TileGymError(5, f"kernel has no parameter named "
                               f"'{key}'; its parameters are "
                               f"{', '.join(names)}")
        i = names.index(key)
        if i < len(values) and values[i] is not None:
            raise TileGymError(5, f"parameter '{key}' given twice")
        values += [None] * max(0, i + 1 - len(values))
        values[i] = value
    defaults = defaults() if (
        len(values) < len(names) or None in values) else {}
    values += [None] * (len(names) - len(values))
    for i, v in enumerate(values):
        if v is None:
            if names[i] not in defaults:
                raise TileGymError(5, f"parameter '{names[i]}' has no "
                                   f"value and no default")
            p = params[i]
            d = defaults[names[i]]
            values[i] = float(d) if p["dtype"] in ("f32", "f64") else int(d)
    return values


class Kernel:
    def __init__(self, bundle, name, handle):
        self.bundle, self.name, self.handle = bundle, name, handle
        self.L = bundle.L
        self._params = bundle.params(name)
        self._launcher = None

    @property
    def image(self):
        return self.L.lib.tgb_kernel_image(self.handle).decode()

    @property
    def is_cubin(self):
        return bool(self.L.lib.tgb_kernel_image_is_cubin(self.handle))

    def _values(self, values, named):
        """Positional values, then parameters by name, then the source's
        defaults for the scalars still missing."""
        return _arguments(self.name, self._params, values, named,
                          lambda: self.bundle.defaults(self.name))

    def _arr(self, values, named=None):
        if named or len(values) < len(self._params):
            values = self._values(values, named or {})
        args = [to_arg(v, self._params[i] if i < len(self._params) else None)
                for i, v in enumerate(values)]
        return _args_array(args)

    def __call__(self, *values, stream=None, **named):
        if not named and len(values) == len(self._params):
            launcher = self._launcher
            if launcher is None:
                launcher = self._launcher = Launcher(self)
                launcher._torch()
            if launcher.fast is not None:  # The C path, one call.
                status = launcher.fast(launcher.state, values, stream)
                if status:
                    self.L.check(status)
                return None
            return launcher(values, stream)
        arr, n = self._arr(values, named)
        values = list(values) + list(named.values())
        if stream is None:
            stream = _current_stream() if any(hasattr(v, "data_ptr") for v in values) else 0
        self.L.check(self.L.lib.tgb_launch(self.handle, arr, n, int(stream)))

    def plan(self, *values, **named):
        arr, n = self._arr(values, named)
        h = ctypes.c_void_p()
        self.L.check(self.L.lib.tgb_plan_create(self.handle, arr, n,
                                                ctypes.byref(h)))
        return Plan(self, h)


class Launcher:
    """The launch path of a kernel called with every argument in order: the
    argument array is allocated once and each call packs the tensors into
    it and hands it to tgb_launch, which checks it against the signature in
    C before the launch. Kernel.__call__ packs with tilegym._fastlaunch, in
    C, when it was built (python3-dev: `fast` and `state` are then set);
    calling the Launcher itself packs here, one struct call per tensor. The
    stream is the current one of the first tensor's device. Anything but a
    CUDA tensor of a known dtype where a view goes takes to_arg, which says
    what is wrong with it."""

    def __init__(self, kernel):
        self.kernel = kernel
        self.n = len(kernel._params)
        self.buf = bytearray(_ARG_STRUCT.size * max(self.n, 1))
        self.arr = (Arg * max(self.n, 1)).from_buffer(self.buf)
        self.base = ctypes.addressof(self.arr)
        # Each view's Arg offset in the array (-1: a scalar).
        self.offsets = [i * _ARG_STRUCT.size if p["kind"] == "view" else -1
                        for i, p in enumerate(kernel._params)]
        self.params = kernel._params
        # The raw entry point: ctypes converts ints fastest.
        self.launch = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p,
                                       ctypes.c_void_p, ctypes.c_size_t,
                                       ctypes.c_uint64)(
            ctypes.cast(kernel.L.lib.tgb_launch, ctypes.c_void_p).value)
        self.handle = kernel.handle.value
        self.tensor = self.raw_stream = self.fast = None

    def _torch(self):
        try:
            import torch
        except ImportError:  # Views only: every argument takes to_arg.
            self.tensor = type(None)
            return
        self.tensor = torch.Tensor
        self.raw_stream = getattr(torch._C, "_cuda_getCurrentRawStream", None) \
            or (lambda d: torch.cuda.current_stream(d).cuda_stream)
        for t, name in ((torch.float32, "f32"), (torch.float16, "f16"),
                        (torch.bfloat16, "bf16"), (torch.float64, "f64"),
                        (torch.bool, "i1"), (torch.int8, "i8"),
                        (torch.int32, "i32"), (torch.int64, "i64")):
            _TORCH_CODES[t] = DTYPES.index(name)
        fast = self.kernel.L.fastlaunch
        try:
            getters = _descriptors(self.tensor, ("dtype", "shape"))
            methods = _descriptors(self.tensor,
                                   ("stride", "data_ptr", "get_device"))
        except AttributeError:  # Not the torch it was written for.
            fast = None
        if fast is not None:
            state = (ctypes.cast(self.kernel.L.lib.tgb_launch,
                                 ctypes.c_void_p).value, self.handle,
                     self.base, bytes(o >= 0 for o in self.offsets),
                     self.tensor, dict(_TORCH_CODES), self.raw_stream,
                     self._slow, getters, methods)
            self.state, self.fast = state, fast.launch

    def _slow(self, i, v):
        ctypes.memmove(self.base + i * _ARG_STRUCT.size,
                       ctypes.byref(to_arg(v, self.params[i])),
                       _ARG_STRUCT.size)

    def __call__(self, values, stream):
        if self.tensor is None:
            self._torch()
        buf, tensor, codes = self.buf, self.tensor, _TORCH_CODES
        device = -1
        for i, (v, offset) in enumerate(zip(values, self.offsets)):
            gpu = v.get_device() if offset >= 0 and type(v) is tensor else -1
            if gpu >= 0:
                if device >= 0 and gpu != device:
                    raise ValueError(f"argument {i + 1} is on GPU {gpu}, an "
                                     f"earlier one on GPU {device}: a launch "
                                     f"runs on one GPU")
                shape = v.shape
                rank = len(shape)
                dtype = codes.get(v.dtype)
                if dtype is not None and rank <= TG_MAX_RANK:
                    device = gpu
                    _VIEW_STRUCTS[rank].pack_into(
                        buf, offset, VIEW, dtype, v.data_ptr(), rank, *shape,
                        *v.stride())
                    continue
            self._slow(i, v)
        stream = (self.raw_stream(device) if device >= 0 else 0) \
            if stream is None else int(stream)
        status = self.launch(self.handle, self.base, self.n, stream)
        if status:
            self.kernel.L.check(status)


def _descriptors(cls, names):
    """The attributes `names` as `cls` defines them (the descriptors an
    instance's lookup finds: getters, unbound methods), for
    tilegym._fastlaunch to call directly."""
    out = []
    for name in names:
        for base in cls.__mro__:
            if name in base.__dict__:
                out.append(base.__dict__[name])
                break
        else:
            raise AttributeError(f"{cls.__name__} has no '{name}'")
    return tuple(out)


# torch dtype -> DTYPES index, filled when the first Launcher runs.
_TORCH_CODES = {}


class Program(Kernel):
    """Kernels launched in order on one stream, called like one kernel with
    the program's merged parameters (temporaries included)."""

    def __init__(self, bundle, name, handle):
        self.bundle, self.name, self.handle = bundle, name, handle
        self.L = bundle.L
        self._params = bundle.program_params(name)
        self.kernels = bundle.programs[name]

    def __call__(self, *values, stream=None, **named):
        arr, n = self._arr(values, named)
        values = list(values) + list(named.values())
        if stream is None:
            stream = _current_stream() if any(hasattr(v, "data_ptr") for v in values) else 0
        self.L.check(self.L.lib.tgb_program_launch(self.handle, arr, n,
                                                   int(stream)))

    @property
    def image(self):
        raise TileGymError(5, "a program has one image per kernel; load "
                           "its kernels to see them")

    is_cubin = image

    def plan(self, *values, **named):
        raise TileGymError(5, "plans are per kernel; launch a program by "
                           "calling it")


class Plan:
    def __init__(self, kernel, handle):
        self.kernel, self.handle, self.L = kernel, handle, kernel.L
        self._launch = self.L.lib.tgb_plan_launch

    @property
    def grid(self):
        g = Dim3()
        self.L.check(self.L.lib.tgb_plan_grid(self.handle, ctypes.byref(g)))
        return g.tuple()

    def launch(self, stream=0):
        st = self._launch(self.handle, stream)
        if st:
            self.L.check(st)

    def destroy(self):
        if self.handle:
            h, self.handle = self.handle, None
            self.L.check(self.L.lib.tgb_plan_destroy(h))


def synchronize(device=0):
    L = Library.get()
    L.check(L.lib.tgb_synchronize(device))


def _find_compiler():
    env = os.environ.get("TILEGYM_CC")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    tree = os.path.join(here, "..", "..", "build", "bin", "tilegym-cc")
    return shutil.which("tilegym-cc") or (tree if os.path.exists(tree) else None)


# CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR and _MINOR of the driver API.
_CC_MAJOR, _CC_MINOR = 75, 76


def target_for_capability(major, minor):
    """The tilegym-cc target for a GPU of compute capability major.minor:
    sm_90a on Hopper (9.0: wgmma), sm_80 on Ampere and Ada (8.x: sm_80 code
    runs on every 8.x chip)."""
    if major == 9 and minor == 0:
        return "sm_90a"
    if major == 8:
        return "sm_80"
    raise TileGymError(4, f"target='auto': GPU of compute capability "
                       f"{major}.{minor}; tilegym-cc compiles for sm_80 "
                       f"(8.x) and sm_90 or sm_90a (9.0): name one")


def gpu_target(device=0):
    """The tilegym-cc target for GPU `device`, from the CUDA driver."""
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        raise TileGymError(4, "target='auto' needs the CUDA driver "
                           "(libcuda.so.1) and a GPU; name a target: "
                           "'sm_80', 'sm_90' or 'sm_90a'") from None
    dev, major, minor = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
    if (cuda.cuInit(0) or cuda.cuDeviceGet(ctypes.byref(dev), device) or
            cuda.cuDeviceGetAttribute(ctypes.byref(major), _CC_MAJOR, dev) or
            cuda.cuDeviceGetAttribute(ctypes.byref(minor), _CC_MINOR, dev)):
        raise TileGymError(4, f"target='auto': the CUDA driver finds no GPU "
                           f"{device}; name a target: 'sm_80', 'sm_90' or "
                           f"'sm_90a'")
    return target_for_capability(major.value, minor.value)


def compile(source, out=None, target="auto", defines=None, compiler=None,
            cache_dir=None):
    """Compiles `source` (a .tile file) with tilegym-cc into the bundle
    `out` (default: SOURCE without .tile, plus .tgb) for `target` ("auto":
    GPU 0's) and returns it opened. `defines` overrides file-level consts
    ({"T": "bf16"}). tilegym-cc comes from `compiler`, $TILEGYM_CC, PATH or
    the source tree's build/bin; its diagnostics are in the error.
    `cache_dir` is tilegym-cc's compile cache, where a compile seen before
    (the same source, includes, options and compiler) is copied from:
    default $TILEGYM_CACHE_DIR/compile, else ~/.cache/tilegym/compile;
    False for none. A cache that cannot be written is skipped."""
    cc = compiler or _find_compiler()
    if not cc:
        raise TileGymError(4, "tilegym-cc not found: put it on PATH or set "
                           "TILEGYM_CC")
    if out is None:
        out = (source[:-5] if source.endswith(".tile") else source) + ".tgb"
    if target == "auto":
        target = gpu_target()
    cmd = [cc, source, f"--target={target}", "--emit=bundle", "-o", out]
    for k, v in (defines or {}).items():
        cmd += ["-D", f"{k}={v}"]
    if cache_dir is None:
        root = os.environ.get("TILEGYM_CACHE_DIR") or os.path.join(
            os.path.expanduser("~"), ".cache", "tilegym")
        cache_dir = os.path.join(root, "compile")
    if cache_dir:
        cmd.append(f"--cache-dir={cache_dir}")
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise TileGymError(4, f"tilegym-cc failed on {source}:\n"
                           f"{r.stderr.strip()}")
    return Bundle(out)
