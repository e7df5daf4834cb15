//===- CompileCache.h - tilegym-cc's cache of compiled outputs --*- C++ -*-===//
//
// A repeated compile costs nothing: the output of each compile is kept in a
// folder the user names (--cache-dir, $TILEGYM_CACHE_DIR), under a key that
// covers everything the output depends on: the compiler itself, the CUDA
// toolkit's ptxas (bundles hold its cubin), the input's path and bytes, and
// every option but -o and the cache's own.
//
//===----------------------------------------------------------------------===//
#ifndef TILEGYM_TOOLS_TILEGYM_CC_COMPILECACHE_H
#define TILEGYM_TOOLS_TILEGYM_CC_COMPILECACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace tilegym {

/// One entry of the cache: DIR/KEY holds `out`, a copy of a compile's
/// output file or bundle folder.
class CompileCache {
public:
  /// The entry of a compile with `arguments` (argv without the program
  /// name) of input `inputPath`, whose text is `input`.
  CompileCache(llvm::StringRef dir, llvm::ArrayRef<std::string> arguments,
               llvm::StringRef inputPath, llvm::StringRef input);

  /// Copies a cached output to `out` (a file, or a folder when `folder`);
  /// false when there is none (or it cannot be copied).
  bool restore(llvm::StringRef out, bool folder) const;
  /// Keeps a copy of `out`; a failure only loses the entry.
  void store(llvm::StringRef out, bool folder) const;

  const std::string &key() const { return entryKey; }

private:
  std::string dir, entryKey;
};

/// argv without the program name, -o and its value, and --cache-dir: what
/// the cache keys on besides the input.
std::vector<std::string> cacheArguments(int argc, char **argv);

} // namespace tilegym

#endif // TILEGYM_TOOLS_TILEGYM_CC_COMPILECACHE_H
