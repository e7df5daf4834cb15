//===- TileGPUBase.td - tilegpu dialect definition ---------*- tablegen -*-===//
#ifndef TILEGYM_TILEGPU_BASE_TD
#define TILEGYM_TILEGPU_BASE_TD

include "mlir/IR/OpBase.td"

def TileGPU_Dialect : Dialect {
  let name = "tilegpu";
  let cppNamespace = "::tilegym::tilegpu";
  let summary = "Tiles distributed over the threads of a GPU block.";
  let description = [{
    The GPU backend's own level of IR, between the `tile` dialect and NVVM.
    A tile here is a ranked tensor whose encoding is a distributed layout:
    which thread holds which elements, in which of its registers. Layouts
    are attributes (`#tilegpu.blocked`, `#tilegpu.mma`, and
    `#tilegpu.linear`, which expresses both), printed in the IR, chosen by
    `tilegpu-assign-layouts` and consumed by `convert-tile-to-gpu`. Every
    change of layout that moves data is an explicit `tilegpu.convert_layout`
    (a trip through shared memory), which tilegpu-assign-layouts inserts
    and tilegpu-remove-layout-conversions removes where nothing needs it.
    The decisions about dots are attributes too: `tilegpu.dot` on a
    `tile.dot` names its instruction (`#tilegpu.dot<wgmma>` or
    `<mma_sync>`), `tilegpu.stage` on a `tile.load` the ring of shared
    memory cp.async copies it into (`#tilegpu.stage<...>`); both are set by
    `tilegpu-accelerate-dots`. Where each user of shared memory lives is
    `tilegpu.shared` (`#tilegpu.shared<offset, bytes>`), set by
    `tilegpu-allocate-shared-memory` with the kernel's total in
    `tilegpu.shared_memory`.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasConstantMaterializer = 0;
}

#endif // TILEGYM_TILEGPU_BASE_TD
