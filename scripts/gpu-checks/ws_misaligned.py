# A warp-specialized matmul bundle (argv[1], its C of torch type argv[2]: float32,
# the default, or bfloat16; its A and B of argv[3], bfloat16 by default) on
# views the TMA cannot address (an offset base, odd strides): the kernel must
# fall back to cp.async and stay right. And on aligned views, for the
# specialized path; with more tiles than SMs, for a persistent kernel's
# blocks that run several. The Python package is read from $TILEGYM_PACKAGE
# (.gpukit/bench by default).
import os, sys, torch
sys.path.insert(0, os.environ.get("TILEGYM_PACKAGE", ".gpukit/bench"))
import tilegym
k = tilegym.Bundle(sys.argv[1]).load()
out = getattr(torch, sys.argv[2] if len(sys.argv) > 2 else "float32")
inp = getattr(torch, sys.argv[3] if len(sys.argv) > 3 else "bfloat16")
torch.manual_seed(0)
fails = 0
for (M, N, K, off) in [(300, 200, 136, 0), (300, 200, 136, 1), (129, 77, 65, 0), (129, 77, 65, 3), (1024, 512, 768, 1), (8, 8, 8, 0),
                     (4096, 2304, 192, 0), (4096, 2304, 192, 1), (3000, 4000, 72, 0)]:
    a0 = torch.randn(M, K + off, device="cuda", dtype=inp)
    b0 = torch.randn(K, N + off, device="cuda", dtype=inp)
    a, b = a0[:, off:], b0[:, off:]
    c = torch.full((M, N), float("nan"), device="cuda", dtype=out)
    k.plan(a, b, c).launch(torch.cuda.current_stream().cuda_stream)
    torch.cuda.synchronize()
    ref = a.double() @ b.double()
    err = ((c.double() - ref).norm() / ref.norm()).item()
    ok = err < (1e-2 if out == torch.float32 else 2e-2) and not torch.isnan(c).any().item()
    fails += not ok
    print(f"ws misaligned={off} {M}x{N}x{K}: rel_err {err:.2e} {'PASS' if ok else 'FAIL'}")
print(f"ws fallback: {'PASS' if fails == 0 else 'FAIL'}")
