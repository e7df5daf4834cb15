#!/usr/bin/env python3
"""TileGym against its peers, in one process, on the same inputs.

For each op, shape and dtype: builds the inputs once (torch, random normal),
computes a reference in float32 or float64, then for each implementation
checks its output (poisoned first) against the reference and times it.

Implementations: TileGym (bundles through libtilegym_bundle.so, see
python/tilegym), PyTorch eager, torch.compile (gelu, softmax), cuBLAS through
torch.matmul, SDPA with the flash and cuDNN backends, and the plain Triton
kernels of triton_kernels.py.

Timing: CUDA events around each run, an L2 flush before each (evict_last
lines made normal, then a 256 MiB write), warm-up first, the median of many runs (fewer for slow kernels),
taken in interleaved rounds whose order rotates (Timer.interleaved). The
flush also keeps host launch overhead out of the numbers: it is queued
before the start event, so the GPU is still busy with it while the host
launches the kernel.

    python3 run.py --kit DIR --out results/NAME [--only softmax] [--budget 240] > results/NAME.log

Prints one table (time, GB/s or TFLOP/s, TileGym's speed relative to each
peer = peer time / TileGym time, > 1 means TileGym is faster; relative error
||out - ref|| / ||ref||) and a summary, and writes OUT.json (every row, with
min/max/reps) and OUT.png (ratios); the printed table is the run's .log.
"""
import argparse
import datetime
import json
import math
import os
import sys
import time
import traceback

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# The package: beside this file in a bench kit, in python/ in the tree.
sys.path.insert(1, os.path.join(HERE, "..", "python"))
import tilegym  # noqa: E402
import tilegym.tune  # noqa: E402

DT = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16,
      "f8e4m3": torch.float8_e4m3fn, "f8e5m2": torch.float8_e5m2}

# ----------------------------------------------------------------- the plan
# (op, shape, dtype, brief): brief rows are the BRIEF's anchor shapes; the
# others are the sweep. Order is priority: a run over its budget drops the
# tail.
BRIEF = [
    ("vector_add", (1 << 28,), "f32"),
    ("gelu", (16384, 8192), "f32"),
    ("gelu", (16384, 8192), "bf16"),
    ("softmax", (4096, 16384), "f32"),
    ("softmax", (8192, 4096), "f32"),
    ("softmax", (32768, 1024), "f32"),
    ("softmax", (4096, 16384), "bf16"),
    ("softmax", (8192, 4096), "bf16"),
    ("softmax", (32768, 1024), "bf16"),
    ("matmul", (4096, 4096, 4096), "bf16"),
    ("matmul", (8192, 8192, 8192), "bf16"),
    ("attention", (4, 32, 4096, 128, 0), "bf16"),
    ("attention", (4, 32, 4096, 128, 1), "bf16"),
    ("attention", (4, 32, 4096, 64, 0), "bf16"),
    ("attention", (4, 32, 4096, 64, 1), "bf16"),
]
SWEEP = [
    ("vector_add", (1 << 28,), "bf16"),
    ("vector_add", (1 << 20,), "f32"),
    ("vector_add", (1 << 24,), "f32"),
    ("gelu", (2048, 4096), "f32"),
    ("gelu", (8192, 8192), "bf16"),
    ("softmax", (16384, 2048), "f32"),
    ("softmax", (16384, 2048), "bf16"),
    ("softmax", (2048, 32768), "f32"),
    ("matmul", (2048, 2048, 2048), "bf16"),
    ("matmul", (4096, 4096, 4096), "f16"),
    ("matmul", (3000, 5000, 4096), "bf16"),
    ("matmul", (1500, 6000, 2500), "bf16"),
    ("matmul", (4096, 4096, 4096), "f32"),
    ("matmul", (4096, 4096, 4096), "f8e4m3"),
    ("attention", (4, 32, 4096, 128, 0), "f16"),
    ("attention", (4, 32, 1024, 64, 0), "bf16"),
    ("attention", (4, 32, 1024, 128, 1), "bf16"),
]


def shape_text(op, shape):
    if op == "attention":
        B, H, S, D, c = shape
        return f"B{B}H{H}S{S}D{D}{' causal' if c else ''}"
    if op == "matmul":
        return "x".join(map(str, shape))
    if op == "vector_add":
        n = shape[0]
        return f"2^{int(math.log2(n))}" if n & (n - 1) == 0 else str(n)
    return "x".join(map(str, shape))


# ------------------------------------------------------------------- timing
def _libcuda():
    import ctypes
    return ctypes.CDLL("libcuda.so.1")


class Timer:
    """Each timed run starts from an L2 that holds nothing of its inputs:
    lines a kernel marked evict_last (torch.compile's softmax loads its input
    so) survive the write flush, and flattered every implementation timed
    after it (docs/results/bench-timing.md). Before each flush
    the GPU is drained and those lines are made normal again
    (cuCtxResetPersistingL2Cache acts when called, not in stream order)."""

    def __init__(self, flush_mb=256, target_ms=100.0, max_reps=100, min_reps=5):
        self.flush = torch.empty(flush_mb << 20, dtype=torch.uint8, device="cuda")
        self.target_ms, self.max_reps, self.min_reps = target_ms, max_reps, min_reps
        self.cuda = _libcuda()

    def clear_l2(self):
        torch.cuda.synchronize()
        r = self.cuda.cuCtxResetPersistingL2Cache()
        if r != 0:
            raise RuntimeError(f"cuCtxResetPersistingL2Cache: CUresult {r}")
        self.flush.zero_()

    def one(self, fn):
        s = torch.cuda.Event(enable_timing=True)
        e = torch.cuda.Event(enable_timing=True)
        self.clear_l2()
        s.record()
        fn()
        e.record()
        e.synchronize()
        return s.elapsed_time(e)

    def reps(self, fn, warmup=3):
        """Warms `fn` up; how many runs make about target_ms of kernel time."""
        for _ in range(warmup):
            fn()
        torch.cuda.synchronize()
        est = min(self.one(fn) for _ in range(2))
        return int(max(self.min_reps, min(self.max_reps, self.target_ms / max(est, 1e-3))))

    def samples(self, fn, n):
        """n timed runs (ms), each after an L2 flush."""
        starts = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
        ends = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
        for i in range(n):
            self.clear_l2()
            starts[i].record()
            fn()
            ends[i].record()
        torch.cuda.synchronize()
        return [s.elapsed_time(e) for s, e in zip(starts, ends)]

    def __call__(self, fn, warmup=3):
        return stats(self.samples(fn, self.reps(fn, warmup)))

    def interleaved(self, fns, rounds=5):
        """Times several implementations of one case in `rounds` rounds, each
        running every one in turn, starting one further along each round: the
        first timed after a case's setup runs slower (bench/NOTES.md,
        experiments), and machine drift spreads evenly over all of them.
        Returns stats() per fn; a fn that raises gets the exception instead."""
        reps, out = [], [[] for _ in fns]
        for i, fn in enumerate(fns):
            try:
                reps.append(max(1, -(-self.reps(fn) // rounds)))
            except Exception as e:  # noqa: BLE001 -- reported per implementation
                reps.append(0)
                out[i] = e
        for r in range(rounds):
            for k in range(len(fns)):
                i = (k + r) % len(fns)
                if reps[i]:
                    try:
                        out[i] += self.samples(fns[i], reps[i])
                    except Exception as e:  # noqa: BLE001
                        reps[i], out[i] = 0, e
        return [o if isinstance(o, Exception) else stats(o) for o in out]


def stats(times):
    """(median, min, max, count) of times."""
    t = sorted(times)
    med = t[len(t) // 2] if len(t) % 2 else 0.5 * (t[len(t) // 2 - 1] + t[len(t) // 2])
    return med, t[0], t[-1], len(t)


def rel_err(out, ref):
    o = out.detach().to(torch.float64)
    r = ref.detach().to(torch.float64)
    if not torch.isfinite(o).all():
        return float("inf")
    return (torch.linalg.vector_norm(o - r) / torch.linalg.vector_norm(r)).item()


# ---------------------------------------------------------------- TileGym
class Kit:
    """The bundles of make-kit.sh, by key: op.dtype[.variant]. A bundle of
    variants is tuned on each shape's own tensors before it is timed
    (tilegym.tune); `tuning` collects what each tuning took."""

    def __init__(self, kit_dir):
        self.dir = os.path.join(kit_dir, "bundles")
        self.keys = sorted(k[:-4] for k in os.listdir(self.dir) if k.endswith(".tgb")) \
            if os.path.isdir(self.dir) else []
        self.cache = {}
        self.tuning = []
        self.last_tuning_s, self.last_image = 0.0, None

    def tune(self, key, shape, args):
        """The tuned configuration's text ("W=8"), or None for a bundle of
        kernels; the winner is then what a launch or plan at these shapes
        runs."""
        b = self.cache[key][0]
        self.last_tuning_s = 0.0
        if len(b.variants) < 2:
            return None
        r = tilegym.tune.tune(b, None, *args)
        self.last_tuning_s = r["seconds"]
        # The image the tuned plan runs, not the default variant's.
        with open(os.path.join(self.dir, key + ".tgb", "manifest.json")) as f:
            folder = json.load(f)["variants"][r["variant"]]["folder"]
        self.last_image = folder + "/" + os.path.basename(self.cache[key][1].image)
        self.tuning.append({"key": key, "shape": list(shape), "seconds": r["seconds"],
                            "tuned": r["tuned"], "variants": len(b.variants),
                            "cached": r["cached"],
                            "rows": [(t, ms, note) for t, ms, note in r["rows"]]})
        times = ", ".join(f"{t} {ms:.4f} ms" if ms is not None else f"{t} dropped: {note}"
                          for t, ms, note in r["rows"])
        how = "from the bundle's rule, tuned before on this GPU" if r["cached"] \
            else times
        print(f"# tuned {key} at {'x'.join(map(str, shape))}: {r['tuned']} of "
              f"{len(b.variants)} in {r['seconds']:.2f} s ({how})", flush=True)
        return r["tuned"]

    def kernel(self, key):
        if key not in self.cache:
            b = tilegym.Bundle(os.path.join(self.dir, key + ".tgb"))
            self.cache[key] = (b, b.load())
        return self.cache[key][1]

    def manifest_kernel(self, key):
        """The bundle's first kernel in its manifest (its default variant's,
        for a bundle of variants)."""
        folder = os.path.join(self.dir, key + ".tgb")
        with open(os.path.join(folder, "manifest.json")) as f:
            top = json.load(f)
        if "variants" in top:
            folder = os.path.join(folder, top["variants"][top.get("default", 0)]["folder"])
            with open(os.path.join(folder, "manifest.json")) as f:
                top = json.load(f)
        return top["kernels"][0]

    def resources(self, key, image=None):
        """ptxas's registers and spill bytes of the kernel a row ran (the
        tuned variant's `image`, relative to the bundle, or the default
        one), from its manifest; None for a bundle built without ptxas."""
        kernel = self.manifest_kernel(key)
        if image and "/" in image:
            folder = os.path.join(self.dir, key + ".tgb", os.path.dirname(image))
            with open(os.path.join(folder, "manifest.json")) as f:
                kernel = json.load(f)["kernels"][0]
        return kernel.get("ptxas")

    def warps(self, key):
        """Warps per block of a bundle's first kernel, from its manifest."""
        return self.manifest_kernel(key)["num_warps"]

    def out_dtype(self, key):
        """The element type of the bundle's last view parameter (its output;
        scalars such as matmul_fp8's scales may follow it)."""
        views = [p for p in self.manifest_kernel(key)["params"] if p["kind"] == "view"]
        return views[-1]["dtype"]

    def variants(self, op, shape, dtype):
        """[(label, key)] of the bundles that can run this problem; the first is
        the primary one."""
        have = set(self.keys)
        out = []
        if op in ("vector_add", "gelu", "matmul"):
            # OP.DTYPE, then its variants OP.DTYPE.TAG (the bench reports the fastest).
            k = f"{op}.{dtype}"
            if k in have:
                out.append(("tilegym", k))
            for v in sorted(v for v in have if v.startswith(k + ".")):
                out.append((f"tilegym[{v[len(k) + 1:]}]", v))
        elif op == "softmax":
            # softmax.DTYPE.BLOCK: the smallest BLOCK >= N (its warps tuned).
            N = shape[1]
            blocks = sorted({int(k.split(".")[2]) for k in have
                             if k.startswith(f"softmax.{dtype}.")})
            fit = [b for b in blocks if b >= N]
            if fit:
                out.append((f"tilegym[BLOCK={fit[0]}]", f"softmax.{dtype}.{fit[0]}"))
            k = f"softmax_online.{dtype}"
            if k in have and (N > 4096 or not fit):
                out.append(("tilegym[online]", k))
        elif op == "attention":
            B, H, S, D, c = shape
            k = f"attention.{dtype}.d{D}.c{c}"
            if k in have:
                out.append(("tilegym", k))
        return out


# ------------------------------------------------------------------- ops
def make_case(op, shape, dtype, gen):
    """Inputs, the output buffer, the reference, the work (bytes or flops)
    and the implementations: {impl: fn(out) -> tensor written}."""
    dt = DT[dtype]
    dev = "cuda"

    def randn(*s, scale=1.0):
        return (torch.randn(*s, device=dev, generator=gen) * scale).to(dt)

    c = {}
    if op == "vector_add":
        (n,) = shape
        a, b = randn(n), randn(n)
        c["inputs"] = (a, b)
        c["out"] = torch.empty(n, device=dev, dtype=dt)
        acc = torch.float64 if dtype == "f32" else torch.float32
        c["ref"] = lambda: a.to(acc) + b.to(acc)
        c["bytes"] = 3 * n * a.element_size()
        c["peers"] = {
            "torch": lambda o: torch.add(a, b, out=o),
            "triton": lambda o: TK.vector_add(a, b, o),
        }
        c["tg_args"] = lambda o: (a, b, o)
    elif op == "gelu":
        M, N = shape
        x, w, bias = randn(M, N), randn(N, scale=0.5), randn(N, scale=0.5)
        c["inputs"] = (x, w, bias)
        c["out"] = torch.empty(M, N, device=dev, dtype=dt)
        acc = torch.float64 if dtype == "f32" else torch.float32

        def ref():
            return torch.nn.functional.gelu(x.to(acc) * w.to(acc) + bias.to(acc),
                                            approximate="tanh")
        c["ref"] = ref

        def eager(x, w, bias):
            return torch.nn.functional.gelu(x * w + bias, approximate="tanh")
        c["bytes"] = (2 * M * N + 2 * N) * x.element_size()
        c["peers"] = {
            "torch": lambda o: eager(x, w, bias),
            "torch.compile": ("compile", eager, (x, w, bias)),
            "triton": lambda o: TK.gelu(x, w, bias, o),
            "triton-sigmoid": lambda o: TK.gelu_sigmoid(x, w, bias, o),
        }
        c["tg_args"] = lambda o: (x, w, bias, o)
    elif op == "softmax":
        M, N = shape
        x = randn(M, N, scale=2.0)
        c["inputs"] = (x,)
        c["out"] = torch.empty(M, N, device=dev, dtype=dt)
        acc = torch.float64 if dtype == "f32" else torch.float32
        c["ref"] = lambda: torch.softmax(x.to(acc), dim=-1)
        c["bytes"] = 2 * M * N * x.element_size()

        def eager(x):
            return torch.softmax(x, dim=-1)
        c["peers"] = {
            "torch": lambda o: eager(x),
            "torch.compile": ("compile", eager, (x,)),
            "triton": lambda o: TK.softmax(x, o),
        }
        c["tg_args"] = lambda o: (x, o)
    elif op == "matmul" and dtype.startswith("f8"):
        # fp8 as torch._scaled_mm takes it: B [N][K] (K-major), unit scales,
        # bf16 C (examples/matmul_fp8.tile's default). The inputs are
        # normal values scaled into fp8's range; the products are exact and
        # summed in f32 by both.
        M, N, K = shape
        a, b = randn(M, K), randn(N, K)
        c["inputs"] = (a, b)
        c["out"] = torch.empty(M, N, device=dev, dtype=torch.bfloat16)
        c["ref"] = lambda: torch.matmul(a.float(), b.float().t())
        c["flops"] = 2.0 * M * N * K
        one = torch.ones((), device=dev, dtype=torch.float32)
        c["peers"] = {
            "cublas(scaled_mm)": lambda o: torch._scaled_mm(
                a, b.t(), scale_a=one, scale_b=one, out_dtype=torch.bfloat16),
        }
        c["tg_args"] = lambda o: (a, b, o)
    elif op == "matmul":
        M, N, K = shape
        a, b = randn(M, K), randn(K, N)
        c["inputs"] = (a, b)
        c["out"] = torch.empty(M, N, device=dev, dtype=torch.float32)  # TileGym: f32 C
        # f32 runs on tensor cores in tf32 (TileGym, cuBLAS with TF32 on,
        # Triton's default tl.dot precision); the reference is float64.
        ref_dt = torch.float64 if dtype == "f32" else torch.float32
        c["ref"] = lambda: torch.matmul(a.to(ref_dt), b.to(ref_dt))
        c["flops"] = 2.0 * M * N * K
        ob = torch.empty(M, N, device=dev, dtype=dt)
        if dtype == "f32":
            def cublas_tf32(o):
                torch.backends.cuda.matmul.allow_tf32 = True
                try:
                    return torch.matmul(a, b, out=ob)
                finally:
                    torch.backends.cuda.matmul.allow_tf32 = False
            peers = {"cublas(tf32)": cublas_tf32,
                     "triton": lambda o: TK.matmul(a, b, ob)}
        else:
            peers = {
                "cublas": lambda o: torch.matmul(a, b, out=ob),
                "triton": lambda o: TK.matmul(a, b, ob),
            }
            try:  # cuBLAS writing f32, as TileGym does (torch >= 2.9)
                torch.mm(a[:16, :16], b[:16, :16], out_dtype=torch.float32)
                peers["cublas(f32 out)"] = lambda o: torch.mm(a, b, out_dtype=torch.float32)
            except Exception:
                pass
        c["peers"] = peers
        c["tg_args"] = lambda o: (a, b, o)
    elif op == "attention":
        B, H, S, D, causal = shape
        q, k, v = (randn(B, H, S, D) for _ in range(3))
        c["inputs"] = (q, k, v)
        c["out"] = torch.empty(B, H, S, D, device=dev, dtype=dt)

        def ref():
            r = torch.empty(B, H, S, D, device=dev, dtype=torch.float32)
            scale = D ** -0.5
            mask = (torch.ones(S, S, device=dev, dtype=torch.bool).tril()
                    if causal else None)
            for bi in range(B):
                for h0 in range(0, H, 8):
                    qf = q[bi, h0:h0 + 8].float()
                    s = torch.matmul(qf, k[bi, h0:h0 + 8].float().transpose(-1, -2)) * scale
                    if mask is not None:
                        s.masked_fill_(~mask, float("-inf"))
                    r[bi, h0:h0 + 8] = torch.matmul(torch.softmax(s, -1),
                                                    v[bi, h0:h0 + 8].float())
                    del s
            return r
        c["ref"] = ref
        c["flops"] = 4.0 * B * H * S * S * D / (2 if causal else 1)
        from torch.nn.attention import sdpa_kernel, SDPBackend
        sdpa = torch.nn.functional.scaled_dot_product_attention

        def with_backend(be):
            def f(o):
                with sdpa_kernel(be):
                    return sdpa(q, k, v, is_causal=bool(causal))
            return f
        c["peers"] = {
            "sdpa-cudnn": with_backend(SDPBackend.CUDNN_ATTENTION),
            "sdpa-flash": with_backend(SDPBackend.FLASH_ATTENTION),
            "triton": lambda o: TK.attention(q, k, v, o, bool(causal)),
        }
        c["tg_args"] = lambda o: (q, k, v, o)
    return c


# -------------------------------------------------------------------- main
TK = None


def main():
    global TK
    ap = argparse.ArgumentParser()
    ap.add_argument("--kit", default=HERE, help="folder holding bundles/ (make-kit.sh)")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "run"),
                    help="output prefix: OUT.json, OUT.png")
    ap.add_argument("--only", default="", help="comma-separated ops")
    ap.add_argument("--no-sweep", action="store_true")
    ap.add_argument("--no-compile", action="store_true", help="skip torch.compile")
    ap.add_argument("--compile-sweep", action="store_true",
                    help="torch.compile on sweep shapes too (each shape recompiles)")
    ap.add_argument("--budget", type=float, default=1e9,
                    help="seconds; cases left when it is spent are skipped")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    t_start = time.time()
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)

    import triton
    import triton_kernels
    TK = triton_kernels
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch._dynamo.config.cache_size_limit = 64

    props = torch.cuda.get_device_properties(0)
    meta = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "gpu": props.name, "sms": props.multi_processor_count,
            "torch": torch.__version__, "triton": triton.__version__,
            "cuda": torch.version.cuda, "cudnn": torch.backends.cudnn.version(),
            "timing": "CUDA events, L2 flush before each run (cuCtxResetPersistingL2Cache, 256 MiB write), warm-up 3, "
                      "median of 5..100 runs (about 100 ms of kernel time) taken in "
                      "5 interleaved rounds, the order rotating each round",
            "ratio": "peer time / TileGym time (> 1: TileGym faster)"}
    L = tilegym.Library.get()
    meta["tilegym_lib"] = L.path
    kit = Kit(args.kit)
    meta["bundles"] = kit.keys
    print(f"# {props.name}, {props.multi_processor_count} SMs; torch {torch.__version__}, "
          f"triton {triton.__version__}, CUDA {torch.version.cuda}; {len(kit.keys)} bundles",
          flush=True)

    timer = Timer()
    # Ceilings: device copy (bytes read + written) and, later, cuBLAS.
    src = torch.randn(1 << 29, device="cuda")  # 2 GiB
    dst = torch.empty_like(src)
    med, _, _, _ = timer(lambda: dst.copy_(src))
    copy_bw = 2 * src.numel() * 4 / (med * 1e-3) / 1e9
    meta["copy_GBps"] = copy_bw
    del src, dst
    print(f"# device copy (torch copy_, 2 GiB): {copy_bw:.0f} GB/s", flush=True)

    only = set(filter(None, args.only.split(",")))
    cases = [(o, s, d, True) for o, s, d in BRIEF]
    if not args.no_sweep:
        cases += [(o, s, d, False) for o, s, d in SWEEP]
    cases = [c for c in cases if not only or c[0] in only]
    # Memory-bound BRIEF shapes, then the compute-bound ones, then the sweep.
    rows, skipped = [], []
    gen = torch.Generator(device="cuda")
    gen.manual_seed(args.seed)
    compiled = {}

    def save():
        with open(args.out + ".json", "w") as f:
            json.dump({"meta": meta, "rows": rows, "skipped": skipped}, f, indent=1)

    def run_case(op, shape, dtype, brief, case, ref):
        out = case["out"]
        impls = []
        for vlabel, key in kit.variants(op, shape, dtype):
            def tg_fn(key=key):
                k = kit.kernel(key)
                stream = torch.cuda.current_stream().cuda_stream
                want = DT[kit.out_dtype(key)]
                if want == out.dtype:
                    tuned = kit.tune(key, shape, case["tg_args"](out))
                    plan = k.plan(*case["tg_args"](out))
                    return (lambda o: plan.launch(stream)), k, tuned
                # A variant with another output type (matmul writing bf16 C)
                # writes its own tensor, poisoned here, checked and returned.
                own = torch.full_like(out, float("nan"), dtype=want)
                tuned = kit.tune(key, shape, case["tg_args"](own))
                own.fill_(float("nan"))
                plan = k.plan(*case["tg_args"](own))

                def run_own(o):
                    plan.launch(stream)
                    return own
                return run_own, k, tuned
            impls.append((vlabel, "tilegym", tg_fn, key))  # key: the bundle
        for name, fn in case["peers"].items():
            if isinstance(fn, tuple):  # torch.compile
                if args.no_compile or (not brief and not args.compile_sweep):
                    continue
                _, eager, ins = fn

                def mk(eager=eager, ins=ins, op=op, dtype=dtype):
                    key = (op, dtype)
                    if key not in compiled:
                        compiled[key] = torch.compile(eager, dynamic=False)
                    cf = compiled[key]
                    return (lambda o: cf(*ins)), None
                impls.append((name, "peer", mk, None))
            else:
                impls.append((name, "peer", lambda fn=fn: (fn, None), None))

        case_rows, timed = [], []
        for name, kind, build, key in impls:
            row = {"op": op, "shape": list(shape), "shape_text": shape_text(op, shape),
                   "dtype": dtype, "impl": name, "kind": kind, "brief": brief}
            try:
                t0 = time.time()
                kit.last_tuning_s = 0.0
                fn, kern, *tuned = build()
                if kern is not None:
                    row["image"] = os.path.basename(kern.image)
                if tuned and tuned[0]:  # tilegym[BLOCK=4096] -> tilegym[BLOCK=4096,W=8]
                    t = tuned[0].replace(" ", ",")
                    row["impl"] = (name[:-1] + "," + t + "]") if name.endswith("]") \
                        else f"{name}[{t}]"
                    row["image"] = kit.last_image
                    row["tuning_s"] = round(kit.last_tuning_s, 3)
                if key is not None:
                    used = kit.resources(key, row["image"] if tuned and tuned[0] else None)
                    if used:
                        row["registers"] = used["registers"]
                        row["spill_bytes"] = used["spill_store_bytes"]
                out.fill_(float("nan"))
                res = fn(out)
                torch.cuda.synchronize()
                row["rel_err"] = rel_err(out if res is None else res, ref)
                row["setup_s"] = round(time.time() - t0 - kit.last_tuning_s, 2)
                timed.append((row, fn))
            except Exception as e:
                row["error"] = f"{type(e).__name__}: {str(e).splitlines()[0][:300]}"
                if os.environ.get("BENCH_TRACE"):
                    traceback.print_exc()
            case_rows.append(row)
        results = timer.interleaved([lambda fn=fn: fn(out) for _, fn in timed])
        for (row, _), res in zip(timed, results):
            if isinstance(res, Exception):
                row["error"] = f"{type(res).__name__}: {str(res).splitlines()[0][:300]}"
                continue
            med, mn, mx, reps = res
            row.update(time_us=med * 1e3, min_us=mn * 1e3, max_us=mx * 1e3, reps=reps)
            if "bytes" in case:
                row["GBps"] = case["bytes"] / (med * 1e-3) / 1e9
                row["floor_us"] = case["bytes"] / copy_bw / 1e3
            else:
                row["TFLOPs"] = case["flops"] / (med * 1e-3) / 1e12
        tg = [r for r in case_rows if r["kind"] == "tilegym" and "time_us" in r]
        best = min(tg, key=lambda r: r["time_us"]) if tg else None
        for r in case_rows:
            if best and r["kind"] == "peer" and "time_us" in r:
                r["ratio"] = r["time_us"] / best["time_us"]
                r["vs"] = best["impl"]
            print_row(r)
        rows.extend(case_rows)
        if op == "matmul" and shape == (8192, 8192, 8192):
            cb = [r for r in case_rows if r["impl"] == "cublas" and "TFLOPs" in r]
            if cb:
                meta["cublas_8192_TFLOPs"] = cb[0]["TFLOPs"]
        torch.cuda.empty_cache()
        save()
        sys.stdout.flush()

    for op, shape, dtype, brief in cases:
        if time.time() - t_start > args.budget:
            skipped.append(f"{op} {shape_text(op, shape)} {dtype}")
            continue
        label = f"{op} {shape_text(op, shape)} {dtype}"
        print(f"# [{time.time() - t_start:.0f}s] {label}", flush=True)
        try:
            case = make_case(op, shape, dtype, gen)
            ref = case["ref"]()
            torch.cuda.synchronize()
        except Exception as e:  # pragma: no cover
            print(f"{label}: cannot build the case: {e}", flush=True)
            skipped.append(label + f" ({e})")
            continue
        try:
            run_case(op, shape, dtype, brief, case, ref)
        except Exception as e:
            print(f"{label}: failed: {type(e).__name__}: {e}", flush=True)
            traceback.print_exc()
        del case, ref
        torch.cuda.empty_cache()
        save()

    if not only or "launch" in only:
        meta["launch_us"] = launch_cost(kit, TK)
        save()
    meta["elapsed_s"] = round(time.time() - t_start, 1)
    meta["tuning"] = kit.tuning
    meta["tuning_s"] = round(sum(t["seconds"] for t in kit.tuning), 2)
    peak = meta.get("cublas_8192_TFLOPs")
    for r in rows:
        if peak and "TFLOPs" in r:
            r["floor_us"] = (r["time_us"] * r["TFLOPs"]) / peak
    save()
    summary(rows, meta, skipped)
    plot(rows, args.out + ".png")


def launch_cost(kit, TK, rounds=7, calls=2000):
    """Host time of one launch from Python, in microseconds: TileGym's
    vector_add called directly (k(a, b, c); and with its tensors packed in
    Python rather than by tilegym._fastlaunch) and as a PyTorch operator
    (tilegym.torch) against torch.add(out=) and Triton's add on the same
    1 MiB tensors, each the median over `rounds` (interleaved, the order
    rotating) of the mean of `calls` launches, the launches queued without a wait (the
    GPU work, 3 us each, is shorter than the host's)."""
    if "vector_add.f32" not in kit.keys:
        return {}
    n = 1 << 18
    a, b, c = (torch.randn(n, device="cuda") for _ in range(3))
    k = kit.kernel("vector_add.f32")
    import tilegym.torch
    op = tilegym.torch.register(kit.cache["vector_add.f32"][0],
                                namespace="tilegym_bench").vector_add
    # The same kernel with the tensors packed by Python (the ctypes path
    # tilegym takes without its C extension), for what the C packing saves.
    packed_in_python = tilegym.Launcher(k)
    fns = {"tilegym": lambda: k(a, b, c),
           "tilegym python packing": lambda: packed_in_python((a, b, c), None),
           "tilegym operator": lambda: op(a, b, c),
           "torch": lambda: torch.add(a, b, out=c),
           "triton": lambda: TK.vector_add(a, b, c)}
    # Interleaved rounds whose order rotates, as the kernels are timed: the
    # host's clock and caches then weigh on every path alike.
    names = list(fns)
    times = {name: [] for name in names}
    for name in names:
        for _ in range(200):
            fns[name]()
    torch.cuda.synchronize()
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            fn = fns[name]
            t0 = time.perf_counter()
            for _ in range(calls):
                fn()
            times[name].append((time.perf_counter() - t0) / calls * 1e6)
            torch.cuda.synchronize()
    out = {name: sorted(ts)[rounds // 2] for name, ts in times.items()}
    print("# launch, host us per call: " + ", ".join(
        f"{k} {v:.2f}" for k, v in out.items()), flush=True)
    return out


def print_row(r):
    if not hasattr(print_row, "header"):
        print_row.header = True
        print(f"{'op':<10} {'shape':<22} {'dtype':<5} {'impl':<22} {'time us':>10} "
              f"{'GB/s|TF/s':>10} {'TG/peer':>8} {'rel err':>9}")
    perf = (f"{r['GBps']:.0f}" if "GBps" in r else
            f"{r['TFLOPs']:.1f}" if "TFLOPs" in r else "-")
    t = f"{r['time_us']:.1f}" if "time_us" in r else "-"
    ratio = f"{r['ratio']:.2f}" if "ratio" in r else ""
    err = f"{r['rel_err']:.1e}" if "rel_err" in r else ""
    line = (f"{r['op']:<10} {r['shape_text']:<22} {r['dtype']:<5} {r['impl']:<22} "
            f"{t:>10} {perf:>10} {ratio:>8} {err:>9}")
    if "registers" in r:
        line += f"  regs {r['registers']} spill {r['spill_bytes']}"
    if "error" in r:
        line += "  ERROR " + r["error"]
    print(line, flush=True)


def summary(rows, meta, skipped):
    print()
    print(f"# summary: {meta['gpu']}; copy {meta['copy_GBps']:.0f} GB/s; "
          f"cuBLAS 8192^3 {meta.get('cublas_8192_TFLOPs', float('nan')):.0f} TFLOP/s; "
          f"{meta['elapsed_s']} s")
    print(f"# tuning (tilegym.tune, on each shape's tensors): {len(meta['tuning'])} "
          f"bundles of variants tuned in {meta['tuning_s']:.1f} s")
    print("# TileGym best variant vs each peer (peer time / TileGym time; >1 = TileGym faster)")
    cases = {}
    for r in rows:
        cases.setdefault((r["op"], r["shape_text"], r["dtype"]), []).append(r)
    for (op, s, d), rs in cases.items():
        tg = [r for r in rs if r["kind"] == "tilegym" and "time_us" in r]
        if not tg:
            errs = [r.get("error", "") for r in rs if r["kind"] == "tilegym"]
            print(f"{op} {s} {d}: TileGym did not run {errs}")
            continue
        b = min(tg, key=lambda r: r["time_us"])
        unit = "GB/s" if "GBps" in b else "TFLOP/s"
        val = b.get("GBps", b.get("TFLOPs"))
        peers = ", ".join(f"{r['impl']} {r['ratio']:.2f}" for r in rs if "ratio" in r)
        fl = f" floor {b['floor_us']:.0f}us" if "floor_us" in b else ""
        regs = (f" regs {b['registers']} spill {b['spill_bytes']}B"
                if "registers" in b else "")
        print(f"{op} {s} {d}: {b['impl']} {b['time_us']:.0f}us {val:.0f} {unit} "
              f"err {b['rel_err']:.1e}{fl}{regs} | {peers}")
    launch = meta.get("launch_us")
    if launch and "tilegym" in launch:
        t = launch["tilegym"]
        print(f"launch from Python (host us per call): tilegym {t:.2f} | " +
              ", ".join(f"{k} {v:.2f} ({v / t:.2f})" for k, v in launch.items()
                        if k != "tilegym"))
    if skipped:
        print("# skipped (budget):", "; ".join(skipped))


def plot(rows, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception as e:
        print(f"# no plot: matplotlib unavailable ({e})")
        return
    cases, peers = [], []
    for r in rows:
        key = f"{r['op']} {r['shape_text']} {r['dtype']}"
        if "ratio" in r:
            if key not in cases:
                cases.append(key)
            if r["impl"] not in peers:
                peers.append(r["impl"])
    if not cases:
        print("# no plot: no ratios")
        return
    fig, ax = plt.subplots(figsize=(max(10, 0.55 * len(cases)), 6))
    width = 0.8 / max(1, len(peers))
    for j, p in enumerate(peers):
        xs, ys = [], []
        for i, c in enumerate(cases):
            for r in rows:
                if f"{r['op']} {r['shape_text']} {r['dtype']}" == c and r["impl"] == p \
                        and "ratio" in r:
                    xs.append(i + (j - (len(peers) - 1) / 2) * width)
                    ys.append(r["ratio"])
        ax.bar(xs, ys, width, label=p)
    ax.axhline(1.0, color="k", lw=0.8)
    ax.set_yscale("log")
    ax.set_xticks(range(len(cases)))
    ax.set_xticklabels(cases, rotation=70, ha="right", fontsize=7)
    ax.set_ylabel("peer time / TileGym time (>1: TileGym faster)")
    ax.set_title("TileGym vs peers, same process, same inputs")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"# plot: {path}")


if __name__ == "__main__":
    main()
