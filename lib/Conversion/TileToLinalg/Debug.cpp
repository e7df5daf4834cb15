//===- Debug.cpp - tile.print and tile.assert on the CPU ------------------===//
//
// A print becomes a loop nest over its tile (row-major) with one call of
// the C library's printf per element; an assert, a loop nest folding its
// condition's elements with `and`, then a call of the JIT's
// tilegym_cpu_assert_fail (CpuKernel.cpp) when it is false. Both read the
// block's coordinates from the kernel's grid arguments.
//
//===----------------------------------------------------------------------===//
#include "tilegym/Conversion/TileToLinalg/TileToLinalg.h"
#include "tilegym/Dialect/Tile/IR/DebugFormat.h"
#include "tilegym/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"

#include "LoweringUtils.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tile;
using namespace tilegym::tolinalg;

/// The block's coordinates (i32), from the grid arguments of the lowered
/// kernel around `op`; empty when it is not in one.
static SmallVector<Value> blockCoordinates(Operation *op, OpBuilder &b) {
  auto func = op->getParentOfType<func::FuncOp>();
  if (!func || !func->hasAttr(kGridArgsAttr))
    return {};
  Block &entry = func.getBody().front();
  SmallVector<Value> coords;
  for (unsigned axis = 0; axis < 3; ++axis)
    coords.push_back(arith::IndexCastOp::create(
        b, op->getLoc(), b.getI32Type(),
        entry.getArgument(entry.getNumArguments() - kNumGridArgs + axis)));
  return coords;
}

/// A pointer to a NUL-terminated copy of `text` in the module's constants.
static Value stringConstant(OpBuilder &b, Location loc, Operation *module,
                            StringRef stem, StringRef text) {
  // createGlobalString names the global as told: find a free name.
  SymbolTable symbols(module);
  std::string name;
  for (unsigned n = 0;; ++n) {
    name = (stem + "_" + Twine(n)).str();
    if (!symbols.lookup(name))
      break;
  }
  // The C library reads up to a NUL, which createGlobalString does not add.
  std::string terminated = text.str();
  terminated.push_back('\0');
  return LLVM::createGlobalString(loc, b, name, terminated,
                                  LLVM::Linkage::Internal);
}

namespace {
struct PrintOpLowering : OpConversionPattern<PrintOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> block = blockCoordinates(op, rewriter);
    if (block.empty())
      return rewriter.notifyMatchFailure(op, "not inside a lowered kernel");
    Operation *module = op->getParentOfType<ModuleOp>();
    auto ptr = LLVM::LLVMPointerType::get(getContext());
    FailureOr<LLVM::LLVMFuncOp> printf = LLVM::lookupOrCreateFn(
        rewriter, module, "printf", {ptr}, rewriter.getI32Type(),
        /*isVarArg=*/true);
    if (failed(printf))
      return rewriter.notifyMatchFailure(op, "printf has another signature");
    Value format =
        stringConstant(rewriter, loc, module, "tilegym_print", printFormat(op));
    // The element's line: format, block, coordinates, values.
    auto printLine = [&](OpBuilder &b, Location loc, ValueRange ivs) {
      SmallVector<Value> args{format};
      args.append(block);
      for (Value iv : ivs)
        args.push_back(arith::IndexCastOp::create(b, loc, b.getI32Type(), iv));
      for (Value v : adaptor.getValues()) {
        if (isa<RankedTensorType>(v.getType()))
          v = tensor::ExtractOp::create(b, loc, v, ivs);
        args.push_back(printfArgument(b, loc, v));
      }
      LLVM::CallOp::create(b, loc, *printf, args);
    };
    auto tile = llvm::find_if(adaptor.getValues(), [](Value v) {
      return isa<RankedTensorType>(v.getType());
    });
    if (tile == adaptor.getValues().end()) {
      printLine(rewriter, loc, {});
    } else {
      buildTileLoopNest(rewriter, loc,
                        cast<RankedTensorType>((*tile).getType()), printLine);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct AssertOpLowering : OpConversionPattern<AssertOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AssertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> block = blockCoordinates(op, rewriter);
    if (block.empty())
      return rewriter.notifyMatchFailure(op, "not inside a lowered kernel");
    Value holds = adaptor.getCondition();
    if (auto type = dyn_cast<RankedTensorType>(holds.getType())) {
      Value tile = holds;
      Value init = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
      scf::LoopNest nest = buildTileLoopNest(
          rewriter, loc, type, ValueRange{init},
          [&](OpBuilder &b, Location loc, ValueRange ivs,
              ValueRange all) -> scf::ValueVector {
            Value element = tensor::ExtractOp::create(b, loc, tile, ivs);
            return {arith::AndIOp::create(b, loc, all[0], element)};
          });
      holds = nest.results.front();
    }
    Operation *module = op->getParentOfType<ModuleOp>();
    auto ptr = LLVM::LLVMPointerType::get(getContext());
    Type i32 = rewriter.getI32Type();
    FailureOr<LLVM::LLVMFuncOp> fail = LLVM::lookupOrCreateFn(
        rewriter, module, kCpuAssertFailName, {ptr, i32, i32, i32},
        LLVM::LLVMVoidType::get(getContext()));
    if (failed(fail))
      return rewriter.notifyMatchFailure(
          op, "tilegym_cpu_assert_fail has another signature");
    Value fails = arith::XOrIOp::create(
        rewriter, loc, holds,
        arith::ConstantIntOp::create(rewriter, loc, 1, 1));
    // (The string's global goes into the module from the builder's
    // insertion point: not from inside a region being built.)
    Value message = stringConstant(rewriter, loc, module, "tilegym_assert",
                                   assertMessage(op));
    scf::IfOp::create(rewriter, loc, fails, [&](OpBuilder &b, Location loc) {
      SmallVector<Value> args{message};
      args.append(block);
      LLVM::CallOp::create(b, loc, *fail, args);
      scf::YieldOp::create(b, loc);
    });
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void tilegym::populateDebugPatterns(TypeConverter &typeConverter,
                                    RewritePatternSet &patterns) {
  patterns.add<PrintOpLowering, AssertOpLowering>(typeConverter,
                                                  patterns.getContext());
}
