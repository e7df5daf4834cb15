# tilegym.tune.compile_variants without a GPU: every configuration of the
# space compiled into one bundle of variants, those the compiler refuses
# dropped with its reason; the bundle reads back as one kernel whose
# variants the dispatch picks. Usage: variants.py SOURCE OUT
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
print(f"rules {len(__import__('json').load(open(out + '/manifest.json'))['dispatch'])}")
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
