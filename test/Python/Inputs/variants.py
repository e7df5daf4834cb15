# tilegym.tune.compile_variants without a GPU: every configuration of the
# space compiled into one bundle of variants, those the compiler refuses
# dropped with its reason; the bundle reads back as one kernel whose
# variants the dispatch picks; the tolerance tune compares variants at.
# Usage: variants.py SOURCE OUT PROGRAM_SOURCE [MATMUL_SOURCE]
import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in python/
sys.path.insert(0, os.environ["TILEGYM_PYTHON_DIR"])
import tilegym  # noqa: E402
import tilegym.tune  # noqa: E402

source, out = sys.argv[1:3]
b = tilegym.tune.compile_variants(source, out, {"BLOCK": [512, 2048, 3]},
                                  defines={"T": "bf16"}, target="sm_80",
                                  jobs=2)
print(f"variants {b.variants} kernels {b.kernels} consts {b.consts} "
      f"target {b.target}")
for config, why in b.dropped:
    print(f"dropped {config}: {why}")
print(f"rules {len(json.load(open(out + '/manifest.json'))['dispatch'])}")
try:
    tilegym.tune.compile_variants(source, out, {"BLOCK": [512]}, target="sm_80")
except tilegym.TileGymError as e:
    print(f"again: {e.message}")
# tune's refusals, before it needs torch: a program, an unnamed kernel of
# several, a bundle of kernels, too many values, a parameter left out that
# has no default (scalars left out take their defaults, as a call's do).
fs = tilegym.tune.compile_variants(sys.argv[3], out + "-fs", {"BLOCK": [256]},
                                   target="sm_80", jobs=2)
for label, call in (("program", lambda: tilegym.tune.tune(fs, "fullsum")),
                    ("several", lambda: tilegym.tune.tune(fs, None)),
                    ("kernels", lambda: tilegym.tune.tune(
                        tilegym.Bundle(out + "/BLOCK512.tgb"), None)),
                    ("too many", lambda: tilegym.tune.tune(b, None, 1, 2, 3, 4)),
                    ("too few", lambda: tilegym.tune.tune(b, None, 1))):
    try:
        call()
        print(f"tune {label}: accepted")
    except tilegym.TileGymError as e:
        print(f"tune {label}: {e.message}")
# The tolerance tune compares variants at: f32 outputs of tf32 dots (the
# matmul in f32, on wgmma at BK 32 and mma.sync at BK 16) allow tf32's
# rounding; bf16 dots and other types keep their own. WS=1 without the TMA
# specializes no warps: the same kernels as WS=0, dropped.
if len(sys.argv) > 4:
    for dtype in ("f32", "bf16"):
        mm = tilegym.tune.compile_variants(
            sys.argv[4], f"{out}-mm-{dtype}", {"BK": [32, 16], "WS": [0, 1]},
            defines={"T": dtype, "BM": 128, "BN": 128, "PERSISTENT": 0},
            target="sm_90a", jobs=2)
        for config, why in mm.dropped:
            print(f"matmul {dtype}: dropped {config}: {why}")
        top = json.load(open(f"{out}-mm-{dtype}/manifest.json"))
        rounding = [tilegym.tune._dot_rounding(mm, top, v, "matmul")
                    for v in range(len(mm.variants))]
        print(f"matmul {dtype}: dot_rounding {rounding}")
for dtype, coarse in (("f32", True), ("f32", False), ("bf16", True),
                      ("i32", True)):
    print(f"tolerance {dtype} coarse={coarse}: "
          f"{tilegym.tune.output_tolerance(dtype, coarse):.0e}")
