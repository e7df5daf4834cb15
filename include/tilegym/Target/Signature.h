//===- Signature.h - a tile kernel's signature for the runtime --*- C++ -*-===//
//
// What the runtime, bundles and verifiers need to know about a kernel's
// parameters, read off the tile dialect once: names, kinds, element types,
// static sizes, dimension names, whether each view is read or written, and
// scalar defaults.
//
//===----------------------------------------------------------------------===//
#ifndef TILEGYM_TARGET_SIGNATURE_H
#define TILEGYM_TARGET_SIGNATURE_H

#include "tilegym/Runtime/Runtime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace tilegym {

/// The runtime dtype name of a tile element or scalar type ("f32", "i64"
/// for index); std::nullopt for a type the runtime has no dtype for.
std::optional<std::string> runtimeDTypeName(mlir::Type type);

/// The signature of `kernel` (a tile-dialect kernel function). Parameter
/// names come from kParamNamesAttr ("" when absent, as in hand-written IR).
/// Fails, at the parameter's location, on a type no launch can bind: views
/// of unsupported elements, scalars other than i32, index, f32 and f64.
llvm::Expected<std::vector<runtime::Param>>
kernelSignature(mlir::func::FuncOp kernel);

} // namespace tilegym

#endif // TILEGYM_TARGET_SIGNATURE_H
