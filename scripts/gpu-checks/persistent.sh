#!/usr/bin/env bash
# Persistent kernels on the GPU machine (docs/results/gpu-kit.md): matmul
# and attention with specialize(1) persistent(1) at ragged, tiny and
# many-tile shapes (more tiles than SMs, so that blocks run several) against
# the float64 references and the CPU JIT; the fallback on views the TMA
# cannot address (through the Python package), memcheck, racecheck and
# synccheck.
# Prepared here, from the tree's root:
#   NO_BUILD=1 scripts/make-tools-kit.sh .gpukit/tools
#   NO_BUILD=1 bench/make-kit.sh .gpukit/bench      (the Python package)
#   build/bin/tilegym-cc examples/matmul.tile -D TMA=1 -D WS=1 -D OUT=bf16 \
#       --target=sm_90a --emit=bundle -o .gpukit/ws/mm_persistent.tgb
# then on the GPU machine: bash scripts/gpu-checks/persistent.sh
set -uo pipefail
TIMEOUT=120 LOG_PREFIX=p
. "$(dirname "$0")/common.sh"
P="examples/matmul.tile -D TMA=1 -D WS=1 -D PERSISTENT=1"
for out in bf16 f16; do
for s in M=300,N=200,K=136 M=129,N=77,K=65 M=8,N=8,K=8 M=1,N=1,K=1 M=4096,N=2304,K=192 M=2500,N=3000,K=72 M=256,N=384,K=1000 M=6000,N=136,K=64; do
  t "matmul persistent OUT=$out $s" $P -D OUT=$out -D T=$out --size $s
done
done
t "matmul persistent BM=128 BN=128 M=2000,N=1500,K=300" $P -D OUT=bf16 -D BN=128 --size M=2000,N=1500,K=300
t "matmul persistent BM=256 BN=128 M=1000,N=3000,K=130" $P -D OUT=bf16 -D BM=256 -D BN=128 --size M=1000,N=3000,K=130
t "matmul persistent f32 C (not persistent) M=300,N=200,K=136" $P --size M=300,N=200,K=136
t "matmul persistent cpu 600x700x96" $P -D OUT=bf16 --compare=cpu --shape a=600x96 --shape b=96x700 --shape c=600x700
A="examples/attention.tile -D WS=1 -D PERSISTENT=1"
t "attention persistent d64 B=1,H=2,S=200" $A --size B=1,H=2,S=200
t "attention persistent d64 B=4,H=8,S=1000" $A --size B=4,H=8,S=1000
t "attention persistent d64 S=8" $A --size B=1,H=1,S=8
t "attention persistent d128 B=2,H=16,S=1030" $A -D D=128 --size B=2,H=16,S=1030,D=128
t "attention persistent d128 BM=128 B=2,H=16,S=1030" $A -D D=128 -D BM=128 --size B=2,H=16,S=1030,D=128
t "attention persistent d128 causal B=2,H=16,S=777" $A -D D=128 -D CAUSAL=1 --reference attention_causal --size B=2,H=16,S=777,D=128
t "attention persistent d128 causal S=8" $A -D D=128 -D CAUSAL=1 --reference attention_causal --size B=1,H=1,S=8,D=128
t "attention persistent d64 cpu S=70" $A --compare=cpu --size B=1,H=3,S=70
echo "$pass passed, $fail failed"
python3 scripts/gpu-checks/ws_misaligned.py .gpukit/ws/mm_persistent.tgb bfloat16 2>&1 | grep -v Warning
# SANITIZE=0 skips the sanitizers (several minutes).
[ "${SANITIZE:-1}" = 0 ] && exit 0
export PATH=/usr/local/cuda/bin:$PATH
for tool in memcheck racecheck synccheck; do
  for c in "$P -D OUT=bf16 --size M=129,N=136,K=200" "$P -D OUT=bf16 --size M=4200,N=1100,K=64" "$A -D D=128 -D CAUSAL=1 --reference attention_causal --size B=2,H=40,S=200,D=128"; do
    timeout 250 compute-sanitizer --tool $tool --error-exitcode 9 $run $c --backend=gpu --seed 1 > $OUT/logs/san.log 2>&1; rc=$?
    echo "$tool rc=$rc $(grep -o 'ERROR SUMMARY: [0-9]* errors\|RACECHECK SUMMARY: [0-9]* hazards[^)]*' $OUT/logs/san.log | head -1) $(grep -c PASS $OUT/logs/san.log)PASS :: $c"
  done
done
