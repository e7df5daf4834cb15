#!/usr/bin/env bash
# make-tools-kit.sh OUT_DIR: a tilegym-run for a GPU machine without LLVM, so
# that a user's kernel is verified there with the same one command as here
# (tilegym-run K.tile --backend=gpu --ref R.tile, --compare=cpu):
#
#   OUT_DIR/bin/tilegym-run.xz   tilegym-run linked against LLVM's and MLIR's
#                                static archives (only what it uses), xz'd
#   OUT_DIR/lib/libzstd.so.1     the one library it needs beyond libc
#   OUT_DIR/run.sh               unpacks it (python3's lzma) and runs every
#                                user kernel of examples/ on the GPU against
#                                its .tile reference and against the CPU JIT,
#                                and the wrong kernels of test/Examples, which
#                                must FAIL; the language's constructs
#                                (test/Examples/language.test's kernels) on
#                                the GPU against the CPU JIT and numpy; then
#                                random kernels on the GPU
#                                against the CPU JIT (scripts/differential.sh);
#                                ends "N passed, N failed"
#   OUT_DIR/sanitize.sh          compute-sanitizer over the same user kernels
#                                and the flagship examples at ragged sizes
#                                (scripts/sanitize-kernels.sh)
#   OUT_DIR/random/              those kernels (scripts/random-kernels.py,
#                                RANDOM_COUNT of them from RANDOM_SEED)
#
# The build's own binaries keep linking libMLIR.so and libLLVM.so; this links
# the same objects a second way. The kit goes to the GPU machine beside the
# working tree (examples/ and test/ travel with it).
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 OUT_DIR" >&2
  exit 1
fi
OUT=$1
cd "$(dirname "$0")/.."
. scripts/configure.sh
[ -n "${NO_BUILD:-}" ] || ninja -C "$BUILD" -j"${JOBS:-2}" tilegym-run
LLVM_LIB=/usr/lib/llvm-22/lib
ARCH_LIB=/usr/lib/x86_64-linux-gnu
for f in "$LLVM_LIB/libMLIRIR.a" "$LLVM_LIB/libLLVMCore.a" "$ARCH_LIB/libz.a" \
    "$ARCH_LIB/libffi_pic.a" "$ARCH_LIB/libtinfo.a" "$ARCH_LIB/libzstd.so.1"; do
  [ -e "$f" ] || { echo "error: $f is missing (llvm-22-dev, libmlir-22-dev," \
    "zlib1g-dev, libffi-dev, libncurses-dev)" >&2; exit 1; }
done

# Ninja's own link line, with the two shared libraries swapped for every
# static archive (the linker keeps only the objects tilegym-run reaches).
link=$(ninja -C "$BUILD" -t commands bin/tilegym-run | tail -1)
static="-Wl,--start-group $LLVM_LIB/libMLIR*.a $LLVM_LIB/libLLVM*.a -Wl,--end-group"
static+=" $ARCH_LIB/libz.a $ARCH_LIB/libzstd.so.1 $ARCH_LIB/libffi_pic.a"
static+=" $ARCH_LIB/libtinfo.a -lpthread -static-libstdc++ -static-libgcc"
static+=" -Wl,--gc-sections -s"
link=${link//"$LLVM_LIB/libMLIR.so.22.1"/}
link=${link//"$LLVM_LIB/libLLVM.so.1"/$static}
rm -rf "$OUT"
mkdir -p "$OUT/bin" "$OUT/lib"
link=${link//"-o bin/tilegym-run"/-o $(realpath "$OUT")/bin/tilegym-run}
(cd "$BUILD" && eval "$link")
if ldd "$OUT/bin/tilegym-run" | grep -Eq 'libMLIR|libLLVM'; then
  echo "error: the static tilegym-run still links LLVM or MLIR" >&2
  exit 1
fi
cp -L "$ARCH_LIB/libzstd.so.1" "$OUT/lib/"
xz -T"${JOBS:-2}" -6 "$OUT/bin/tilegym-run"

# name | file | kernel | -D defines | sizes and inputs: the user kernels of
# the GPU kit (scripts/make-gpu-kit.sh), checked here by tilegym-run itself.
# More cases here than the GPU kit has room for (its 64 MiB).
{
  sed -n '/^USER_CASES=(/,/^)/p' scripts/make-gpu-kit.sh | sed '1d;$d' |
    sed 's/^ *"//; s/"$//'
  echo "matmul_fp8|matmul_fp8.tile|matmul_fp8||--size M=256,N=256,K=256 --arg scale_a=0.5 --arg scale_b=3"
  echo "matmul_fp8 (1 element)|matmul_fp8.tile|matmul_fp8|-D OUT=f32|--size M=1,N=1,K=1"
  echo "matmul_fp8 (wgmma, ragged K)|matmul_fp8.tile|matmul_fp8||--size M=300,N=260,K=1000 --arg scale_a=0.25 --arg scale_b=2"
  echo "matmul_fp8 (e5m2 wgmma)|matmul_fp8.tile|matmul_fp8|-D T=f8e5m2|--size M=512,N=384,K=512"
  echo "matmul_fp8 (mma.sync, BK 64)|matmul_fp8.tile|matmul_fp8|-D BK=64|--size M=256,N=200,K=320"
  # tf32 with B [K][N]: wgmma on the transposed product (ragged), and at BN
  # 64, too narrow for it on two warpgroups, B copied transposed.
  echo "bmm (tf32 transposed product, ragged)|bmm.tile|bmm||--size B=3,M=200,N=300,K=100"
  echo "bmm (tf32 B copied transposed)|bmm.tile|bmm|-D BN=64|--size B=2,M=130,N=100,K=70"
  echo "matmul_bias_relu (tf32 transposed product)|matmul_bias_relu.tile|matmul_bias_relu||--size M=300,N=260,K=200"
} >"$OUT/cases.txt"

python3 scripts/random-kernels.py "$OUT/random" --count "${RANDOM_COUNT:-100}" \
  --seed "${RANDOM_SEED:-1}"

cat >"$OUT/run.sh" <<'RUN'
#!/usr/bin/env bash
# Run from the working tree's root: KIT/run.sh. Every user kernel on the GPU
# against its .tile reference (--ref) and against the CPU JIT
# (--compare=cpu), then the wrong kernels, which must FAIL against their
# references.
set -uo pipefail
kit=$(cd "$(dirname "$0")" && pwd)
if [ ! -x "$kit/bin/tilegym-run" ]; then
  python3 -c 'import lzma, sys; open(sys.argv[2], "wb").write(lzma.open(sys.argv[1]).read())' \
    "$kit/bin/tilegym-run.xz" "$kit/bin/tilegym-run" && chmod +x "$kit/bin/tilegym-run"
fi
export LD_LIBRARY_PATH="$kit/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
run="$kit/bin/tilegym-run"
mkdir -p "$kit/logs"
n=0
# Each check appends its verdict here (one short line: atomic), so that
# checks may run in the background; the counts are taken at the end.
verdicts="$kit/logs/verdicts"
: >"$verdicts"
printf '%-34s %-8s %-10s %s\n' kernel check verdict rel_err
check() { # label how want(PASS|FAIL) log command...
  local label=$1 how=$2 want=$3 log=$4; shift 4
  "$@" >"$log" 2>&1 </dev/null
  local rc=$? got
  case $rc in 0) got=PASS ;; 1) got=FAIL ;; *) got="rc=$rc" ;; esac
  rel=$(grep -o ' rel_err=[^ ]*' "$log" | cut -d= -f2 | sort -g | tail -1)
  if [ "$got" = "$want" ]; then echo ok >>"$verdicts"; else echo bad >>"$verdicts"; fi
  {
    printf '%-34s %-8s %-10s %s\n' "$label" "$how" "$got$([ "$got" = "$want" ] || echo ' (!)')" "${rel:--}"
    [ "$got" = "$want" ] || tail -6 "$log" | sed 's/^/    | /'
  } | cat
}
# The user kernels' checks are independent: JOBS of them at once (each
# compiles its kernel on the CPU, then runs it on the one GPU).
JOBS=${JOBS:-$(nproc)}
while IFS='|' read -r name file kernel defines args; do
  n=$((n + 1))
  # shellcheck disable=SC2086
  for how in ref cpu; do
    if [ $how = ref ]; then opt=(--ref "examples/reference/$file"); else opt=(--compare=cpu); fi
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
    check "$name" "$how" PASS "$kit/logs/$n.$how.log" "$run" "examples/$file" "${opt[@]}" \
      --kernel "$kernel" $defines $args --backend=gpu --seed "$n" &
  done
done <"$kit/cases.txt"
wait
for wrong in "layernorm|--size M=37,N=777" "colsum|--size M=300,N=130" \
    "matmul_nt|--size M=129,N=77,K=65"; do
  IFS='|' read -r k args <<<"$wrong"
  # shellcheck disable=SC2086
  check "wrong_$k" ref FAIL "$kit/logs/wrong_$k.ref.log" "$run" \
    "test/Examples/Inputs/wrong_$k.tile" --ref "examples/reference/$k.tile" \
    --backend=gpu $args
  # Both checks in one run: the GPU agrees with the CPU JIT of the same
  # wrong source, and both disagree with the reference: FAIL.
  # shellcheck disable=SC2086
  check "wrong_$k" ref+cpu FAIL "$kit/logs/wrong_$k.both.log" "$run" \
    "test/Examples/Inputs/wrong_$k.tile" --ref "examples/reference/$k.tile" \
    --compare=cpu --backend=gpu $args
done
# The language's constructs: the GPU against the CPU JIT of the same kernel,
# and the GPU's own outputs against numpy (float64).
L=test/Examples/Inputs/language
lang() { # label T numpy-check tilegym-run-args...
  local label=$1 t=$2 np=$3; shift 3
  check "$label" cpu PASS "$kit/logs/$label.log" "$run" "$@" --backend=gpu \
    --compare=cpu --dump "$kit/logs/$label"
  [ -z "$np" ] || check "$label" numpy PASS "$kit/logs/$label.numpy.log" \
    python3 "$L/$np" "$kit/logs/$label" $t
}
for t in f64 f32 f16 bf16; do
  lang "math.$t" $t check_math.py "$L/math.tile" -D T=$t --size N=5000 \
    --init 'x=uniform(-2,2)' --init 'y=uniform(-2,2)'
done
lang "math.f32.precise" f32 check_math.py "$L/math.tile" --precise-math \
  --size N=5000 --init 'x=uniform(-2,2)' --init 'y=uniform(-2,2)'
lang bits "" check_bits.py "$L/bits.tile" --size N=5000 \
  --init 'x=randint(-100000,100000)' --init 'y=randint(-100000,100000)' \
  --init 'n=randint(-3,40)'
lang reductions "" check_reductions.py "$L/reductions.tile" --size M=77,C=5 \
  --init 'x=uniform(-2,2)' --init 'y=randint(-3,4)'
lang stdlib "" check_stdlib.py "$L/stdlib.tile" --size M=33 --init 'x=uniform(-6,6)'
lang loops 12 check_loops.py "$L/loops.tile" --size M=37
lang loops.limit3 3 check_loops.py "$L/loops.tile" --size M=11 --arg limit=3
lang addressing "" check_addressing.py "$L/addressing.tile" --size M=300,B=5 \
  --init 'k=randint(0,63)' --init 'off=randint(-8,71)'
# fp8 conversions and arithmetic (every code, ties, saturation, NaN), bit
# for bit against numpy; NaN outputs rule out --compare=cpu. i8 and i64
# against the CPU JIT and numpy.
mkdir -p "$kit/logs/fp8.in"
check fp8 inputs PASS "$kit/logs/fp8.gen.log" python3 "$L/check_fp8.py" gen \
  "$kit/logs/fp8.in" 8192
check fp8 gpu PASS "$kit/logs/fp8.log" "$run" "$L/fp8.tile" --size N=8192 \
  --input "x=$kit/logs/fp8.in/x.npy,xd=$kit/logs/fp8.in/xd.npy,a=$kit/logs/fp8.in/a.npy,b=$kit/logs/fp8.in/b.npy" \
  --backend=gpu --dump "$kit/logs/fp8"
check fp8 numpy PASS "$kit/logs/fp8.numpy.log" python3 "$L/check_fp8.py" \
  check "$kit/logs/fp8"
check fp8_constants gpu PASS "$kit/logs/fp8c.log" "$run" "$L/fp8_constants.tile" \
  --backend=gpu --dump "$kit/logs/fp8c"
check fp8_constants numpy PASS "$kit/logs/fp8c.numpy.log" python3 \
  "$L/check_fp8_constants.py" "$kit/logs/fp8c"
lang ints "" check_ints.py "$L/ints.tile" --size N=5000,B=40 \
  --init 's=randint(-128,127)' --init 't=randint(-128,127)' \
  --init 'w=randint(-1099511627776,1099511627776)'
for cfg in "f32 16 256 77" "bf16 1 4096 3" "f16 128 2 300" "f64 16 256 37"; do
  read -r t r w m <<<"$cfg"
  # Float sums are checked against numpy, not the CPU JIT's bits: the GPU
  # adds a segment's elements, then the segments' totals.
  check "scans.$t.R$r" gpu PASS "$kit/logs/scans.$t.$r.log" "$run" \
    "$L/scans.tile" -D T=$t -D R=$r -D W=$w --size M=$m \
    --init 'y=randint(-1000000,1000000)' --backend=gpu --dump "$kit/logs/scans.$t.$r"
  check "scans.$t.R$r" numpy PASS "$kit/logs/scans.$t.$r.numpy.log" \
    python3 "$L/check_scans.py" "$kit/logs/scans.$t.$r" $t $r
done
# Random numbers: the GPU's draws against the CPU JIT's (the same stream)
# and against Philox4x32 in numpy.
check random cpu PASS "$kit/logs/random.log" "$run" "$L/random.tile" \
  --size N=100000 --init 'seeds=randint(-2000000000,2000000000)' \
  --backend=gpu --compare=cpu --dump "$kit/logs/random"
check random numpy PASS "$kit/logs/random.numpy.log" \
  python3 "$L/check_random.py" "$kit/logs/random" 1234
for cfg in "f32 4 256 8 77" "bf16 1 4096 32 3" "f16 16 2 1 300"; do
  read -r t r w k m <<<"$cfg"
  # Sorted rows hold NaNs, which --compare=cpu counts as mismatches: the
  # GPU's outputs against numpy only.
  check "sorting.$t.W$w" gpu PASS "$kit/logs/sorting.$t.$w.log" "$run" \
    "$L/sorting.tile" -D T=$t -D R=$r -D W=$w -D K=$k --size M=$m \
    --init 'y=randint(-1000000,1000000)' --backend=gpu \
    --dump "$kit/logs/sorting.$t.$w"
  check "sorting.$t.W$w" numpy PASS "$kit/logs/sorting.$t.$w.numpy.log" \
    python3 "$L/check_sorting.py" "$kit/logs/sorting.$t.$w"
done
# Atomics race by design (float sums in any order, tickets in any order):
# the GPU's outputs against numpy only.
for ti in "f32 i32 5000" "f16 i32 5000" "bf16 i32 5000" "f64 i64 5000000000"; do
  read -r t i r <<<"$ti"
  check "atomics.$t" gpu PASS "$kit/logs/atomics.$t.log" "$run" \
    "$L/atomics.tile" -D T=$t -D I=$i --size N=20000 --init 'x=uniform(-2,2)' \
    --init 'k=randint(-2,18)' --init "w=randint(-$r,$r)" \
    --backend=gpu --dump "$kit/logs/atomics.$t"
  check "atomics.$t" numpy PASS "$kit/logs/atomics.$t.numpy.log" \
    python3 "$L/check_atomics.py" "$kit/logs/atomics.$t" $t $i
done
for shape in M=5,N=3000 M=64,N=1 M=3,N=20000; do
  lang "while_rowsum.$shape" "" "" "$L/while_rowsum.tile" --size "$shape"
  check "while_rowsum.$shape" ref PASS "$kit/logs/while_rowsum.$shape.ref.log" \
    "$run" "$L/while_rowsum.tile" --size "$shape" --backend=gpu \
    --ref "$L/while_rowsum_ref.tile"
done
for shape in M=130,N=70,K=200 M=512,N=384,K=1000 M=1,N=1,K=1; do
  lang "while_matmul.$shape" "" "" "$L/while_matmul.tile" --size "$shape"
  check "while_matmul.$shape" ref PASS "$kit/logs/while_matmul.$shape.ref.log" \
    "$run" "$L/while_matmul.tile" --size "$shape" --backend=gpu \
    --ref "$L/while_matmul_ref.tile"
done
# print and assert (--debug): the GPU prints the CPU's lines, in its own
# order; an assert that fails stops the kernel, CUDA naming the location,
# the block and the thread, and the run fails; in range it passes.
for b in cpu gpu; do
  "$run" "$L/debug.tile" --size M=6,N=10 --init 'x=randint(-20,20)' \
    --arg limit=100 --seed 5 --debug --backend=$b >"$kit/logs/debug.$b.log" 2>&1
done
check debug.print lines PASS "$kit/logs/debug.diff" bash -c \
  'diff <(grep " block (" "$1" | sort) <(grep " block (" "$2" | sort) &&
   [ "$(grep -c "] x " "$2")" = 128 ]' _ "$kit/logs/debug.cpu.log" \
  "$kit/logs/debug.gpu.log"
check debug.assert fires PASS "$kit/logs/debug.assert.log" bash -c \
  '! "$1" "$2" --size M=6,N=10 --init "x=full(3)" --arg limit=2.5 --debug \
     --backend=gpu >"$3" 2>&1 && grep -q "debug.tile:10:3: x above the limit" "$3" &&
   grep -q CUDA_ERROR_ASSERT "$3"' _ "$run" "$L/debug.tile" "$kit/logs/debug.fired.log"
check xent.debug ref PASS "$kit/logs/xent.debug.log" "$run" \
  examples/cross_entropy.tile --ref examples/reference/cross_entropy.tile \
  --size M=37,N=777 --init 't=randint(0,776)' --debug --backend=gpu
check xent.debug fires PASS "$kit/logs/xent.bad.log" bash -c \
  '! "$1" examples/cross_entropy.tile --size M=37,N=777 --init "t=full(777)" \
     --debug --backend=gpu >"$2" 2>&1 && grep -q "label outside" "$2"' _ "$run" \
  "$kit/logs/xent.fired.log"
pass=$(grep -c '^ok' "$verdicts"); fail=$(grep -c '^bad' "$verdicts")
echo
echo "user kernels: $pass passed, $fail failed"
echo
echo "random kernels, GPU against the CPU JIT:"
TILEGYM_BIN="$kit/bin" bash scripts/differential.sh "$kit/random" gpu
diff_rc=$?
random=$(grep -c . "$kit/random/cases.txt")
echo
echo "$pass passed, $fail failed (user kernels); differential exit $diff_rc over $random random kernels"
[ "$fail" -eq 0 ] && [ "$diff_rc" -eq 0 ]
RUN
chmod +x "$OUT/run.sh"
cp scripts/sanitize-kernels.sh "$OUT/sanitize.sh" || exit 1
echo "kit: $OUT ($(du -sm "$OUT" | cut -f1) MiB); on the GPU machine, from the tree's root: $OUT/run.sh"
