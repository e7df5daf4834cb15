//===- Passes.h - tile dialect transforms -----------------------*- C++ -*-===//
#ifndef TILEGYM_DIALECT_TILE_TRANSFORMS_PASSES_H
#define TILEGYM_DIALECT_TILE_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace tilegym::tile {
#define GEN_PASS_DECL
#include "tilegym/Dialect/Tile/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tilegym/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilegym::tile

#endif
