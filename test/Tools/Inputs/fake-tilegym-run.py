#!/usr/bin/env python3
# tilegym-run as tilegym-tune sees it, on a pretend GPU, for tests without
# one: the space BLOCK x W; BLOCK=1024 W=8 does not compile, BLOCK=256 W=4
# fails verification, and the time is |BLOCK - 512| / 100 + 8 / W + 1 ms
# (fastest: BLOCK=512 W=8). Each call is logged to $FAKE_LOG. Its kernel
# is k(x: view<[N], f32>) (--size N=..., default 1000); --bundle-out writes
# a bundle of it that tilegym-runner reads (with a PTX file that is none).
import json
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
    if "--bundle-out" in args:
        out = args[args.index("--bundle-out") + 1]
        os.makedirs(out)
        with open(os.path.join(out, "k.ptx"), "w") as f:
            f.write("// not PTX\n")
        kernel = {"name": "k", "entry": "k", "num_warps": warps,
                  "block": [warps * 32, 1, 1], "shared_bytes": 0,
                  "ptx": "k.ptx",
                  "params": [{"kind": "view", "dtype": "f32", "name": "x",
                              "rank": 1, "sizes": [-1], "dims": ["N"],
                              "access": "readwrite"}],
                  "grid": {"ops": [{"op": "dim", "arg": 0, "axis": 0},
                                   {"op": "const", "value": block},
                                   {"op": "cdiv", "lhs": 0, "rhs": 1},
                                   {"op": "const", "value": 1}],
                           "results": [2, 3, 3]}}
        manifest = {"format": "tilegym-bundle", "version": 1,
                    "source": [a for a in args if a.endswith(".tile")][0],
                    "target": "sm_90a", "view_abi": "memref-expanded",
                    "consts": {"BLOCK": str(block), "W": str(warps),
                               "T": defs.get("T", "f32")},
                    "kernels": [kernel]}
        with open(os.path.join(out, "manifest.json"), "w") as f:
            json.dump(manifest, f)
    print("compiled for sm_90a")
elif "--bench" in args:
    ms = abs(block - 512) / 100 + 8 / warps + 1
    n = defs.get("N", "1000")
    print(f"kernel k (k.tile) backend=gpu check=none seed=1\n"
          f"args: x[N={n}] f32 inout uniform(-1, 1)\nverdict: PASS\n"
          f"bench: k median {ms:.4f} ms (min 1, max 9, 20 runs)")
else:
    if block == 256 and warps == 4:
        print("y: FAIL max_err=3.0e+00 tol=1.0e-05\nverdict: FAIL")
        sys.exit(1)
    print("verdict: PASS")
