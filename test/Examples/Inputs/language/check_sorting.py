"""check_sorting.py DIR: sorting.tile's outputs (a --dump folder) against
numpy, exactly: NaN (injected into every third row at columns r % W and
5r % W) sorts above every number, last ascending and first descending.
Exits 1 on any failure."""
import sys

import numpy as np

d = sys.argv[1]
x = np.load(d + "/x.npy").astype(np.float64)
y = np.load(d + "/y.npy").astype(np.int64)
M, W = x.shape
K = np.load(d + "/top.out.npy").shape[1]
t = x.copy()
for r in range(0, M, 3):
    t[r, r % W] = np.nan
    t[r, (r * 5) % W] = np.nan
up = np.sort(t, axis=1)  # NaN last
down = up[:, ::-1]
want = {"up": up, "down": down, "top": down[:, :K],
        "iup": np.sort(y, axis=1)}
failed = 0
for name, w in want.items():
    got = np.load(d + "/" + name + ".out.npy").astype(np.float64)
    if not np.array_equal(got, w.astype(np.float64), equal_nan=True):
        failed += 1
        print("FAIL", name)
print("sorting: %d passed, %d failed" % (len(want) - failed, failed))
sys.exit(1 if failed else 0)
