//===- Frontend.cpp - load a .tile or .mlir file as tile IR ---------------===//
#include "tilegym/Frontend/Frontend.h"

#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tilegym/Frontend/AST.h"
#include "tilegym/Frontend/Parser.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

void tilegym::loadTileDialects(MLIRContext &context) {
  // tilegpu and gpu too: the IR tilegym-cc --emit=layouts and --emit=tilegpu
  // print (layouts, shared-memory tiles, barriers) reads back in.
  context
      .loadDialect<tile::TileDialect, tilegpu::TileGPUDialect, gpu::GPUDialect,
                   arith::ArithDialect, math::MathDialect, scf::SCFDialect,
                   func::FuncDialect, tensor::TensorDialect>();
}

bool tilegym::addSourceFile(llvm::SourceMgr &sourceMgr, llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path);
  if (!buffer) {
    llvm::errs() << "error: cannot read " << path << ": "
                 << buffer.getError().message() << "\n";
    return false;
  }
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  return true;
}

OwningOpRef<ModuleOp> tilegym::loadTileModule(llvm::SourceMgr &sourceMgr,
                                              MLIRContext &context,
                                              const Defines &defines,
                                              const FrontendOptions &options) {
  loadTileDialects(context);
  unsigned id = sourceMgr.getMainFileID();
  llvm::StringRef name = sourceMgr.getMemoryBuffer(id)->getBufferIdentifier();
  if (name.ends_with(".mlir")) {
    if (!defines.empty()) {
      emitError(UnknownLoc::get(&context))
          << "-D applies to .tile sources only";
      return nullptr;
    }
    return parseSourceFile<ModuleOp>(sourceMgr, &context);
  }
  std::unique_ptr<ModuleAST> ast = parseModule(sourceMgr, id, context);
  if (!ast)
    return nullptr;
  return mlirGen(context, *ast, defines, options);
}
