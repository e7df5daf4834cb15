"""check_random.py DIR SEED: random.tile's outputs (a --dump folder) against
Philox4x32 in numpy.

randint's words and rand's floats must match bit for bit (integer math, one
int-to-float conversion and one f32 multiply); randn within 1e-4 of the
float64 Box-Muller of the same uniforms (the backends' log, sqrt and cos
differ in their last bits). The uniforms' and normals' means and spreads
are checked loosely as well, from 1000 elements. Exits 1 on any failure."""
import sys

import numpy as np

d, seed = sys.argv[1], int(sys.argv[2])
seeds = np.load(d + "/seeds.npy").astype(np.int64)
ints = np.load(d + "/ints.out.npy")
floats = np.load(d + "/floats.out.npy")
n = seeds.size
M = np.uint64(0xFFFFFFFF)


def philox(seed, offset, rounds=10):
    # The key: the seed as a 64-bit integer (sign-extended), low and high.
    seed = np.broadcast_to(np.asarray(seed, dtype=np.int64), offset.shape)
    k0 = (seed & 0xFFFFFFFF).astype(np.uint64)
    k1 = ((seed >> 32) & 0xFFFFFFFF).astype(np.uint64)
    c0 = offset.astype(np.uint64) & M
    c1 = c2 = c3 = np.zeros_like(c0)
    for _ in range(rounds):
        pb = np.uint64(0xCD9E8D57) * c2
        pa = np.uint64(0xD2511F53) * c0
        c0, c2 = ((pb >> np.uint64(32)) ^ c1 ^ k0) & M, ((pa >> np.uint64(32)) ^ c3 ^ k1) & M
        c1, c3 = pb & M, pa & M
        k0 = (k0 + np.uint64(0x9E3779B9)) & M
        k1 = (k1 + np.uint64(0xBB67AE85)) & M
    return [c.astype(np.uint32).view(np.int32) for c in (c0, c1, c2, c3)]


def uniform(word):
    x = word.astype(np.int64)
    x = np.where(x < 0, -x - 1, x)
    return x.astype(np.float32) * np.float32(4.6566127342e-10)


def normal(w0, w1):
    u0 = np.maximum(np.float64(1e-7), uniform(w0).astype(np.float64))
    u1 = uniform(w1).astype(np.float64)
    return np.sqrt(-2.0 * np.log(u0)) * np.cos(2 * np.pi * u1)


offs = np.arange(n, dtype=np.int64)
w = philox(seed, offs)
ws = philox(seeds, offs)
w7 = philox(seed, offs, rounds=7)
failed = 0
checks = 0


def exact(name, got, want):
    global failed, checks
    checks += 1
    bad = int(np.count_nonzero(got.view(np.int32) != want.view(np.int32)))
    failed += bad != 0
    print(f"{name}: {bad} differ {'ok' if not bad else 'FAIL'}")


def close(name, got, want, tol=1e-4):
    global failed, checks
    checks += 1
    err = float(np.max(np.abs(got.astype(np.float64) - want)))
    ok = err <= tol * max(1.0, float(np.max(np.abs(want))))
    failed += not ok
    print(f"{name}: max abs err {err:.2e} {'ok' if ok else 'FAIL'}")


def stats(name, x, mean, std):
    global failed, checks
    checks += 1
    m, s = float(np.mean(x)), float(np.std(x))
    # Loose: 6 standard errors of the mean, 10% on the spread.
    ok = abs(m - mean) <= 6 * std / np.sqrt(x.size) and abs(s - std) <= 0.1 * std
    failed += not ok
    print(f"{name}: mean {m:.4f} std {s:.4f} {'ok' if ok else 'FAIL'}")


exact("randint(seed)", ints[0], w[0])
exact("randint(seeds)", ints[1], ws[0])
exact("randint(seed, rounds = 7)", ints[2], w7[0])
exact("rand(seed)", floats[0], uniform(w[0]))
close("randn(seed)", floats[1], normal(w[0], w[1]))
exact("rand(seeds)", floats[2], uniform(ws[0]))
close("randn(seeds)", floats[3], normal(ws[0], ws[1]))
in_range = bool(np.all((floats[0] >= 0) & (floats[0] < 1)))
failed += not in_range
checks += 1
print(f"rand in [0, 1): {'ok' if in_range else 'FAIL'}")
if n >= 1000:  # moments need a sample
    stats("rand(seed) moments", floats[0], 0.5, np.sqrt(1 / 12))
    stats("randn(seed) moments", floats[1], 0.0, 1.0)
print(f"random: {checks - failed} passed, {failed} failed over {n} elements")
sys.exit(1 if failed else 0)
