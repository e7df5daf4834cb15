"""check_bits.py DIR: bits.tile's outputs (a --dump folder) against numpy.

Shifts are defined for every amount: by n outside [0, 32), a left shift
gives 0 and a right shift the sign. Exits 1 on any difference."""
import sys

import numpy as np

d = sys.argv[1]
a = np.load(d + "/x.npy").astype(np.int64)
b = np.load(d + "/y.npy").astype(np.int64)
n = np.load(d + "/n.npy").astype(np.int64)
out = np.load(d + "/out.out.npy").astype(np.int64)


def wrap(v):
    return ((v + 2**31) % 2**32) - 2**31


inside = (n >= 0) & (n < 32)
amount = np.where(inside, n, 0)
left = np.where(inside, wrap(a << amount), 0)
right = np.where(inside, a >> amount, a >> 31)
block = np.arange(a.size) // 128
rows = [
    ("and", a & b),
    ("or", a | b),
    ("xor", a ^ b),
    ("not", ~a),
    ("shl", left),
    ("shr", right),
    ("precedence", ((a & 255) == (b & 255)).astype(np.int64) + (a & (7 << 2))),
    ("index shift", block),
]
assert out.shape == (len(rows), a.size), out.shape
failed = 0
for k, (name, ref) in enumerate(rows):
    bad = int(np.count_nonzero(out[k] != ref))
    failed += bad != 0
    print(f"{name}: {bad} differ {'ok' if not bad else 'FAIL'}")
print(f"bits: {len(rows) - failed} passed, {failed} failed over {a.size} elements")
sys.exit(1 if failed else 0)
