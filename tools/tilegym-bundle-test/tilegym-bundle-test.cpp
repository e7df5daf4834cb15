//===- tilegym-bundle-test.cpp - write a bundle from given PTX ------------===//
//
// Test driver of writeBundle until the GPU backend emits bundles itself:
// compiles a .tile file with the frontend and bundles it with PTX (and
// cubin) files given on the command line, e.g. PTX from nvcc.
//
//   tilegym-bundle-test examples/vector_add.tile -D T=f32 \
//       --ptx vector_add=va.ptx -o vector_add.tgb
//
//===----------------------------------------------------------------------===//
#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Frontend/Frontend.h"
#include "tilegym/Target/BundleWriter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilegym;
namespace cl = llvm::cl;

static cl::OptionCategory category("tilegym-bundle-test options");
static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<.tile or .mlir file>"),
                                      cl::cat(category));
static cl::opt<std::string> outputDir("o", cl::Required,
                                      cl::desc("Bundle folder to write"),
                                      cl::value_desc("NAME.tgb"),
                                      cl::cat(category));
static cl::list<std::string> defineList("D", cl::Prefix,
                                        cl::desc("Override a file-level const"),
                                        cl::value_desc("NAME=VALUE"),
                                        cl::cat(category));
static cl::list<std::string> ptxList(
    "ptx", cl::desc("PTX of a kernel (KERNEL=FILE), or of every kernel (FILE)"),
    cl::value_desc("[KERNEL=]FILE"), cl::cat(category));
static cl::list<std::string>
    cubinList("cubin", cl::desc("cubin of a kernel, or of every kernel"),
              cl::value_desc("[KERNEL=]FILE"), cl::cat(category));
static cl::opt<std::string> target("target", cl::init("sm_90a"),
                                   cl::desc("GPU target of the binaries"),
                                   cl::cat(category));

/// Reads "[KERNEL=]FILE" items into `files` (kernel -> contents; "" for
/// every kernel).
static bool readFiles(const cl::list<std::string> &items,
                      std::map<std::string, std::string> &files) {
  for (const std::string &item : items) {
    size_t eq = item.find('=');
    std::string kernel = eq == std::string::npos ? "" : item.substr(0, eq);
    std::string path = eq == std::string::npos ? item : item.substr(eq + 1);
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
    if (!buffer) {
      llvm::errs() << "error: cannot read " << path << ": "
                   << buffer.getError().message() << "\n";
      return false;
    }
    files[kernel] = (*buffer)->getBuffer().str();
  }
  return true;
}

static std::string fileFor(const std::map<std::string, std::string> &files,
                           const std::string &kernel) {
  auto it = files.find(kernel);
  if (it == files.end())
    it = files.find("");
  return it == files.end() ? "" : it->second;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "writes a kernel bundle\n");

  Defines defines;
  std::string defineError;
  if (!parseDefines(defineList, defines, defineError)) {
    llvm::errs() << "error: " << defineError << "\n";
    return 1;
  }
  std::map<std::string, std::string> ptx, cubin;
  if (!readFiles(ptxList, ptx) || !readFiles(cubinList, cubin))
    return 1;

  mlir::MLIRContext context;
  llvm::SourceMgr sourceMgr;
  if (!addSourceFile(sourceMgr, inputFile))
    return 1;
  mlir::SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      loadTileModule(sourceMgr, context, defines);
  if (!module)
    return 1;

  // Named files go to their kernel, kernel or not: writeBundle checks.
  std::map<std::string, GpuKernelBinary> binaries;
  for (const auto *files : {&ptx, &cubin})
    for (const auto &[name, contents] : *files)
      if (!name.empty())
        binaries[name] = {"", fileFor(ptx, name), fileFor(cubin, name), 0};
  for (auto kernel : module->getOps<mlir::func::FuncOp>()) {
    std::string name = kernel.getSymName().str();
    if (kernel->hasAttr(tile::kKernelAttr) && !binaries.count(name))
      binaries[name] = {"", fileFor(ptx, name), fileFor(cubin, name), 0};
  }
  if (llvm::Error err = writeBundle(outputDir, *module, target, binaries)) {
    llvm::errs() << "error: " << llvm::toString(std::move(err)) << "\n";
    return 1;
  }
  return 0;
}
