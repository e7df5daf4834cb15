#!/usr/bin/env python3
"""Edits a softmax PTX from tilegym-cc into probe variants for cuab.py.

    ptx_variant.py IN.ptx OUT.ptx NAME [fma] [nocheck]

NAME    renames the kernel (cuab.py launches tg_* kernels with the memref ABI)
fma     exp's `sub x, m` + `mul by log2(e)` becomes one `fma x, log2(e), -m*log2(e)`
chain   in-thread reduction trees (runs of >= 8 max/add lines) become chains in
        element order, as nvcc compiles a sequential loop
nonan   max.NaN.f32 -> max.f32 (the max ignores NaN operands)
rcp     1/sum by rcp.approx.ftz instead of div.full
nocheck drops the branches to the per-element edge paths before the first
        vector load and the first vector store (valid only for full, aligned rows)
"""
import re
import sys

src, dst, name, *edits = sys.argv[1:]
text = open(src).read().replace("softmax", name)
lines = text.split("\n")
if "fma" in edits:
    subs = {}
    out = []
    neg = None
    for ln in lines:
        m = re.match(r"\s*sub\.f32\s+(%r\d+), (%r\d+), (%r\d+);", ln)
        if m:
            subs[m.group(1)] = (m.group(2), m.group(3))
            if neg is None:
                neg = m.group(3)
                out.append(f"\tmul.f32 \t%nm0, {neg}, 0fBFB8AA3B;")
            continue
        m = re.match(r"\s*mul\.f32\s+(%r\d+), (%r\d+), 0f3FB8AA3B;", ln)
        if m and m.group(2) in subs:
            x, mm = subs.pop(m.group(2))
            assert mm == neg, "one max per kernel expected"
            out.append(f"\tfma.rn.f32 \t{m.group(1)}, {x}, 0f3FB8AA3B, %nm0;")
            continue
        out.append(ln)
    assert not subs, f"sub results used elsewhere: {list(subs)[:3]}"
    lines = out
    i = next(i for i, ln in enumerate(lines) if ln.startswith("{"))
    lines.insert(i + 1, "\t.reg .b32 \t%nm0;")
def chain(lines):
    out, i, n = [], 0, 0
    pat = re.compile(r"\s*(max\.NaN\.f32|max\.f32|add\.f32)\s+(%r\d+), (%r\d+), (%r\d+);")
    while i < len(lines):
        m = pat.match(lines[i])
        j = i
        while j < len(lines) and pat.match(lines[j]) and pat.match(lines[j]).group(1) == (m.group(1) if m else None):
            j += 1
        if m and j - i >= 8:
            block = [pat.match(ln).groups() for ln in lines[i:j]]
            defs = {d for _, d, _, _ in block}
            leaves = [x for _, _, a, b in block for x in (a, b) if x not in defs]
            used = {x for _, _, a, b in block for x in (a, b)}
            root = [d for _, d, _, _ in block if d not in used]
            assert len(root) == 1 and len(leaves) == len(block) + 1, "not a tree"
            acc = leaves[0]
            for k, leaf in enumerate(leaves[1:]):
                dst = root[0] if k == len(leaves) - 2 else f"%ch{n}"
                n += 1
                out.append(f"\t{m.group(1)} \t{dst}, {acc}, {leaf};")
                acc = dst
            i = j
            continue
        out.append(lines[i])
        i += 1
    k = next(i for i, ln in enumerate(out) if ln.startswith("{"))
    out.insert(k + 1, f"\t.reg .b32 \t%ch<{n}>;")
    return out


if "chain" in edits:
    lines = chain(lines)
if "nonan" in edits:
    lines = [ln.replace("max.NaN.f32", "max.f32") for ln in lines]
if "rcp" in edits:
    lines = [re.sub(r"div\.full\.f32\s+(%r\d+), (%r\d+), (%r\d+);",
                    lambda m: f"rcp.approx.ftz.f32 \t{m.group(1)}, {m.group(3)};", ln) for ln in lines]
if "nocheck" in edits:
    for op in ("ld.global.v4", "st.global.v4"):
        first = next(i for i, ln in enumerate(lines) if op in ln)
        br = max(i for i in range(first) if re.match(r"\s*@%p\d+ bra", lines[i]))
        del lines[br]
open(dst, "w").write("\n".join(lines))
