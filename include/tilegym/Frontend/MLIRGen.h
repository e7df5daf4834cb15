//===- MLIRGen.h - .tile AST to the tile dialect ----------------*- C++ -*-===//
#ifndef TILEGYM_FRONTEND_MLIRGEN_H
#define TILEGYM_FRONTEND_MLIRGEN_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <map>
#include <string>
#include <vector>

namespace tilegym {
class ModuleAST;

/// Compile-time constant overrides, `-D NAME=VALUE`: VALUE is an integer, a
/// float, `true`/`false` or a scalar type name.
using Defines = std::map<std::string, std::string>;

/// Parses `-D NAME=VALUE` arguments (the last value for a name wins). On a
/// malformed one returns false and sets `error`.
bool parseDefines(const std::vector<std::string> &args, Defines &defines,
                  std::string &error);

/// Emits the tile dialect for `module`. Each kernel becomes a `func.func`
/// marked `tile.kernel` plus a grid function `@<kernel>__grid`. Errors are
/// reported through the context's diagnostic engine at source locations;
/// returns null if there were any, or if the module fails to verify.
/// How the source is compiled, beyond its text and defines.
struct FrontendOptions {
  /// Every floating type (f32, f16, bf16, in views, tiles, scalars and
  /// casts) becomes f64: a kernel compiled this way is a float64 reference
  /// of itself, for the CPU JIT (`tilegym-run --ref`).
  bool floatsAsF64 = false;
};

mlir::OwningOpRef<mlir::ModuleOp> mlirGen(mlir::MLIRContext &context,
                                          const ModuleAST &module,
                                          const Defines &defines,
                                          const FrontendOptions &options = {});

} // namespace tilegym

#endif // TILEGYM_FRONTEND_MLIRGEN_H
