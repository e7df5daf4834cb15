"""check_ints.py DIR [BIG]: ints.tile's outputs (a --dump folder) against
numpy, BIG the value of its scalar `big` (default 5000000000).

i8 and i64 arithmetic wraps at the type's width; `/` truncates toward zero,
x / 0 == 0, x % 0 == x, MIN / -1 == MIN; shifts out of range give 0 (left)
or the sign (right). Exits 1 on any difference."""
import sys

import numpy as np

d = sys.argv[1]
a = np.load(d + "/s.npy").astype(np.int64)
b = np.load(d + "/t.npy").astype(np.int64)
c = np.load(d + "/w.npy").astype(np.int64)
out8 = np.load(d + "/out8.out.npy").astype(np.int64)
out64 = np.load(d + "/out64.out.npy").astype(np.int64)
sums = np.load(d + "/sums.out.npy").astype(np.int64)
BLOCK = 128
BIG = int(sys.argv[2]) if len(sys.argv) > 2 else 5000000000


def wrap(v, bits):
    v = np.asarray(v, dtype=object)
    return np.array([((int(x) + 2**(bits - 1)) % 2**bits) - 2**(bits - 1)
                     for x in v.ravel()], dtype=np.int64).reshape(v.shape)


def div(x, y, bits):
    out = []
    for p, q in zip(x.tolist(), y.tolist()):
        if q == 0:
            out.append(0)
        elif q == -1:
            out.append(-p)
        else:
            r = abs(p) // abs(q)
            out.append(r if (p < 0) == (q < 0) else -r)
    return wrap(out, bits)


def rem(x, m):
    return np.array([int(np.fmod(p, m)) for p in x.tolist()], dtype=np.int64)


def shl(x, n, bits):
    return np.where((n >= 0) & (n < bits), wrap([int(p) << int(min(max(k, 0), 63)) for p, k in zip(x, n)], bits), 0)


def shr(x, n, bits):
    return np.where((n >= 0) & (n < bits), x >> np.clip(n, 0, 63), np.where(x < 0, -1, 0))


n = a.size
blocks = (n + BLOCK - 1) // BLOCK
idx = np.arange(n) // BLOCK
rows8 = [
    ("i8 add", wrap(a + b, 8)),
    ("i8 mul", wrap(a * b, 8)),
    ("i8 div", div(a, b, 8)),
    ("i8 shifts", wrap(shr(a, np.full(n, 3), 8) ^ shl(b, np.full(n, 2), 8), 8)),
    ("i64 to i8", wrap(c, 8)),
    ("i8 through f32", wrap(np.trunc(a.astype(np.float32) * np.float32(0.75)).astype(np.int64), 8)),
]
rows64 = [
    ("i64 mul add", wrap(c.astype(object) * 3000000 + a, 64)),
    ("i64 shl", shl(c, b & 63, 64)),
    ("i64 div rem", wrap(div(c, b, 64).astype(object) + rem(c, 1000), 64)),
    ("i64 to i32", wrap(c, 32)),
    ("i64 through f64", c.astype(np.float64).astype(np.int64) - c),
    ("index meets i64", wrap(c.astype(object) + idx * BLOCK + BIG, 64)),
    ("i8 max, i32 sub", np.maximum(a, b) - (a - b)),
]
failed = 0
for rows, out in ((rows8, out8), (rows64, out64)):
    for k, (name, want) in enumerate(rows):
        bad = out[k] != want
        if bad.any():
            failed += 1
            i = int(np.argmax(bad))
            print(f"FAIL {name}: {int(bad.sum())} differ, first at {i}: "
                  f"got {out[k][i]}, want {want[i]} (a={a[i]}, b={b[i]}, c={c[i]})")
# Per block: the sum of w wraps at 64 bits; the i8 sum of s wraps at 8.
sum_c = wrap([int(x) for x in np.add.reduceat(c.astype(object), np.arange(0, n, BLOCK))], 64)
sum_a = wrap([int(x) for x in np.add.reduceat(a.astype(object), np.arange(0, n, BLOCK))], 8)
for name, got, want in (("i64 sum", sums[0], sum_c), ("i8 sum", sums[1], sum_a)):
    if (got != want).any():
        failed += 1
        print(f"FAIL {name}: got {got[:4]}, want {want[:4]}")
total = len(rows8) + len(rows64) + 2
print(f"ints: {total - failed} passed, {failed} failed over {n} elements")
sys.exit(1 if failed else 0)
