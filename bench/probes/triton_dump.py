# Run from a kit (python3 triton_dump.py OUTDIR): dumps Triton's softmax kernels (f32 rows of 4096 and 16384) as PTX and SASS.
import os, subprocess, sys, torch
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import triton_kernels as TK
out = sys.argv[1]
for N in (4096, 16384):
    x = torch.randn(64, N, device="cuda"); y = torch.empty_like(x)
    TK.softmax(x, y)
    k = TK._softmax_kernel
    cache = k.device_caches[0][0] if hasattr(k, "device_caches") else k.cache[0]
    kern = list(cache.values())[-1]  # the one just compiled for this N
    open(f"{out}/triton_softmax_{N}.ptx", "w").write(kern.asm["ptx"])
    open(f"{out}/triton_softmax_{N}.cubin", "wb").write(kern.asm["cubin"])
    sass = subprocess.run(["cuobjdump", "-sass", f"{out}/triton_softmax_{N}.cubin"], capture_output=True, text=True).stdout
    open(f"{out}/triton_softmax_{N}.sass", "w").write(sass)
    print(N, kern.n_regs if hasattr(kern, "n_regs") else "", len(sass.splitlines()))
