"""Tuning in the caller's process: a bundle of variants timed on the
caller's own tensors, the winner kept in the bundle's dispatch table.

    import tilegym.tune
    b = tilegym.tune.compile_variants("softmax.tile", "softmax.tgb",
                                      space={"W": [2, 4, 8]},
                                      defines={"T": "bf16", "BLOCK": 4096})
    result = tilegym.tune.tune(b, None, x, y)    # every variant, on x and y
    b.load()(x, y)                               # now runs result["tuned"]

compile_variants compiles one variant per configuration of the space (the
product of its values) with tilegym-cc, in parallel, into a bundle of
variants (docs/gpu.md) with no rules; configurations the compiler refuses
are dropped, their reasons in `bundle.dropped`, and so are those that
compile to the same kernels as an earlier configuration. tune launches each
variant once on the given arguments (in-out views restored before each),
drops a variant whose outputs differ from the default variant's beyond the
outputs' precision, times the rest with CUDA events (each warmed up, then
`runs` launches each in five interleaved rounds whose order rotates, the L2
flushed before each launch, the median), and sets the rule for
these shape buckets to the fastest: in memory (tgb_set_rule) and in the
bundle's manifest, with the GPU's name, so that another process loading the
bundle on that GPU launches the winner and its tune() answers at once.
tilegym-tune is the command-line tuner (it runs a source at given sizes);
this one is for code that already has its tensors, as bench/run.py does.
Needs torch.
"""
import concurrent.futures
import itertools
import json
import os
import re
import shutil
import time

import tilegym
from tilegym import TileGymError

# Largest difference from the default variant's outputs, as a fraction of
# their largest magnitude: variants differ in summation order only.
TOLERANCE = {"f64": 1e-9, "f32": 1e-4, "bf16": 2e-2, "f16": 4e-3}
# f32 outputs of a kernel whose dots round more coarsely than f32 (the
# manifest's dot_rounding: tf32 products, fp8 sums on sm_90a's wgmma):
# variants also differ in how the products round (an mma.sync variant
# converts f32 to tf32 itself, wgmma reads the f32 bits), errors of a few
# 2^-11 each (docs/verification.md's tf32 row).
COARSE_DOT_TOLERANCE = 2e-3


def _dot_rounding(bundle, top, variant, name):
    """The dot_rounding of kernel `name` in variant `variant`, or None."""
    folder = os.path.join(bundle.path, top["variants"][variant]["folder"])
    kernels = _read(os.path.join(folder, "manifest.json")).get("kernels", [])
    return next((k.get("dot_rounding") for k in kernels
                 if k.get("name") == name), None)


def output_tolerance(dtype, coarse_dots):
    """How far a variant's output of type `dtype` may be from the default
    variant's, relative to its largest magnitude."""
    tol = TOLERANCE.get(dtype, 0.0)
    if coarse_dots and dtype == "f32":
        tol = max(tol, COARSE_DOT_TOLERANCE)
    return tol


def _folder(config):
    text = re.sub(r"[^A-Za-z0-9_.-]", "-",
                  "_".join(f"{k}{v}" for k, v in config.items()))
    return (text or "default") + ".tgb"


def _read(path):
    with open(path) as f:
        return json.load(f)


def _write(path, value):
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w") as f:
        json.dump(value, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def _config_text(config):
    return " ".join(f"{k}={v}" for k, v in config.items())


def _compiled_form(folder):
    """What a variant compiled to: its manifest less the consts (which name
    the configuration) and its kernels' PTX."""
    manifest = _read(os.path.join(folder, "manifest.json"))
    manifest.pop("consts", None)
    ptx = []
    for k in manifest.get("kernels", []):
        with open(os.path.join(folder, k["ptx"]), "rb") as f:
            ptx.append(f.read())
    return json.dumps(manifest, sort_keys=True), tuple(ptx)


def compile_variants(source, out, space, defines=None, target="auto",
                     jobs=None, compiler=None, cache_dir=None):
    """Every configuration of `space` ({"W": [2, 4], "BK": [32, 64]}) of
    `source` compiled into the bundle of variants `out` (a folder that must
    not exist yet); returns it opened, with `.dropped` the [(config,
    reason)] that did not compile or compiled to the same kernels as an
    earlier configuration (a hint that does not apply there: timing it
    again would only cost tuning time)."""
    if os.path.exists(out):
        raise TileGymError(5, f"{out} exists: compile_variants writes a new "
                           f"folder")
    names = list(space)
    configs = [dict(zip(names, map(str, values))) for values in
               itertools.product(*(space[n] for n in names))]
    if not configs or not names:
        raise TileGymError(5, "the space has no configuration")
    if target == "auto":
        target = tilegym.gpu_target()
    os.makedirs(out)

    def one(config):
        folder = os.path.join(out, _folder(config))
        try:
            tilegym.compile(source, out=folder, target=target,
                            defines={**(defines or {}), **config},
                            compiler=compiler, cache_dir=cache_dir).close()
            return config, None
        except TileGymError as e:
            shutil.rmtree(folder, ignore_errors=True)
            errors = [line.split("error:", 1)[1].strip() for line in
                      e.message.splitlines() if "error:" in line]
            return config, errors[0] if errors else e.message.splitlines()[-1]

    with concurrent.futures.ThreadPoolExecutor(jobs or os.cpu_count()) as p:
        results = list(p.map(one, configs))
    first = {}
    for i, (config, why) in enumerate(results):
        if why is not None:
            continue
        folder = os.path.join(out, _folder(config))
        same = first.setdefault(_compiled_form(folder), config)
        if same is not config:
            shutil.rmtree(folder, ignore_errors=True)
            results[i] = (config, f"compiles to the same kernels as "
                                  f"{_config_text(same)}")
    kept = [c for c, why in results if why is None]
    if not kept:
        shutil.rmtree(out, ignore_errors=True)
        raise TileGymError(4, f"no configuration of {source} compiled: "
                           f"{results[0][1]}")
    _write(os.path.join(out, "manifest.json"), {
        "format": "tilegym-bundle", "version": 2, "source": source,
        "target": target, "view_abi": "memref-expanded",
        "variants": [{"folder": _folder(c), "tuned": c} for c in kept],
        "dispatch": [], "default": 0})
    bundle = tilegym.Bundle(out)
    bundle.dropped = [(c, why) for c, why in results if why is not None]
    return bundle


def _bucket(sizes):
    return [1 << max(0, int(s) - 1).bit_length() for s in sizes]


def tune(bundle, kernel, *values, runs=20, warmup=3, force=False):
    """Times every variant of `kernel` (None: the only one) on `values` and
    makes the fastest the rule at their shape buckets. Returns {"variant",
    "tuned", "cached", "seconds", "rows": [(tuned, ms or None, note)]}."""
    start = time.time()
    path = os.path.join(bundle.path, "manifest.json")
    top = _read(path)
    if top.get("version") != 2:
        raise TileGymError(5, f"{bundle.path} is a bundle of kernels; tune "
                           f"needs a bundle of variants (compile_variants)")
    if kernel in bundle.programs:
        raise TileGymError(5, f"'{kernel}' is a program: tune times one "
                           f"kernel (a program's launches follow the "
                           f"program's rules, which tilegym-tune --bundle "
                           f"writes)")
    if kernel is None and len(bundle.kernels) != 1:
        raise TileGymError(5, f"{bundle.path} has {len(bundle.kernels)} "
                           f"kernels; name the one to tune")
    name = kernel or bundle.kernels[0]
    params = bundle.params(name)
    # Scalars left out take the source's defaults, as a call's do.
    values = tilegym._arguments(name, params, values, {},
                                lambda: bundle.defaults(name))
    views = [i for i, p in enumerate(params) if p["kind"] == "view"]
    unnamed = [str(i + 1) for i in views if not params[i].get("name")]
    if unnamed:
        raise TileGymError(5, f"kernel '{name}': parameters "
                           f"{', '.join(unnamed)} have no name, and a rule "
                           f"names every view")
    shapes = {params[i]["name"]: [int(s) for s in values[i].shape]
              for i in views}
    import torch
    device = next((values[i].device for i in views), torch.device("cuda"))
    gpu = torch.cuda.get_device_name(device)
    k = bundle.load(name)
    arr, n = k._arr(values)

    def set_rule(variant):
        bundle.L.check(bundle.L.lib.tgb_set_rule(
            bundle.handle, name.encode(), arr, n, variant))

    same = [r for r in top.get("dispatch", []) if r.get("run") == name and
            {key: _bucket(v) for key, v in r.get("shapes", {}).items()} ==
            {key: _bucket(v) for key, v in shapes.items()}]
    if same and same[0].get("gpu") == gpu and not force:
        set_rule(same[0]["variant"])
        return {"variant": same[0]["variant"], "cached": True, "seconds": 0.0,
                "tuned": bundle.variants[same[0]["variant"]], "rows": []}

    written = [i for i in views if params[i].get("access") in
               ("write", "readwrite", None)]
    inout = [i for i in views if params[i].get("access") in
             ("readwrite", None)]
    saved = {i: values[i].clone() for i in inout}
    stream = torch.cuda.current_stream(device)
    flush = torch.empty(256 << 20, dtype=torch.uint8, device=device)

    def launch(variant):
        bundle.L.check(bundle.L.lib.tgb_launch_variant(
            k.handle, variant, arr, n, stream.cuda_stream))

    def restore():
        for i in inout:
            values[i].copy_(saved[i])

    rows, expected, candidates = [], None, []
    default_coarse = _dot_rounding(bundle, top, 0, name) is not None
    for variant, tuned in enumerate(bundle.variants):
        coarse = default_coarse or \
            _dot_rounding(bundle, top, variant, name) is not None
        restore()
        launch(variant)
        got = [values[i].detach().double().clone() for i in written]
        if expected is None:
            expected = got
        else:
            # Each output within its own type's precision (integers exact).
            why = None
            for i, g, e in zip(written, got, expected):
                if e.numel() == 0:
                    continue
                scale = e.abs().max().item() or 1.0
                err = (g - e).abs().max().item() / scale
                tol = output_tolerance(params[i]["dtype"], coarse)
                if not err <= tol:
                    why = (f"{params[i]['name']} differs from variant 0 by "
                           f"{err:.1e} (tolerance {tol:.0e})")
                    break
            if why:
                rows.append((tuned, None, why))
                continue
        rows.append((tuned, None, ""))
        candidates.append(variant)
    # Timed in interleaved rounds whose order rotates, after every variant's
    # warm-up: a clock still ramping up, or a neighbour's traffic, then
    # falls on every variant alike instead of on the first.
    for variant in candidates:
        for _ in range(warmup):
            launch(variant)
    times = {v: [] for v in candidates}
    rounds = max(1, min(5, runs))
    for r in range(rounds):
        order = candidates[r % len(candidates):] + \
            candidates[:r % len(candidates)]
        for variant in order:
            for _ in range(max(1, runs // rounds)):
                flush.zero_()
                begin = torch.cuda.Event(enable_timing=True)
                end = torch.cuda.Event(enable_timing=True)
                begin.record(stream)
                launch(variant)
                end.record(stream)
                end.synchronize()
                times[variant].append(begin.elapsed_time(end))
    for variant, ts in times.items():
        ts.sort()
        rows[variant] = (rows[variant][0], ts[len(ts) // 2], "")
    restore()
    timed = [(ms, v) for v, (_, ms, _) in enumerate(rows) if ms is not None]
    winner = min(timed)[1]
    set_rule(winner)
    top["dispatch"] = [r for r in top.get("dispatch", []) if r not in same]
    top["dispatch"].append({"run": name, "shapes": shapes,
                            "variant": winner, "gpu": gpu})
    _write(path, top)
    return {"variant": winner, "tuned": bundle.variants[winner],
            "cached": False, "seconds": time.time() - start, "rows": rows}


__all__ = ["compile_variants", "tune", "TOLERANCE"]
