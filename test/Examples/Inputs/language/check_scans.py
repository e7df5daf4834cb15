"""check_scans.py DIR T R: scans.tile's outputs (a --dump folder) against
numpy: float scans in float64 within what T's rounding of each output and
the order of the additions allow (f16 and bf16 accumulate in f32), i32
scans exactly (wrapping), running max and min exactly. R is the rows per
block (the column scans run within a block). Exits 1 on any failure."""
import sys

import numpy as np

d, T, R = sys.argv[1], sys.argv[2], int(sys.argv[3])
eps = {"f64": 2.0**-53, "f32": 2.0**-24, "f16": 2.0**-11, "bf16": 2.0**-8}[T]
x = np.load(d + "/x.npy").astype(np.float64)
y = np.load(d + "/y.npy").astype(np.int64)
out = np.load(d + "/out.out.npy").astype(np.float64)
iout = np.load(d + "/iout.out.npy").astype(np.int64)
M, W = x.shape


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


def exclusive(f, a, identity):
    r = f(a, axis=1)
    return np.concatenate([np.full((a.shape[0], 1), identity), r[:, :-1]],
                          axis=1)


def blocks(f, a):
    """f down the columns within each block of R rows."""
    return np.concatenate([f(a[s:s + R], axis=0) for s in range(0, M, R)])


p = q(1 + x * 0.0625)  # x * 2^-4 is exact in T: one rounding
absx = np.abs(x)
# (name, got, want, scale): |got - want| <= tol * scale.
rows = [
    ("cumsum", out[:, 0], np.cumsum(x, axis=1), np.cumsum(absx, axis=1)),
    ("cumsum exclusive", out[:, 1], exclusive(np.cumsum, x, 0.0),
     exclusive(np.cumsum, absx, 0.0)),
    ("cumprod", out[:, 2], np.cumprod(p, axis=1), np.cumprod(p, axis=1)),
    ("cummax", out[:, 3], np.maximum.accumulate(x, axis=1), None),
    ("cummin exclusive", out[:, 4],
     exclusive(np.minimum.accumulate, x, np.inf), None),
    ("cumsum axis 0", out[:, 5], blocks(np.cumsum, x),
     blocks(np.cumsum, absx)),
]
failed = 0
for name, got, want, scale in rows:
    if scale is None:
        ok = np.array_equal(got, want)
    else:
        # Each partial is rounded to T once; the accumulation (f32 at
        # least) adds up to W roundings of f32 relative to the magnitudes.
        tol = eps + W * 2.0**-24
        ok = np.all(np.abs(got - want) <= tol * scale + 1e-30)
    if not ok:
        failed += 1
        print("FAIL", name, np.max(np.abs(got - want)))
wrap = lambda v: ((v + 2**31) % 2**32) - 2**31
imin = np.iinfo(np.int32).min
icum = wrap(np.cumsum(y, axis=1))
imax = np.concatenate([np.concatenate(
    [np.full((1, W), imin), np.maximum.accumulate(y[s:s + R], axis=0)[:-1]])
    for s in range(0, M, R)])
for name, got, want in (("i32 cumsum", iout[:, 0], icum),
                        ("i32 cummax exclusive axis 0", iout[:, 1], imax)):
    if not np.array_equal(got, want):
        failed += 1
        print("FAIL", name)
print("scans %s: %d passed, %d failed" % (T, 8 - failed, failed))
sys.exit(1 if failed else 0)
