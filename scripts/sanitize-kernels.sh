#!/usr/bin/env bash
# sanitize-kernels.sh [TOOL...]: compute-sanitizer on the GPU machine, from
# the working tree's root, over a tools kit (scripts/make-tools-kit.sh copies
# this script into it as KIT/sanitize.sh): every user-kernel case of
# KIT/cases.txt (tilegym-run against its .tile reference) and the flagship
# examples at ragged sizes (their built-in references), under each TOOL
# (default: memcheck racecheck synccheck initcheck), eight runs at a time.
# A run is clean when the kernel's verdict is PASS and the sanitizer reports
# no error (exit code 0 with --error-exitcode 9). One line per run, then
# "N runs, N clean, N not"; exit code 1 if any is not.
set -uo pipefail
kit=$(cd "$(dirname "$0")" && pwd)
tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(memcheck racecheck synccheck initcheck)
export PATH="/usr/local/cuda/bin:$PATH" LD_LIBRARY_PATH="$kit/lib"
run="$kit/bin/tilegym-run"
if [ ! -x "$run" ]; then
  python3 -c 'import lzma, sys; open(sys.argv[2], "wb").write(lzma.open(sys.argv[1]).read())' \
    "$kit/bin/tilegym-run.xz" "$run" && chmod +x "$run"
fi
command -v compute-sanitizer >/dev/null || { echo "compute-sanitizer not found" >&2; exit 77; }
cmds=$(mktemp)
trap 'rm -f "$cmds"' EXIT
while IFS='|' read -r name file kernel defines args; do
  echo "$name|examples/$file --ref examples/reference/$file --kernel $kernel $defines $args"
done <"$kit/cases.txt" >"$cmds"
cat >>"$cmds" <<'FLAGSHIP'
vector_add bf16 ragged|examples/vector_add.tile -D T=bf16 --size N=100003
gelu bf16 ragged|examples/gelu.tile -D T=bf16 --size M=37,N=1000
softmax bf16 ragged|examples/softmax.tile -D T=bf16 --size M=37,N=777
softmax_online ragged|examples/softmax_online.tile --size M=5,N=5000
matmul bf16 ragged|examples/matmul.tile -D T=bf16 --size M=300,N=200,K=130
matmul tf32 ragged|examples/matmul.tile -D T=f32 -D BK=32 --size M=129,N=77,K=65
attention d64 ragged|examples/attention.tile --size B=1,H=2,S=200
attention d128 causal ragged|examples/attention.tile -D D=128 -D CAUSAL=1 --reference attention_causal --size B=1,H=2,S=130,D=128
FLAGSHIP
# The language's constructs (test/Examples/language.test's kernels).
L=test/Examples/Inputs/language
cat >>"$cmds" <<LANGUAGE
while_rowsum ragged|$L/while_rowsum.tile --ref $L/while_rowsum_ref.tile --size M=5,N=3000
while_matmul ragged|$L/while_matmul.tile --ref $L/while_matmul_ref.tile --size M=130,N=70,K=200
loops|$L/loops.tile --compare=cpu --size M=23
math bf16|$L/math.tile -D T=bf16 --compare=cpu --size N=1000
bits|$L/bits.tile --compare=cpu --size N=1000
reductions|$L/reductions.tile --compare=cpu --size M=50,C=4
addressing|$L/addressing.tile --compare=cpu --size M=37,B=3 --init k=randint(0,63) --init off=randint(-8,71)
scans bf16 one row|$L/scans.tile -D T=bf16 -D R=1 -D W=4096 --size M=3
scans f32|$L/scans.tile --size M=37
sorting|$L/sorting.tile --size M=37
sorting bf16 one row|$L/sorting.tile -D T=bf16 -D R=1 -D W=4096 -D K=32 --size M=3
atomics bf16|$L/atomics.tile -D T=bf16 --size N=3000
atomics f32|$L/atomics.tile --size N=3000
random|$L/random.tile --compare=cpu --size N=3000 --init seeds=randint(-9,9)
LANGUAGE
one() { # TOOL NAME ARGS: one sanitized run, one line
  local tool=$1 name=$2 log rc verdict errors
  log=$(mktemp)
  # shellcheck disable=SC2086
  compute-sanitizer --tool "$tool" --error-exitcode 9 "$RUN" $3 --backend=gpu --seed 7 >"$log" 2>&1
  rc=$?
  verdict=$(grep -o 'verdict: [A-Z]*' "$log" | tail -1)
  errors=$(grep -o 'ERROR SUMMARY: .*' "$log" | tail -1)
  # UNCHECKED: a kernel whose outputs race by design (atomics) has no
  # reference here; the sanitizer's verdict is the check.
  if [ $rc -eq 0 ] && { [ "$verdict" = "verdict: PASS" ] ||
    [ "$verdict" = "verdict: UNCHECKED" ]; }; then
    printf 'clean %-10s %-36s %s, %s\n' "$tool" "$name" "$verdict" "$errors"
  else
    printf 'NOT   %-10s %-36s rc=%s %s, %s\n' "$tool" "$name" "$rc" "$verdict" "$errors"
    tail -8 "$log" | sed 's/^/    | /'
  fi
  rm -f "$log"
}
export -f one
export RUN="$run"
out=$(while IFS='|' read -r name args; do
  for tool in "${tools[@]}"; do printf '%s\0%s\0%s\0' "$tool" "$name" "$args"; done
done <"$cmds" | xargs -0 -n3 -P8 bash -c 'one "$0" "$1" "$2"')
echo "$out" | sort
total=$(echo "$out" | grep -c '^\(clean\|NOT\)')
bad=$(echo "$out" | grep -c '^NOT')
echo
echo "$total runs, $((total - bad)) clean, $bad not"
[ "$bad" -eq 0 ]
