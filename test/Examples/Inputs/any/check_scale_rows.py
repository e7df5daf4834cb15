# Recomputes scale_rows from the .npy files of `tilegym-run --dump DIR` with
# numpy and compares with the kernel's output and the reference's.
import sys
import numpy as np

d = sys.argv[1]
x, idx, y = (np.load(f"{d}/{n}.npy") for n in ("x", "idx", "y"))
out, ref = np.load(f"{d}/y.out.npy"), np.load(f"{d}/y.ref.npy")
alpha = float(open(f"{d}/args.txt").read().split("=")[1])
want = y.astype(np.float64) + alpha * x.astype(np.float64)[idx]
err = np.abs(out - want).max()
assert out.dtype == np.float32 and ref.dtype == np.float64, (out.dtype, ref.dtype)
assert err < 1e-5 and np.abs(ref - want).max() < 1e-12, err
print(f"numpy agrees: max error {err:.2e} over {out.size} elements")
