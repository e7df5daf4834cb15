"""check_loops.py DIR LIMIT: loops.tile's outputs (a --dump folder)
against the same control flow in Python (float64 sums). Exits 1 on any
difference."""
import sys

import numpy as np

d, limit = sys.argv[1], int(sys.argv[2])
x = np.load(d + "/x.npy").astype(np.float64)
y = np.load(d + "/y.out.npy").astype(np.float64)
counts = np.load(d + "/counts.out.npy")
failed = 0
for r in range(x.shape[0]):
    if r % 5 == 4:
        want_y, want_c = -x[r], [-1, -1, -1, -1]
    else:
        c, steps = r + 1, 0
        while c != 1 and steps != limit:
            c = c // 2 if c % 2 == 0 else 3 * c + 1
            steps += 1
        acc, last = np.zeros(x.shape[1]), 0
        for j in range(0, 10, 2):
            if j * r > 30:
                break
            acc += x[r] * j
            last = j
        pairs = sum(i for i in range(r + 3))
        want_y, want_c = acc, [steps, pairs, last, 7]
    err = np.max(np.abs(y[r] - want_y) / (1 + np.abs(want_y)))
    if err > 1e-5 or list(counts[r]) != want_c:
        failed += 1
        print(f"row {r}: y error {err:.3g}, counts {list(counts[r])} want {want_c}")
print(f"loops: {x.shape[0] - failed} rows passed, {failed} failed")
sys.exit(1 if failed else 0)
