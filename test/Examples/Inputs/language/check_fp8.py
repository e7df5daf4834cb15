"""check_fp8.py gen DIR N | check DIR: fp8.tile's inputs and reference.

`gen` writes x.npy (f32), xd.npy (f64), a.npy and b.npy (every e4m3 and
e5m2 value, cycled) into DIR: the fp8 values themselves, the midpoints
between neighbours (ties go to the even code), values a hair either side of
the midpoints (in f64, a hair no f32 can hold, so that a conversion from f64
that went through f32 would round twice and miss), values past the largest
(they saturate), infinities, NaN, f32 subnormals, zeros of both signs and
random values over the whole range. `check` reads a --dump of the run and
compares each output with fp8 rounding written here in numpy, bit for bit
(NaN for NaN, the sign of zero included). Exits 1 on any failure."""
import sys

import numpy as np

FORMATS = {"e4m3": (7, 3, 448.0, False), "e5m2": (15, 2, 57344.0, True)}


def values(fmt):
    """Every code's value, codes 0..255 (NaN where the code is one)."""
    bias, man, _, ieee = FORMATS[fmt]
    out = []
    for code in range(256):
        sign = -1.0 if code & 0x80 else 1.0
        e, m = (code & 0x7F) >> man, code & ((1 << man) - 1)
        top = (1 << (7 - man)) - 1
        if (code & 0x7F) == 0x7F or (ieee and e == top and m):
            out.append(np.nan)
        elif ieee and e == top:
            out.append(sign * np.inf)
        elif e == 0:
            out.append(sign * m * 2.0 ** (1 - bias - man))
        else:
            out.append(sign * (1 + m / 2.0 ** man) * 2.0 ** (e - bias))
    return np.array(out)


def round_fp8(x, fmt):
    """x (float64) rounded to fmt: nearest even, once; saturating; NaN kept."""
    bias, man, largest, _ = FORMATS[fmt]
    x = np.asarray(x, dtype=np.float64)
    mag = np.abs(x)
    with np.errstate(all="ignore"):
        _, e = np.frexp(np.where(np.isfinite(mag) & (mag > 0), mag, 1.0))
        ulp = np.ldexp(1.0, np.maximum(e - 1, 1 - bias) - man)
        r = np.round(mag / ulp) * ulp  # np.round: ties to even
    r = np.where(mag == 0, 0.0, r)
    r = np.minimum(r, largest)  # infinities and overflow saturate
    return np.where(np.isnan(x), np.nan, np.copysign(r, x))


def bf16(x):
    """f32 values rounded to bf16 (nearest even), as float64."""
    bits = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    out = rounded.astype(np.uint32).view(np.float32).astype(np.float64)
    return np.where(np.isnan(x), np.nan, out)


def gen(d, n):
    rng = np.random.default_rng(7)
    special = []
    for fmt in FORMATS:
        v = values(fmt)
        finite = np.unique(v[np.isfinite(v)])
        mids = (finite[1:] + finite[:-1]) / 2
        special += [finite, mids]
        special += [mids * (1 + 2.0 ** -40), mids * (1 - 2.0 ** -40)]
        special.append(FORMATS[fmt][2] * np.array([1.03, 1.07, -1.1, 5, -100]))
    special.append(np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 1e-40, -3e-39,
                             2.0 ** -10, 2.0 ** -17, 1e30, -1e30]))
    special = np.concatenate(special)
    rand = np.ldexp(rng.uniform(-1, 1, n), rng.integers(-20, 18, n))
    xd = np.concatenate([special, rand])[:n]
    np.save(d + "/xd.npy", xd)
    np.save(d + "/x.npy", xd.astype(np.float32))
    np.save(d + "/a.npy", np.resize(values("e4m3"), n).astype(np.float32))
    np.save(d + "/b.npy", np.resize(values("e5m2"), n).astype(np.float32))


def same(got, want):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    return (np.isnan(got) & np.isnan(want)) | (
        (got == want) & (np.signbit(got) == np.signbit(want)))


def check(d):
    x = np.load(d + "/x.npy").astype(np.float64)
    xd = np.load(d + "/xd.npy").astype(np.float64)
    p = np.load(d + "/a.npy").astype(np.float64)
    q = np.load(d + "/b.npy").astype(np.float64)
    e4 = np.load(d + "/e4.out.npy")
    e5 = np.load(d + "/e5.out.npy")
    wide = np.load(d + "/wide.out.npy")
    f32 = lambda v: np.asarray(v, np.float32).astype(np.float64)
    with np.errstate(all="ignore"):
        pp = round_fp8(f32(p * p), "e4m3")
        rows = [
            ("e4m3 from f32", e4[0], round_fp8(x, "e4m3")),
            ("e4m3 from f64", e4[1], round_fp8(xd, "e4m3")),
            ("e4m3 from f16", e4[2], round_fp8(x.astype(np.float16), "e4m3")),
            ("e4m3 p*p+p", e4[3], round_fp8(f32(pp + p), "e4m3")),
            ("e5m2 from f32", e5[0], round_fp8(x, "e5m2")),
            ("e5m2 from f64", e5[1], round_fp8(xd, "e5m2")),
            ("e5m2 from bf16", e5[2], round_fp8(bf16(x), "e5m2")),
            ("e5m2 from e4m3", e5[3], round_fp8(p, "e5m2")),
            ("e4m3 to f32", wide[0], p),
            ("e5m2 to f32", wide[1], q),
            ("to f16 and bf16", wide[2], f32(q.astype(np.float16) + bf16(p))),
        ]
    failed = 0
    for name, got, want in rows:
        bad = ~same(got, want)
        if bad.any():
            failed += 1
            i = int(np.argmax(bad))
            print(f"FAIL {name}: {int(bad.sum())} of {bad.size} differ, first "
                  f"at {i}: got {got[i]!r}, want {want[i]!r} "
                  f"(x={x[i]!r}, xd={xd[i]!r}, p={p[i]!r})")
    print(f"fp8: {len(rows) - failed} passed, {failed} failed over {x.size} "
          "elements")
    return failed == 0


if sys.argv[1] == "gen":
    gen(sys.argv[2], int(sys.argv[3]))
else:
    sys.exit(0 if check(sys.argv[2]) else 1)
