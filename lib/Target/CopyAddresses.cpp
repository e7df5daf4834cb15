//===- CopyAddresses.cpp - choosing how copies address their runs ---------===//
//
// A thread copies its runs of a staged tile either directly (each run's
// source is the tile's address plus the run's offset: the tile's address
// stays in uniform registers, one 64-bit offset per run stays live across
// the loop) or chained (each run's source is the previous one's plus a
// uniform step, its destination an immediate offset from the first's: one
// offset per operand stays live). Under the 128-register cap of a dot
// kernel at 2 blocks per SM, which form spills depends on the whole loop:
// a kernel whose other values crowd the registers (a transposed operand's
// view, an epilogue's bias) spills with direct addresses, and there the
// chained form is much faster; elsewhere the direct form's schedule is
// faster. Only ptxas knows which case a kernel is in, so the choice is made
// on its answer.
//
//===----------------------------------------------------------------------===//
#include "tilegym/Target/CopyAddresses.h"
#include "tilegym/Conversion/Pipelines.h"
#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tilegym/Runtime/Runtime.h"
#include "tilegym/Target/PtxasInfo.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"

#include <map>
#include <optional>

using namespace mlir;

namespace {
using Spills = std::map<std::string, tilegym::PtxasResources>;

/// A trial compile: what ptxas reports for each kernel, and the PTX.
struct Trial {
  Spills spills;
  tilegym::CompiledPtx compiled;
};

/// A trial compile of `module` as it stands; none when it does not compile
/// (diagnostics of the trial are dropped: the real compile gives them).
std::optional<Trial> compileTrial(ModuleOp module, llvm::StringRef chip,
                                  llvm::StringRef ptxas) {
  ScopedDiagnosticHandler silence(module.getContext(),
                                  [](Diagnostic &) { return success(); });
  Trial trial;
  auto ptx = tilegym::compileTileToGpuBinary(module, chip, "isa",
                                             &trial.compiled.launches);
  if (failed(ptx))
    return std::nullopt;
  auto info = tilegym::runPtxasInfo(ptxas, *ptx, chip);
  if (!info) {
    llvm::consumeError(info.takeError());
    return std::nullopt;
  }
  trial.spills = std::move(*info);
  trial.compiled.ptx = std::move(*ptx);
  return trial;
}

/// The kernels of `module` that copy into shared memory once the tile-level
/// GPU passes ran (their dots' operands staged); none when they fail.
llvm::StringSet<> kernelsWithCopies(ModuleOp module, llvm::StringRef chip) {
  ScopedDiagnosticHandler silence(module.getContext(),
                                  [](Diagnostic &) { return success(); });
  OwningOpRef<ModuleOp> clone(module.clone());
  PassManager pm(module.getContext());
  tilegym::buildTileToTileGpuPasses(pm, chip);
  llvm::StringSet<> names;
  if (failed(pm.run(*clone)))
    return names;
  for (auto func : clone->getOps<func::FuncOp>())
    if (func.walk([](tilegym::tilegpu::AsyncCopyOp) {
              return WalkResult::interrupt();
            })
            .wasInterrupted())
      names.insert(func.getSymName());
  return names;
}
} // namespace

std::optional<tilegym::CompiledPtx>
tilegym::chooseCopyAddresses(ModuleOp module, llvm::StringRef chip,
                             bool remarks) {
  SmallVector<func::FuncOp> kernels;
  for (auto func : module.getOps<func::FuncOp>())
    if (func->hasAttr(tile::kKernelAttr) &&
        !func->hasAttr(tilegpu::kChainCopyAddressesAttr))
      kernels.push_back(func);
  std::string ptxas = runtime::findPtxas();
  if (kernels.empty() || ptxas.empty())
    return std::nullopt;
  llvm::StringSet<> copying = kernelsWithCopies(module, chip);
  llvm::erase_if(kernels, [&](func::FuncOp f) {
    return !copying.contains(f.getSymName());
  });
  if (kernels.empty())
    return std::nullopt;
  std::optional<Trial> directTrial = compileTrial(module, chip, ptxas);
  if (!directTrial)
    return std::nullopt;
  const Spills *direct = &directTrial->spills;
  // A kernel ptxas said nothing of keeps its choice open (direct).
  llvm::erase_if(kernels, [&](func::FuncOp f) {
    return !direct->count(f.getSymName().str());
  });
  auto spillsOf = [](const Spills &s, func::FuncOp f) -> int64_t {
    auto it = s.find(f.getSymName().str());
    return it == s.end() ? 0 : it->second.spillStoreBytes;
  };
  SmallVector<func::FuncOp> candidates;
  for (func::FuncOp f : kernels)
    if (spillsOf(*direct, f) >= kChainedCopySpillSaving) {
      f->setAttr(tilegpu::kChainCopyAddressesAttr,
                 BoolAttr::get(module.getContext(), true));
      candidates.push_back(f);
    }
  std::optional<Trial> chainedTrial;
  if (!candidates.empty())
    chainedTrial = compileTrial(module, chip, ptxas);
  const Spills *chained = chainedTrial ? &chainedTrial->spills : nullptr;
  // Whether the chained trial is the module as chosen (every kernel tried
  // keeps the chained form), or the direct one (none does).
  bool allChained = chainedTrial.has_value(), noneChained = true;
  for (func::FuncOp f : kernels) {
    int64_t d = spillsOf(*direct, f);
    bool tried = llvm::is_contained(candidates, f);
    bool reported = chained && chained->count(f.getSymName().str());
    bool chosen = tried && reported &&
                  d - spillsOf(*chained, f) >= kChainedCopySpillSaving;
    f->setAttr(tilegpu::kChainCopyAddressesAttr,
               BoolAttr::get(module.getContext(), chosen));
    allChained &= chosen || !tried;
    noneChained &= !chosen;
    if (!remarks)
      continue;
    InFlightDiagnostic remark = f.emitRemark();
    if (chosen)
      remark << "copies chain their run addresses: ptxas spills " << d
             << " bytes with direct addresses, " << spillsOf(*chained, f)
             << " chained";
    else if (tried && !reported)
      remark << "copies address their runs directly: ptxas spills " << d
             << " bytes with them, and no spills were reported with chained "
                "ones (the module did not compile or assemble)";
    else if (tried)
      remark << "copies address their runs directly: chained addresses "
                "would spill "
             << spillsOf(*chained, f) << " bytes against " << d
             << ", saving less than " << kChainedCopySpillSaving;
    else
      remark << "copies address their runs directly: ptxas spills " << d
             << " bytes with them, under the " << kChainedCopySpillSaving
             << " that chaining must save";
  }
  // Without a toolkit the trial's warning (libdevice not linked) was
  // silenced: the caller's own compile gives it.
  if (findCudaToolkit().empty())
    return std::nullopt;
  // A kernel without the attribute compiles direct, as with `false`.
  if (noneChained)
    return std::move(directTrial->compiled);
  if (allChained)
    return std::move(chainedTrial->compiled);
  return std::nullopt;
}
