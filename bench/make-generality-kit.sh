#!/usr/bin/env bash
# make-generality-kit.sh OUT_DIR: what bench/generality.py needs on a GPU
# machine: the script, run.py (its timer), the Python package, the bundle C
# API and the generality suite's matmul variants for sm_90a, bf16:
#   KEY            the kernel as the example writes it (its warps, the
#                  compiler's default stages: 3 for its one-dot loop)
#   KEY.s2         with 2 stages, for comparison
# and matmul.bf16, the plain matmul, at the bench's configuration.
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
rm -rf "$OUT"
mkdir -p "$OUT/bundles" || exit 1
cp bench/generality.py bench/run.py bench/triton_kernels.py \
  "$BUILD/lib/libtilegym_bundle.so" "$OUT/" || exit 1
cp -r python/tilegym "$OUT/tilegym" || exit 1
failed=0
build() { # KEY FILE OPTIONS...
  local key=$1 file=$2
  shift 2
  "$CC" "examples/$file" "$@" --target=sm_90a --emit=bundle \
    -o "$OUT/bundles/$key.tgb" || failed=$((failed + 1))
}
build matmul.bf16 matmul.tile -D T=bf16
for k in matmul_nt bmm matmul_bias_relu; do
  build "$k.bf16" "$k.tile" -D T=bf16
  build "$k.bf16.s2" "$k.tile" -D T=bf16 --pipeline-stages=2
done
echo "kit: $OUT ($(du -sm "$OUT" | cut -f1) MiB); on the GPU:" \
  "python3 $OUT/generality.py --kit $OUT"
[ "$failed" -eq 0 ]
