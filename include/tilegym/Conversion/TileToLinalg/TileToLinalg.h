//===- TileToLinalg.h - tile dialect to linalg ------------------*- C++ -*-===//
#ifndef TILEGYM_CONVERSION_TILETOLINALG_TILETOLINALG_H
#define TILEGYM_CONVERSION_TILETOLINALG_TILETOLINALG_H

#include "mlir/Transforms/DialectConversion.h"

namespace tilegym {
/// Unit attribute put on a kernel once its grid arguments are appended.
constexpr llvm::StringLiteral kGridArgsAttr = "tile.grid_args";
/// A lowered kernel's trailing `index` arguments: block id x, y, z, then
/// grid size x, y, z.
constexpr unsigned kNumGridArgs = 6;

/// Converts `!tile.view` to a memref with static sizes where the view has
/// them and dynamic strides and offset; other types are kept.
class TileToLinalgTypeConverter : public mlir::TypeConverter {
public:
  TileToLinalgTypeConverter();
};

/// Patterns lowering every tile op, and the signatures of the functions that
/// hold them, to linalg/tensor/memref/bufferization/scf.
void populateTileToLinalgPatterns(mlir::TypeConverter &typeConverter,
                                  mlir::RewritePatternSet &patterns);

/// The part of them that addresses elements at coordinates held in tiles:
/// gather, scatter and the atomics (ElementAccess.cpp).
void populateElementAccessPatterns(mlir::TypeConverter &typeConverter,
                                   mlir::RewritePatternSet &patterns);

/// tile.print and tile.assert: printf calls, and calls of the JIT's
/// kCpuAssertFailName (Debug.cpp).
void populateDebugPatterns(mlir::TypeConverter &typeConverter,
                           mlir::RewritePatternSet &patterns);

/// The function a CPU kernel calls when an assert fails: (message, block x,
/// y, z), the message NUL-terminated, the coordinates i32. The JIT defines
/// it (CpuKernel.cpp).
constexpr llvm::StringLiteral kCpuAssertFailName = "tilegym_cpu_assert_fail";

/// Makes the tile dialect illegal, and functions legal once their signature
/// is converted and (kernels) their grid arguments are appended.
void configureTileToLinalgTarget(mlir::ConversionTarget &target,
                                 const mlir::TypeConverter &typeConverter);
} // namespace tilegym

#endif
