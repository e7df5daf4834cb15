# The torch launch path of python/tilegym (Launcher) with a stand-in for
# torch, through the fake driver: tensors packed by tilegym._fastlaunch in
# C, or by Python with TILEGYM_NO_FASTLAUNCH=1, must reach the driver as
# the same parameters; anything that is not a CUDA tensor of a known dtype
# takes the Python fallback, which names what is wrong. Usage:
# fastlaunch.py BUNDLE
import os
import sys
import types

sys.dont_write_bytecode = True  # no __pycache__ in python/
sys.path.insert(0, os.environ["TILEGYM_PYTHON_DIR"])


class DType:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "torch." + self.name


torch = types.ModuleType("torch")
for n in ("float32", "float16", "bfloat16", "float64", "bool", "int8",
          "int32", "int64", "float8_e4m3fn", "float8_e5m2", "complex64"):
    setattr(torch, n, DType(n))


class Tensor:
    """What Launcher reads of a torch.Tensor."""

    def __init__(self, ptr, shape, strides, dtype=torch.float32, cuda=True,
                 gpu=0):
        self._gpu = gpu
        self._shape, self._strides, self._ptr = tuple(shape), tuple(strides), ptr
        self._dtype, self._cuda = dtype, cuda
        self.device = types.SimpleNamespace(type="cuda" if cuda else "cpu",
                                            index=0)

    # Getters, as torch's are (descriptors on the type).
    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    is_cuda = property(lambda self: self._cuda)

    def stride(self):
        return self._strides

    def data_ptr(self):
        return self._ptr

    def get_device(self):
        return self._gpu if self.is_cuda else -1

    def dim(self):
        return len(self.shape)

    def size(self):
        return self.shape


torch.Tensor = Tensor
torch._C = types.SimpleNamespace(_cuda_getCurrentRawStream=lambda d: 0x5700 + d)
sys.modules["torch"] = torch

import tilegym  # noqa: E402
from steps import out  # noqa: E402


fast = tilegym.Library.get().fastlaunch
out(f"fastlaunch {'on' if fast is not None else 'off'}")
k = tilegym.Bundle(sys.argv[1]).load()
a = Tensor(0xa000, [3000], [1])
b = Tensor(0xb000, [3000], [1])
c = Tensor(0xc000, [3000], [1])
k(a, b, c)
out("launch: ok")
k(Tensor(0xa000, [10], [2]), Tensor(0xb000, [10], [2]),
  Tensor(0xc000, [10], [2]), stream=0x77)
out("launch strided on a stream: ok")
import numpy  # noqa: E402
k(a, b, c, stream=numpy.int64(0x78))  # anything with an index, as int() takes
out("launch on a numpy stream: ok")
for label, bad in (("dtype", Tensor(0xc000, [3000], [1], torch.complex64)),
                   ("cpu", Tensor(0xc000, [3000], [1], cuda=False)),
                   ("rank", Tensor(0xc000, [3000, 1], [1, 1])),
                   ("other gpu", Tensor(0xc000, [3000], [1], gpu=1)),
                   ("not a tensor", "c")):
    try:
        k(a, b, bad)
        out(f"{label}: launched")
    except (tilegym.TileGymError, TypeError, ValueError) as e:
        out(f"{label}: {type(e).__name__}: {e}")
