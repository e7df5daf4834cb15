# Sourced by the scripts here: configures the build folder $BUILD (default
# build/) once, against Debian's LLVM/MLIR 22. Expects the repository root
# as the working directory.
BUILD=${BUILD:-build}
if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -G Ninja -S . -B "$BUILD" \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit || exit 1
fi
