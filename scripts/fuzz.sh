#!/usr/bin/env bash
# Builds and runs the libFuzzer targets of tools/fuzzers.
#   scripts/fuzz.sh TARGET SECONDS
# TARGET: frontend, mlir, compile, bundle, or all (each for SECONDS).
# Configures build-fuzz/ once with clang-22 and -DTILEGYM_BUILD_FUZZERS=ON,
# builds the fuzz targets there (ninja -j${JOBS:-2}), seeds the corpus
# build-fuzz/corpus/TARGET from the tree, runs the fuzzer, and prints one line
# per target: "fuzz TARGET: N runs in S s, K crashes". Exits 1 when a run
# wrote a crash, timeout, leak or oom artifact (under build-fuzz/crashes/TARGET/;
# their paths and the head of each report are printed) or the fuzzer failed.
# Environment: JOBS (ninja's -j, default 2), FUZZ_ARGS (more libFuzzer
# options, e.g. "-fork=1 -ignore_crashes=1 -ignore_timeouts=1" to go on
# after a finding), NO_BUILD=1 (use the fuzzers as built).
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  cat <<'EOF'
usage: scripts/fuzz.sh TARGET SECONDS
  TARGET   frontend | mlir | compile | bundle | all
  SECONDS  how long to fuzz each target (libFuzzer -max_total_time)

  frontend  .tile text -> parse, AST dump, MLIRGen, verify, print/parse back
  mlir      .mlir text -> parse with every dialect of tilegym-opt, verify
  compile   .tile text -> GPU compile to PTX (sm_80/sm_90/sm_90a from the
            first byte) and CPU compile to LLVM IR
  bundle    manifest.json text -> bundle reader, grid programs evaluated

Builds in build-fuzz/ (clang-22, -DTILEGYM_BUILD_FUZZERS=ON); corpus in
build-fuzz/corpus/TARGET, artifacts in build-fuzz/crashes/TARGET/, logs in
build-fuzz/logs/TARGET.log. Environment: JOBS (default 2), FUZZ_ARGS (extra
libFuzzer options), NO_BUILD=1. Exits 1 if any crash/timeout/oom was found.
EOF
}

if [ $# -ge 1 ] && { [ "$1" = --help ] || [ "$1" = -h ]; }; then
  usage
  exit 0
fi
if [ $# -ne 2 ]; then
  usage >&2
  exit 2
fi
TARGET=$1
SECONDS_EACH=$2
case "$TARGET" in
  frontend|mlir|compile|bundle) TARGETS=$TARGET ;;
  all) TARGETS="frontend mlir compile bundle" ;;
  *) echo "fuzz: unknown target '$TARGET'" >&2; usage >&2; exit 2 ;;
esac
if ! [[ "$SECONDS_EACH" =~ ^[0-9]+$ ]] || [ "$SECONDS_EACH" -lt 1 ]; then
  echo "fuzz: SECONDS must be a positive integer, got '$SECONDS_EACH'" >&2
  exit 2
fi

B=build-fuzz
LLVM_BIN=/usr/lib/llvm-22/bin
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ] && [ -x $LLVM_BIN/llvm-symbolizer ]; then
  export ASAN_SYMBOLIZER_PATH=$LLVM_BIN/llvm-symbolizer
fi

# --- Configure once, build the fuzz targets ---------------------------------
if [ "${NO_BUILD:-0}" != 1 ]; then
  if [ ! -f $B/build.ninja ]; then
    cmake -G Ninja -S . -B $B \
      -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
      -DTILEGYM_BUILD_FUZZERS=ON \
      -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
      -DLLVM_EXTERNAL_LIT=$LLVM_BIN/lit
  fi
  ninja -C $B -j"${JOBS:-2}" $(for t in $TARGETS; do echo tilegym-fuzz-$t; done)
fi
for t in $TARGETS; do
  if [ ! -x $B/bin/tilegym-fuzz-$t ]; then
    echo "fuzz: $B/bin/tilegym-fuzz-$t is not built" >&2
    exit 1
  fi
done

# --- Seed corpora -------------------------------------------------------------
# Each seed is stored under its content hash, so seeding again adds nothing
# twice; what the fuzzer found in earlier runs stays.
add_seed() { # add_seed DIR FILE
  local h
  h=$(sha1sum "$2" | cut -c1-40)
  [ -s "$2" ] && cp "$2" "$1/seed-$h"
  return 0
}

# Writes the chunks of FILE, split at lines "// -----", as seeds into DIR;
# PREFIX (optional) is put in front of each chunk.
add_split_seeds() { # add_split_seeds DIR FILE [PREFIX]
  local dir=$1 file=$2 prefix=${3:-} tmp
  tmp=$(mktemp -d)
  PREFIX=$prefix awk -v out="$tmp/chunk" '
    BEGIN { prefix = ENVIRON["PREFIX"]; n = 0; f = out "." n; printf "%s", prefix > f }
    /^\/\/ -----/ { close(f); n++; f = out "." n; printf "%s", prefix > f; next }
    { print > f }' "$file"
  for c in "$tmp"/chunk.*; do add_seed "$dir" "$c"; done
  rm -rf "$tmp"
}

# The manifest.json sections ("#--- NAME.tgb/manifest.json") of lit tests.
add_split_file_manifests() { # add_split_file_manifests DIR FILE
  local dir=$1 file=$2 tmp
  tmp=$(mktemp -d)
  awk -v out="$tmp/m" '
    /^#--- / { if (f) close(f); f = ""; if ($2 ~ /manifest\.json$/) f = out "." ++n; next }
    f { print > f }' "$file"
  for m in "$tmp"/m.*; do [ -f "$m" ] && add_seed "$dir" "$m"; done
  rm -rf "$tmp"
}

seed_corpus() { # seed_corpus TARGET
  local t=$1 dir=$B/corpus/$1 f
  mkdir -p "$dir"
  case $t in
    frontend|compile)
      for f in examples/*.tile $(find test -name '*.tile' | sort); do
        add_split_seeds "$dir" "$f"
      done
      if [ $t = compile ]; then
        # The first byte picks the chip: '\t' sm_80, '\n' sm_90, ' ' sm_90a.
        for f in examples/*.tile; do
          add_split_seeds "$dir" "$f" $'\t'
          add_split_seeds "$dir" "$f" $'\n'
          add_split_seeds "$dir" "$f" ' '
        done
      fi
      ;;
    mlir)
      for f in $(find test -name '*.mlir' | sort); do
        add_split_seeds "$dir" "$f"
      done
      ;;
    bundle)
      for f in $(find test/Bundle/Inputs -name manifest.json | sort) \
               tools/fuzzers/corpus/bundle/*.json; do
        [ -f "$f" ] && add_seed "$dir" "$f"
      done
      for f in test/Bundle/*.test; do
        add_split_file_manifests "$dir" "$f"
      done
      ;;
  esac
}

# --- Run ----------------------------------------------------------------------
failed=0
summary=()
mkdir -p $B/logs
for t in $TARGETS; do
  seed_corpus $t
  crashes=$B/crashes/$t
  mkdir -p "$crashes"
  log=$B/logs/$t.log
  marker=$(mktemp)
  args=(-max_total_time="$SECONDS_EACH" -timeout=20 -rss_limit_mb=4096
        -artifact_prefix="$crashes/" -print_final_stats=1)
  case $t in
    frontend) args+=(-dict=tools/fuzzers/tile.dict) ;;
    compile) args+=(-dict=tools/fuzzers/tile.dict -max_len=4096) ;;
    bundle) args+=(-dict=tools/fuzzers/bundle.dict) ;;
  esac
  # shellcheck disable=SC2206
  extra=(${FUZZ_ARGS:-})
  echo "fuzz: $B/bin/tilegym-fuzz-$t $B/corpus/$t ${args[*]} ${extra[*]}"
  start=$(date +%s)
  rc=0
  $B/bin/tilegym-fuzz-$t $B/corpus/$t "${args[@]}" "${extra[@]}" \
    > "$log" 2>&1 || rc=$?
  elapsed=$(( $(date +%s) - start ))
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" |
         tail -1 | grep -o '[0-9]*$' || true)
  if [ -z "$runs" ]; then # -fork prints no final stats: the last status line.
    runs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#' || true)
  fi
  mapfile -t found < <(find "$crashes" -type f -newer "$marker" \
    \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | sort)
  rm -f "$marker"
  line="fuzz $t: ${runs:-0} runs in $elapsed s, ${#found[@]} crashes"
  summary+=("$line")
  echo "$line"
  if [ ${#found[@]} -gt 0 ]; then
    failed=1
    for a in "${found[@]}"; do echo "fuzz $t: artifact $a"; done
    echo "fuzz $t: report ($log):"
    grep -n -m1 -E '^==[0-9]+==|ERROR: libFuzzer|^ALARM|deadly signal|^tilegym-fuzz' "$log" |
      cut -d: -f1 | while read -r n; do sed -n "${n},$((n + 30))p" "$log"; done
  elif [ $rc -ne 0 ]; then
    failed=1
    echo "fuzz $t: the fuzzer exited with status $rc and wrote no artifact; tail of $log:"
    tail -20 "$log"
  fi
done
if [ "$TARGET" = all ]; then
  printf '%s\n' "${summary[@]}"
fi
exit $failed
