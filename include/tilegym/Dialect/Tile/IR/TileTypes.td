//===- TileTypes.td - tile dialect types -------------------*- tablegen -*-===//
#ifndef TILEGYM_TILE_TYPES_TD
#define TILEGYM_TILE_TYPES_TD

include "tilegym/Dialect/Tile/IR/TileBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

def Tile_ViewType : TypeDef<Tile_Dialect, "View"> {
  let mnemonic = "view";
  let summary = "a strided window on global memory, passed to a kernel";
  let description = [{
    A view has an element type, a rank and a size per dimension, static or
    dynamic (`?`). Its strides and base offset are always runtime values that
    arrive with the kernel argument, so a view may be any strided slice of a
    larger tensor. Views are only read through `tile.load`/`tile.gather` and
    written through `tile.store`/`tile.scatter`.

    ```mlir
    !tile.view<?x?xf32>
    !tile.view<?x128xbf16>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getShape().size(); }
    bool isDynamicDim(unsigned axis) const {
      return ::mlir::ShapedType::isDynamic(getShape()[axis]);
    }
  }];
}

// Tiles: statically shaped ranked tensors of the element types kernels use.
// The fp8 types are e4m3 (f8E4M3FN: no infinities, largest finite 448) and
// e5m2 (f8E5M2); both backends compute on them in f32 and round back with
// saturation, as the GPU's cvt.rn.satfinite does.
def Tile_FP8 : AnyTypeOf<[F8E4M3FN, F8E5M2]>;
def Tile_ElementType
    : AnyTypeOf<[F64, F32, F16, BF16, F8E4M3FN, F8E5M2, I64, I32, I8, I1]>;
def Tile_FloatElementType
    : AnyTypeOf<[F64, F32, F16, BF16, F8E4M3FN, F8E5M2]>;
def Tile_Tile
    : RankedTensorOf<[F64, F32, F16, BF16, F8E4M3FN, F8E5M2, I64, I32, I8, I1]>;
def Tile_IndexTile : RankedTensorOf<[I32]>;
def Tile_MaskTile : RankedTensorOf<[I1]>;

#endif // TILEGYM_TILE_TYPES_TD
