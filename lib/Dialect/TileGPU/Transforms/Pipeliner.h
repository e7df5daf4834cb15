//===- Pipeliner.h - tilegpu-pipeline's state across its files ---*- C++
//-*-===//
//
// The rings tilegpu-pipeline builds and the class that checks them
// (PipelineChecks.cpp) and rewrites the kernel with them (Pipeline.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TILEGYM_LIB_DIALECT_TILEGPU_TRANSFORMS_PIPELINER_H
#define TILEGYM_LIB_DIALECT_TILEGPU_TRANSFORMS_PIPELINER_H

#include "tilegym/Dialect/Tile/IR/DotOperands.h"
#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <map>
#include <optional>

namespace tilegym::tilegpu::pipeline {
using namespace mlir;
using namespace tilegym::tile;

/// The loads of one ring and the dot operand they become.
struct Ring {
  /// Before the loop (stages 0, 1, ...), then, for a window, the one in the
  /// body that fills the stage ahead.
  SmallVector<LoadOp> loads;
  /// A window's iteration arguments (a0 .. a(k-1)); none for a tile loaded
  /// once before the loop.
  SmallVector<unsigned> iterArgs;
  Value tile; // what the loop's body uses
  scf::ForOp loop;
  SharedStageAttr stage;
  DotOperandUse use = {};
  LocalAllocOp alloc;
  /// Copied by the TMA (tilegpu-assign-tma): the kernel's tensor map, and
  /// one mbarrier per stage.
  std::optional<int64_t> tensorMap;
  Value barriers;

  bool isWindow() const { return !iterArgs.empty(); }
  LoadOp bodyLoad() const { return isWindow() ? loads.back() : LoadOp(); }
};

/// What a loop with rings does each iteration.
struct LoopPlan {
  int64_t stages = 1; // ring size of its windows (1: only one-stage rings)
  int64_t groups = 0; // commit groups one iteration issues
  DotOp firstWgmma;   // the body's first wgmma dot, if any
  /// Its accumulator only goes round the loop: its group stays in flight
  /// into the next iteration and is waited for after the loop.
  bool accInFlight = false;
  /// It runs on the transposed product, its A fragments loaded into
  /// registers, in two groups: the next iteration's dot waits for the
  /// first before loading its registers again; the dot itself waits for
  /// the second.
  bool swapped = false;
};

class Pipeliner {
public:
  Pipeliner(func::FuncOp kernel, bool wgmmaChip, bool chainCopyAddresses)
      : kernel(kernel), wgmmaChip(wgmmaChip),
        chainCopyAddresses(chainCopyAddresses) {
    if (auto w = kernel->getAttrOfType<IntegerAttr>(kNumWarpsAttr))
      numWarps = w.getInt();
  }
  LogicalResult run();

private:
  func::FuncOp kernel;
  bool wgmmaChip;
  bool chainCopyAddresses;
  int64_t numWarps = 4;
  std::map<int64_t, Ring> rings;
  DenseMap<Value, Ring *> operandRing; // dot operand -> its ring
  DenseSet<Operation *> wgmmaDots;
  bool anyWgmma = false;

  InFlightDiagnostic fail(Operation *op) { return op->emitOpError(); }
  LogicalResult collectRings();
  LogicalResult checkRings();
  LogicalResult checkTma();
  LogicalResult checkWgmmaDots();
  LoopPlan planLoop(scf::ForOp loop);
  void allocate();
  Value stageOf(OpBuilder &b, Location loc, Ring &ring, Value index);
  void copy(OpBuilder &b, LoadOp load, Ring &ring, Value stage);
  void waitForTma(OpBuilder &b, Location loc, Ring &ring, Value stage,
                  Value phase);
  void rewriteLoop(scf::ForOp loop, SmallVector<Ring *> loopRings);
  MmaOp rewriteDot(OpBuilder &b, DotOp dot, Value stage);
};

inline SharedStageAttr stageAttrOf(LoadOp load) {
  return load->getAttrOfType<SharedStageAttr>(kStageAttr);
}

inline bool isWgmma(DotOp dot) {
  auto instr = dot->getAttrOfType<DotInstructionAttr>(kDotAttr);
  return instr && instr.getValue() == DotInstruction::Wgmma;
}

/// The loop-yield operand that is `v`'s only use, if `v` only goes round
/// the loop.
inline std::optional<unsigned> onlyYielded(Value v) {
  if (!v.hasOneUse())
    return std::nullopt;
  OpOperand &use = *v.getUses().begin();
  if (!isa<scf::YieldOp>(use.getOwner()) ||
      !isa<scf::ForOp>(use.getOwner()->getParentOp()))
    return std::nullopt;
  return use.getOperandNumber();
}

} // namespace tilegym::tilegpu::pipeline

#endif // TILEGYM_LIB_DIALECT_TILEGPU_TRANSFORMS_PIPELINER_H
