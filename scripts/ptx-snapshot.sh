#!/usr/bin/env bash
# ptx-snapshot.sh OUT_DIR: the PTX of every bench configuration
# (bench/make-kit.sh's table) and of every example at its defaults, for
# sm_80, sm_90 and sm_90a, one file each, so that a change to the GPU backend
# can be checked against the previous commit's output:
#
#   git stash && ninja -C build tilegym-cc && scripts/ptx-snapshot.sh /tmp/before
#   git stash pop && ninja -C build tilegym-cc && scripts/ptx-snapshot.sh /tmp/after
#   diff -r /tmp/before /tmp/after
#
# Identical PTX keeps every bench row's ratio without a GPU run. Exit code 1
# when something fails to compile (its .err file says why).
set -uo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 OUT_DIR" >&2
  exit 1
fi
OUT=$1
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/.."
. scripts/configure.sh
CC="$BUILD/bin/tilegym-cc"
mkdir -p "$OUT" || exit 1
# KEY|file|options|space, read from the bench kit's table so that the two
# agree; every point of a key's tuning space (NAME=v1,v2 ..., the variants
# of its bundle) is a configuration of its own, KEY.NAME=v.
mapfile -t TABLE < <(sed -n '/^CONFIGS=(/,/^)/p' bench/make-kit.sh |
  sed -n 's/^  "\(.*\)"$/\1/p')
CONFIGS=()
for c in "${TABLE[@]}"; do
  IFS='|' read -r key file opts space <<<"$c"
  points=("$key|$file|$opts")
  for axis in $space; do
    name=${axis%%=*}
    next=()
    for p in "${points[@]}"; do
      vals=${axis#*=}
      for v in ${vals//,/ }; do
        IFS='|' read -r k f o <<<"$p"
        next+=("$k.$name=$v|$f|$o -D $name=$v")
      done
    done
    points=("${next[@]}")
  done
  CONFIGS+=("${points[@]}")
done
for f in examples/*.tile; do
  CONFIGS+=("example.$(basename "$f" .tile)|$(basename "$f")|")
done
failed=0
for c in "${CONFIGS[@]}"; do
  IFS='|' read -r key file opts <<<"$c"
  for chip in sm_80 sm_90 sm_90a; do
    # shellcheck disable=SC2086
    if ! "$CC" "examples/$file" $opts --target="$chip" --emit=ptx \
        -o "$OUT/$key.$chip.ptx" 2>"$OUT/$key.$chip.err"; then
      echo "error: examples/$file $opts --target=$chip did not compile" >&2
      failed=$((failed + 1))
    fi
    # Warnings (no CUDA toolkit here) are not part of the comparison.
    [ -s "$OUT/$key.$chip.err" ] || rm -f "$OUT/$key.$chip.err"
  done
done
echo "$(ls "$OUT"/*.ptx | wc -l) PTX files in $OUT, $failed failed"
[ "$failed" -eq 0 ]
