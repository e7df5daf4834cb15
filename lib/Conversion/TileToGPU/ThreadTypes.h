//===- ThreadTypes.h - what a kernel's values are to one thread -*- C++ -*-===//
//
// The types of convert-tile-to-gpu's result, as an MLIR TypeConverter: a
// tile (a ranked tensor whose encoding is a distributed layout) is the
// thread's registers of it, a tile in shared memory (tilegpu.memdesc) its
// address and its offset into the kernel's buffer, a view the fields of the
// memref descriptor the runtime passes, anything else itself. It is the
// type converter of the dialect conversion that lowers kernels; the kernels'
// signatures and what loops and branches carry come from it too.
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

  /// What scf.for and scf.if carry of a value of `type`: a tile's
  /// registers, 16-bit floats as pairs (packsPairs); anything else as the
  /// value is.
  llvm::SmallVector<mlir::Type> carriedTypes(mlir::Type type) const;

  /// The kernel's parameters as the runtime passes them: each view's
  /// descriptor fields (convertType), each index as i64, anything else
  /// itself.
  llvm::SmallVector<mlir::Type> kernelParameters(mlir::TypeRange types) const;
};

} // namespace tilegym::detail

#endif
