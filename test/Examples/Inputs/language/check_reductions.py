"""check_reductions.py DIR: reductions.tile's outputs (a --dump folder)
against numpy (float64 products, a NaN product stored as -1; argmax/argmin
take the first index, and a NaN is the extreme of its row, as in numpy).
Exits 1 on any failure."""
import sys

import numpy as np

d = sys.argv[1]
x = np.load(d + "/x.npy").astype(np.float64)
y = np.load(d + "/y.npy").astype(np.int64)
rows = np.load(d + "/rows.out.npy").astype(np.float64)
cols = np.load(d + "/cols.out.npy")
M, W = x.shape
t = x.copy()
for r in range(0, M, 3):
    first = (r * 7) % W
    t[r, first] = np.nan
    if first + 9 < W:
        t[r, first + 9] = np.nan
# i32 % truncates toward zero, as C does: -3 % 2 == -1.
small = np.fmod(y[:, :8], 2) + 1
p = np.prod(1 + t * 0.1, axis=1)
want = np.stack([
    np.where(np.isnan(p), -1.0, p),
    np.argmax(t, axis=1),
    np.argmin(t, axis=1),
    np.any(t > 1.9, axis=1),
    np.all(t > -1.95, axis=1),
    np.argmax(y, axis=1),
    np.argmin(y, axis=1),
    np.prod(small, axis=1),
], axis=1).astype(np.float64)
failed = 0
names = ["prod", "argmax", "argmin", "any", "all", "argmax i32", "argmin i32",
         "prod i32"]
for k, name in enumerate(names):
    ref, got = want[:, k], rows[:, k]
    if k == 0:
        bad = np.abs(got - ref) > 1e-5 * np.abs(ref)
    else:
        bad = got != ref
    n = int(np.count_nonzero(bad))
    failed += n != 0
    print(f"{name}: {n} of {M} rows differ {'ok' if not n else 'FAIL'}")
for k, (name, f) in enumerate([("argmax cols", np.argmax), ("argmin cols", np.argmin)]):
    n = int(np.count_nonzero(cols[k] != np.stack([
        f(x[c * 16:(c + 1) * 16], axis=0) for c in range(cols.shape[1])])))
    failed += n != 0
    print(f"{name}: {n} differ {'ok' if not n else 'FAIL'}")
mix = [int(want[:, k].sum()) for k in (3, 4)]
print(f"any true in {mix[0]} rows, all true in {mix[1]} of {M}")
print(f"reductions: {len(names) + 2 - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
