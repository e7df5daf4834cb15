//===- PtxasInfo.h - what ptxas makes of a kernel ---------------*- C++ -*-===//
//
// Registers and spills per kernel, from `ptxas -v`: the cost the GPU
// backend's choices have once assembled, for tilegym-cc --remarks.
//
//===----------------------------------------------------------------------===//
#ifndef TILEGYM_TARGET_PTXASINFO_H
#define TILEGYM_TARGET_PTXASINFO_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>

namespace tilegym {

struct PtxasResources {
  int64_t registers = 0;
  int64_t spillStoreBytes = 0, spillLoadBytes = 0;
};

/// Parses `ptxas -v` output: per entry function, its registers and spills.
std::map<std::string, PtxasResources> parsePtxasInfo(llvm::StringRef text);

/// Assembles `ptx` for `chip` with `ptxas` (a path) and -v, the cubin
/// discarded, and parses what it reports.
llvm::Expected<std::map<std::string, PtxasResources>>
runPtxasInfo(llvm::StringRef ptxas, llvm::StringRef ptx, llvm::StringRef chip);

} // namespace tilegym

#endif
