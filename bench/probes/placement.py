#!/usr/bin/env python3
"""Does where the tensors land change the softmax timings? For each of
several placements (a pad of P MiB allocated before the case's tensors, the
allocator's cache emptied in between), times Triton and TileGym bundles in
interleaved rounds as bench/ab.py does.

    python3 placement.py --kit KIT --shape 8192,4096 --dtype f32 \
        --bundles B1.tgb B2.tgb [--pads 0,2,6,...] [--rounds 21]

Session 8: run.py and ab.py disagreed by 2-3% on the same kernels (Triton
and the bundle without a prefetch); the question is whether the buffers'
addresses are the cause.
"""
import argparse
import os
import sys

import torch


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kit", required=True)
    ap.add_argument("--shape", required=True)
    ap.add_argument("--dtype", default="f32")
    ap.add_argument("--bundles", nargs="+", required=True)
    ap.add_argument("--pads", default="0,2,6,14,30,62,126,254")
    ap.add_argument("--rounds", type=int, default=21)
    args = ap.parse_args()
    sys.path.insert(0, args.kit)
    import ab
    import run
    import tilegym
    import triton_kernels
    run.TK = triton_kernels

    shape = tuple(int(s) for s in args.shape.split(","))
    stream = torch.cuda.current_stream().cuda_stream
    kernels = [(os.path.basename(p.rstrip("/")), tilegym.Bundle(p).load()) for p in args.bundles]
    summary = []
    for pad_mb in (int(s) for s in args.pads.split(",")):
        torch.cuda.synchronize()
        torch.cuda.empty_cache()
        pad = torch.empty(max(pad_mb, 1) << 20 if pad_mb else 0, dtype=torch.uint8, device="cuda")
        gen = torch.Generator(device="cuda").manual_seed(0)
        case = run.make_case("softmax", shape, args.dtype, gen)
        ref, out = case["ref"](), case["out"]
        x = case["inputs"][0]
        impls = [("triton", lambda: triton_kernels.softmax(x, out))]
        for name, k in kernels:
            plan = k.plan(*case["tg_args"](out))
            impls.append((name, lambda plan=plan: plan.launch(stream)))
        print(f"## pad {pad_mb} MiB: x at {x.data_ptr():#x}, out at {out.data_ptr():#x}", flush=True)
        good = ab.checked(impls, out, ref, 1e-5 if args.dtype == "f32" else 1e-2)
        ab.compare(good, args.rounds, f"softmax {args.shape} {args.dtype} pad {pad_mb}", case["bytes"])
        del case, ref, out, x, impls, good, pad
    
if __name__ == "__main__":
    main()
