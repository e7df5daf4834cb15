#!/usr/bin/env bash
# Configure (once), build everything, run the whole lit suite through ctest.
# The last line is ctest's summary ("100% tests passed, 0 tests failed out of N").
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -G Ninja -S . -B "$BUILD" \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit
fi
ninja -C "$BUILD" -j"${JOBS:-2}"
cd "$BUILD" && ctest --output-on-failure --no-tests=error
