#!/usr/bin/env bash
# Overlapped dots on the GPU machine (docs/results/gpu-kit.md): attention
# with specialize(1) and overlap(1), whose P V tilegpu-overlap-dots defers
# into the next iteration, at the tile shapes and stages the bench tunes, at sequence lengths of
# no key block past the peeled first one (S <= BN), one, a ragged last one
# and many, causal or not, against the float64 references and the CPU
# JIT; then memcheck, racecheck and synccheck.
# Prepared here, from the tree's root:
#   NO_BUILD=1 scripts/make-tools-kit.sh .gpukit/tools
# then on the GPU machine: bash scripts/gpu-checks/overlap-dots.sh
set -uo pipefail
TIMEOUT=${TIMEOUT:-60} LOG_PREFIX=
. "$(dirname "$0")/common.sh"
for tile in "BM=64 -D BN=64" "BM=128 -D BN=64" "BM=64 -D BN=64 -D STAGES=3" "BM=128 -D BN=64 -D STAGES=3" "BM=64 -D BN=32" "BM=128 -D BN=128"; do
for s in S=1 S=64 S=65 S=130 S=1000; do
  t "attention WS d128 $tile $s" examples/attention.tile -D WS=1 -D OVERLAP=1 -D D=128 -D $tile --size B=1,H=2,$s,D=128
done
t "attention WS d128 causal $tile S=333" examples/attention.tile -D WS=1 -D OVERLAP=1 -D D=128 -D CAUSAL=1 -D $tile --reference attention_causal --size B=2,H=1,S=333,D=128
done
t "attention WS d64 S=200" examples/attention.tile -D WS=1 -D OVERLAP=1 --size B=1,H=2,S=200
t "attention WS d64 causal S=517" examples/attention.tile -D WS=1 -D OVERLAP=1 -D CAUSAL=1 --reference attention_causal --size B=1,H=2,S=517
t "attention WS f16 d128 S=300" examples/attention.tile -D WS=1 -D OVERLAP=1 -D T=f16 -D D=128 --size B=1,H=2,S=300,D=128
t "attention WS d128 cpu S=70" examples/attention.tile -D WS=1 -D OVERLAP=1 -D D=128 --compare=cpu --size B=1,H=1,S=70
t "attention WS d64 cpu causal S=100" examples/attention.tile -D WS=1 -D OVERLAP=1 -D CAUSAL=1 --compare=cpu --size B=1,H=1,S=100
echo "$pass passed, $fail failed"
[ "${SANITIZE:-1}" = 1 ] || exit 0
export PATH=/usr/local/cuda/bin:$PATH
for tool in memcheck racecheck synccheck; do
  for c in "examples/attention.tile -D WS=1 -D OVERLAP=1 -D D=128 --size B=1,H=2,S=200,D=128" "examples/attention.tile -D WS=1 -D OVERLAP=1 -D D=128 -D BM=128 -D CAUSAL=1 --reference attention_causal --size B=1,H=2,S=200,D=128"; do
    timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 $run $c --backend=gpu --seed 1 > $OUT/logs/san.log 2>&1; rc=$?
    echo "$tool rc=$rc $(grep -o 'ERROR SUMMARY: [0-9]* errors\|RACECHECK SUMMARY: [0-9]* hazards[^)]*' $OUT/logs/san.log | head -1) $(grep -c PASS $OUT/logs/san.log)PASS :: $c"
  done
done
