#!/usr/bin/env bash
# make-kit.sh OUT_DIR: everything bench/run.py needs on a GPU machine without
# LLVM, in one folder (checked < 64 MiB):
#
#   OUT_DIR/run.py, triton_kernels.py   the bench (bench/*.py)
#   OUT_DIR/tilegym/                    the Python package (python/tilegym)
#   OUT_DIR/libtilegym_bundle.so                    the bundle C API (no LLVM/MLIR)
#   OUT_DIR/bundles/KEY.tgb                         TileGym kernels, sm_90a
#   OUT_DIR/bundles.txt                             the table below, as built
#
# On the GPU machine: python3 OUT_DIR/run.py --kit OUT_DIR --out results/NAME
# Exit code 1 when a bundle does not compile (it is left out; run.py then
# skips TileGym for the problems that needed it).
set -uo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 OUT_DIR" >&2
  exit 1
fi
OUT=$1
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/.."
. scripts/configure.sh
if [ -z "${NO_BUILD:-}" ]; then
  ninja -C "$BUILD" -j"${JOBS:-2}" tilegym-cc tilegym_bundle || exit 1
fi
CC="$BUILD/bin/tilegym-cc"
LIB="$BUILD/lib/libtilegym_bundle.so"
if ldd "$LIB" | grep -Eq 'libMLIR|libLLVM'; then
  echo "error: $LIB links LLVM or MLIR" >&2
  exit 1
fi

# The bundles, one per key. KEY names what run.py looks for:
#   OP.DTYPE[.TAG]              vector_add, gelu, matmul (any shape); run.py
#                               reports the fastest of OP.DTYPE and its .TAG
#                               variants (another output type)
#   softmax.DTYPE.BLOCK         whole row in one tile: rows of N <= BLOCK; run.py
#                               takes the smallest BLOCK >= N
#   softmax_online.DTYPE        any N (looped, online max/sum); run for N > 4096
#   attention.DTYPE.dD.cCAUSAL
# KEY | source | -D defines | tuning space. A key with a space is a bundle of
# variants (tilegym.tune.compile_variants), one per configuration, which
# run.py tunes on each shape's own tensors before timing it (tilegym.tune,
# the time printed); one without is a bundle of kernels. Each space's first
# value is the configuration the hand-picked table had (its variant 0, the
# default, and the reference the others' outputs are checked against).
# softmax's warps are tuned among those a sweep on the H200 found best
# (bench/NOTES.md);
# its rows prefetch AHEAD rows on into the L2 (the example's default: 4 MiB
# of f32 rows); rows of 16384 f32 are given 6 MiB, bf16 rows 8 MiB: within
# the 4-8 MiB of rows ahead that measured best (bench/NOTES.md, softmax).
# Attention at D128 is tuned warp-specialized only (without it no variant
# won there); at 128 queries x 128 keys three stages of K and V fit sm_90's
# staging budget beside Q (224 KiB). tf32 tries a fourth stage (192 KiB at
# 256x128x32), faster at 2048^3 and 4096^3 on an H100, slower at 8192^3, and
# warp specialization without persistence at 256x128 and 128x128 (its
# wgmmas no longer serialized by ptxas); BK 16 is slower (bench/NOTES.md,
# Experiments) and not tried.
CONFIGS=(
  "vector_add.f32|vector_add.tile|-D T=f32|BLOCK=1024,2048,4096"
  "vector_add.bf16|vector_add.tile|-D T=bf16|BLOCK=1024,2048,4096"
  "gelu.f32|gelu.tile|-D T=f32|BN=1024,2048"
  "gelu.bf16|gelu.tile|-D T=bf16|BN=1024,2048"
  "softmax.f32.1024|softmax.tile|-D T=f32 -D BLOCK=1024|W=2,4"
  "softmax.f32.2048|softmax.tile|-D T=f32 -D BLOCK=2048|W=8,4"
  "softmax.f32.4096|softmax.tile|-D T=f32 -D BLOCK=4096|W=8,4,16"
  "softmax.f32.16384|softmax.tile|-D T=f32 -D BLOCK=16384 -D AHEAD=96|W=16,8"
  "softmax.f32.32768|softmax.tile|-D T=f32 -D BLOCK=32768|W=16,32"
  "softmax.bf16.1024|softmax.tile|-D T=bf16 -D BLOCK=1024 -D AHEAD=4096|W=2,4"
  "softmax.bf16.2048|softmax.tile|-D T=bf16 -D BLOCK=2048 -D AHEAD=2048|W=4,8"
  "softmax.bf16.4096|softmax.tile|-D T=bf16 -D BLOCK=4096 -D AHEAD=1024|W=4,8"
  "softmax.bf16.16384|softmax.tile|-D T=bf16 -D BLOCK=16384 -D AHEAD=256|W=16,8"
  "softmax_online.f32|softmax_online.tile|-D T=f32|BLOCK=1024,2048,4096"
  "softmax_online.bf16|softmax_online.tile|-D T=bf16|BLOCK=1024,2048,4096"
  "matmul.bf16|matmul.tile|-D T=bf16|BK=64,32 TMA=1,0 WS=0,1"
  "matmul.bf16.cbf16|matmul.tile|-D T=bf16 -D OUT=bf16|BK=64 TMA=1,0 WS=0,1 PERSISTENT=0,1,2 BN=128,256 CLUSTER=1,2"
  "matmul.f16|matmul.tile|-D T=f16|BK=64 TMA=1,0 WS=0,1"
  "matmul.f16.cf16|matmul.tile|-D T=f16 -D OUT=f16|BK=64 TMA=1,0 WS=0,1 PERSISTENT=0,1,2 BN=128,256 CLUSTER=1,2"
  "matmul.f32|matmul.tile|-D T=f32|BK=32 BM=256,128 TMA=1,0 STAGES=3,4 WS=0,1 PERSISTENT=0 BN=128"
  "matmul.f8e4m3|matmul_fp8.tile|-D T=f8e4m3|BK=128 TMA=1,0 WS=0,1 PERSISTENT=0,1 BN=128,256 STAGES=3,4"
  "attention.bf16.d64.c0|attention.tile|-D T=bf16 -D D=64 -D CAUSAL=0|BN=64,32,128 TMA=1,0 WS=0,1"
  "attention.bf16.d64.c1|attention.tile|-D T=bf16 -D D=64 -D CAUSAL=1|BN=64,32,128 TMA=1,0 WS=0,1"
  "attention.bf16.d128.c0|attention.tile|-D T=bf16 -D D=128 -D CAUSAL=0 -D WS=1|BN=64,128 BM=128 OVERLAP=0,1,2 STAGES=2,3"
  "attention.bf16.d128.c1|attention.tile|-D T=bf16 -D D=128 -D CAUSAL=1 -D WS=1|BN=64,128 BM=128 OVERLAP=0,1,2 STAGES=2,3"
  "attention.f16.d128.c0|attention.tile|-D T=f16 -D D=128 -D CAUSAL=0 -D WS=1|BN=64,128 BM=128 OVERLAP=0,1,2 STAGES=2,3"
)

rm -rf "$OUT"
mkdir -p "$OUT/bundles" || exit 1
cp bench/run.py bench/ab.py bench/triton_kernels.py "$LIB" "$OUT/" || exit 1
# The C launch path of the Python package, when it was built (python3-dev).
if [ -f "$BUILD/lib/_fastlaunch.abi3.so" ]; then
  cp "$BUILD/lib/_fastlaunch.abi3.so" "$OUT/" || exit 1
fi
cp -r python/tilegym "$OUT/tilegym" || exit 1
failed=0
: >"$OUT/bundles.txt"
# A space "W=2,4 BK=32,64" as tilegym.tune.compile_variants takes it.
compile_variants() { # KEY SOURCE DEFINES SPACE
  TILEGYM_BUNDLE_LIB="$LIB" python3 - "$@" <<'PY'
import os, sys
sys.path.insert(0, "python")
import tilegym.tune
key, source, defines, space = sys.argv[1:5]
d = dict(x.split("=", 1) for x in defines.split() if x != "-D")
s = {n: v.split(",") for n, v in (x.split("=", 1) for x in space.split())}
b = tilegym.tune.compile_variants(
    source, os.path.join(os.environ["OUT"], "bundles", key + ".tgb"), s,
    defines=d, target=os.environ["TARGET"], compiler=os.environ["CC"])
for config, why in b.dropped:
    print(f"{key}: {config} dropped: {why}", file=sys.stderr)
PY
}
export OUT TARGET CC
for c in "${CONFIGS[@]}"; do
  IFS='|' read -r key file opts space <<<"$c"
  if [ -n "$space" ]; then
    compile_variants "$key" "examples/$file" "$opts" "$space"
  else
    # shellcheck disable=SC2086
    "$CC" "examples/$file" $opts --target="$TARGET" --emit=bundle \
      -o "$OUT/bundles/$key.tgb"
  fi
  if [ $? -eq 0 ]; then
    echo "$key|examples/$file|$opts|$space" >>"$OUT/bundles.txt"
  else
    echo "error: examples/$file $opts did not compile; $key left out" >&2
    rm -rf "$OUT/bundles/$key.tgb"
    failed=$((failed + 1))
  fi
done

size=$(du -sm "$OUT" | cut -f1)
if [ "$size" -ge 64 ]; then
  echo "error: the kit is ${size} MiB, over the 64 MiB a GPU machine takes" >&2
  exit 1
fi
echo "kit: $OUT (${size} MiB, $(wc -l <"$OUT/bundles.txt") bundles for $TARGET);" \
     "on the GPU: python3 $OUT/run.py --kit $OUT --out results/NAME"
[ "$failed" -eq 0 ]
