#!/usr/bin/env python3
# tilegym-run as tilegym-tune sees it, on a pretend GPU, for tests without
# one: the space BLOCK x W; BLOCK=1024 W=8 does not compile, BLOCK=256 W=4
# fails verification, and the time is |BLOCK - 512| / 100 + 8 / W + 1 ms
# (fastest: BLOCK=512 W=8). Each call is logged to $FAKE_LOG.
import os
import sys

args = sys.argv[1:]
with open(os.environ["FAKE_LOG"], "a") as log:
    log.write(" ".join(a for a in args if not a.endswith(".tile")) + "\n")
defs = dict(a.split("=", 1) for a in args if "=" in a and not a.startswith("-"))
block, warps = int(defs.get("BLOCK", 256)), int(defs.get("W", 4))
if "--info" in args:
    print("cuda driver: CUDA 13.0\ngpu 0: Fake GPU, compute capability 9.0, "
          "132 SMs, 139.8 GiB, target sm_90a\nptxas: /fake/ptxas\n"
          "auto backend: gpu, target sm_90a (GPU 0)")
elif "--list-tune" in args:
    print("BLOCK=256,512,1024\nW=4,8")
elif "--compile-only" in args:
    if block == 1024 and warps == 8:
        print("k.tile:3:5: error: the kernel needs 300000 bytes of shared "
              "memory per block, more than the 232448 a block can have",
              file=sys.stderr)
        sys.exit(1)
    print("compiled for sm_90a")
elif "--bench" in args:
    ms = abs(block - 512) / 100 + 8 / warps + 1
    print(f"verdict: PASS\nbench: k median {ms:.4f} ms (min 1, max 9, "
          f"20 runs)")
else:
    if block == 256 and warps == 4:
        print("y: FAIL max_err=3.0e+00 tol=1.0e-05\nverdict: FAIL")
        sys.exit(1)
    print("verdict: PASS")
