#!/usr/bin/env python3
"""tilegym-tune: the fastest configuration of a kernel, found on the GPU
and remembered.

    tilegym-tune FILE.tile --size N=16777216 [--tune BLOCK=512,1024] [-D T=bf16]
                 [--check-size N=4099] [--ref REF.tile | --compare=cpu]
                 [--jobs J] [--cache-dir DIR] [--force] [--dry-run]

The tuning space is the source's `tune NAME in [v1, v2, ...];` declarations
(`tilegym-run --list-tune`) and the command line's `--tune NAME=v1,v2`
(which replaces the source's values of NAME); a configuration is one value
of each. Then:

1. every configuration compiles for the GPU in parallel (`tilegym-run
   --compile-only`); those that fail (shared memory, registers per thread,
   tile sizes) are dropped, each with the compiler's reason;
2. each remaining one is verified on the GPU at --check-size (default:
   --size) against --ref or, by default, the CPU JIT of the same kernel
   (`--compare=cpu`); one that fails is dropped;
3. each verified one is timed at --size (`tilegym-run --bench`: CUDA
   events, warm-up, L2 flushed before each of 20 runs, the median);
4. a table of every configuration prints, the fastest first, and the winner
   is stored in the cache: DIR/tune/KEY.json, DIR from --cache-dir,
   $TILEGYM_CACHE_DIR or ~/.cache/tilegym. KEY hashes the source, the
   space, the -D values, the sizes rounded up to powers of two (the shape
   bucket), the check, the GPU, its driver and target, and tilegym-run
   itself. A later run with the same key prints the stored result at once.

The winner's -D flags are on the last line (`best: -D BLOCK=1024 ...`), for
tilegym-cc or tilegym.compile. With --bundle OUT.tgb the winner is compiled
into a bundle of variants that dispatches by shape: each run adds its
winner as a variant (or finds it there) and a rule sending the views'
shape bucket to it, so tuning at several sizes into one OUT gives one
bundle that picks, at each launch, the variant tuned nearest its shapes. Exit code 0 when a configuration won, 1 when
none did (or on bad input), 77 without a GPU (after --dry-run's compile
pass, 0).
"""
import argparse
import concurrent.futures
import hashlib
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import time

MAX_CONFIGS = 4096
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def fail(message, code=1):
    print(f"tilegym-tune: error: {message}", file=sys.stderr)
    sys.exit(code)


def find_run():
    env = os.environ.get("TILEGYM_RUN")
    if env:
        return env
    here = os.path.dirname(os.path.realpath(__file__))
    beside = os.path.join(here, "tilegym-run")
    if os.path.exists(beside):
        return beside
    return shutil.which("tilegym-run") or fail(
        "tilegym-run not found: put it beside tilegym-tune or on PATH, or "
        "set TILEGYM_RUN")


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def first_error(text):
    """What went wrong, from a tool's output: its first error, else its first
    FAIL line, else its last line."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for line in lines:
        if "error:" in line:
            return line.split("error:", 1)[1].strip()
    for line in lines:
        if "FAIL" in line:
            return line
    return lines[-1] if lines else "no output"


def parse_assignments(values, what):
    """NAME=V,... strings (repeatable, comma-separated) as (name, value)."""
    out = []
    for text in values:
        for item in text.split(","):
            if "=" not in item:
                fail(f"{what} '{item}': expected NAME=VALUE")
            k, v = item.split("=", 1)
            out.append((k.strip(), v.strip()))
    return out


def parse_space(args, tilegym_run, defines):
    rc, out, err = run([tilegym_run, args.file, "--list-tune"] + defines)
    if rc != 0:
        fail(f"{args.file} does not compile:\n{err.strip()}")
    space = {}
    for line in out.splitlines():
        name, values = line.split("=", 1)
        space[name] = values.split(",")
    for text in args.tune:
        if "=" not in text:
            fail(f"--tune '{text}': expected NAME=V1,V2,...")
        name, values = text.split("=", 1)
        values = [v.strip() for v in values.split(",") if v.strip()]
        if not NAME.match(name) or not values:
            fail(f"--tune '{text}': expected NAME=V1,V2,... with a const's "
                 f"name and at least one value")
        space[name] = values
    fixed = {k for k, _ in parse_assignments(args.define, "-D")}
    both = sorted(fixed & set(space))
    if both:
        fail(f"-D fixes {', '.join(both)}, which the tuning space varies: "
             f"drop one of them")
    if not space:
        fail(f"{args.file} declares no tuning space (`tune NAME in [...];`) "
             f"and no --tune was given")
    return space


def pow2(n):
    """A size's shape bucket: the least power of two at or above it (1 for
    0 and 1), as the runtime's dispatch rounds (bundle::shapeBucket)."""
    return 1 << max(0, int(n) - 1).bit_length()


def bucket(sizes):
    """--size N=5000,M=3 -> N=8192,M=4: the shape bucket of the cache key."""
    out = []
    for name, value in parse_assignments(sizes, "--size"):
        try:
            n = int(value)
        except ValueError:
            fail(f"--size {name}={value}: expected an integer")
        out.append(f"{name}={pow2(n)}")
    return sorted(out)


def shape_bucket(shapes):
    """--shape x=5000x64 -> x=8192x64, each size up to a power of two."""
    out = []
    for name, value in parse_assignments(shapes, "--shape"):
        dims = []
        for d in value.split("x"):
            try:
                dims.append(pow2(d))
            except ValueError:
                fail(f"--shape {name}={value}: expected sizes as AxBx...")
        out.append(name + "=" + "x".join(map(str, dims)))
    return out


def environment(tilegym_run):
    rc, out, _ = run([tilegym_run, "--info"])
    gpu = driver = target = None
    for line in out.splitlines():
        if line.startswith("cuda driver:"):
            driver = line.split(":", 1)[1].strip()
        elif line.startswith("gpu 0:"):
            # "NVIDIA H200, compute capability 9.0, ...": the name, as
            # torch.cuda.get_device_name gives it (tilegym.tune's rules).
            gpu = line.split(":", 1)[1].split(", compute capability")[0] \
                .strip()
        m = re.match(r"auto backend: gpu, target (\S+)", line)
        if m:
            target = m.group(1)
    return gpu, driver, target


def cache_path(args, key):
    root = (args.cache_dir or os.environ.get("TILEGYM_CACHE_DIR") or
            os.path.join(os.path.expanduser("~"), ".cache", "tilegym"))
    return os.path.join(root, "tune", key + ".json")


def describe(config):
    return " ".join(f"{k}={v}" for k, v in config.items())


def flags(config):
    return [f for k, v in config.items() for f in ("-D", f"{k}={v}")]


def print_table(rows):
    print(f"{'configuration':40s} {'result':10s} {'median ms':>10s}  reason")
    for r in sorted(rows, key=lambda r: (r["ms"] is None, r["ms"] or 0)):
        ms = f"{r['ms']:.4f}" if r["ms"] is not None else "-"
        print(f"{r['config_text']:40s} {r['result']:10s} {ms:>10s}  "
              f"{r.get('reason', '')}")


ARGS_VIEW = re.compile(r"(?:^|, )([A-Za-z_][A-Za-z0-9_]*)\[([^\]]*)\]")


def view_shapes(output):
    """The views' sizes of a tilegym-run run, from its `args:` line
    ("a[M=4096, K=64] bf16 in ..., eps f32 = 1e-05") as {"a": [4096, 64]}."""
    for line in output.splitlines():
        if line.startswith("args: "):
            return {name: [int(d.split("=")[-1]) for d in dims.split(", ")
                           if d]
                    for name, dims in ARGS_VIEW.findall(line[6:])}
    return None


def variant_folder(config):
    """BM=128 BN=64 -> BM128_BN64.tgb: a variant's folder in the bundle."""
    text = re.sub(r"[^A-Za-z0-9_.-]", "-",
                  "_".join(f"{k}{v}" for k, v in config.items()))
    if not text or len(text) > 100 or text.startswith("."):
        text = "v" + hashlib.sha256(json.dumps(
            config, sort_keys=True).encode()).hexdigest()[:12]
    return text + ".tgb"


def read_json(path):
    with open(path) as f:
        return json.load(f)


def write_json(path, value):
    tmp = path + f".{os.getpid()}.tmp"
    with open(tmp, "w") as f:
        json.dump(value, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def bucketed(shapes):
    """{"a": [5000, 64]} -> {"a": [8192, 64]}: a rule's shape buckets."""
    return {k: [pow2(d) for d in v] for k, v in shapes.items()}


def write_bundle(args, tilegym_run, defines, config, target, shapes,
                 gpu=None):
    """--bundle OUT: the winner added to the bundle of variants OUT (made
    when absent) with a rule sending this shape bucket to it; 0, or 1 on
    failure."""
    if not args.bundle:
        return 0
    out = args.bundle.rstrip("/")

    def error(message):
        print(f"tilegym-tune: error: --bundle {out}: {message}",
              file=sys.stderr)
        return 1

    manifest_path = os.path.join(out, "manifest.json")
    top = {"format": "tilegym-bundle", "version": 2, "source": args.file,
           "target": target, "view_abi": "memref-expanded", "variants": [],
           "dispatch": [], "default": 0}
    if os.path.exists(out):
        try:
            top = read_json(manifest_path)
            ok = top.get("version") == 2 and isinstance(
                top.get("variants"), list)
        except (OSError, ValueError, AttributeError):
            ok = False
        if not ok:
            return error("it exists and is not a bundle of variants (what "
                         "--bundle writes): remove it or name another "
                         "folder")
        if top.get("source") != args.file or top.get("target") != target:
            return error(f"it holds variants of {top.get('source')} for "
                         f"{top.get('target')}, not of {args.file} for "
                         f"{target}")
    if shapes is None:
        return error("the timed run printed no `args:` line to take the "
                     "shapes from")
    folder = variant_folder(config)
    dest = os.path.join(out, folder)
    # Compiled each time, so that its consts (the source's defaults too)
    # are known: a variant is reused only when they are the same. Compiled
    # inside OUT (nothing is written elsewhere); a refusal leaves OUT as it
    # was, and removes it when this run made it.
    created = not os.path.exists(out)
    os.makedirs(out, exist_ok=True)
    tmp = os.path.join(out, f".{folder}.{os.getpid()}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)

    def refuse(message):
        shutil.rmtree(out if created else tmp, ignore_errors=True)
        return error(message)

    rc, o, e = run([tilegym_run, args.file, "--compile-only", "--bundle-out",
                    tmp] + (["--target", target] if target else []) +
                   defines + flags(config))
    if rc != 0:
        return refuse(f"the winner did not compile: {first_error(e or o)}")

    try:
        variant = read_json(os.path.join(tmp, "manifest.json"))
        kernels = [k["name"] for k in variant["kernels"]]
        programs = [p["name"] for p in variant.get("programs", [])]
        fixed = {k: v for k, v in variant["consts"].items()
                 if k not in config}
        if top["variants"]:
            first = read_json(os.path.join(
                out, top["variants"][0]["folder"], "manifest.json"))
            theirs = {k: v for k, v in first["consts"].items()
                      if k not in top["variants"][0]["tuned"]}
        else:
            theirs = fixed
    except (OSError, ValueError, KeyError, TypeError) as e:
        return refuse(f"a manifest is unreadable ({e})")
    if theirs != fixed:
        return refuse(f"its variants were compiled with {describe(theirs)}, "
                      f"this one with {describe(fixed)}: one bundle holds "
                      f"one kernel's variants")
    # What tilegym-run ran: the only kernel, else the only program.
    run_name = kernels[0] if len(kernels) == 1 else \
        programs[0] if len(programs) == 1 else None
    if run_name is None:
        return refuse("the source has several kernels and not one program: "
                      "nothing to dispatch")
    views = [p for k in variant["kernels"] for p in k["params"]
             if p.get("kind") == "view"]
    if any(not p.get("name") or p["name"] not in shapes for p in views):
        return refuse(f"a rule names every view of {run_name}, and the "
                      f"timed run's named views are "
                      f"{', '.join(shapes) or 'none'}")
    listed = [v["folder"] for v in top["variants"]]
    if os.path.isdir(dest) and folder in listed:
        shutil.rmtree(tmp)
    else:  # New, or left over by a run that did not finish: replaced.
        shutil.rmtree(dest, ignore_errors=True)
        os.replace(tmp, dest)
    folders = [v["folder"] for v in top["variants"]]
    if folder not in folders:
        top["variants"].append({"folder": folder, "tuned": config})
        folders.append(folder)
    rule = {"run": run_name, "shapes": shapes,
            "variant": folders.index(folder), "gpu": gpu}
    top["dispatch"] = [r for r in top.get("dispatch", [])
                       if r.get("run") != run_name or
                       bucketed(r.get("shapes", {})) != bucketed(shapes)]
    top["dispatch"].append(rule)
    write_json(manifest_path, top)
    shape_text = " ".join(f"{k}={'x'.join(map(str, v))}"
                          for k, v in shapes.items())
    print(f"bundle: {out}: variant {folder} for {run_name} at {shape_text} "
          f"({len(top['variants'])} variants, {len(top['dispatch'])} "
          f"rules)")
    return 0


def main():
    p = argparse.ArgumentParser(
        prog="tilegym-tune", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", help="the .tile source")
    p.add_argument("--tune", action="append", default=[],
                   metavar="NAME=V1,V2", help="a tuned const and its values")
    p.add_argument("-D", dest="define", action="append", default=[],
                   metavar="NAME=VALUE", help="a const fixed for every run")
    p.add_argument("--size", action="append", default=[],
                   help="sizes to time at (tilegym-run --size)")
    p.add_argument("--check-size", action="append", default=[],
                   help="sizes to verify at (default: --size)")
    p.add_argument("--shape", action="append", default=[],
                   help="view sizes to time at, for views without named "
                   "dimensions (tilegym-run --shape x=4096x4096)")
    p.add_argument("--check-shape", action="append", default=[],
                   help="view sizes to verify at (default: --shape)")
    p.add_argument("--arg", action="append", default=[],
                   help="scalar arguments of every run (tilegym-run --arg)")
    p.add_argument("--init", action="append", default=[],
                   help="input distributions of every run (tilegym-run "
                   "--init)")
    p.add_argument("--ref", help="a reference kernel (tilegym-run --ref); "
                   "default: --compare=cpu")
    p.add_argument("--target", choices=["sm_80", "sm_90", "sm_90a"],
                   help="compile for this target (default: GPU 0's, else "
                   "sm_90a); runs need GPU 0's")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="compiles at once (default: the cores)")
    p.add_argument("--cache-dir", help="the cache's folder")
    p.add_argument("--force", action="store_true",
                   help="tune again even when the cache has the answer")
    p.add_argument("--bundle", metavar="OUT.tgb",
                   help="add the winner to this bundle of variants, with a "
                   "rule for this shape bucket (made when absent)")
    p.add_argument("--dry-run", action="store_true",
                   help="list the space and compile it, without the GPU")
    args = p.parse_args()
    if not os.path.isfile(args.file):
        fail(f"cannot read {args.file}")
    if not args.size and not args.shape and not args.dry_run:
        fail("--size (or --shape) is needed: the sizes to time at (e.g. "
             "--size N=1048576)")
    if args.jobs < 1:
        fail(f"--jobs {args.jobs}: expected at least 1")
    tilegym_run = find_run()
    defines = [f for k, v in parse_assignments(args.define, "-D")
               for f in ("-D", f"{k}={v}")]
    space = parse_space(args, tilegym_run, defines)
    names = list(space)
    count = 1
    for values in space.values():
        count *= len(values)
    if count > MAX_CONFIGS:
        fail(f"the tuning space has {count} configurations, more than the "
             f"{MAX_CONFIGS} tilegym-tune runs: narrow it")
    configs = [dict(zip(names, c)) for c in
               itertools.product(*(space[n] for n in names))]
    def joined(flag, values):
        return [flag, ",".join(values)] if values else []

    common = joined("--arg", args.arg) + joined("--init", args.init)
    sizes = joined("--size", args.size) + joined("--shape", args.shape) + \
        common
    check_sizes = (joined("--size", args.check_size or args.size) +
                   joined("--shape", args.check_shape or args.shape) + common)
    check = ["--ref", args.ref] if args.ref else ["--compare=cpu"]

    gpu, driver, target = environment(tilegym_run)
    with open(args.file, "rb") as f:
        source = f.read()
    ref_text = b""
    if args.ref:
        ref_file = args.ref.split(":", 1)[0]
        if not os.path.isfile(ref_file):
            fail(f"--ref: cannot read {ref_file}")
        with open(ref_file, "rb") as f:
            ref_text = f.read()
    st = os.stat(tilegym_run)
    key_fields = {
        "format": 2, "source": hashlib.sha256(source).hexdigest(),
        "space": space, "defines": sorted(args.define),
        "sizes": bucket(args.size), "check_sizes": bucket(args.check_size),
        "shapes": sorted(shape_bucket(args.shape)),
        "check_shapes": sorted(shape_bucket(args.check_shape)),
        "args": sorted(args.arg), "init": sorted(args.init),
        "ref": hashlib.sha256(ref_text).hexdigest() if args.ref else None,
        "gpu": gpu, "driver": driver, "target": target,
        "tilegym_run": [st.st_size, int(st.st_mtime)]}
    key = hashlib.sha256(json.dumps(key_fields, sort_keys=True).encode()) \
        .hexdigest()[:32]
    path = cache_path(args, key)
    print(f"tuning {args.file}: {count} configurations of "
          f"{', '.join(names)}; GPU: {gpu or 'none'}")
    if not args.dry_run and not args.force and os.path.exists(path):
        try:
            with open(path) as f:
                cached = json.load(f)
            print(f"cache hit: {path} (tuned {cached['tuned_at']}, "
                  f"{cached['seconds']:.1f} s)")
            print_table(cached["rows"])
            print("best: " + " ".join(flags(cached["best"])))
            return write_bundle(args, tilegym_run, defines, cached["best"],
                                target, cached["shapes"], gpu)
        except (OSError, ValueError, KeyError) as e:
            print(f"cache entry {path} unreadable ({e}): tuning again")

    start = time.time()
    if args.target and target and args.target != target and not args.dry_run:
        fail(f"--target {args.target}: GPU 0 runs {target}")
    compile_target = ["--target", args.target or target] \
        if (args.target or target) else []

    def compile_one(config):
        rc, out, err = run([tilegym_run, args.file, "--compile-only"] +
                           compile_target + defines + flags(config))
        return config, rc, first_error(err or out)

    rows, compiled = [], []
    done = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for config, rc, reason in pool.map(compile_one, configs):
            done += 1
            row = {"config": config, "config_text": describe(config),
                   "ms": None}
            if rc == 0:
                compiled.append(row)
                row["result"] = "compiled"
            else:
                row.update(result="dropped", reason=reason)
                rows.append(row)
            print(f"[{done}/{count}] compile {row['config_text']}: "
                  f"{'ok' if rc == 0 else 'dropped: ' + reason}", flush=True)
    if args.dry_run:
        print_table(rows + compiled)
        return 0 if compiled else 1
    if not gpu or not target:
        print("tilegym-tune: no GPU the GPU backend can run on (tilegym-run "
              "--info): nothing verified or timed", file=sys.stderr)
        return 77
    for i, row in enumerate(compiled):
        config = row["config"]
        base = [tilegym_run, args.file, "--backend=gpu"] + defines + \
            flags(config)
        rc, out, err = run(base + check_sizes + check)
        if rc != 0:
            row.update(result="FAIL", reason=first_error(out + "\n" + err))
        else:
            rc, out, err = run(base + sizes + ["--bench"])
            m = re.search(r"bench: \S+ median ([0-9.]+) ms", out)
            if rc != 0 or not m:
                row.update(result="FAIL",
                           reason=first_error(out + "\n" + err))
            else:
                row.update(result="PASS", ms=float(m.group(1)),
                           shapes=view_shapes(out))
        rows.append(row)
        ms = f"{row['ms']:.4f} ms" if row["ms"] is not None else \
            row["result"] + ": " + row.get("reason", "")
        print(f"[{i + 1}/{len(compiled)}] run {row['config_text']}: {ms}",
              flush=True)
    seconds = time.time() - start
    timed = [r for r in rows if r["ms"] is not None]
    print_table(rows)
    print(f"tuned in {seconds:.1f} s")
    if not timed:
        print("tilegym-tune: no configuration compiled, passed and ran",
              file=sys.stderr)
        return 1
    best = min(timed, key=lambda r: r["ms"])
    os.makedirs(os.path.dirname(path), exist_ok=True)
    entry = {"key": key_fields, "best": best["config"],
             "shapes": best.get("shapes"), "rows": rows,
             "seconds": seconds,
             "tuned_at": time.strftime("%Y-%m-%d %H:%M:%S")}
    tmp = path + f".{os.getpid()}.tmp"
    with open(tmp, "w") as f:
        json.dump(entry, f, indent=1)
    os.replace(tmp, path)
    print(f"cached: {path}")
    print("best: " + " ".join(flags(best["config"])))
    return write_bundle(args, tilegym_run, defines, best["config"], target,
                        best.get("shapes"), gpu)


if __name__ == "__main__":
    sys.exit(main())
