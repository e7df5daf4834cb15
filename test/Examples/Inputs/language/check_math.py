"""check_math.py DIR T: math.tile's outputs (a --dump folder, -D T=T)
against float64 numpy.

Each row's inputs are the dumped (already rounded) x and y; a row passes
when |out - ref| <= tol * scale everywhere, tol by T (the scale below). Products that
feed floor, ceil, round and trunc are rounded to T first, as the kernel
computes them in T. Prints one line per row and exits 1 on any failure."""
import math
import sys

import numpy as np

d, T = sys.argv[1], sys.argv[2]
a = np.load(d + "/x.npy").astype(np.float64)
b = np.load(d + "/y.npy").astype(np.float64)
out = np.load(d + "/out.out.npy").astype(np.float64)
tol = {"f64": 1e-14, "f32": 2e-6, "f16": 2e-3, "bf16": 1.6e-2}[T]


def q(v):
    """v rounded to T (to nearest, ties to even)."""
    if T == "f64":
        return v
    if T == "f16":
        return v.astype(np.float16).astype(np.float64)
    bits = v.astype(np.float32).view(np.uint32).astype(np.uint64)
    if T == "bf16":
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return bits.astype(np.uint32).view(np.float32).astype(np.float64)


erf = np.vectorize(math.erf)
away = lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5)  # round: half away from 0
# (name, reference, scale): a row passes when |out - ref| <= tol * scale.
# The scale is 1 + |ref|, or for a sum of terms 1 + the sum of their
# magnitudes: each term is rounded to T before they are added, so terms that
# cancel leave an error of the terms' size, not of the result's.
def row(name, *terms):
    ref = sum(terms)
    return name, ref, 1 + sum(np.abs(t) for t in terms)


rows = [
    row("sin", np.sin(a)),
    row("cos", np.cos(a)),
    row("tan", np.tan(a * 0.5)),
    row("pow", np.power(np.abs(a) + 0.5, b)),
    row("floor+ceil", np.floor(q(a * 3)), np.ceil(q(b * 3))),
    row("round-trunc", away(q(a * 3)), -np.trunc(q(b * 3))),
    row("log2+log1p", np.log2(np.abs(a) + 1), np.log1p(np.abs(b))),
    row("expm1", np.expm1(a * 0.5)),
    row("sigmoid", 1 / (1 + np.exp(-a * 4))),
    row("fma", a * b + 0.25),
    row("clamp", np.minimum(np.maximum(a, -0.5), b)),
    row("exp2-exp", np.exp2(b), -np.exp(a)),
    row("log+rsqrt", np.log(np.abs(a) + 0.25), 1 / np.sqrt(np.abs(b) + 0.25)),
    row("tanh+erf+sqrt", np.tanh(a), erf(b), np.sqrt(np.abs(a))),
]
assert out.shape == (len(rows), a.size), out.shape
failed = 0
for k, (name, ref, scale) in enumerate(rows):
    err = np.max(np.abs(out[k] - ref) / scale)
    ok = err <= tol
    failed += not ok
    print(f"{name}: max error {err:.3g} (tol {tol:g}) {'ok' if ok else 'FAIL'}")
print(f"math: {len(rows) - failed} passed, {failed} failed over {a.size} elements")
sys.exit(1 if failed else 0)
