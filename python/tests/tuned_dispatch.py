"""A bundle of variants written by tilegym-tune, dispatching by shape, on
the GPU.

    python3 tuned_dispatch.py MATMUL.tgb [M,N,K ...]

MATMUL.tgb is `tilegym-tune examples/matmul.tile --shape ... --bundle
MATMUL.tgb` run at one or more shapes (c = a @ b, a [M, K], b [K, N]). For
each rule of its dispatch table, and each extra M,N,K given (shapes no
rule names, which take the nearest rule), on fresh random inputs: the
variant Bundle.select_variant says matches the rule's (for the rules'
own shapes), the kernel called directly and as a tilegym.torch operator
(under torch.compile(fullgraph=True) too) writes what torch.matmul in
float64 gives, within the inputs' precision. Prints one PASS/FAIL line per
check and `N passed, N failed`; exit code 1 on any failure.
"""
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import tilegym  # noqa: E402
import tilegym.torch  # noqa: E402

path = sys.argv[1]
with open(os.path.join(path, "manifest.json")) as f:
    manifest = json.load(f)
bundle = tilegym.Bundle(path)
print(f"{path}: variants {bundle.variants}, {len(manifest['dispatch'])} rules")
DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}
params = {p["name"]: p for p in bundle.params("matmul")}
kernel = bundle.load("matmul")
op = tilegym.torch.register(bundle, namespace="tilegym_dispatch").matmul
compiled = torch.compile(lambda a, b, c: op(a, b, c), fullgraph=True)
passed = failed = 0


def check(name, ok, detail):
    global passed, failed
    print(f"{'PASS' if ok else 'FAIL'} {name}: {detail}")
    passed, failed = passed + ok, failed + (not ok)


cases = [(tuple(r["shapes"]["a"][:1] + r["shapes"]["b"][1:] +
                r["shapes"]["a"][1:]), r["variant"])
         for r in manifest["dispatch"]]
cases += [(tuple(int(x) for x in arg.split(",")), None)
          for arg in sys.argv[2:]]
for (m, n, k), want in cases:
    torch.manual_seed(m * 31 + n * 7 + k)
    a = torch.randn(m, k, device="cuda").to(DTYPES[params["a"]["dtype"]])
    b = torch.randn(k, n, device="cuda").to(DTYPES[params["b"]["dtype"]])
    ref = a.double() @ b.double()
    scale = (a.double().abs() @ b.double().abs()).clamp_min(1e-30)
    shape = f"M={m} N={n} K={k}"
    got = bundle.select_variant("matmul", a, b,
                                torch.empty(m, n, device="cuda"))
    if want is not None:
        check(f"{shape} select", got == want,
              f"variant {got} ({bundle.variants[got]}), the rule says {want}")
    else:
        print(f"     {shape} select: variant {got} ({bundle.variants[got]}), "
              f"the nearest rule's")
    tol = 1e-2 if params["a"]["dtype"] in ("bf16", "f16") else 3e-3
    for how, run in (("direct", lambda c: kernel(a, b, c)),
                     ("operator", lambda c: op(a, b, c)),
                     ("compiled", lambda c: compiled(a, b, c))):
        c = torch.full((m, n), float("nan"), device="cuda",
                       dtype=DTYPES[params["c"]["dtype"]])
        run(c)
        torch.cuda.synchronize()
        err = ((c.double() - ref).abs() / scale).max().item()
        check(f"{shape} {how}", bool(torch.isfinite(c).all()) and err <= tol,
              f"max error {err:.2e} of |a| @ |b| (tolerance {tol:.0e})")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
