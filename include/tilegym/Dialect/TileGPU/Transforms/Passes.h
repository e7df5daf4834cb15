//===- Passes.h - tilegpu transforms ----------------------------*- C++ -*-===//
#ifndef TILEGYM_DIALECT_TILEGPU_TRANSFORMS_PASSES_H
#define TILEGYM_DIALECT_TILEGPU_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"
#include "tilegym/Dialect/TileGPU/Transforms/SharedMemory.h"

namespace tilegym::tilegpu {
#define GEN_PASS_DECL
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tilegym/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegym::tilegpu

#endif
