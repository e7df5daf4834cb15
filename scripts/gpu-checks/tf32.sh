#!/usr/bin/env bash
# tf32 dots on wgmma's transposed product, B [K][N] staged under the
# 128-byte swizzle (so the TMA copies it and producers can fill its ring),
# on the GPU machine (docs/results/gpu-kit.md): the matmul's tile shapes
# with and without the TMA, warp-specialized, persistent or not, at ragged
# and tiny shapes against the float64 reference and the CPU JIT; bmm and
# matmul_bias_relu in f32; the fallback on views the TMA cannot address
# (through the Python package); memcheck, racecheck and synccheck.
# Prepared here, from the tree's root:
#   NO_BUILD=1 scripts/make-tools-kit.sh .gpukit/tools
#   build/bin/tilegym-cc examples/matmul.tile -D T=f32 -D BM=128 -D BN=128 \
#       -D BK=32 -D TMA=1 -D WS=1 --target=sm_90a --emit=bundle \
#       -o .gpukit/ws/mm_tf32_ws.tgb
# then on the GPU machine: bash scripts/gpu-checks/tf32.sh [PACKAGE_DIR]
# (PACKAGE_DIR holds the Python package `tilegym`, as a bench kit does).
set -uo pipefail
TIMEOUT=90 LOG_PREFIX=tf32-
. "$(dirname "$0")/common.sh"
results=$OUT/logs/tf32-results
: >"$results"
tp() { t "$@" >>"$results" & while [ "$(jobs -rp | wc -l)" -ge "${JOBS:-12}" ]; do wait -n; done; }
M="examples/matmul.tile -D T=f32"
for v in "-D BM=256 -D BK=32 -D TMA=1" "-D BM=256 -D BK=32 -D TMA=0" \
    "-D BM=128 -D BN=128 -D BK=32 -D TMA=1 -D WS=1" \
    "-D BM=128 -D BN=128 -D BK=32 -D TMA=1 -D WS=1 -D PERSISTENT=0" \
    "-D BM=256 -D BN=128 -D BK=32 -D TMA=1 -D WS=1 -D PERSISTENT=0" \
    "-D BM=256 -D BN=128 -D BK=32 -D TMA=1 -D WS=1 -D PERSISTENT=0 -D STAGES=4" \
    "-D BM=128 -D BN=128 -D BK=64 -D TMA=1 -D WS=1"; do
  for s in M=300,N=200,K=136 M=129,N=77,K=65 M=1,N=1,K=1 M=1024,N=512,K=768 M=130,N=136,K=64 M=2000,N=1000,K=96; do
    n=$((n+1)); tp "tf32 $v $s" $M $v --size $s
  done
done
n=$((n+1)); tp "tf32 WS cpu 264x136x96" $M -D BM=128 -D BN=128 -D BK=32 -D TMA=1 -D WS=1 --compare=cpu --shape a=264x96 --shape b=96x136 --shape c=264x136
n=$((n+1)); tp "bmm tf32 ragged" examples/bmm.tile --ref examples/reference/bmm.tile --size B=3,M=37,N=150,K=100
n=$((n+1)); tp "matmul_bias_relu tf32 ragged" examples/matmul_bias_relu.tile --ref examples/reference/matmul_bias_relu.tile --size M=129,N=77,K=65
wait
cat "$results"
echo "$(grep -c ' PASS ' "$results") passed, $(grep -c ' FAIL' "$results") failed"
if [ -n "${1:-}" ] && [ -e .gpukit/ws/mm_tf32_ws.tgb ]; then
  TILEGYM_PACKAGE=$1 python3 scripts/gpu-checks/ws_misaligned.py .gpukit/ws/mm_tf32_ws.tgb float32 float32 2>&1 | grep -v Warning
fi
export PATH=/usr/local/cuda/bin:$PATH
for tool in memcheck racecheck synccheck; do
  for c in "-D BM=128 -D BN=128 -D BK=32 -D TMA=1 -D WS=1 --size M=300,N=200,K=136" "-D BM=256 -D BK=32 -D TMA=1 --size M=300,N=200,K=136" \
      "-D BM=256 -D BN=128 -D BK=32 -D TMA=1 -D WS=1 -D PERSISTENT=0 -D STAGES=4 --size M=600,N=300,K=200"; do
    timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 $run $M $c --backend=gpu --seed 1 > $OUT/logs/tf32-san.log 2>&1; rc=$?
    echo "$tool rc=$rc $(grep -o 'ERROR SUMMARY: [0-9]* errors\|RACECHECK SUMMARY: [0-9]* hazards[^)]*' $OUT/logs/tf32-san.log | head -1) $(grep -c PASS $OUT/logs/tf32-san.log)PASS :: $c"
  done
done
