#!/usr/bin/env bash
# make-gpu-kit.sh OUT_DIR: builds tilegym-runner and the bundles of every
# flagship example (the cases of scripts/run-examples.sh) and the kernels of
# test/Examples/edge-semantics.test, for sm_90a, into OUT_DIR, a folder to
# carry to a GPU machine that has no LLVM:
#
#   OUT_DIR/bin/tilegym-runner   MLIR-free runner (libc, libstdc++, libdl)
#   OUT_DIR/bundles/*.tgb        one bundle per example and variant
#   OUT_DIR/run.sh               runs every bundle at the default sizes and
#                                prints a table ending "N passed, N failed"
#
# Exit code 0 when every bundle was built; a case that fails to compile is
# reported, left out of the kit, and makes the exit code 1.
set -uo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 OUT_DIR" >&2
  exit 1
fi
OUT=$1
cd "$(dirname "$0")/.."
. scripts/configure.sh
if [ -z "${NO_BUILD:-}" ]; then # NO_BUILD=1: use the tools as built
  ninja -C "$BUILD" -j"${JOBS:-2}" tilegym-cc tilegym-runner || exit 1
fi
CC="$BUILD/bin/tilegym-cc"
if ! "$CC" --help | grep -q -- '=bundle'; then
  echo "error: $CC cannot emit bundles yet (no --emit=bundle): the GPU" \
       "backend is needed to build a GPU kit" >&2
  exit 1
fi
if ldd "$BUILD/bin/tilegym-runner" | grep -Eq 'libMLIR|libLLVM'; then
  echo "error: tilegym-runner links LLVM or MLIR; it would not run where" \
       "they are not installed" >&2
  exit 1
fi

# program | file | -D defines (compile time) | tilegym-runner arguments
CASES=(
  "vector_add|vector_add.tile|-D T=f32|"
  "vector_add|vector_add.tile|-D T=f16|"
  "vector_add|vector_add.tile|-D T=bf16|"
  "gelu|gelu.tile|-D T=f32|"
  "gelu|gelu.tile|-D T=bf16|"
  "softmax|softmax.tile|-D T=f32|"
  "softmax|softmax.tile|-D T=bf16|"
  "softmax (L2 prefetch, ragged)|softmax.tile|-D T=f32 -D AHEAD=3|--size M=37,N=999"
  "softmax (L2 prefetch, ragged)|softmax.tile|-D T=bf16 -D AHEAD=3|--size M=37,N=999"
  "softmax (online, long rows)|softmax_online.tile|-D T=f32|--size M=9,N=40000"
  "softmax (online, long rows)|softmax_online.tile|-D T=bf16|--size M=9,N=40000"
  "matmul|matmul.tile|-D T=bf16|"
  "matmul|matmul.tile|-D T=f16|"
  "matmul (bf16 C)|matmul.tile|-D T=bf16 -D OUT=bf16|"
  "matmul (tf32)|matmul.tile|-D T=f32|"
  "attention D64|attention.tile|-D T=bf16|"
  "attention D64|attention.tile|-D T=f16|"
  "attention D64 causal|attention.tile|-D T=bf16 -D CAUSAL=1|--reference attention_causal"
  "attention D128|attention.tile|-D T=bf16 -D D=128|--size D=128"
  "attention D128 causal|attention.tile|-D T=f16 -D D=128 -D CAUSAL=1|--reference attention_causal --size D=128"
  "integer division by 0, MIN/-1|test/Examples/Inputs/vector_add_divide_by_zero.tile||--size N=1000"
  "0-d tiles|test/Examples/Inputs/vector_add_zero_d.tile||--size N=1000"
)

rm -rf "$OUT"
mkdir -p "$OUT/bin" "$OUT/bundles" || exit 1
cp "$BUILD/bin/tilegym-runner" "$OUT/bin/" || exit 1
table=""
failed=0
for c in "${CASES[@]}"; do
  IFS='|' read -r name file defines args <<<"$c"
  bundle=$(basename "$file" .tile) # e.g. attention-T_bf16-D_128-CAUSAL_1
  for d in $defines; do [ "$d" = -D ] || bundle+="-${d/=/_}"; done
  # shellcheck disable=SC2086
  # A file without a folder is an example; test inputs name their path.
  [[ "$file" == */* ]] || file="examples/$file"
  if "$CC" "$file" $defines --target="$TARGET" --emit=bundle \
      -o "$OUT/bundles/$bundle.tgb"; then
    table+="$name|$bundle|$defines${args:+ $args}|$args"$'\n'
  else
    echo "error: $file $defines did not compile; left out of the kit" >&2
    rm -rf "$OUT/bundles/$bundle.tgb"
    failed=$((failed + 1))
  fi
done
printf '%s' "$table" >"$OUT/cases.txt"

cat >"$OUT/run.sh" <<'RUN'
#!/usr/bin/env bash
# Runs every bundle of this kit through tilegym-runner at the default sizes
# (cases.txt: program | bundle | shown arguments | runner arguments) and
# prints one table of verdicts. Exit code 0 only if every run passes. A run
# that finds no GPU (exit 77) counts as failed.
set -uo pipefail
cd "$(dirname "$0")"
mkdir -p logs
pass=0; fail=0
printf '\n%-30s %-44s %-10s %s\n' program arguments verdict rel_err
while IFS='|' read -r name bundle shown args; do
  log="logs/$bundle.log"
  # shellcheck disable=SC2086
  bin/tilegym-runner "bundles/$bundle.tgb" $args >"$log" 2>&1
  rc=$?
  case $rc in
    0) verdict=PASS; pass=$((pass + 1)) ;;
    77) verdict=NO-GPU; fail=$((fail + 1)) ;;
    *) verdict=FAIL; fail=$((fail + 1)) ;;
  esac
  rel=$(grep -o 'rel_err=[^ ]*' "$log" | head -1 | cut -d= -f2)
  printf '%-30s %-44s %-10s %s\n' "$name" "$shown" "$verdict" "${rel:--}"
  [ $rc -eq 0 ] || sed 's/^/    | /' "$log" | tail -8
done <cases.txt
echo
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
RUN
chmod +x "$OUT/run.sh"

size=$(du -sm "$OUT" | cut -f1)
if [ "$size" -ge 64 ]; then
  echo "error: the kit is ${size} MiB, over the 64 MiB a GPU machine takes" >&2
  exit 1
fi
echo "kit: $OUT (${size} MiB, $(wc -l <"$OUT/cases.txt") bundles for $TARGET); run $OUT/run.sh on the GPU machine"
[ "$failed" -eq 0 ]
