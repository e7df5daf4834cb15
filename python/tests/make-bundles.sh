#!/usr/bin/env bash
# make-bundles.sh OUT_DIR [TARGET]: the bundles python/tests/user_kernels.py
# runs (each user kernel of examples/ in f32 and bf16, and three wrong
# kernels) and those python/tests/torch_ops.py runs, compiled with the
# tree's tilegym-cc for TARGET (sm_90a).
set -euo pipefail
OUT=$1
TARGET=${2:-sm_90a}
cd "$(dirname "$0")/../.."
CC=${TILEGYM_CC:-build/bin/tilegym-cc}
mkdir -p "$OUT"
for k in layernorm rmsnorm axpy transpose colsum bmm matmul_nt swiglu \
         cross_entropy rope fullsum matmul_bias_relu; do
  for t in f32 bf16; do
    "$CC" "examples/$k.tile" -D T=$t --target="$TARGET" --emit=bundle -o "$OUT/$k-$t.tgb"
  done
done
for k in layernorm colsum matmul_nt; do
  for t in f32 bf16; do
    "$CC" "test/Examples/Inputs/wrong_$k.tile" -D T=$t --target="$TARGET" \
      --emit=bundle -o "$OUT/wrong_$k-$t.tgb"
  done
done
"$CC" examples/attention.tile --target="$TARGET" --emit=bundle -o "$OUT/attention-d64.tgb"
"$CC" examples/vector_add.tile --target="$TARGET" --emit=bundle -o "$OUT/vector_add-f32.tgb"
echo "bundles: $(ls "$OUT" | wc -l) in $OUT"
