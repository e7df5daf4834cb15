#!/usr/bin/env bash
# Build everything, then compile and verify the flagship examples with
# tilegym-run at their default sizes, for every dtype they take, and print
# one table of verdicts. Exit code 0 only if every run passes.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/configure.sh
ninja -C "$BUILD" -j"${JOBS:-2}" || exit 1

RUN="$BUILD/bin/tilegym-run"
LOGS="$BUILD/example-logs"
mkdir -p "$LOGS"
# program | file | tilegym-run arguments
CASES=(
  "vector_add|vector_add.tile|-D T=f32"
  "vector_add|vector_add.tile|-D T=f16"
  "vector_add|vector_add.tile|-D T=bf16"
  "gelu|gelu.tile|-D T=f32"
  "gelu|gelu.tile|-D T=bf16"
  "softmax|softmax.tile|-D T=f32"
  "softmax|softmax.tile|-D T=bf16"
  "softmax (L2 prefetch, ragged)|softmax.tile|-D T=f32 -D AHEAD=3 --size M=37,N=999"
  "softmax (L2 prefetch, ragged)|softmax.tile|-D T=bf16 -D AHEAD=3 --size M=37,N=999"
  "softmax (online, long rows)|softmax_online.tile|-D T=f32 --size M=9,N=40000"
  "softmax (online, long rows)|softmax_online.tile|-D T=bf16 --size M=9,N=40000"
  "matmul|matmul.tile|-D T=bf16"
  "matmul|matmul.tile|-D T=f16"
  "matmul (bf16 C)|matmul.tile|-D T=bf16 -D OUT=bf16"
  "matmul (tf32)|matmul.tile|-D T=f32"
  "attention D64|attention.tile|-D T=bf16"
  "attention D64|attention.tile|-D T=f16"
  "attention D64 causal|attention.tile|-D T=bf16 -D CAUSAL=1 --reference=attention_causal"
  "attention D128|attention.tile|-D T=bf16 -D D=128 --size D=128"
  "attention D128 causal|attention.tile|-D T=f16 -D D=128 -D CAUSAL=1 --reference=attention_causal --size D=128"
)
pass=0; fail=0
printf '\n%-30s %-44s %-10s %s\n' program arguments verdict rel_err
for c in "${CASES[@]}"; do
  IFS='|' read -r name file args <<<"$c"
  log="$LOGS/$(echo "$file $args" | tr -c 'A-Za-z0-9_.=' _).log"
  # shellcheck disable=SC2086
  if "$RUN" "examples/$file" $args --backend=auto >"$log" 2>&1; then
    verdict=PASS; pass=$((pass + 1))
  else
    verdict=FAIL; fail=$((fail + 1))
  fi
  rel=$(grep -o 'rel_err=[^ ]*' "$log" | head -1 | cut -d= -f2)
  printf '%-30s %-44s %-10s %s\n' "$name" "$args" "$verdict" "${rel:--}"
  [ "$verdict" = PASS ] || sed 's/^/    | /' "$log" | tail -8
done
echo
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
