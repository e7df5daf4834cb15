"""TileGym kernels as PyTorch operators.

    import tilegym, tilegym.torch
    ops = tilegym.torch.register(tilegym.compile("rmsnorm.tile"))
    y = ops.rmsnorm(x, w)                  # or torch.ops.tilegym.rmsnorm
    y = torch.compile(lambda x, w: ops.rmsnorm(x, w), fullgraph=True)(x, w)

Each kernel of a bundle becomes a `torch.library.custom_op` named
NAMESPACE::KERNEL, its schema read from the kernel's signature:
- views the kernel only reads are Tensor arguments;
- views it only writes are returned, allocated by the operator, when every
  dimension of theirs is static or named by a dimension of a view it reads
  (`y: view<[M, N], f32>` beside `x: view<[M, N], T>`); otherwise the
  caller passes them, as arguments the operator mutates (`Tensor(a!)`), and
  so are views it reads and writes;
- scalars are float or int arguments, with the source's defaults.
The fake (meta) implementation gives the outputs' shapes from the same
rule, so torch.compile traces through the operator without a graph break.
The real one launches on the current CUDA stream of the inputs' device,
without synchronizing or allocating outside the caching allocator, so that
it can be captured in a CUDA graph.
"""
import types

import torch

from . import TileGymError
from .schema import op_schema

_DTYPES = {"f32": torch.float32, "f16": torch.float16,
           "bf16": torch.bfloat16, "f64": torch.float64, "i1": torch.bool,
           "i8": torch.int8, "i32": torch.int32, "i64": torch.int64,
           "f8e4m3": torch.float8_e4m3fn, "f8e5m2": torch.float8_e5m2}


class _Operator:
    """One kernel: its launch and the shapes of its outputs."""

    def __init__(self, bundle, kernel, params, defaults):
        self.bundle, self.kernel_name = bundle, kernel
        for p in params:
            if p["kind"] == "scalar" and p["name"] in defaults:
                p["default"] = defaults[p["name"]]
        self.params = params
        self.schema, self.outputs, self.mutated = op_schema(params)
        self.inputs = [p["name"] for p in params
                       if p["name"] not in self.outputs]
        dtypes = {p["name"]: _DTYPES[p["dtype"]] for p in params}
        # Per output: its name, where its sizes come from, its dtype.
        self.allocations = [(name, shape, dtypes[name])
                            for name, shape in self.outputs.items()]
        self.loaded = {}  # device index -> tilegym.Kernel

    def _device(self, named):
        for name in self.inputs:
            v = named[name]
            if isinstance(v, torch.Tensor):
                return v.device
        raise TileGymError(5, f"operator {self.kernel_name} has no tensor "
                           f"argument to take its device from")

    def _allocate(self, named, device):
        return [torch.empty([s if isinstance(s, int) else
                             named[s[0]].shape[s[1]] for s in shape],
                            dtype=dtype, device=device)
                for _, shape, dtype in self.allocations]

    def run(self, *args):
        named = dict(zip(self.inputs, args))
        device = self._device(named)
        outs = self._allocate(named, device)
        named.update(zip(self.outputs, outs))
        kernel = self.loaded.get(device.index)
        if kernel is None:
            kernel = self.loaded[device.index] = self.bundle.load(
                self.kernel_name, device=device.index or 0)
        kernel(*[named[p["name"]] for p in self.params])
        return self._result(outs)

    def fake(self, *args):
        named = dict(zip(self.inputs, args))
        return self._result(self._allocate(named, self._device(named)))

    def _result(self, outs):
        if not outs:
            return None
        return outs[0] if len(outs) == 1 else tuple(outs)


_LIBRARIES = []  # torch.library.Library objects must outlive their ops


def register(bundle, namespace="tilegym", kernels=None):
    """Registers the kernels of `bundle` (a tilegym.Bundle; all of them, or
    those named in `kernels`) as operators NAMESPACE::KERNEL with a CUDA
    implementation and a fake one, and returns them as attributes of one
    object (also reachable as torch.ops.NAMESPACE.KERNEL). A name defined
    twice is torch.library's error: pick another namespace."""
    lib = torch.library.Library(namespace, "FRAGMENT")
    _LIBRARIES.append(lib)
    ops = types.SimpleNamespace()
    for name in kernels or bundle.kernels:
        if name not in bundle.kernels:
            raise TileGymError(5, f"the bundle has no kernel '{name}'; its "
                               f"kernels are {', '.join(bundle.kernels)}")
        op = _Operator(bundle, name, bundle.params(name),
                       bundle.defaults(name))
        lib.define(name + op.schema)
        lib.impl(name, op.run, "CUDA")
        torch.library.register_fake(f"{namespace}::{name}", op.fake, lib=lib)
        setattr(ops, name, getattr(getattr(torch.ops, namespace), name))
    return ops
