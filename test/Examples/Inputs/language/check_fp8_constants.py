#!/usr/bin/env python3
"""fp8_constants.tile's outputs (DIR/e5.out.npy, DIR/e4.out.npy, widened to
f32 by the dump): casts of constant infinities and of a finite value past
the largest saturate to the largest finite fp8 value of their sign, NaN
stays NaN. Prints "fp8 constants: N passed, N failed"; exit 1 on a failure."""
import sys

import numpy as np

d = sys.argv[1]
want = {"e5": [57344.0, -57344.0, np.nan, 57344.0],
        "e4": [448.0, -448.0, np.nan, 448.0]}
passed = failed = 0
for name, expected in want.items():
    got = np.load(f"{d}/{name}.out.npy").astype(np.float64)
    for i, (g, w) in enumerate(zip(got, expected)):
        ok = (np.isnan(g) and np.isnan(w)) or g == w
        passed += ok
        failed += not ok
        if not ok:
            print(f"FAIL {name}[{i}]: got {g}, expected {w}")
print(f"fp8 constants: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
