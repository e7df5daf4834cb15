"""check_math.py DIR T: math.tile's outputs (a --dump folder, -D T=T)
against float64 numpy.

Each row's inputs are the dumped (already rounded) x and y; a row passes
when |out - ref| <= tol * (1 + |ref|) everywhere, tol by T. Products that
feed floor, ceil, round and trunc are rounded to T first, as the kernel
computes them in T. Prints one line per row and exits 1 on any failure."""
import math
import sys

import numpy as np

d, T = sys.argv[1], sys.argv[2]
a = np.load(d + "/x.npy").astype(np.float64)
b = np.load(d + "/y.npy").astype(np.float64)
out = np.load(d + "/out.out.npy").astype(np.float64)
tol = {"f32": 2e-6, "f16": 2e-3, "bf16": 1.6e-2}[T]


def q(v):
    """v rounded to T (to nearest, ties to even)."""
    if T == "f16":
        return v.astype(np.float16).astype(np.float64)
    bits = v.astype(np.float32).view(np.uint32).astype(np.uint64)
    if T == "bf16":
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return bits.astype(np.uint32).view(np.float32).astype(np.float64)


erf = np.vectorize(math.erf)
away = lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5)  # round: half away from 0
rows = [
    ("sin", np.sin(a)),
    ("cos", np.cos(a)),
    ("tan", np.tan(a * 0.5)),
    ("pow", np.power(np.abs(a) + 0.5, b)),
    ("floor+ceil", np.floor(q(a * 3)) + np.ceil(q(b * 3))),
    ("round-trunc", away(q(a * 3)) - np.trunc(q(b * 3))),
    ("log2+log1p", np.log2(np.abs(a) + 1) + np.log1p(np.abs(b))),
    ("expm1", np.expm1(a * 0.5)),
    ("sigmoid", 1 / (1 + np.exp(-a * 4))),
    ("fma", a * b + 0.25),
    ("clamp", np.minimum(np.maximum(a, -0.5), b)),
    ("exp2-exp", np.exp2(b) - np.exp(a)),
    ("log+rsqrt", np.log(np.abs(a) + 0.25) + 1 / np.sqrt(np.abs(b) + 0.25)),
    ("tanh+erf+sqrt", np.tanh(a) + erf(b) + np.sqrt(np.abs(a))),
]
assert out.shape == (len(rows), a.size), out.shape
failed = 0
for k, (name, ref) in enumerate(rows):
    err = np.max(np.abs(out[k] - ref) / (1 + np.abs(ref)))
    ok = err <= tol
    failed += not ok
    print(f"{name}: max error {err:.3g} (tol {tol:g}) {'ok' if ok else 'FAIL'}")
print(f"math: {len(rows) - failed} passed, {failed} failed over {a.size} elements")
sys.exit(1 if failed else 0)
