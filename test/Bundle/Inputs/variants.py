# Drives a bundle of variants (manifest version 2) through python/tilegym,
# printing one line per step for FileCheck. Usage: variants.py BUNDLE STEP...
# Steps: queries (no GPU), launch (with the fake driver), program.
import sys
import os

sys.dont_write_bytecode = True  # no __pycache__ in python/
sys.path.insert(0, os.environ["TILEGYM_PYTHON_DIR"])
import tilegym  # noqa: E402
from tilegym import View  # noqa: E402
from steps import attempt, out  # noqa: E402


path, steps = sys.argv[1], sys.argv[2:]
v = lambda n, dt="f32", base=0xa000: View(dt, base, [n])  # noqa: E731

if "queries" in steps:
    b = tilegym.Bundle(path)
    out(f"variants {b.variants} kernels {b.kernels} consts {b.consts}")
    out(f"params {[(p['name'], p.get('access')) for p in b.params()]}")
    for n in (1000, 1025, 3000, 300000, 600000, 1 << 24):
        attempt(f"select n={n}", lambda: b.select_variant(None, v(n), v(n), v(n)))
    attempt("select bad", lambda: b.select_variant(None, v(5), v(5)))
    attempt("select unknown", lambda: b.select_variant("nope", v(5)))
    # The default variant's grid program and info, for signatures.
    out("grid program " + b.grid_program())

if "launch" in steps:
    b = tilegym.Bundle(path)
    k = b.load()
    out(f"image {os.path.relpath(k.image, path)}")
    for n in (3000, 600000):
        attempt(f"launch n={n}", lambda: k(v(n), v(n, base=0xb000),
                                           v(n, base=0xc000), stream=0))
    plan = k.plan(v(3000), v(3000), v(3000))
    out(f"plan grid {plan.grid}")
    attempt("plan launch", lambda: plan.launch(0))
    attempt("launch mismatch", lambda: k(v(8), v(8), v(8, "bf16"), stream=0))
    # A tuner's calls: a variant launched whatever the table says; a rule
    # set in memory, which later launches and plans follow.
    L = b.L.lib
    arr, n = k._arr((v(600000), v(600000), v(600000)))
    attempt("launch variant 1", lambda: b.L.check(
        L.tgb_launch_variant(k.handle, 1, arr, n, 0)))
    attempt("launch variant 5", lambda: b.L.check(
        L.tgb_launch_variant(k.handle, 5, arr, n, 0)))
    same = (v(600000), v(600000), v(600000))
    attempt("launch twice", lambda: (k(*same, stream=0), k(*same, stream=0)))
    attempt("launch null", lambda: b.L.check(L.tgb_launch(k.handle, None, 3, 0)))
    attempt("set rule", lambda: b.L.check(
        L.tgb_set_rule(b.handle, b"vector_add", arr, n, 1)))
    attempt("launch same after", lambda: k(*same, stream=0))
    attempt("select after", lambda: b.select_variant(None, v(600000), v(600000),
                                                    v(600000)))
    attempt("launch after", lambda: k(v(700000), v(700000), v(700000), stream=0))
    attempt("set rule 7", lambda: b.L.check(
        L.tgb_set_rule(b.handle, b"vector_add", arr, n, 7)))
    attempt("set rule bad", lambda: b.L.check(
        L.tgb_set_rule(b.handle, b"vector_add", arr, 2, 0)))
    b.close()
    out("closed")

if "program" in steps:
    b = tilegym.Bundle(path)
    out(f"variants {b.variants} programs {b.programs}")
    p = b.load("fullsum")
    for n, parts in ((5000, 20), (4000000, 3907)):
        attempt(f"program n={n}", lambda: p(v(n), v(parts, base=0xb000),
                                            v(1, base=0xc000), stream=0))
    k = b.load("partial_sums")
    attempt("kernel n=5000", lambda: k(v(5000), v(20, base=0xb000), stream=0))
    b.close()
