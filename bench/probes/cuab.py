#!/usr/bin/env python3
"""Times the hand-written CUDA probes of softmax_probe.cu against Triton (and
TileGym bundles) in interleaved rounds, as bench/ab.py does.

    python3 cuab.py --kit KIT --cubin softmax_probe.cubin --shape 4096,16384 --dtype f32 \
        [--bundles KIT/bundles/softmax.f32.16384.tgb] [--rounds 9]

Probe kernels are picked by name (<design>_<dtype>_<N>_...), launched through
the driver API on PyTorch's stream: rowreg one block per row, cluster2 two,
cpasync/bulk persistent (one block per slot the occupancy calculator gives).
"""
import argparse
import ctypes
import os
import re
import sys

import torch


def check(r, what):
    if r != 0:
        raise RuntimeError(f"{what}: CUresult {r}")


class Probe:
    def __init__(self, cuda, mod, name, M, N, esize):
        self.name = name
        f = ctypes.c_void_p()
        check(cuda.cuModuleGetFunction(ctypes.byref(f), mod, name.encode()), name)
        self.f = f
        warps = int(re.search(r"_w(\d+)", name).group(1))
        stages = re.search(r"_s(\d+)", name)
        self.threads = warps * 32
        self.smem = int(stages.group(1)) * N * esize if stages else 0
        if self.smem:
            check(cuda.cuFuncSetAttribute(f, 8, self.smem), "max dynamic smem")  # MAX_DYNAMIC_SHARED_SIZE_BYTES
        design = name.split("_")[0]
        per_sm = ctypes.c_int()
        check(cuda.cuOccupancyMaxActiveBlocksPerMultiprocessor(
            ctypes.byref(per_sm), f, self.threads, ctypes.c_size_t(self.smem)), "occupancy")
        self.per_sm = per_sm.value
        if design.startswith(("rowreg", "rowonl", "rowcopy", "rowdelay", "rowdiv", "rowpf", "rowtma", "tg")):
            self.grid = M
        elif design == "cluster2":
            self.grid = 2 * M
        else:
            sms = torch.cuda.get_device_properties(0).multi_processor_count
            self.grid = min(M, sms * self.per_sm)
        self.cuda = cuda

    def launch(self, x, y, M, stream):
        if self.name.startswith("tgabi"):  # hand-written, descriptors as structs
            class View2(ctypes.Structure):
                _fields_ = [("alloc", ctypes.c_void_p), ("data", ctypes.c_void_p)] + [
                    (f, ctypes.c_int64) for f in ("offset", "size0", "size1", "stride0", "stride1")]
            args = [View2(t.data_ptr(), t.data_ptr(), 0, t.shape[0], t.shape[1],
                          t.stride(0), t.stride(1)) for t in (x, y)]
        elif self.name.startswith("tg_"):  # TileGym's ABI: two 2-D memref descriptors
            args = []
            for t in (x, y):
                p = ctypes.c_void_p(t.data_ptr())
                args += [p, p] + [ctypes.c_int64(v) for v in
                                  (0, t.shape[0], t.shape[1], t.stride(0), t.stride(1))]
        else:
            args = [ctypes.c_void_p(x.data_ptr()), ctypes.c_void_p(y.data_ptr()), ctypes.c_int(M)]
        params = (ctypes.c_void_p * len(args))(
            *[ctypes.cast(ctypes.byref(a), ctypes.c_void_p) for a in args])
        self.args = args  # alive until the launch is queued
        check(self.cuda.cuLaunchKernel(self.f, self.grid, 1, 1, self.threads, 1, 1, self.smem,
                                       ctypes.c_void_p(stream), params, None), self.name)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kit", required=True)
    ap.add_argument("--cubin", nargs="+", required=True)
    ap.add_argument("--shape", required=True)
    ap.add_argument("--dtype", default="f32")
    ap.add_argument("--bundles", nargs="*", default=[])
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--only", default="", help="regex: probe kernels to run (default: all of the shape)")
    args = ap.parse_args()
    sys.path.insert(0, args.kit)
    import ab  # the kit's: checking and timing in rotating rounds
    import run
    import tilegym
    import triton_kernels
    run.TK = triton_kernels

    M, N = (int(s) for s in args.shape.split(","))
    gen = torch.Generator(device="cuda").manual_seed(0)
    case = run.make_case("softmax", (M, N), args.dtype, gen)
    ref, out = case["ref"](), case["out"]
    x = case["inputs"][0]
    stream = torch.cuda.current_stream().cuda_stream

    cuda = ctypes.CDLL("libcuda.so.1")
    ctx = ctypes.c_void_p()
    check(cuda.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), 0), "primary context")
    check(cuda.cuCtxSetCurrent(ctx), "set context")
    modules = []
    for path in args.cubin:
        mod = ctypes.c_void_p()
        image = open(path, "rb").read()
        check(cuda.cuModuleLoadData(ctypes.byref(mod), image), "module load")
        # Kernel names are listed in the cubin's string table.
        for n in sorted(set(re.findall(rb"\.text\.([A-Za-z0-9_]+)", image))):
            modules.append((mod, n.decode()))
    want = f"_{args.dtype}_{N}_"
    impls = [("triton", lambda: triton_kernels.softmax(x, out))]
    for p in args.bundles:
        plan = tilegym.Bundle(p).load().plan(x, out)
        impls.append((os.path.basename(p), lambda plan=plan: plan.launch(stream)))
    for mod, name in modules:
        if want in name and re.search(args.only, name):
            pr = Probe(cuda, mod, name, M, N, x.element_size())
            impls.append((f"{name} g{pr.grid} o{pr.per_sm}", lambda pr=pr: pr.launch(x, out, M, stream)))

    tol = 1e-5 if args.dtype == "f32" else 1e-2
    good = ab.checked(impls, out, ref, tol)
    # rowcopy probes are floors, not softmaxes: timed unchecked.
    good += [(n, f) for n, f in impls if n.startswith("rowcopy")]
    ab.compare(good, args.rounds, f"softmax {M}x{N} {args.dtype}", case["bytes"])

if __name__ == "__main__":
    main()
