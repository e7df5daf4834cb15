#!/usr/bin/env python3
"""The generality suite's matmul variants against the plain matmul and cuBLAS.

Kernels written as users write them (examples/matmul_nt.tile, bmm.tile,
matmul_bias_relu.tile) at the plain matmul's tiles (128x128x64), each timed
in one process with the plain matmul (examples/matmul.tile) at the same
per-matrix shape and with its cuBLAS peer (torch), on the same inputs:

    python3 generality.py --kit KIT [--size 4096] [--batch 4] [--rounds 5]

KIT/bundles holds KEY.tgb from make-generality-kit.sh. Each output is first
checked against a float64 reference (a wrong kernel is reported and not
timed). Timing as run.py: CUDA events, L2 flushed before each run, warm-up,
medians, implementations interleaved over rounds. Prints TFLOP/s, the ratio
to the plain matmul and to cuBLAS.
"""
import argparse
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(1, os.path.join(HERE, "..", "python"))
import run  # noqa: E402
import tilegym  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kit", required=True)
    ap.add_argument("--size", type=int, default=4096)
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    n, batch = args.size, args.batch
    torch.manual_seed(0)
    dev, dt = "cuda", torch.bfloat16
    a = torch.randn(n, n, device=dev, dtype=dt)
    b = torch.randn(n, n, device=dev, dtype=dt)
    w = torch.randn(n, n, device=dev, dtype=dt)  # [N, K]
    bias = torch.randn(n, device=dev, dtype=dt)
    ab = torch.randn(batch, n, n, device=dev, dtype=dt)
    bb = torch.randn(batch, n, n, device=dev, dtype=dt)
    c = torch.empty(n, n, device=dev, dtype=torch.float32)
    cb = torch.empty(batch, n, n, device=dev, dtype=torch.float32)

    def kernel(key):
        path = os.path.join(args.kit, "bundles", key + ".tgb")
        return tilegym.Bundle(path).load() if os.path.isdir(path) else None

    # The plain matmul: its key and float64 reference. Then per variant: its
    # name, key, arguments, output, float64 reference, cuBLAS peer (torch,
    # bf16 output) and flops.
    plain = ("matmul.bf16", lambda: a.double() @ b.double())
    cases = [
        ("matmul_nt", "matmul_nt.bf16", (a, w, c), c,
         lambda: a.double() @ w.double().t(),
         lambda: torch.nn.functional.linear(a, w), 2 * n ** 3),
        ("matmul_bias_relu", "matmul_bias_relu.bf16", (a, b, bias, c), c,
         lambda: torch.relu(a.double() @ b.double() + bias.double()),
         lambda: torch.relu(torch.addmm(bias, a, b)), 2 * n ** 3),
        ("bmm", "bmm.bf16", (ab, bb, cb), cb,
         lambda: torch.bmm(ab.double(), bb.double()),
         lambda: torch.bmm(ab, bb), 2 * batch * n ** 3),
    ]
    variants = sorted(k[:-4] for k in os.listdir(os.path.join(args.kit, "bundles")))
    timer = run.Timer()
    mm = kernel(plain[0])
    c.fill_(float("nan"))
    mm(a, b, c)
    err = run.rel_err(c, plain[1]())
    print(f"# matmul {n}^3 bf16: rel err {err:.2e}")
    print(f"{'kernel':36} {'TFLOP/s':>8} {'vs matmul':>10} {'vs cuBLAS':>10}")
    for name, key, kargs, out, ref, peer, flops in cases:
        for variant in [v for v in variants if v == key or v.startswith(key + ".")]:
            k = kernel(variant)
            out.fill_(float("nan"))
            k(*kargs)
            err = run.rel_err(out, ref())
            if not err < 1e-2:
                print(f"{variant}: WRONG, rel err {err:.2e}; not timed")
                continue
            stats = timer.interleaved(
                [lambda: k(*kargs), lambda: mm(a, b, c), peer], rounds=args.rounds)
            t_k, t_mm, t_peer = (s[0] for s in stats)
            # The plain matmul does one matrix; bmm `batch` of them.
            per = flops / (2 * n ** 3)
            tf = flops / t_k / 1e9
            print(f"{variant:36} {tf:8.1f} {t_mm * per / t_k:10.3f} "
                  f"{t_peer / t_k:10.3f}   (rel err {err:.1e}; matmul "
                  f"{2 * n ** 3 / t_mm / 1e9:.1f}, cuBLAS {flops / t_peer / 1e9:.1f} TFLOP/s)",
                  flush=True)


if __name__ == "__main__":
    main()
