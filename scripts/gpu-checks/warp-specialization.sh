#!/usr/bin/env bash
# Warp specialization on the GPU machine (docs/results/gpu-kit.md): matmul
# and attention with specialize(1) at ragged and tiny shapes against the
# float64 references and the CPU JIT, the fallback on views the TMA cannot
# address (through the Python package), memcheck, racecheck and synccheck.
# Prepared here, from the tree's root:
#   NO_BUILD=1 scripts/make-tools-kit.sh .gpukit/tools
#   NO_BUILD=1 bench/make-kit.sh .gpukit/bench      (the Python package)
#   build/bin/tilegym-cc examples/matmul.tile -D TMA=1 -D WS=1 \
#       --target=sm_90a --emit=bundle -o .gpukit/ws/mm_ws.tgb
# then on the GPU machine: bash scripts/gpu-checks/warp-specialization.sh
set -uo pipefail
TIMEOUT=60 LOG_PREFIX=
. "$(dirname "$0")/common.sh"
for tile in "BM=256 -D BN=128" "BM=128 -D BN=256" "BM=128 -D BN=128"; do
for s in M=300,N=200,K=136 M=129,N=77,K=65 M=8,N=8,K=8 M=1,N=1,K=1 M=1024,N=512,K=768 M=256,N=384,K=1000 M=130,N=136,K=64; do
  t "matmul WS bf16 $tile $s" examples/matmul.tile -D TMA=1 -D WS=1 -D $tile --size $s
done
done
t "matmul WS f16 OUT=f16 M=1000,N=520,K=200" examples/matmul.tile -D TMA=1 -D WS=1 -D T=f16 -D OUT=f16 --size M=1000,N=520,K=200
t "matmul WS bf16 cpu 264x136x96" examples/matmul.tile -D TMA=1 -D WS=1 --compare=cpu --shape a=264x96 --shape b=96x136 --shape c=264x136
t "matmul WS tf32 BM256 M=300,N=200,K=136" examples/matmul.tile -D TMA=1 -D WS=1 -D T=f32 -D BK=32 -D BM=256 --size M=300,N=200,K=136
t "attention WS d64 B=1,H=2,S=200" examples/attention.tile -D WS=1 --size B=1,H=2,S=200
t "attention WS d64 B=2,H=2,S=512" examples/attention.tile -D WS=1 --size B=2,H=2,S=512
t "attention WS d128 causal S=130" examples/attention.tile -D WS=1 -D D=128 -D CAUSAL=1 --reference attention_causal --size B=1,H=2,S=130,D=128
t "attention WS d128 S=1024" examples/attention.tile -D WS=1 -D D=128 --size B=1,H=4,S=1024,D=128
t "attention WS d128 S=8" examples/attention.tile -D WS=1 -D D=128 --size B=1,H=1,S=8,D=128
t "attention WS d64 cpu S=70" examples/attention.tile -D WS=1 --compare=cpu --size B=1,H=1,S=70
# 128 queries x 128 keys at D128: Q and two stages of K and V fill the
# staging budget exactly at their swizzled sizes.
for s in S=1 S=128 S=129 S=1000; do
  t "attention WS d128 128x128 $s" examples/attention.tile -D WS=1 -D D=128 -D BM=128 -D BN=128 --size B=1,H=2,$s,D=128
done
t "attention WS d128 128x128 causal S=333" examples/attention.tile -D WS=1 -D D=128 -D BM=128 -D BN=128 -D CAUSAL=1 --reference attention_causal --size B=2,H=1,S=333,D=128
t "attention WS d128 128x128 cpu S=150" examples/attention.tile -D WS=1 -D D=128 -D BM=128 -D BN=128 --compare=cpu --size B=1,H=1,S=150
echo "$pass passed, $fail failed"
python3 scripts/gpu-checks/ws_misaligned.py .gpukit/ws/mm_ws.tgb 2>&1 | grep -v Warning
export PATH=/usr/local/cuda/bin:$PATH
for tool in memcheck racecheck synccheck; do
  for c in "examples/matmul.tile -D TMA=1 -D WS=1 -D OUT=bf16 --size M=129,N=136,K=200" "examples/attention.tile -D WS=1 --size B=1,H=2,S=200" "examples/attention.tile -D WS=1 -D D=128 -D CAUSAL=1 --reference attention_causal --size B=1,H=2,S=200,D=128"; do
    timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 $run $c --backend=gpu --seed 1 > $OUT/logs/san.log 2>&1; rc=$?
    echo "$tool rc=$rc $(grep -o 'ERROR SUMMARY: [0-9]* errors\|RACECHECK SUMMARY: [0-9]* hazards[^)]*' $OUT/logs/san.log | head -1) $(grep -c PASS $OUT/logs/san.log)PASS :: $c"
  done
done
