//===- TileBase.td - tile dialect definition ---------------*- tablegen -*-===//
#ifndef TILEGYM_TILE_BASE_TD
#define TILEGYM_TILE_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::tilegym::tile";
  let summary = "Value-semantic tiles loaded from and stored to strided views.";
  let description = [{
    The `tile` dialect models block-level GPU programs in the style of
    cuTile and Triton. Kernel arguments are `!tile.view` values (a strided
    window on memory); a program loads whole tiles out of views by tile
    index, computes on them and stores them back.

    Tiles are builtin ranked tensors with a static shape: elementwise math
    reuses `arith` and `math` on tensors, loops reuse `scf`. The GPU backend
    attaches a distributed layout to each tile in the tensor type's encoding
    attribute, as Triton does.
  }];
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 1;
  // tile.kernel and the kernel settings beside it are checked wherever they
  // appear: a kernel is a defined function whose name is an identifier.
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def Tile_ReduceKind : I32EnumAttr<"ReduceKind", "reduction combiner", [
    I32EnumAttrCase<"Sum", 0, "sum">,
    I32EnumAttrCase<"Max", 1, "max">,
    I32EnumAttrCase<"Min", 2, "min">,
    I32EnumAttrCase<"Prod", 3, "prod">]> {
  let cppNamespace = "::tilegym::tile";
}

def Tile_AtomicKind : I32EnumAttr<"AtomicKind",
    "read-modify-write of an atomic", [
    I32EnumAttrCase<"Add", 0, "add">,
    I32EnumAttrCase<"Max", 1, "max">,
    I32EnumAttrCase<"Min", 2, "min">,
    I32EnumAttrCase<"Xchg", 3, "xchg">]> {
  let cppNamespace = "::tilegym::tile";
}

def Tile_Precision : I32EnumAttr<"Precision", "dot input precision", [
    I32EnumAttrCase<"IEEE", 0, "ieee">,
    I32EnumAttrCase<"TF32", 1, "tf32">]> {
  let cppNamespace = "::tilegym::tile";
}

#endif // TILEGYM_TILE_BASE_TD
