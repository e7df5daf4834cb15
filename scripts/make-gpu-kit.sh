#!/usr/bin/env bash
# make-gpu-kit.sh OUT_DIR: builds tilegym-runner and the bundles of every
# flagship example (the cases of scripts/run-examples.sh), the kernels of
# test/Examples/edge-semantics.test and the user kernels of examples/ (with
# check folders from their .tile references), for sm_90a, into OUT_DIR, a
# folder to carry to a GPU machine that has no LLVM:
#
#   OUT_DIR/bin/tilegym-runner   MLIR-free runner (libc, libstdc++, libdl)
#   OUT_DIR/bundles/*.tgb        one bundle per example and variant
#   OUT_DIR/checks/*/            inputs and float64 expected outputs of the
#                                user kernels (tilegym-run --dump)
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
# grep reads all of --help: with -q it would stop at the first match, and
# tilegym-cc, writing the rest, would die of SIGPIPE and fail the pipe.
if ! "$CC" --help | grep -- '=bundle' >/dev/null; then
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

# Kernels users write (examples/ beside examples/reference/): each case is
# checked on the GPU against a check folder that tilegym-run writes here,
# on the CPU, from the kernel's float64 .tile reference (same seed, same
# inputs): name | file | kernel | -D defines | sizes and inputs
USER_CASES=(
  "layernorm|layernorm.tile|layernorm||--size M=64,N=2048"
  "layernorm (ragged)|layernorm.tile|layernorm|-D T=bf16|--size M=37,N=777"
  "layernorm (1 element)|layernorm.tile|layernorm||--size M=1,N=1"
  "rmsnorm|rmsnorm.tile|rmsnorm||--size M=64,N=4096"
  "rmsnorm (ragged)|rmsnorm.tile|rmsnorm|-D T=bf16|--size M=37,N=777"
  "rmsnorm (1 element)|rmsnorm.tile|rmsnorm||--size M=1,N=1"
  "axpy|axpy.tile|axpy||--size N=100003 --arg alpha=-0.75"
  "axpy (bf16)|axpy.tile|axpy|-D T=bf16|--size N=3001"
  "axpy (1 element)|axpy.tile|axpy||--size N=1"
  "dropout|dropout.tile|dropout||--size N=20000"
  "dropout (bf16)|dropout.tile|dropout|-D T=bf16|--size N=3001 --arg p=0.9 --arg seed=-3"
  "transpose|transpose.tile|transpose||--size M=512,N=384"
  "transpose (ragged)|transpose.tile|transpose|-D T=bf16|--size M=130,N=65"
  "transpose (1 element)|transpose.tile|transpose||--size M=1,N=1"
  "colsum|colsum.tile|colsum||--size M=1000,N=777"
  "colsum (bf16)|colsum.tile|colsum|-D T=bf16|--size M=100,N=130"
  "colsum (1 element)|colsum.tile|colsum||--size M=1,N=1"
  "bmm (tf32)|bmm.tile|bmm||--size B=4,M=256,N=256,K=128"
  "bmm (ragged)|bmm.tile|bmm|-D T=bf16|--size B=3,M=37,N=50,K=100"
  "bmm (1 element)|bmm.tile|bmm|-D T=bf16|--size B=1,M=1,N=1,K=1"
  "matmul_nt|matmul_nt.tile|matmul_nt|-D T=bf16|--size M=256,N=256,K=256"
  "matmul_nt (ragged, tf32)|matmul_nt.tile|matmul_nt||--size M=129,N=77,K=65"
  "matmul_nt (1 element)|matmul_nt.tile|matmul_nt|-D T=bf16|--size M=1,N=1,K=1"
  "matmul_fp8 (e5m2, ragged, f32 C)|matmul_fp8.tile|matmul_fp8|-D T=f8e5m2 -D OUT=f32|--size M=129,N=77,K=65"
  "matmul_bias_relu|matmul_bias_relu.tile|matmul_bias_relu|-D T=bf16|--size M=256,N=256,K=256"
  "matmul_bias_relu (ragged)|matmul_bias_relu.tile|matmul_bias_relu||--size M=129,N=77,K=65"
  "matmul_bias_relu (1 element)|matmul_bias_relu.tile|matmul_bias_relu|-D T=bf16|--size M=1,N=1,K=1"
  "swiglu|swiglu.tile|swiglu||--size M=32,N=4096"
  "swiglu (ragged)|swiglu.tile|swiglu|-D T=bf16|--size M=37,N=777"
  "swiglu (1 element)|swiglu.tile|swiglu||--size M=1,N=1"
  "cross_entropy|cross_entropy.tile|cross_entropy||--size M=64,N=4096 --init t=randint(0,4095)"
  "cross_entropy (ragged)|cross_entropy.tile|cross_entropy|-D T=bf16|--size M=37,N=777 --init t=randint(0,776)"
  "cross_entropy (1 element)|cross_entropy.tile|cross_entropy||--size M=1,N=1 --init t=zeros"
  "cross_entropy (asserts compiled in)|cross_entropy.tile|cross_entropy|--debug|--size M=37,N=777 --init t=randint(0,776)"
  "topk (BLOCK=256)|topk.tile|topk_rows|-D BLOCK=256|--size M=3,V=16000"
  "topk (bf16 ties, K=64)|topk.tile|topk_rows|-D T=bf16 -D K=64 -D BLOCK=256|--size M=7,V=3001 --init x=randint(-3,3)"
  "topk (one chunk, K=1)|topk.tile|topk_rows|-D K=1 -D BLOCK=256|--size M=3,V=5"
  "cumsum|cumsum.tile|cumsum_rows||--size M=37,N=1000"
  "cumsum (bf16, long rows)|cumsum.tile|cumsum_rows|-D T=bf16|--size M=5,N=5000"
  "cumsum (1 element)|cumsum.tile|cumsum_rows||--size M=1,N=1"
  "rope|rope.tile|rope||--size S=256"
  "rope (ragged)|rope.tile|rope|-D T=bf16 -D D=64|--size S=100"
  "rope (1 element)|rope.tile|rope|-D D=2|--size S=1"
  "fullsum: partial_sums|fullsum.tile|partial_sums||--size N=1000003,P=977"
  "fullsum: partial_sums (bf16)|fullsum.tile|partial_sums|-D T=bf16|--size N=3001,P=3"
  "fullsum: total|fullsum.tile|total||--size P=977"
  "fullsum: total (1 element)|fullsum.tile|total||--size P=1"
  "fullsum: both, in sequence|fullsum.tile|partial_sums,total||--size N=1000003,P=977"
  "fullsum: both (bf16, ragged)|fullsum.tile|partial_sums,total|-D T=bf16|--size N=3001,P=3"
  "fullsum: program fullsum|fullsum.tile|fullsum||--size N=100003,P=98"
  "norms: layernorm (ragged)|norms.tile|layernorm|-D T=bf16|--size M=37,N=777"
  "norms: layernorm|norms.tile|layernorm||--size M=64,N=4096"
  "norms: rmsnorm (ragged)|norms.tile|rmsnorm||--size M=37,N=777"
  "norms: rmsnorm (1 element)|norms.tile|rmsnorm|-D T=bf16|--size M=1,N=1"
  "matmul_splitk|matmul_splitk.tile|matmul_splitk||--size M=128,N=64,K=1024"
  "matmul_splitk (ragged, f16)|matmul_splitk.tile|matmul_splitk|-D T=f16|--size M=130,N=70,K=1000"
  "matmul_splitk (ragged, tf32)|matmul_splitk.tile|matmul_splitk|-D T=f32|--size M=77,N=129,K=333"
  "matmul_splitk (1 element)|matmul_splitk.tile|matmul_splitk||--size M=1,N=1,K=1"
  "fullsum: sum_atomic|fullsum.tile|sum_atomic||--size N=100003"
  "fullsum: sum_atomic (bf16, 1 element)|fullsum.tile|sum_atomic|-D T=bf16|--size N=1"
)
RUN_TOOL="$BUILD/bin/tilegym-run"
[ -n "${NO_BUILD:-}" ] || ninja -C "$BUILD" -j"${JOBS:-2}" tilegym-run || exit 1

rm -rf "$OUT"
mkdir -p "$OUT/bin" "$OUT/bundles" "$OUT/checks" || exit 1
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
n=0
for c in "${USER_CASES[@]}"; do
  IFS='|' read -r name file kernel defines args <<<"$c"
  n=$((n + 1))
  bundle=$(basename "$file" .tile)-${kernel//,/+}-$n
  # shellcheck disable=SC2086
  if "$CC" "examples/$file" $defines --target="$TARGET" --emit=bundle \
      -o "$OUT/bundles/$bundle.tgb" &&
    "$RUN_TOOL" "examples/$file" --kernel "$kernel" $defines $args \
      --backend=cpu --seed "$n" --ref "examples/reference/$file" \
      --dump "$OUT/checks/$bundle" >"$OUT/checks/$bundle.cpu.log" 2>&1; then
    # The CPU's own outputs stay here: the GPU is checked against the
    # reference's.
    rm -f "$OUT/checks/$bundle"/*.out.npy
    table+="$name|$bundle|$defines $args|--kernel $kernel --check checks/$bundle"$'\n'
  else
    echo "error: $file ($kernel) $defines $args did not compile or failed" \
         "its CPU check; left out of the kit" >&2
    cat "$OUT/checks/$bundle.cpu.log" >&2 2>/dev/null
    rm -rf "$OUT/bundles/$bundle.tgb" "$OUT/checks/$bundle"
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
printf '\n%-34s %-60s %-10s %s\n' program arguments verdict rel_err
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
  printf '%-34s %-60s %-10s %s\n' "$name" "$shown" "$verdict" "${rel:--}"
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
