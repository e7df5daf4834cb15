"""check_atomics.py DIR T [I]: atomics.tile's outputs (a --dump folder) against
numpy. The histogram's sums are checked within what any order of T
additions may round to; counts, maxima, minima, exchanges, compare-and-swaps
and tickets exactly. Exits 1 on any failure."""
import sys

import numpy as np

d, T = sys.argv[1], sys.argv[2]
I = sys.argv[3] if len(sys.argv) > 3 else "i32"
eps = {"f64": 2.0**-53, "f32": 2.0**-24, "f16": 2.0**-11, "bf16": 2.0**-8}[T]
B, BLOCK = 16, 128


def load(name):
    return np.load(d + "/" + name + ".npy")


x = load("x").astype(np.float64)
k = load("k").astype(np.int64)
N = x.size
m = (x > -1.5) & (k >= 0) & (k < B)

ki = load("w").astype(np.int64)
failed = 0


def check(name, ok, detail=""):
    global failed
    if not ok:
        failed += 1
        print("FAIL", name, detail)


hist0 = load("hist").astype(np.float64)
want = hist0.copy()
mag = np.abs(hist0)
np.add.at(want, k[m], x[m])
np.add.at(mag, k[m], np.abs(x[m]))
n = np.bincount(k[m], minlength=B) + 1
got = load("hist.out").astype(np.float64)
check("add " + T, np.all(np.abs(got - want) <= n * eps * mag + 1e-30),
      np.max(np.abs(got - want)))
cnt = load("count").astype(np.int64) + np.bincount(k[m], minlength=B)
check("add " + I, np.array_equal(load("count.out"), cnt))
for name, fn, init in (("hmax", np.maximum, "hmax"), ("hmin", np.minimum,
                                                      "hmin")):
    w = load(init).astype(np.float64)
    fn.at(w, k[m], x[m])
    check(name + " " + T,
          np.array_equal(load(name + ".out").astype(np.float64), w))
for name, fn in (("kmax", np.maximum), ("kmin", np.minimum)):
    w = load(name).astype(np.int64)
    fn.at(w, k[m], ki[m])
    check(name + " " + I, np.array_equal(load(name + ".out"), w),
          (load(name + ".out") - w))
swap0 = load("swap").astype(np.float64)
pos = x > 0
check("xchg new", np.array_equal(load("swap.out").astype(np.float64),
                                 np.where(pos, x, swap0)))
check("xchg old", np.array_equal(load("swapped.out").astype(np.float64),
                                 np.where(pos, swap0, 0)))
even = np.arange(N) % 2 == 0
cas0 = load("cas").astype(np.int64)
check("cas " + I + " new", np.array_equal(load("cas.out"), np.where(even, ki, cas0)))
check("cas " + I + " old", np.array_equal(load("casold.out"), cas0))
f0 = load("fcas").astype(np.float64)
check("cas " + T + " new",
      np.array_equal(load("fcas.out").astype(np.float64),
                     np.where(even, x, f0)))
check("cas " + T + " old",
      np.array_equal(load("fcasold.out").astype(np.float64), f0))
t0 = int(load("ticket")[0])
blocks = -(-N // BLOCK)
tickets = load("tickets.out").astype(np.int64)
per_block = [tickets[b * BLOCK:(b + 1) * BLOCK] for b in range(blocks)]
check("ticket count", int(load("ticket.out")[0]) == t0 + blocks)
check("tickets one per block",
      all(np.all(t == t[0]) for t in per_block) and
      sorted(int(t[0]) for t in per_block) == list(range(t0, t0 + blocks)))
total = 13
print("atomics %s: %d passed, %d failed" % (T, total - failed, failed))
sys.exit(1 if failed else 0)
