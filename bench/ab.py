#!/usr/bin/env python3
"""A/B timing of several TileGym bundles of one program against its peers.

For small differences (about 1%) that run.py's five rounds per case cannot
separate from drift: every implementation is timed once per round, over
many rounds (the order rotating each round), and the median over rounds of
each one's median is reported, with the spread of its per-round ratio to
the first peer.

    python3 ab.py --op softmax --shape 4096,16384 --dtype f32 \
        --bundles KIT/bundles/softmax.f32.16384.tgb /tmp/variant.tgb [--rounds 9]

Each bundle's output is checked against the reference first (rel err
printed; a wrong bundle is reported and left out of the timing).
"""
import argparse
import os
import statistics
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# The package: beside this file in a bench kit, in python/ in the tree.
sys.path.insert(1, os.path.join(HERE, "..", "python"))
import run  # noqa: E402
import tilegym  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--op", required=True)
    ap.add_argument("--shape", required=True, help="comma-separated, as run.py's cases")
    ap.add_argument("--dtype", default="f32")
    ap.add_argument("--bundles", nargs="+", required=True)
    ap.add_argument("--peers", default="triton", help="comma-separated peer names of run.py")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--out-dtype", default=None,
                    help="the bundles' output type where it is not the case's "
                         "(bf16: a matmul writing bf16 C)")
    ap.add_argument("--tol", type=float, default=None,
                    help="largest relative error accepted (default 1e-5 for f32, "
                         "1e-2 else; f32 dots on tensor cores round to tf32: 1e-3)")
    args = ap.parse_args()

    import triton_kernels
    run.TK = triton_kernels
    shape = tuple(int(s) for s in args.shape.split(","))
    gen = torch.Generator(device="cuda").manual_seed(0)
    case = run.make_case(args.op, shape, args.dtype, gen)
    ref = case["ref"]()
    out = case["out"]
    if args.out_dtype:
        out = torch.empty_like(out, dtype=run.DT[args.out_dtype])
    tol = args.tol if args.tol is not None else (1e-5 if args.dtype == "f32" else 1e-2)

    impls = []
    for name in args.peers.split(","):
        fn = case["peers"][name]
        impls.append((name, fn))
    stream = torch.cuda.current_stream().cuda_stream
    names = [os.path.basename(p.rstrip("/")) for p in args.bundles]
    for path, name in zip(args.bundles, names):
        if names.count(name) > 1:  # same file name in two folders
            name = os.path.join(os.path.basename(os.path.dirname(path.rstrip("/"))), name)
        k = tilegym.Bundle(path).load()
        plan = k.plan(*case["tg_args"](out))
        impls.append((name, lambda o, plan=plan: plan.launch(stream)))

    good = checked([(name, lambda fn=fn: fn(out)) for name, fn in impls], out, ref, tol)
    compare(good, args.rounds, f"{args.op} {args.shape} {args.dtype}", case.get("bytes"))


def checked(impls, out, ref, tol):
    """The (name, fn) of `impls` whose output matches `ref` within `tol`:
    `out` is poisoned before each runs (a fn returning a tensor is checked on
    that instead); each error is printed, a wrong one left out."""
    good = []
    for name, fn in impls:
        out.fill_(float("nan"))
        res = fn()
        torch.cuda.synchronize()
        err = run.rel_err(out if res is None else res, ref)
        print(f"{name:40s} rel_err {err:.2e}{'' if err < tol else '  WRONG: left out'}",
              flush=True)
        if err < tol:
            good.append((name, fn))
    return good


def compare(good, rounds, title, work=None):
    """Times every (name, fn) of `good` once per round, in rotating order
    (the first timed in a round can run slower); prints each one's median
    of round medians, GB/s when `work` (bytes) is given, and the median and
    spread of its per-round ratio to the first."""
    timer = run.Timer(target_ms=50.0, max_reps=50)
    times = {name: [] for name, _ in good}
    for r in range(rounds):
        for k in range(len(good)):
            name, fn = good[(k + r) % len(good)]
            times[name].append(timer(fn)[0] * 1e3)
    base = good[0][0]
    print(f"# {title}: median of {rounds} round medians;"
          f" ratio = {base} time / this time per round (min..max)")
    for name, _ in good:
        t = statistics.median(times[name])
        ratios = [b / x for b, x in zip(times[base], times[name])]
        speed = f"{work / (t * 1e-6) / 1e9:7.0f} GB/s" if work else ""
        print(f"{name:40s} {t:9.2f} us {speed}  x{statistics.median(ratios):.4f}"
              f" ({min(ratios):.4f}..{max(ratios):.4f})", flush=True)

if __name__ == "__main__":
    main()
