//===- Passes.td - TileGym conversion passes ---------------*- tablegen -*-===//
#ifndef TILEGYM_CONVERSION_PASSES
#define TILEGYM_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def ConvertTileToLinalgPass
    : Pass<"convert-tile-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lower the tile dialect to linalg, tensor, memref and bufferization";
  let description = [{
    The CPU backend's first step. Views become memrefs with dynamic strides
    and offset (`!tile.view<?x128xf32>` becomes
    `memref<?x128xf32, strided<[?, ?], offset: ?>>`) in every function
    signature. Each kernel (a `func.func` with `tile.kernel`) gets six
    trailing `index` arguments, the block id along x, y, z then the grid size
    along x, y, z, which replace `tile.block_id` and `tile.num_blocks`; the
    kernel is marked `tile.grid_args` once they are appended.

    Tiles stay value-semantic tensors:
    - `tile.load` fills a tile with the padding value and copies the
      in-bounds window of the view (a `memref.subview` seen through
      `bufferization.to_tensor restrict`) into it with `linalg.copy`;
    - `tile.store` copies the in-bounds part of the tile into the window of
      the view (`bufferization.to_buffer read_only` + `linalg.copy`);
    - `tile.prefetch` (an L2 hint) is dropped;
    - `tile.gather`/`tile.scatter` become `scf.for` nests that check bounds
      and mask before each `memref.load`/`memref.store`;
    - `tile.atomic_rmw`/`tile.atomic_cas` become the same nests around
      `llvm.atomicrmw`/`llvm.cmpxchg` (relaxed) at the element's address
      (`memref.extract_strided_metadata`), yielding the old values;
    - `tile.splat`, `tile.iota`, `tile.broadcast`, `tile.permute`,
      `tile.reduce` and `tile.dot` become `linalg` ops; `tile.reshape`
      becomes `tensor.collapse_shape`/`tensor.expand_shape`.

    Windows are clamped to the view, so tiles partly or wholly outside it
    never address memory outside it. The output bufferizes with
    `one-shot-bufferize` and needs no runtime library for copies.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def MarkTensorMapParamsPass
    : Pass<"tilegym-mark-tensor-map-params", "::mlir::LLVM::LLVMFuncOp"> {
  let summary = "Make a lowered kernel's tensor-map parameters byval "
                "__grid_constant__ parameters of 128 bytes";
  let description = [{
    After `convert-gpu-to-nvvm`, which drops argument attributes: each
    argument of an `llvm.func` kernel listed in its
    `tilegpu.tensor_map_params` (set by convert-tile-to-gpu) gets
    `llvm.byval = !llvm.array<128 x i8>`, `llvm.align = 64` and
    `nvvm.grid_constant`. The PTX parameter is then `.param .align 64 .b8
    p[128]`, the launch's CUtensorMap, and the pointer the bulk tensor
    copies take is the parameter's own address (`cvta.param`), where the
    TMA may read a tensor map, not a copy in local memory.

    ```mlir
    llvm.func @k(%arg0: !llvm.ptr, ...) attributes {nvvm.kernel,
        tilegpu.tensor_map_params = array<i32: 0>}
    ```
    becomes
    ```mlir
    llvm.func @k(%arg0: !llvm.ptr {llvm.align = 64 : i64,
        llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, ...)
    ```
  }];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

def ConvertFP8ToIntegerPass : Pass<"convert-fp8-to-integer"> {
  let summary = "Expand fp8 conversions and constants into integer code";
  let description = [{
    `arith.extf` from and `arith.truncf` to `f8E4M3FN` and `f8E5M2` become
    integer code on the bits (`populateFP8ToIntegerPatterns`), for targets
    without fp8 conversions: LLVM IR has no fp8 type, and the LLVM type
    converter turns fp8 values into `i8`, which an `llvm.fpext` cannot take.
    An fp8 `arith.constant` becomes an `i8` constant. Between i8 and fp8 go
    `builtin.unrealized_conversion_cast`s, which cancel against the LLVM
    conversion's own (fp8 becomes i8 there): an `arith.bitcast` of a
    constant would fold back into an fp8 constant.

    Narrowing rounds to nearest even and saturates: NaN gives NaN (0x7f),
    infinities and finite values past the largest give the largest finite
    value (448 for e4m3, 57344 for e5m2), as PTX's `cvt.rn.satfinite`;
    subnormals are kept. Widening is exact. f16 and bf16 sources go through
    f32 (exactly); f64 sources round once, from f64.

    ```mlir
    %h = arith.truncf %x : f32 to f8E4M3FN
    // becomes i32 code on the bits of %x, then
    %h = builtin.unrealized_conversion_cast %bits : i8 to f8E4M3FN
    ```

    Run it after `arith-emulate-unsupported-floats` (which widens fp8
    arithmetic to f32 around extf/truncf, marking them `contract`), before
    anything folds those extf/truncf pairs away, and end with
    `reconcile-unrealized-casts`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def ConvertTileToGPUPass : Pass<"convert-tile-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Lower tile kernels with layouts to per-thread GPU code";
  let description = [{
    Every tile value has a distributed layout in its type's encoding
    (`tilegpu-assign-layouts` chose it; a tile without one is an error).
    Each tile lives in registers, one SSA value per element a thread owns,
    placed by that layout, and every op becomes per-thread code:

    - elementwise `arith`/`math` ops apply register by register;
    - `tile.broadcast` renames registers (a `[R, 1]` tile is replicated
      across the threads of the stretched dimension);
    - `tile.load`/`tile.store` issue one vector access per contiguous run
      of a thread's elements when the run is in bounds and aligned, and
      predicated scalar accesses (padding or masking) at the edges;
    - `tile.prefetch` is one `cp.async.bulk.prefetch.L2` per row of the
      tile (its innermost dimension), rows spread over the threads, each
      trimmed to the view and to 16-byte boundaries; before sm_90, nothing;
    - `tile.reduce` combines within a thread, then across lanes with
      `gpu.shuffle xor`, then across warps through shared memory;
    - `tile.reshape`/`tile.permute` and reductions that drop their axis go
      through shared memory where the layouts differ, and so does
      `tilegpu.convert_layout`;
    - `scf.for`/`scf.if` carry the registers of their tiles.

    The lowering is a dialect conversion of the kernel's body, copied into
    the `gpu.func`: one pattern per op, each family's file exposing its
    `populate...Patterns` (docs/gpu-backend.md, "How the lowering runs").

    Each kernel becomes a `gpu.func` in `gpu.module @tilegym_kernels` with
    `num_warps * 32` threads, taking each view as an expanded memref
    descriptor (allocated pointer, aligned pointer, offset, sizes...,
    strides..., as the runtime packs it). `tile.dot` runs on tensor cores
    as `tilegpu-accelerate-dots` decided: the loads marked `tilegpu.stage`
    copy by cp.async into their rings of shared memory (the ring numbers
    give the order of the rings in the dynamic buffer), and a dot marked
    `#tilegpu.dot<wgmma>` runs as wgmma, any other on `mma.sync` with
    operands not staged so going through shared memory into the fragment
    layouts. Marks the lowering cannot honour (a wgmma dot on a chip
    without it, a staged load that is not a dot operand's) are errors.
    `remarks` says each layout conversion through shared memory and each
    kernel's shared memory. Shared memory for
    conversions and reductions is static up to 48 KiB, then part of the
    dynamic buffer the launch asks for, up to the chip's limit.

    With `fp-contract` (the default), float `arith` ops are marked
    `contract` so that LLVM fuses multiply-adds into `fma`.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "Target GPU architecture">,
    Option<"fpContract", "fp-contract", "bool", /*default=*/"true",
           "Mark float arith ops `contract` so that LLVM fuses a * b + c "
           "into fma, as nvcc and Triton do by default">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Say, as remarks, each layout conversion through shared memory "
           "and each kernel's shared memory">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect",
  ];
}

#endif // TILEGYM_CONVERSION_PASSES
