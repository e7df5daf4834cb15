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

# The tile configurations, one bundle each. KEY names what run.py looks for:
#   OP.DTYPE[.TAG]              vector_add, gelu, matmul (any shape); run.py
#                               reports the fastest of OP.DTYPE and its .TAG variants
#   softmax.DTYPE.BLOCK[.wW]    whole row in one tile: rows of N <= BLOCK; run.py
#                               takes the smallest BLOCK >= N, and reports the
#                               fastest of its warp variants (.wW: W warps)
#   softmax_online.DTYPE        any N (looped, online max/sum); run for N > 4096
#   attention.DTYPE.dD.cCAUSAL
# KEY | source | -D defines and options. Warps per shape from a sweep of
# tile configurations on the H200 (bench/NOTES.md, experiments); where two
# were within noise, both are here and the bench reports the faster.
# softmax prefetches the row AHEAD rows on into the L2 (the example's
# default: 4 MiB of f32 rows); rows of 16384 f32 are given 6 MiB, bf16 rows
# 8 MiB: within the 4-8 MiB of rows ahead that measured best (bench/NOTES.md,
# softmax).
CONFIGS=(
  "vector_add.f32|vector_add.tile|-D T=f32"
  "vector_add.bf16|vector_add.tile|-D T=bf16"
  "gelu.f32|gelu.tile|-D T=f32"
  "gelu.bf16|gelu.tile|-D T=bf16"
  "softmax.f32.1024|softmax.tile|-D T=f32 -D BLOCK=1024 --num-warps=2"
  "softmax.f32.1024.w4|softmax.tile|-D T=f32 -D BLOCK=1024 --num-warps=4"
  "softmax.f32.2048|softmax.tile|-D T=f32 -D BLOCK=2048 --num-warps=8"
  "softmax.f32.2048.w4|softmax.tile|-D T=f32 -D BLOCK=2048 --num-warps=4"
  "softmax.f32.4096|softmax.tile|-D T=f32 -D BLOCK=4096 --num-warps=8"
  "softmax.f32.4096.w4|softmax.tile|-D T=f32 -D BLOCK=4096 --num-warps=4"
  "softmax.f32.4096.w16|softmax.tile|-D T=f32 -D BLOCK=4096 --num-warps=16"
  "softmax.f32.16384|softmax.tile|-D T=f32 -D BLOCK=16384 -D AHEAD=96 --num-warps=16"
  "softmax.f32.16384.w8|softmax.tile|-D T=f32 -D BLOCK=16384 -D AHEAD=96 --num-warps=8"
  "softmax.f32.16384.w8m3|softmax.tile|-D T=f32 -D BLOCK=16384 -D AHEAD=96 --num-warps=8 --min-blocks-per-sm=3"
  "softmax.f32.32768|softmax.tile|-D T=f32 -D BLOCK=32768 --num-warps=16"
  "softmax.bf16.1024|softmax.tile|-D T=bf16 -D BLOCK=1024 -D AHEAD=4096 --num-warps=2"
  "softmax.bf16.2048|softmax.tile|-D T=bf16 -D BLOCK=2048 -D AHEAD=2048"
  "softmax.bf16.4096|softmax.tile|-D T=bf16 -D BLOCK=4096 -D AHEAD=1024 --num-warps=4"
  "softmax.bf16.16384|softmax.tile|-D T=bf16 -D BLOCK=16384 -D AHEAD=256 --num-warps=16"
  "softmax_online.f32|softmax_online.tile|-D T=f32 -D BLOCK=1024"
  "softmax_online.bf16|softmax_online.tile|-D T=bf16 -D BLOCK=1024"
  "matmul.bf16|matmul.tile|-D T=bf16"
  "matmul.bf16.cbf16|matmul.tile|-D T=bf16 -D OUT=bf16"
  "matmul.f32|matmul.tile|-D T=f32 -D BK=32"
  "attention.bf16.d64.c0|attention.tile|-D T=bf16 -D D=64 -D CAUSAL=0"
  "attention.bf16.d64.c1|attention.tile|-D T=bf16 -D D=64 -D CAUSAL=1"
  "attention.bf16.d128.c0|attention.tile|-D T=bf16 -D D=128 -D CAUSAL=0"
  "attention.bf16.d128.c1|attention.tile|-D T=bf16 -D D=128 -D CAUSAL=1"
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
for c in "${CONFIGS[@]}"; do
  IFS='|' read -r key file opts <<<"$c"
  # shellcheck disable=SC2086
  if "$CC" "examples/$file" $opts --target="$TARGET" --emit=bundle \
      -o "$OUT/bundles/$key.tgb"; then
    echo "$key|examples/$file|$opts" >>"$OUT/bundles.txt"
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
