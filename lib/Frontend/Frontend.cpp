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
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilegym;

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

namespace {
#include "StdLib.inc"

/// Imports nest at most this deep, and an imported file is at most this
/// large: a cycle is cut by importing each file once, and a path to a
/// device (/dev/zero) or a huge file is refused before it is read.
constexpr unsigned kMaxImportDepth = 16;
constexpr uint64_t kMaxImportBytes = 1 << 20;

/// Resolves the imports of `ast` (parsed from `bufferId`), and those of the
/// files they import, adding every imported function to `ast`. A path is a
/// file relative to the importing file's folder; "std" is the standard
/// library compiled into the tools. Each file is imported once.
LogicalResult resolveImports(llvm::SourceMgr &sourceMgr, unsigned bufferId,
                             ModuleAST &ast, MLIRContext &context,
                             llvm::StringSet<> &seen, unsigned depth) {
  StringRef importer =
      sourceMgr.getMemoryBuffer(bufferId)->getBufferIdentifier();
  SmallVector<const ImportDeclAST *> imports;
  for (const auto &decl : ast.getDecls())
    if (auto *import = dyn_cast<ImportDeclAST>(decl.get()))
      imports.push_back(import);
  std::vector<std::unique_ptr<DeclAST>> functions;
  for (const ImportDeclAST *import : imports) {
    StringRef path = import->getName();
    if (depth >= kMaxImportDepth)
      return emitError(import->getLoc())
             << "imports nest deeper than " << kMaxImportDepth;
    std::unique_ptr<llvm::MemoryBuffer> buffer;
    std::string key;
    if (path == "std") {
      key = "std";
      buffer = llvm::MemoryBuffer::getMemBuffer(kStdLibrary, "std");
    } else {
      SmallString<256> file(path);
      if (!llvm::sys::path::is_absolute(file)) {
        StringRef dir = importer == "-" || importer == "<stdin>"
                            ? StringRef(".")
                            : llvm::sys::path::parent_path(importer);
        file = dir.empty() ? StringRef(".") : dir;
        llvm::sys::path::append(file, path);
      }
      uint64_t size = 0;
      if (!llvm::sys::fs::is_regular_file(file) ||
          llvm::sys::fs::file_size(file, size))
        return emitError(import->getLoc())
               << "cannot import '" << path << "': " << file
               << " is not a readable file";
      if (size > kMaxImportBytes)
        return emitError(import->getLoc())
               << "cannot import '" << path << "': " << size
               << " bytes, more than the limit of " << kMaxImportBytes;
      SmallString<256> real;
      key = llvm::sys::fs::real_path(file, real) ? file.str().str()
                                                 : real.str().str();
      auto read = llvm::MemoryBuffer::getFile(file);
      if (!read)
        return emitError(import->getLoc())
               << "cannot import '" << path
               << "': " << read.getError().message();
      buffer = std::move(*read);
    }
    if (!seen.insert(key).second)
      continue; // imported already
    unsigned id = sourceMgr.AddNewSourceBuffer(std::move(buffer), SMLoc());
    std::unique_ptr<ModuleAST> imported = parseModule(sourceMgr, id, context);
    if (!imported || failed(resolveImports(sourceMgr, id, *imported, context,
                                           seen, depth + 1)))
      return failure();
    for (auto &decl : imported->takeDecls()) {
      if (isa<ImportDeclAST>(decl.get()))
        continue;
      if (!isa<FunctionAST>(decl.get()))
        return emitError(decl->getLoc())
               << "an imported file holds functions only; '" << decl->getName()
               << "' is not one (imported from " << importer << ")";
      functions.push_back(std::move(decl));
    }
  }
  ast.prependDecls(std::move(functions));
  return success();
}
} // namespace

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
  llvm::StringSet<> seen;
  if (failed(resolveImports(sourceMgr, id, *ast, context, seen, 0)))
    return nullptr;
  return mlirGen(context, *ast, defines, options);
}
