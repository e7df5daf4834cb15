"""TileGym kernels as PyTorch operators, on the GPU (tilegym.torch).

    python3 torch_ops.py BUNDLES_DIR     (bundles from make-bundles.sh)

A model-like chain, rmsnorm -> linear (matmul_nt) -> attention -> linear ->
SwiGLU, in bf16, run three ways on fresh random inputs and compared with
the same chain in PyTorch (float32 math from the same bf16 inputs):
eagerly, under torch.compile(fullgraph=True) (any graph break is an error),
and captured once as a CUDA graph and replayed on new inputs. The
in-place vector_add (its output an argument the operator mutates) runs
eagerly and compiled. (The host cost of a launch, the operator's and the
direct call's, is bench/run.py's launch_cost.) Prints one PASS/FAIL line
per check and `N passed, N failed`; exit code 1 on any failure.
"""
import os
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import tilegym  # noqa: E402
import tilegym.torch  # noqa: E402

BUNDLES = sys.argv[1]
passed = failed = 0


def check(name, got, want, tol):
    global passed, failed
    got, want = got.double(), want.double()
    err = ((got - want).abs().max() / want.abs().max().clamp_min(1e-30)).item()
    ok = torch.isfinite(got).all().item() and err <= tol
    print(f"{'PASS' if ok else 'FAIL'} {name}: max error {err:.2e} of the "
          f"largest value (tolerance {tol:.0e})")
    if ok:
        passed += 1
    else:
        failed += 1


def bundle(name):
    return tilegym.Bundle(os.path.join(BUNDLES, name + ".tgb"))


ops = tilegym.torch.register(bundle("rmsnorm-bf16"))
ops.__dict__.update(vars(tilegym.torch.register(bundle("matmul_nt-bf16"))))
ops.__dict__.update(vars(tilegym.torch.register(bundle("swiglu-bf16"))))
ops.__dict__.update(vars(tilegym.torch.register(bundle("attention-d64"))))
ops.__dict__.update(vars(tilegym.torch.register(bundle("vector_add-f32"))))

B, H, S, Dh = 2, 8, 512, 64
D, Fh = H * Dh, 1024
M = B * S
dev = "cuda"
bf = torch.bfloat16


def weights():
    g = torch.Generator(device=dev).manual_seed(int(time.time_ns()) % 2**31)
    return {"wn": (1 + 0.1 * torch.randn(D, device=dev, generator=g)).to(bf),
            "wqkv": (torch.randn(3 * D, D, device=dev, generator=g) /
                     D ** 0.5).to(bf),
            "wgu": (torch.randn(2 * Fh, D, device=dev, generator=g) /
                    D ** 0.5).to(bf)}


def heads(t):  # [M, D] -> [B, H, S, Dh]
    return t.view(B, S, H, Dh).permute(0, 2, 1, 3).contiguous()


def chain(x, w):
    h = ops.rmsnorm(x, w["wn"], 1e-6)
    qkv = ops.matmul_nt(h, w["wqkv"]).to(bf)
    q, k, v = (heads(t) for t in qkv.split(D, dim=1))
    o = ops.attention(q, k, v)
    o = o.permute(0, 2, 1, 3).reshape(M, D).contiguous()
    gu = ops.matmul_nt(o, w["wgu"]).to(bf)
    g, u = (t.contiguous() for t in gu.split(Fh, dim=1))
    return ops.swiglu(g, u)


def reference(x, w):
    # The same chain in float32 from the same bf16 values, rounded to bf16
    # where the TileGym chain stores bf16.
    xf = x.float()
    h = (xf * torch.rsqrt(xf.pow(2).mean(1, keepdim=True) + 1e-6) *
         w["wn"].float()).to(bf)
    qkv = (h.float() @ w["wqkv"].float().T).to(bf)
    q, k, v = (heads(t).float() for t in qkv.split(D, dim=1))
    o = F.scaled_dot_product_attention(q, k, v).to(bf)
    o = o.permute(0, 2, 1, 3).reshape(M, D)
    gu = (o.float() @ w["wgu"].float().T).to(bf)
    g, u = gu.float().split(Fh, dim=1)
    return (F.silu(g) * u).to(bf)


w = weights()
x = torch.randn(M, D, device=dev).to(bf)
check("eager chain", chain(x, w), reference(x, w), 3e-2)

compiled = torch.compile(chain, fullgraph=True)
x = torch.randn(M, D, device=dev).to(bf)
check("torch.compile(fullgraph=True) chain", compiled(x, w),
      reference(x, w), 3e-2)

static_x = torch.randn(M, D, device=dev).to(bf)
side = torch.cuda.Stream()
side.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(side):
    for _ in range(2):
        chain(static_x, w)
torch.cuda.current_stream().wait_stream(side)
graph = torch.cuda.CUDAGraph()
with torch.cuda.graph(graph):
    static_y = chain(static_x, w)
for i in range(2):
    static_x.copy_(torch.randn(M, D, device=dev).to(bf))
    graph.replay()
    torch.cuda.synchronize()
    check(f"CUDA graph replay {i + 1}", static_y, reference(static_x, w), 3e-2)

# The in-place operator: c is an argument it mutates.
a, b = torch.randn(100003, device=dev), torch.randn(100003, device=dev)
c = torch.full_like(a, float("nan"))
ops.vector_add(a, b, c)
check("vector_add (mutated argument), eager", c, a.double() + b.double(), 1e-7)


def add_into(a, b):
    c = torch.empty_like(a)
    ops.vector_add(a, b, c)
    return c * 2


check("vector_add (mutated argument), torch.compile(fullgraph=True)",
      torch.compile(add_into, fullgraph=True)(a, b),
      2 * (a.double() + b.double()), 1e-7)

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
