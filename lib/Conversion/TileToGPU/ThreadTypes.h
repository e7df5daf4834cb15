//===- ThreadTypes.h - what a kernel's values are to one thread -*- C++ -*-===//
//
// The types of convert-tile-to-gpu's result, as an MLIR TypeConverter: a
// tile (a ranked tensor whose encoding is a distributed layout) is the
// thread's registers of it, a view the fields of the memref descriptor the
// runtime passes, anything else itself. The emitter builds its kernels'
// signatures and the values its loops and branches carry from it; it is
// the type converter of the dialect conversion that is to replace the
// emitter's walk (docs/gpu-backend.md, "Where the lowering goes next").
//
//===----------------------------------------------------------------------===//
#ifndef TILEGYM_LIB_CONVERSION_TILETOGPU_THREADTYPES_H
#define TILEGYM_LIB_CONVERSION_TILETOGPU_THREADTYPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tilegym::detail {

class ThreadTypeConverter : public mlir::TypeConverter {
public:
  explicit ThreadTypeConverter(mlir::MLIRContext *ctx);

  /// Whether a tile of `type` whose thread holds `registers` elements goes
  /// as pairs in 32-bit registers (`vector<2xT>`): 16-bit floats, an even
  /// count. Carried as scalars, each element would hold a register of its
  /// own (ptxas does not pack 16-bit phis), doubling what a loop that loads
  /// its operands ahead keeps live.
  static bool packsPairs(mlir::RankedTensorType type, int64_t registers);

  /// The kernel's parameters as the runtime passes them: each view's
  /// descriptor fields (convertType), each index as i64, anything else
  /// itself.
  llvm::SmallVector<mlir::Type> kernelParameters(mlir::TypeRange types) const;
};

} // namespace tilegym::detail

#endif
