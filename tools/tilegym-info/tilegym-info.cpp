//===- tilegym-info.cpp - What this machine offers TileGym ----------------===//
//
// Prints the CUDA driver (or why there is none), each GPU, ptxas, and the
// backend `--target=auto` picks. Links only the runtime, so it runs where
// LLVM and MLIR are not installed. Exits 0 with or without a GPU: having
// none is a fact to report, not an error.
//
//===----------------------------------------------------------------------===//

#include "tilegym/Runtime/Runtime.h"

#include <cstdio>
#include <cstring>

using namespace tilegym::runtime;

int main(int argc, char **argv) {
  if (argc > 1) {
    bool help = !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h");
    std::fprintf(help ? stdout : stderr,
                 "usage: %s\n"
                 "Reports the CUDA driver, GPUs, ptxas and the backend "
                 "--target=auto picks.\nTILEGYM_LIBCUDA overrides the driver "
                 "library (libcuda.so.1).\n",
                 argv[0]);
    return help ? 0 : 2;
  }

  printEnvironment(queryEnvironment(), stdout);
  return 0;
}
