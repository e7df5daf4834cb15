//===- Passes.h - TileGym conversion passes ---------------------*- C++ -*-===//
#ifndef TILEGYM_CONVERSION_PASSES_H
#define TILEGYM_CONVERSION_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tilegym {
#define GEN_PASS_DECL
#include "tilegym/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tilegym/Conversion/Passes.h.inc"
} // namespace tilegym

#endif
