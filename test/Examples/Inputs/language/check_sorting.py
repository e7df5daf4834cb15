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
# Indices: by value (NaN above every number), ties by index, lower first.
nan = np.isnan(t)
val = np.where(nan, 0.0, t)
col = np.broadcast_to(np.arange(W), t.shape)
arg_up = np.stack([np.lexsort((col[r], val[r], nan[r])) for r in range(M)])
arg_down = np.stack([np.lexsort((col[r], -val[r], ~nan[r])) for r in range(M)])
arg_idown = np.stack([np.lexsort((col[r], -y[r])) for r in range(M)])
want = {"up": up, "down": down, "top": down[:, :K],
        "iup": np.sort(y, axis=1), "arg_up": arg_up,
        "arg_top": arg_down[:, :K], "arg_idown": arg_idown}
failed = 0
for name, w in want.items():
    got = np.load(d + "/" + name + ".out.npy").astype(np.float64)
    if not np.array_equal(got, w.astype(np.float64), equal_nan=True):
        failed += 1
        print("FAIL", name)
print("sorting: %d passed, %d failed" % (len(want) - failed, failed))
sys.exit(1 if failed else 0)
