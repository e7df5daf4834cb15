# Drives libtilegym_bundle.so through python/tilegym (ctypes), printing
# one line per step for FileCheck. Usage: capi.py BUNDLE_DIR STEP...
# Steps: queries (no GPU), load (whatever driver TILEGYM_LIBCUDA names),
# launch (with the fake driver).
import ctypes
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in python/

sys.path.insert(0, os.environ["TILEGYM_PYTHON_DIR"])
import tilegym  # noqa: E402
from tilegym import View  # noqa: E402
from steps import attempt, out  # noqa: E402


d = sys.argv[1]
steps = sys.argv[2:]
va = os.path.join(d, "va.tgb")

if "queries" in steps:
    out(f"format version {tilegym.Library.get().lib.tgb_format_version()}")
    attempt("open missing", lambda: tilegym.Bundle(os.path.join(d, "none.tgb")))
    attempt("open broken", lambda: tilegym.Bundle(os.path.join(d, "broken.tgb")))
    b = tilegym.Bundle(va)
    out(f"target {b.target} kernels {b.kernels} consts {b.consts}")
    out(f"variants {b.variants} select {b.select_variant(None, View('f32', 1, [9]), View('f32', 1, [9]), View('f32', 1, [9]))}")
    nine = tilegym._args_array([tilegym.to_arg(View("f32", 1, [9]))] * 3)
    attempt("set rule", lambda: b.L.check(b.L.lib.tgb_set_rule(
        b.handle, None, nine[0], 3, 0)))
    info = b.info()
    out("info " + " ".join(f"{k}={os.path.basename(str(v)) if k in ('ptx', 'cubin') else v}"
                           for k, v in info.items()))
    for p in b.params("vector_add"):
        out(f"param {p}")
    out("grid program " + b.grid_program())
    attempt("info unknown", lambda: b.info("nope"))
    attempt("param out of range",
            lambda: b.L.check(b.L.lib.tgb_kernel_param(
                b.handle, b"vector_add", 3, ctypes.byref(tilegym.Param()))))
    v = lambda n, dt="f32": View(dt, 0x1000, [n])
    attempt("grid n=3000", lambda: b.grid(None, v(3000), v(3000), v(3000)))
    attempt("grid n=0", lambda: b.grid(None, v(0), v(0), v(0)))
    attempt("check ok", lambda: b.check_args(None, v(5), v(5), v(5)))
    attempt("check count", lambda: b.check_args(None, v(5), v(5)))
    attempt("check dtype", lambda: b.check_args(None, v(5), v(5, "bf16"), v(5)))
    attempt("check rank", lambda: b.check_args(None, v(5), v(5),
                                               View("f32", 0x1000, [5, 1])))
    attempt("check null", lambda: b.check_args(None, v(5), View("f32", 0, [5]), v(5)))
    attempt("check scalar", lambda: b.check_args(None, v(5), v(5), 7))
    s = tilegym.Bundle(os.path.join(d, "scalars.tgb"))
    x = View("f32", 0x1000, [40, 128])
    out(f"scalars params {[(p['kind'], p['dtype']) for p in s.params()]}")
    attempt("scalars grid n=9", lambda: s.grid(None, x, 9, 1.5, 10))
    attempt("scalars grid n=3", lambda: s.grid(None, x, 3, 1.5, 10))
    attempt("scalars view for scalar", lambda: s.grid(None, x, x, 1.5, 10))
    attempt("launch on null", lambda: tilegym.Library.get().check(
        tilegym.Library.get().lib.tgb_launch(None, None, 0, 0)))
    b.close()
    b.close()

if "load" in steps:
    b = tilegym.Bundle(va)
    attempt("load", lambda: b.load().image.split("/")[-1])

if "launch" in steps:
    b = tilegym.Bundle(va)
    k = b.load("vector_add")
    out(f"image {os.path.basename(k.image)} cubin={k.is_cubin}")
    out(f"same handle {b.load('vector_add').handle.value == k.handle.value}")
    a, bb, c = (View("f32", base, [3000]) for base in (0xa000, 0xb000, 0xc000))
    attempt("launch", lambda: k(a, bb, c, stream=0))
    attempt("launch strided", lambda: k(View("f32", 0xa000, [10], [2]),
                                        View("f32", 0xb000, [10], [2]),
                                        View("f32", 0xc000, [10], [2]), stream=0))
    attempt("launch empty", lambda: k(*(View("f32", 0, [0]) for _ in range(3)), stream=0))
    attempt("launch mismatch", lambda: k(a, bb, View("f16", 0xc000, [3000]), stream=0))
    plan = k.plan(a, bb, c)
    out("plan: ok")
    out(f"plan grid {plan.grid}")
    attempt("plan launch", lambda: plan.launch(0))
    attempt("plan launch", lambda: plan.launch(0))
    attempt("plan destroy", plan.destroy)
    L = tilegym.Library.get()
    I64 = ctypes.c_int64 * 3
    flat = (L.lib.tgb_launch_views)
    flat.restype = ctypes.c_int
    flat.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_int32),
                     ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_int32),
                     ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int64),
                     ctypes.c_uint64]
    dtypes = (ctypes.c_int32 * 3)(0, 0, 0)
    data = (ctypes.c_uint64 * 3)(0xa000, 0xb000, 0xc000)
    ranks = (ctypes.c_int32 * 3)(1, 1, 1)
    attempt("launch views", lambda: L.check(flat(k.handle, 3, dtypes, data, ranks,
                                                 I64(2048, 2048, 2048), None, 0)))
    ranks[2] = 9
    attempt("launch views rank", lambda: L.check(flat(k.handle, 3, dtypes, data, ranks,
                                                      I64(1, 1, 1), None, 0)))
    attempt("synchronize", tilegym.synchronize)
    b.close()
    out("closed")

if "tma" in steps:
    # A kernel whose parameter 2 the TMA copies (tma.tgb): launches encode
    # its tensor map once per distinct tensor.
    k = tilegym.Bundle(os.path.join(d, "tma.tgb")).load("vector_add")
    a, bb = View("f32", 0xa000, [3000]), View("f32", 0xb000, [3000])
    c, c2 = View("f32", 0xc000, [3000]), View("f32", 0xd000, [3000])
    for label, cv in (("first", c), ("again", c), ("again", c), ("other", c2),
                      ("first again", c), ("shorter", View("f32", 0xc000, [2000])),
                      ("misaligned", View("f32", 0xc004, [3000]))):
        attempt(f"tma launch {label}", lambda: k(a, bb, cv, stream=0))

if "persistent" in steps:
    # pp.tgb: va.tgb whose manifest says persistent, 4 blocks per SM. The
    # driver is asked once how many an SM holds; both launches use it.
    k = tilegym.Bundle(os.path.join(d, "pp.tgb")).load("vector_add")
    big = [View("f32", base, [1000000]) for base in (0xa000, 0xb000, 0xc000)]
    attempt("persistent launch", lambda: k(*big, stream=0))
    attempt("persistent launch again", lambda: k(*big, stream=0))

if "program" in steps:
    # fs.tgb: examples/fullsum.tile, whose `program fullsum` runs
    # partial_sums then total on (x, p, s).
    b = tilegym.Bundle(os.path.join(d, "fs.tgb"))
    out(f"programs {b.programs}")
    out(f"program params {[(p['name'], p['dtype'], p.get('dims')) for p in b.program_params('fullsum')]}")
    attempt("program info unknown", lambda: b.program_params("nope"))
    L = b.L
    missing = L.lib.tgb_program_kernel(b.handle, b"fullsum", 2)
    out(f"program kernel out of range: {missing} {L.lib.tgb_last_error().decode()}")
    x, p, s = (View("f32", 0xa000, [5000]), View("f32", 0xb000, [5]),
               View("f32", 0xc000, [1]))
    prog = b.load("fullsum")
    out(f"program kernels {prog.kernels}")
    attempt("program launch", lambda: prog(x, p, s, stream=0))
    attempt("program launch by name", lambda: prog(s=s, p=p, x=x, stream=0))
    # P disagrees with nothing here, but s must have its static size 1;
    # no kernel is launched when any check fails.
    attempt("program launch bad", lambda: prog(x, p, View("f32", 0xc000, [2]), stream=0))
    attempt("program launch rank", lambda: prog(x, View("f32", 0xb000, [5, 1]), s, stream=0))
    attempt("program launch count", lambda: L.check(L.lib.tgb_program_launch(
        prog.handle, None, 0, 0)))
    attempt("program launch null", lambda: L.check(L.lib.tgb_program_launch(
        None, None, 0, 0)))
    attempt("program same handle", lambda: b.load("fullsum").handle.value == prog.handle.value)
    attempt("program by default", lambda: b.load().handle.value == prog.handle.value)
    b.close()
    out("closed")
