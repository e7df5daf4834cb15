"""check_stdlib.py DIR: stdlib.tile's outputs (a --dump folder) against
float64 numpy. Exits 1 on any failure."""
import math
import sys

import numpy as np

d = sys.argv[1]
x = np.load(d + "/x.npy").astype(np.float64)
y = np.load(d + "/y.out.npy").astype(np.float64)
erf = np.vectorize(math.erf)
e = np.exp(x - x.max(axis=1, keepdims=True))
rows = [
    ("relu", np.maximum(x, 0)),
    ("leaky_relu", np.where(x > 0, x, 0.1 * x)),
    ("silu", x / (1 + np.exp(-x))),
    ("gelu", 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))),
    ("gelu_erf", 0.5 * x * (1 + erf(x / math.sqrt(2)))),
    ("softplus", np.log1p(np.exp(x))),
    ("mean", np.broadcast_to(x.mean(axis=1, keepdims=True), x.shape)),
    ("inv_rms", x / np.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-5)),
    ("softmax", e / e.sum(axis=1, keepdims=True)),
]
failed = 0
for k, (name, ref) in enumerate(rows):
    err = np.max(np.abs(y[:, k] - ref) / (1 + np.abs(ref)))
    ok = err <= 2e-6
    failed += not ok
    print(f"{name}: max error {err:.3g} {'ok' if ok else 'FAIL'}")
print(f"stdlib: {len(rows) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
