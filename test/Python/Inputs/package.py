# The Python package without a GPU: compiles a .tile file with tilegym-cc,
# reads the signature (names, named dimensions, defaults) and binds arguments
# by position, by name and by default, refusing bad ones before any launch.
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.environ["TILEGYM_PYTHON_DIR"])
import tilegym  # noqa: E402

src, out = sys.argv[1], sys.argv[2]
b = tilegym.compile(src, out=out, target="sm_90a",
                    compiler=os.environ["TILEGYM_CC"])
print("kernels", b.kernels)
for p in b.params():
    print("param", p["name"], p["kind"], p["dtype"], p.get("dims"))
print("defaults", b.defaults())
k = tilegym.Kernel(b, None, None)  # not loaded: binding only
x = tilegym.View("f32", 0x1000, (4, 8))
w = tilegym.View("f32", 0x2000, (8,))
y = tilegym.View("f32", 0x3000, (4, 8))
print("by default", k._values([x, w, y], {})[3])
print("by name", k._values([x], {"w": w, "y": y, "eps": 0.5})[3])
for what, args, named in [("unknown", [x, w, y], {"beta": 1.0}),
                          ("twice", [x, w, y], {"x": x}),
                          ("too many", [x, w, y, 1.0, 2.0], {})]:
    try:
        k._values(args, named)
        print(what, "accepted")
    except tilegym.TileGymError as e:
        print(what, "error:", e)
try:
    b.check_args(None, x, tilegym.View("f32", 0x2000, (9,)), y, 1e-5)
except tilegym.TileGymError as e:
    print("check error:", e)
try:
    tilegym.compile(os.path.join(os.path.dirname(src), "nonexistent.tile"),
                    out=out + "2", target="sm_90a",
                    compiler=os.environ["TILEGYM_CC"])
except tilegym.TileGymError as e:
    print("compile error:", str(e).splitlines()[0])
# target="auto" (the default) asks the driver for GPU 0: without one, a
# clear error before tilegym-cc runs; with one, its target.
try:
    auto = tilegym.compile(src, out=out + "3", compiler=os.environ["TILEGYM_CC"])
    print("auto ok", auto.target)
except tilegym.TileGymError as e:
    print("auto error:", e)
# The compile cache: the second compile is copied from it.
cache = out + ".cache"
for name in ["c1.tgb", "c2.tgb"]:
    tilegym.compile(src, out=os.path.join(os.path.dirname(out), name),
                    target="sm_90a", compiler=os.environ["TILEGYM_CC"],
                    cache_dir=cache)
print("cache entries", len(os.listdir(cache)))
# Without cache_dir: $TILEGYM_CACHE_DIR/compile, where the first compile
# above left its entry, and where this one (to another -o, not part of the
# key) is a hit.
tilegym.compile(src, out=out + "4", target="sm_90a",
                compiler=os.environ["TILEGYM_CC"])
print("default cache entries", len(os.listdir(os.path.join(
    os.environ["TILEGYM_CACHE_DIR"], "compile"))))
print("cached bundle kernels", tilegym.Bundle(
    os.path.join(os.path.dirname(out), "c2.tgb")).kernels)
for cap in [(9, 0), (8, 0), (8, 9), (7, 5)]:
    try:
        print("capability", cap, tilegym.target_for_capability(*cap))
    except tilegym.TileGymError as e:
        print("capability", cap, "error:", e)
