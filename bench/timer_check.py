#!/usr/bin/env python3
"""Checks bench/run.py's timer on one softmax: Triton and TileGym bundles
timed on the same tensors under several harnesses and L2 flushes.

A DRAM-bound kernel must start each timed run from an L2 that holds none
of its inputs, and the harness must not favour the implementation timed
first or last. Each mode below times Triton's softmax and the given bundles
in rounds, the order rotating, and prints each one's median and its ratio
to Triton, with wall-clock marks so that a clock/power log taken beside it
(nvidia-smi -lms) can be lined up:

  (default)        ab.py's compare (H1), run.py's Timer.interleaved (H2),
                   and rounds of 20 or 50 flushed runs with and without
                   warm-ups (H3-H5): the harnesses should agree
  --flushes        H2 with run.py's write flush, with an idle spin after
                   it, and with a read flush: what the flush's dirty lines
                   cost the timed kernel
  --sticky         H2 fresh, after 50 untimed runs of torch.compile's
                   softmax (it loads its input evict_last), and after
                   cuCtxResetPersistingL2Cache; run.py's Timer resets
                   before every flush, so the times should not move
  --compile-state  H2 while another process holds a CUDA context, and
                   after a torch.compile of an unrelated function
  --thermal        H2 after 30 s idle and after 30 s of load
  --carve          allocate as run.py does before the case (its flush
                   buffer, then two 2 GiB blocks freed)

Run on the GPU machine from the repository, with a kit made by
bench/make-kit.sh (run, tilegym and triton_kernels are imported from it):

    python3 bench/timer_check.py --kit KIT --shape 8192,4096 --bundles A.tgb B.tgb [--flushes]

Output of each mode on the H200: docs/results/bench-timing.md.
"""
import argparse
import os
import statistics
import sys
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kit", required=True,
                    help="a bench kit (bench/make-kit.sh): run.py, tilegym/, triton_kernels.py "
                         "and libtilegym_bundle.so are taken from it")
    ap.add_argument("--shape", required=True, help="softmax rows,columns, e.g. 8192,4096")
    ap.add_argument("--dtype", default="f32", help="f32 or bf16 (default f32)")
    ap.add_argument("--bundles", nargs="+", required=True,
                    help="softmax bundles to time beside Triton's kernel")
    ap.add_argument("--rounds", type=int, default=21, help="rounds per measurement (default 21)")
    ap.add_argument("--carve", action="store_true",
                    help="allocate as run.py does: the flush buffer, then two 2 GiB "
                         "blocks freed before the case (its tensors come out of them)")
    ap.add_argument("--only-h2", action="store_true", help="only run.py's Timer.interleaved (H2)")
    ap.add_argument("--flushes", action="store_true",
                    help="H2 with the write flush, with a spin after it, with a read flush")
    ap.add_argument("--compile-state", action="store_true",
                    help="H2 before and after another process holds a CUDA context, "
                         "and after a torch.compile of an unrelated function")
    ap.add_argument("--sticky", action="store_true",
                    help="H2 before and after running torch.compile's softmax (untimed), "
                         "then after cuCtxResetPersistingL2Cache")
    ap.add_argument("--thermal", action="store_true",
                    help="H2 hot, after 30 s idle, then after 30 s of load")
    args = ap.parse_args()
    import torch  # after parsing: --help needs no GPU stack
    sys.path.insert(0, args.kit)
    import run
    import tilegym
    import triton_kernels
    run.TK = triton_kernels

    shape = tuple(int(s) for s in args.shape.split(","))
    if args.carve:
        keep = run.Timer()  # noqa: F841 -- its flush buffer first, as in run.py
        src = torch.randn(1 << 29, device="cuda")
        dst = torch.empty_like(src)
        dst.copy_(src)
        torch.cuda.synchronize()
        del src, dst
    stream = torch.cuda.current_stream().cuda_stream
    gen = torch.Generator(device="cuda").manual_seed(0)
    case = run.make_case("softmax", shape, args.dtype, gen)
    out, x = case["out"], case["inputs"][0]
    impls = [("triton", lambda: triton_kernels.softmax(x, out))]
    for p in args.bundles:
        plan = tilegym.Bundle(p).load().plan(*case["tg_args"](out))
        impls.append((os.path.basename(p.rstrip("/")), lambda plan=plan: plan.launch(stream)))
    names = [n for n, _ in impls]
    fns = [f for _, f in impls]

    def show(label, meds):
        print(f"# {label} [{time.time():.2f}]", flush=True)
        for n, m in zip(names, meds):
            print(f"  {n:36s} {m:8.2f} us  x{meds[0] / m:.4f}", flush=True)

    def h2(label, timer=None):
        """run.py's interleaved rounds (reps once, then 20 flushed runs per
        implementation per round)."""
        res = (timer or run.Timer()).interleaved(fns, rounds=args.rounds)
        show(label, [r[0] * 1e3 for r in res])

    def rotating(label, measure):
        """Rounds over the implementations, the order rotating each round;
        `measure(fn)` is one round's median in ms."""
        t = {n: [] for n in names}
        for r in range(args.rounds):
            for k in range(len(fns)):
                i = (k + r) % len(fns)
                t[names[i]].append(measure(fns[i]) * 1e3)
        show(label, [statistics.median(t[n]) for n in names])

    print(f"x at {x.data_ptr():#x}, out at {out.data_ptr():#x}", flush=True)
    print(f"mark start {time.time():.2f}", flush=True)
    if args.sticky:
        import ctypes
        import glob
        cuda = ctypes.CDLL("libcuda.so.1")

        h2("H2 fresh")
        g = torch.compile(lambda t: torch.softmax(t, dim=-1), dynamic=False)
        for _ in range(50):
            g(x)
        torch.cuda.synchronize()
        h2("H2 after 50 untimed runs of torch.compile's softmax")
        h2("H2 again")
        r = cuda.cuCtxResetPersistingL2Cache()
        torch.cuda.synchronize()
        h2(f"H2 after cuCtxResetPersistingL2Cache (CUresult {r})")
        for _ in range(50):
            g(x)
        torch.cuda.synchronize()
        h2("H2 after 50 more compiled runs")
        src = [f for f in glob.glob("/tmp/torchinductor_*/**/*.py", recursive=True)
               if "softmax" in open(f).read() or "tl.load" in open(f).read()]
        for f in src:
            for line in open(f):
                if "tl.load" in line or "tl.store" in line:
                    print("inductor:", line.strip()[:160])
        return
    if args.compile_state:
        import subprocess
        h2("H2 alone")
        other = subprocess.Popen([sys.executable, "-c",
                                  "import torch, time; torch.zeros(1, device='cuda'); "
                                  "torch.cuda.synchronize(); time.sleep(25)"])
        time.sleep(8)
        h2("H2 while another process holds a CUDA context")
        other.wait()
        h2("H2 after it exited")
        g = torch.compile(lambda t: t * 2 + 1, dynamic=False)
        g(torch.ones(1024, device="cuda"))
        torch.cuda.synchronize()
        h2("H2 after torch.compile of t * 2 + 1")
        time.sleep(5)
        h2("H2 5 s later")
        return
    if args.flushes:
        class SpinTimer(run.Timer):
            """The write flush, then a spin kernel (no memory traffic) of
            `cycles` before the start event: idle time for the L2."""
            def __init__(self, cycles):
                super().__init__()
                self.cycles = cycles

            def clear_l2(self):
                self.flush.zero_()
                torch.cuda._sleep(self.cycles)

        class ReadTimer(run.Timer):
            """The flush reads 256 MiB instead of writing it: the L2 is left
            holding clean lines."""
            def clear_l2(self):
                self.flush.view(torch.int64).sum()

        for label, timer in [("write flush (run.py)", run.Timer()),
                             ("write flush + 10 us spin", SpinTimer(20000)),
                             ("write flush + 40 us spin", SpinTimer(80000)),
                             ("read flush", ReadTimer()),
                             ("write flush (run.py), again", run.Timer())]:
            h2("H2 " + label, timer)
            del timer
        return
    if args.thermal:
        for i in range(3):
            h2(f"H2 under load {i}")
        time.sleep(30)
        h2("H2 after 30 s idle")
        h2("H2 again")
        t0 = time.time()
        while time.time() - t0 < 30:
            for f in fns:
                for _ in range(50):
                    f()
            torch.cuda.synchronize()
        h2("H2 after 30 s of load")
        time.sleep(30)
        h2("H2 after 30 s idle")
        return
    if args.only_h2:
        h2("H2 run.Timer.interleaved")
        return
    # H1: ab.py's compare (per round: warm-up 3 unflushed, 2 synced runs, 50 flushed)
    timer = run.Timer(target_ms=50.0, max_reps=50)
    rotating("H1 ab.compare", lambda f: timer(f)[0])
    del timer
    h2("H2 run.Timer.interleaved")
    timer = run.Timer()
    rotating("H3 rounds of 20 flushed, no warm-up",
             lambda f: run.stats(timer.samples(f, 20))[0])

    def warmed(f):  # ab's warm-up alone: 3 unflushed runs before each batch
        for _ in range(3):
            f()
        return run.stats(timer.samples(f, 20))[0]
    rotating("H4 H3 + 3 unflushed warm-ups per batch", warmed)
    rotating("H5 rounds of 50 flushed", lambda f: run.stats(timer.samples(f, 50))[0])
    print(f"mark end {time.time():.2f}", flush=True)


if __name__ == "__main__":
    main()
