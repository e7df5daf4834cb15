#!/usr/bin/env python3
"""Which context state does torch.compile change? Driver-API limits and cache
config before and after compiling and running a softmax."""
import ctypes
import torch

cuda = ctypes.CDLL("libcuda.so.1")
LIMITS = {"STACK_SIZE": 0, "PRINTF_FIFO": 1, "MALLOC_HEAP": 2, "DEV_RUNTIME_SYNC_DEPTH": 3,
          "DEV_RUNTIME_PENDING_LAUNCH": 4, "MAX_L2_FETCH_GRANULARITY": 5,
          "PERSISTING_L2_CACHE_SIZE": 6}

def state(tag):
    vals = {}
    for n, v in LIMITS.items():
        out = ctypes.c_size_t()
        r = cuda.cuCtxGetLimit(ctypes.byref(out), v)
        vals[n] = out.value if r == 0 else f"err{r}"
    cfg = ctypes.c_int()
    cuda.cuCtxGetCacheConfig(ctypes.byref(cfg))
    vals["cache_config"] = cfg.value
    flags = ctypes.c_uint()
    cuda.cuCtxGetFlags(ctypes.byref(flags))
    vals["ctx_flags"] = hex(flags.value)
    print(tag, vals, flush=True)
    return vals

x = torch.randn(8192, 4096, device="cuda")
torch.cuda.synchronize()
a = state("after torch init:")
import triton_kernels
y = torch.empty_like(x)
triton_kernels.softmax(x, y); torch.cuda.synchronize()
b = state("after a triton kernel:")
f = torch.compile(lambda t: torch.softmax(t, dim=-1), dynamic=False)
f(x); torch.cuda.synchronize()
c = state("after torch.compile:")
for k in a:
    if a[k] != c[k]:
        print("CHANGED:", k, a[k], "->", c[k])
