# Sourced by the scripts here: configures the build folder $BUILD (default
# build/) once, against Debian's LLVM/MLIR 22. Expects the repository root
# as the working directory.
BUILD=${BUILD:-build}
# The GPU the kit scripts compile for (TARGET=sm_80 for an A100).
TARGET=${TARGET:-sm_90a}
if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -G Ninja -S . -B "$BUILD" \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit || exit 1
fi
