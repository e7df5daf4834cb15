#!/usr/bin/env python3
"""Random valid tile kernels, for differential tests of the two backends.

    scripts/random-kernels.py OUT_DIR [--count N] [--seed S]

Writes OUT_DIR/k<i>.tile and OUT_DIR/cases.txt, one line per kernel:
"k<i>.tile|<tilegym-run arguments>" (sizes, scalar values, input
distributions). Each kernel is drawn from one of five shapes of program a
user writes, with random element types, tile sizes, warp counts, ragged
problem sizes and a random expression tree in the body:

  ew      2-D elementwise over two inputs and a scalar, with row
          broadcasts (a reduction of the tile combined with the tile)
  rowred  a row reduction (sum, max or min) of an expression, looped over
          column tiles, stored without the reduced axis
  dot     a matmul looped over K with a random epilogue (bias, scale,
          activation), f16, bf16 or f32 (tf32) operands
  perm    a transpose or permute of an expression, stored transposed
  int     i32 arithmetic with division and remainder by constants

Expressions stay finite on uniform(-1, 1) inputs: exp and log only see
bounded arguments (tanh, abs(x) + 1), divisors are abs(x) + 1. The same
kernel then runs on the CPU JIT (against itself in float64, --ref) and on
the GPU (against the CPU JIT, --compare=cpu): scripts/differential.sh.
Standard library only.
"""

import argparse
import os
import random

FLOATS = ["f32", "f16", "bf16"]


class Expr:
    """Random float expressions over f32 tiles named in `leaves`."""

    def __init__(self, rng, leaves, scalars):
        self.rng, self.leaves, self.scalars = rng, leaves, scalars

    def leaf(self):
        r = self.rng.random()
        if r < 0.7:
            return self.rng.choice(self.leaves)
        if r < 0.85 and self.scalars:
            return self.rng.choice(self.scalars)
        return repr(round(self.rng.uniform(-2, 2), 3))

    def bounded(self, depth):
        """An expression within [-1, 1]."""
        return f"tanh({self.gen(depth)})"

    def gen(self, depth):
        if depth <= 0 or self.rng.random() < 0.2:
            return self.leaf()
        d = depth - 1
        op = self.rng.choice(["+", "-", "*", "div", "max", "min", "exp",
                              "log", "sqrt", "abs", "neg", "where", "tanh",
                              "erf", "rsqrt"])
        if op in "+-*":
            return f"({self.gen(d)} {op} {self.gen(d)})"
        if op == "div":
            return f"({self.gen(d)} / (abs({self.gen(d)}) + 1.0))"
        if op in ("max", "min"):
            return f"{op}({self.gen(d)}, {self.gen(d)})"
        if op == "exp":
            return f"exp({self.bounded(d)})"
        if op == "log":
            return f"log(abs({self.gen(d)}) + 1.0)"
        if op == "sqrt":
            return f"sqrt(abs({self.gen(d)}))"
        if op == "rsqrt":
            return f"rsqrt(abs({self.gen(d)}) + 0.5)"
        if op == "abs":
            return f"abs({self.gen(d)})"
        if op == "neg":
            return f"(-{self.gen(d)})"
        if op == "tanh":
            return self.bounded(d)
        if op == "erf":
            return f"erf({self.gen(d)})"
        cond = f"{self.gen(d)} {self.rng.choice(['<', '>', '<=', '>='])} {self.gen(d)}"
        return f"where({cond}, {self.gen(d)}, {self.gen(d)})"

    def tile(self, base, depth):
        """An expression of `base`'s shape: `base` plus a random one (which
        may be a scalar or a broadcast row)."""
        return f"{base} + {self.gen(depth)}"


def pow2(rng, lo, hi):
    return rng.choice([1 << e for e in range(lo, hi + 1)])


def size(rng, lo=1, hi=300):
    # Tile multiples, one element, and ragged sizes, all likely.
    r = rng.random()
    if r < 0.15:
        return 1
    if r < 0.35:
        return pow2(rng, 4, 8)
    return rng.randint(lo, hi)


def header(rng, T):
    warps = rng.choice([1, 2, 4, 8])
    return f"const T = {T};\n", f" warps({warps})"


def gen_ew(rng):
    T, OT = rng.choice(FLOATS), rng.choice(FLOATS)
    BM, BN = pow2(rng, 0, 5), pow2(rng, 4, 8)
    consts, warps = header(rng, T)
    e = Expr(rng, ["a", "b", "ra"], ["alpha"])
    body = e.tile("a", rng.randint(1, 4))
    axis = rng.choice([0, 1])
    red = rng.choice(["sum", "max", "min"])
    src = (consts + f"const OT = {OT};\nconst BM = {BM};\nconst BN = {BN};\n\n"
           f"kernel ew(x: view<[M, N], T>, y: view<[M, N], T>, o: view<[M, N], OT>,\n"
           f"          alpha: f32 = 0.5) grid(cdiv(M, BM), cdiv(N, BN)){warps} {{\n"
           f"  let i = block_id(0);\n  let j = block_id(1);\n"
           f"  let a = cast(load(x, [i, j], [BM, BN]), f32);\n"
           f"  let b = cast(load(y, [i, j], [BM, BN]), f32);\n"
           f"  let ra = {red}(a, axis = {axis});\n"
           f"  store(o, [i, j], cast({body}, OT));\n}}\n")
    return src, f"--size M={size(rng)},N={size(rng)} --arg alpha={round(rng.uniform(-2, 2), 3)}"


def gen_rowred(rng):
    T, OT = rng.choice(FLOATS), rng.choice(["f32", rng.choice(FLOATS)])
    BM, BN = pow2(rng, 0, 4), pow2(rng, 4, 8)
    consts, warps = header(rng, T)
    red = rng.choice(["sum", "max", "min"])
    init = {"sum": "zeros([BM], f32)", "max": "full([BM], -1e30, f32)",
            "min": "full([BM], 1e30, f32)"}[red]
    comb = {"sum": "acc + r", "max": "max(acc, r)", "min": "min(acc, r)"}[red]
    body = Expr(rng, ["a"], []).tile("a", rng.randint(1, 3))
    src = (consts + f"const OT = {OT};\nconst BM = {BM};\nconst BN = {BN};\n\n"
           f"kernel rowred(x: view<[M, N], T>, o: view<[M], OT>) grid(cdiv(M, BM)){warps} {{\n"
           f"  let i = block_id(0);\n  var acc = {init};\n"
           f"  for c in range(cdiv(N, BN)) {{\n"
           f"    let a = cast(load(x, [i, c], [BM, BN]), f32);\n"
           f"    let r = {red}({body}, axis = 1, keepdims = false);\n"
           f"    acc = {comb};\n  }}\n"
           f"  store(o, [i], cast(acc, OT));\n}}\n")
    return src, f"--size M={size(rng)},N={size(rng, 1, 700)}"


def gen_dot(rng):
    T = rng.choice(FLOATS)
    BM, BN, BK = pow2(rng, 4, 7), pow2(rng, 4, 7), pow2(rng, 4, 6)
    warps = rng.choice([1, 2, 4, 8])
    epi = Expr(rng, ["acc", "bias"], ["alpha"]).tile("acc", rng.randint(0, 2))
    src = (f"const T = {T};\nconst BM = {BM};\nconst BN = {BN};\nconst BK = {BK};\n\n"
           f"kernel mm(a: view<[M, K], T>, b: view<[K, N], T>, bias_v: view<[N], f32>,\n"
           f"          c: view<[M, N], f32>, alpha: f32 = 1.0)\n"
           f"    grid(cdiv(M, BM), cdiv(N, BN)) warps({warps}) {{\n"
           f"  let i = block_id(0);\n  let j = block_id(1);\n"
           f"  var acc = zeros([BM, BN], f32);\n"
           f"  for k in range(cdiv(K, BK)) {{\n"
           f"    acc = dot(load(a, [i, k], [BM, BK]), load(b, [k, j], [BK, BN]), acc);\n"
           f"  }}\n"
           f"  let bias = reshape(load(bias_v, [j], [BN]), [1, BN]);\n"
           f"  store(c, [i, j], {epi});\n}}\n")
    M, N, K = size(rng, 1, 260), size(rng, 1, 260), size(rng, 1, 200)
    return src, f"--size M={M},N={N},K={K} --arg alpha={round(rng.uniform(-2, 2), 3)}"


def gen_perm(rng):
    T = rng.choice(FLOATS)
    BM, BN = pow2(rng, 0, 6), pow2(rng, 0, 6)
    if BM * BN < 16:
        BN = 16
    consts, warps = header(rng, T)
    body = Expr(rng, ["a"], []).tile("a", rng.randint(0, 2))
    how = rng.choice(["transpose(t)", "permute(t, [1, 0])"])
    src = (consts + f"const BM = {BM};\nconst BN = {BN};\n\n"
           f"kernel perm(x: view<[M, N], T>, y: view<[N, M], T>) grid(cdiv(M, BM), cdiv(N, BN)){warps} {{\n"
           f"  let i = block_id(0);\n  let j = block_id(1);\n"
           f"  let a = cast(load(x, [i, j], [BM, BN]), f32);\n"
           f"  let t = cast({body}, T);\n"
           f"  store(y, [j, i], {how});\n}}\n")
    return src, f"--size M={size(rng)},N={size(rng)}"


def int_expr(rng, depth):
    if depth <= 0 or rng.random() < 0.25:
        r = rng.random()
        return rng.choice(["a", "b"]) if r < 0.8 else str(rng.randint(-9, 9))
    d = depth - 1
    op = rng.choice(["+", "-", "*", "/", "%", "max", "min", "abs", "where"])
    if op in "+-*":
        return f"({int_expr(rng, d)} {op} {int_expr(rng, d)})"
    if op in "/%":
        # By a nonzero constant: the backends agree on truncation toward 0.
        c = rng.choice([-7, -3, -2, 2, 3, 5, 16])
        return f"({int_expr(rng, d)} {op} {c})"
    if op in ("max", "min"):
        return f"{op}({int_expr(rng, d)}, {int_expr(rng, d)})"
    if op == "abs":
        # Of a tile: a constant is an index, which abs does not take.
        return f"abs({rng.choice(['a', 'b'])} - {int_expr(rng, d)})"
    return (f"where({int_expr(rng, d)} < {int_expr(rng, d)}, "
            f"{int_expr(rng, d)}, {int_expr(rng, d)})")


def gen_int(rng):
    BN = pow2(rng, 4, 10)
    warps = rng.choice([1, 2, 4, 8])
    body = "a + " + int_expr(rng, rng.randint(1, 4))
    src = (f"const BN = {BN};\n\n"
           f"kernel ints(x: view<[N], i32>, y: view<[N], i32>, o: view<[N], i32>)\n"
           f"    grid(cdiv(N, BN)) warps({warps}) {{\n"
           f"  let i = block_id(0);\n"
           f"  let a = load(x, [i], [BN]);\n  let b = load(y, [i], [BN]);\n"
           f"  store(o, [i], {body});\n}}\n")
    return src, (f"--size N={size(rng, 1, 5000)} --init x=randint(-1000,1000) "
                 f"--init y=randint(-50,50)")


GENERATORS = {"ew": gen_ew, "rowred": gen_rowred, "dot": gen_dot,
              "perm": gen_perm, "int": gen_int}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--count", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    names = sorted(GENERATORS)
    with open(os.path.join(args.out, "cases.txt"), "w") as cases:
        for i in range(args.count):
            kind = names[i % len(names)] if i < len(names) else rng.choice(names)
            src, run_args = GENERATORS[kind](rng)
            name = f"k{i}_{kind}.tile"
            with open(os.path.join(args.out, name), "w") as f:
                f.write(f"// Generated by scripts/random-kernels.py --seed "
                        f"{args.seed} (kernel {i}, {kind}).\n" + src)
            cases.write(f"{name}|{run_args}\n")


if __name__ == "__main__":
    main()
