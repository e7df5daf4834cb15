"""check_addressing.py DIR: addressing.tile's outputs (a --dump folder)
against numpy, exactly (every output is a copy, a count, twice a copy or
x + 1 rounded to f32).
Exits 1 on any failure."""
import sys

import numpy as np

d = sys.argv[1]
W, C = 8, 16


def load(name):
    return np.load(d + "/" + name + ".npy")


x = load("x").astype(np.float64)
k = load("k").astype(np.int64)
off = load("off").astype(np.int64)
cube = load("cube").astype(np.float64)
M, N = x.shape
B = cube.shape[0]
rows = np.arange(M)
want = {}
want["picked"] = x[rows, k]
want["chunk"] = np.stack([x[r, (k[r] // C) * C:(k[r] // C) * C + C]
                          for r in rows])
pad = np.full((M, N + 3 * W), 7.0)
pad[:, W:W + N] = x
want["window"] = np.stack([pad[r, off[r] + W:off[r] + 2 * W] for r in rows])
placed = np.zeros((M, N))
for r in rows:
    for e in range(W):
        c = off[r] + e
        if 0 <= c < N:
            placed[r, c] = 2 * want["window"][r, e]
want["placed"] = placed
b = k % B
want["plane"] = cube[b, rows, :]
planes = np.zeros((B, M, N))
planes[b, rows, :] = load("x") + np.float32(1)  # rounded to f32
want["planes"] = planes
positive = np.sum(x > 0, axis=1)
want["counts"] = np.stack([positive, positive % 5], axis=1)
failed = 0
for name, w in want.items():
    got = load(name + ".out").astype(np.float64)
    if got.shape != w.shape or not np.array_equal(got, w.astype(np.float64)):
        failed += 1
        print("FAIL", name)
print("addressing: %d passed, %d failed" % (len(want) - failed, failed))
sys.exit(1 if failed else 0)
