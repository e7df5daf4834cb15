"""The user kernels of examples/ from Python on torch CUDA tensors, against
torch references, on the current stream; and three wrong kernels, which must
fail. Needs a GPU, torch and the bundles of python/tests/make-bundles.sh:

    python3 python/tests/user_kernels.py BUNDLE_DIR

Prints one line per case and "N passed, N failed"; exit code 0 only when
every kernel passes and every wrong kernel fails.
"""
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tilegym  # noqa: E402

DIR = sys.argv[1]
DEV = "cuda"
torch.manual_seed(0)
results = []


def bundle(name):
    return tilegym.Bundle(os.path.join(DIR, name + ".tgb"))


def close(got, want, dtype):
    """Elementwise, with the conditioning the verifier uses (|want| here)."""
    tol = {torch.float32: (1e-5, 1e-4), torch.bfloat16: (1e-2, 2e-2)}[dtype]
    got, want = got.double(), want.double()
    err = (got - want).abs()
    return bool(torch.isfinite(got).all() and (err <= tol[0] + tol[1] * want.abs()).all()), \
        float(err.max())


def case(name, run, expect_pass=True):
    # Kernels run on a non-default stream: the package launches on the
    # current one.
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        ok, err = run()
    torch.cuda.synchronize()
    good = ok == expect_pass
    results.append(good)
    what = "PASS" if ok else "FAIL"
    print(f"{name:44s} {what} max_err={err:.2e}"
          f"{'' if expect_pass else ' (wrong kernel: must FAIL)'} -> "
          f"{'ok' if good else 'UNEXPECTED'}")


def poisoned(*shape, dtype=torch.float32):
    return torch.full(shape, float("nan"), device=DEV, dtype=dtype)


def rows(kind, dtype, M, N):
    def run():
        k = bundle(f"{kind}-{dtype_name(dtype)}").load()
        x = torch.randn(M, N, device=DEV, dtype=dtype)
        w = torch.randn(N, device=DEV, dtype=dtype)
        b = torch.randn(N, device=DEV, dtype=dtype)
        y = poisoned(M, N, dtype=dtype)
        if kind.endswith("layernorm"):
            k(x, w, b, y)  # eps: the source's default
            want = F.layer_norm(x.float(), (N,), w.float(), b.float(), 1e-5)
        else:
            k(x=x, w=w, y=y, eps=1e-6)
            want = F.rms_norm(x.float(), (N,), w.float(), 1e-6)
        return close(y, want, dtype)
    return run


def dtype_name(dtype):
    return {torch.float32: "f32", torch.bfloat16: "bf16"}[dtype]


def matmul(kind, dtype, M, N, K, B=None):
    def run():
        k = bundle(f"{kind}-{dtype_name(dtype)}").load()
        if kind == "bmm":
            a = torch.randn(B, M, K, device=DEV, dtype=dtype)
            b = torch.randn(B, K, N, device=DEV, dtype=dtype)
            c = poisoned(B, M, N)
            k(a, b, c)
            want = torch.bmm(a.double(), b.double())
        elif kind.endswith("matmul_nt"):
            a = torch.randn(M, K, device=DEV, dtype=dtype)
            w = torch.randn(N, K, device=DEV, dtype=dtype)
            c = poisoned(M, N)
            k(a, w, c)
            want = a.double() @ w.double().t()
        else:
            a = torch.randn(M, K, device=DEV, dtype=dtype)
            b = torch.randn(K, N, device=DEV, dtype=dtype)
            bias = torch.randn(N, device=DEV, dtype=dtype)
            c = poisoned(M, N)
            k(a, b, bias, c)
            want = torch.relu(a.double() @ b.double() + bias.double())
        # Sums of K products of unit normals: error ~ sqrt(K) u. f32 inputs
        # run in tf32 on the tensor cores (u = 4.9e-4); bf16 products are
        # exact and only the f32 accumulation rounds.
        err = float((c.double() - want).abs().max())
        bound = (5e-3 if dtype == torch.float32 else 1e-3) * (K ** 0.5)
        return bool(torch.isfinite(c).all() and err <= bound), err
    return run


def elementwise(kind, dtype):
    def run():
        if kind == "swiglu":
            k = bundle(f"swiglu-{dtype_name(dtype)}").load()
            g = torch.randn(37, 777, device=DEV, dtype=dtype)
            u = torch.randn(37, 777, device=DEV, dtype=dtype)
            y = poisoned(37, 777, dtype=dtype)
            k(g, u, y)
            return close(y, F.silu(g.float()) * u.float(), dtype)
        if kind == "axpy":
            k = bundle(f"axpy-{dtype_name(dtype)}").load()
            x = torch.randn(100003, device=DEV, dtype=dtype)
            y = torch.randn(100003, device=DEV, dtype=dtype)
            want = 2.5 * x.float() + y.float()
            k(x, y)  # alpha: the source's default, 2.5; y in place
            return close(y, want, dtype)
        if kind == "transpose":
            k = bundle(f"transpose-{dtype_name(dtype)}").load()
            x = torch.randn(130, 65, device=DEV, dtype=dtype)
            y = poisoned(65, 130, dtype=dtype)
            k(x, y)
            return close(y, x.t(), dtype)
        if kind.endswith("colsum"):
            k = bundle(f"{kind}-{dtype_name(dtype)}").load()
            x = torch.randn(1000, 777, device=DEV, dtype=dtype)
            s = poisoned(777, dtype=dtype)
            k(x, s)
            want = x.double().sum(0)
            # A sum's conditioning: sum |x|.
            err = (s.double() - want).abs()
            scale = x.double().abs().sum(0)
            rtol = 1e-5 if dtype == torch.float32 else 2e-2
            return bool(torch.isfinite(s).all() and (err <= 1e-5 + rtol * scale).all()), \
                float(err.max())
        if kind == "cross_entropy":
            k = bundle(f"cross_entropy-{dtype_name(dtype)}").load()
            x = torch.randn(64, 4096, device=DEV, dtype=dtype)
            t = torch.randint(0, 4096, (64,), device=DEV, dtype=torch.int32)
            loss = poisoned(64)
            k(x, t, loss)
            want = F.cross_entropy(x.float(), t.long(), reduction="none")
            return close(loss, want, torch.float32)
        if kind == "rope":
            k = bundle(f"rope-{dtype_name(dtype)}").load()
            S, D = 256, 128
            x = torch.randn(S, D, device=DEV, dtype=dtype)
            ang = torch.rand(S, D // 2, device=DEV)
            c, s = ang.cos().to(dtype), ang.sin().to(dtype)
            out = poisoned(S, D, dtype=dtype)
            k(x, c, s, out)
            x1, x2 = x.float()[:, :D // 2], x.float()[:, D // 2:]
            want = torch.cat([x1 * c.float() - x2 * s.float(),
                              x1 * s.float() + x2 * c.float()], 1)
            return close(out, want, dtype)
        if kind == "fullsum":
            b = bundle(f"fullsum-{dtype_name(dtype)}")
            part, total = b.load("partial_sums"), b.load("total")
            x = torch.randn(1000003, device=DEV, dtype=dtype)
            p = poisoned((1000003 + 1023) // 1024)
            s = poisoned(1)
            part(x, p)
            total(p, s)  # the sequence, on one stream
            want = x.double().sum()
            tol = 1e-5 * float(x.double().abs().sum())
            err = float((s.double() - want).abs().max())
            # The same through the source's `program fullsum`, by keyword.
            s2 = poisoned(1)
            b.load("fullsum")(s=s2, x=x, p=poisoned(p.numel()))
            err2 = float((s2.double() - want).abs().max())
            return bool(err <= tol and err2 <= tol), max(err, err2)
    return run


for dt in (torch.float32, torch.bfloat16):
    case(f"layernorm 37x777 {dtype_name(dt)}", rows("layernorm", dt, 37, 777))
    case(f"rmsnorm 37x777 {dtype_name(dt)}", rows("rmsnorm", dt, 37, 777))
    for kind in ("swiglu", "axpy", "transpose", "colsum", "cross_entropy",
                 "rope", "fullsum"):
        case(f"{kind} {dtype_name(dt)}", elementwise(kind, dt))
    case(f"bmm 4x256x256x128 {dtype_name(dt)}", matmul("bmm", dt, 256, 256, 128, B=4))
    case(f"matmul_nt 129x77x65 {dtype_name(dt)}", matmul("matmul_nt", dt, 129, 77, 65))
    case(f"matmul_nt 4096^3 {dtype_name(dt)}", matmul("matmul_nt", dt, 4096, 4096, 4096))
    case(f"matmul_bias_relu 256^3 {dtype_name(dt)}",
         matmul("matmul_bias_relu", dt, 256, 256, 256))
case("wrong_layernorm 37x777 f32", rows("wrong_layernorm", torch.float32, 37, 777), False)
case("wrong_colsum f32", elementwise("wrong_colsum", torch.float32), False)
case("wrong_matmul_nt 129x77x65 bf16", matmul("wrong_matmul_nt", torch.bfloat16, 129, 77, 65), False)

# Arguments are checked before the launch.
k = bundle("rmsnorm-f32").load()
x = torch.randn(4, 8, device=DEV)
try:
    k(x, torch.randn(9, device=DEV), poisoned(4, 8))
    results.append(False)
    print("named dimensions: mismatch accepted -> UNEXPECTED")
except tilegym.TileGymError as e:
    results.append("dimension N" in str(e))
    print(f"named dimensions: {e}")

passed = sum(results)
print(f"{passed} passed, {len(results) - passed} failed")
sys.exit(0 if passed == len(results) else 1)
