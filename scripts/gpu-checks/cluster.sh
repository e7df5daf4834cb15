#!/usr/bin/env bash
# Clusters on the GPU machine (docs/results/gpu-kit.md): the warp-specialized
# matmul with cluster(2), persistent and not, against the float64 references
# and the CPU JIT, at shapes whose rows of tiles pair (an even grid y: the
# launch runs clusters, B's tiles multicast) and shapes whose rows do not
# (an odd y: no clusters, the same code copying every column block itself);
# each check's "clusters:" line says which it was. Then memcheck, racecheck
# and synccheck.
# Prepared here, from the tree's root:
#   NO_BUILD=1 scripts/make-tools-kit.sh .gpukit/tools
# then on the GPU machine: bash scripts/gpu-checks/cluster.sh
set -uo pipefail
TIMEOUT=${TIMEOUT:-120} LOG_PREFIX=c
. "$(dirname "$0")/common.sh"
C="examples/matmul.tile -D TMA=1 -D WS=1 -D CLUSTER=2"
for p in 1 0; do
for out in bf16 f16; do
# M = 300 and 129 give 3 and 2 rows of 128-row tiles, 8 gives 1, 4096 32,
# 2500 20, 6000 47.
for s in M=300,N=200,K=136 M=129,N=77,K=65 M=8,N=8,K=8 M=4096,N=2304,K=192 M=2500,N=3000,K=72 M=256,N=384,K=1000 M=6000,N=136,K=64 M=3000,N=5000,K=256; do
  t "matmul cluster PERSISTENT=$p OUT=$out $s" $C -D PERSISTENT=$p -D OUT=$out -D T=$out --size $s
  grep -h '^clusters:' $OUT/logs/$LOG_PREFIX$n.log | cut -c1-100
done
done
done
t "matmul cluster f32 C (not persistent) M=256,N=200,K=136" $C --size M=256,N=200,K=136
grep -h '^clusters:' $OUT/logs/$LOG_PREFIX$n.log
t "matmul cluster BN=128 M=2000,N=1500,K=300" $C -D OUT=bf16 -D BN=128 --size M=2000,N=1500,K=300
t "matmul cluster cpu 600x700x96" $C -D OUT=bf16 --compare=cpu --shape a=600x96 --shape b=96x700 --shape c=600x700
echo "$pass passed, $fail failed"
# SANITIZE=0 skips the sanitizers.
[ "${SANITIZE:-1}" = 0 ] && exit 0
export PATH=/usr/local/cuda/bin:$PATH
for tool in memcheck racecheck synccheck; do
  for c in "$C -D OUT=bf16 --size M=256,N=520,K=200" "$C -D OUT=bf16 -D PERSISTENT=0 --size M=256,N=300,K=130"; do
    timeout 250 compute-sanitizer --tool $tool --error-exitcode 9 $run $c --backend=gpu --seed 1 > $OUT/logs/san.log 2>&1; rc=$?
    echo "$tool rc=$rc $(grep -o 'ERROR SUMMARY: [0-9]* errors\|RACECHECK SUMMARY: [0-9]* hazards[^)]*' $OUT/logs/san.log | head -1) $(grep -c PASS $OUT/logs/san.log)PASS :: $c"
  done
done
