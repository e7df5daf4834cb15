// RUN: tilegym-opt %s --split-input-file --convert-tile-to-gpu=chip=sm_90a --verify-diagnostics | FileCheck %s
//
// Stream-K's partial accumulators lowered: the kernel's two zero-initialized
// globals (slots of the tile's f32 registers in thread order, 4 warps x 32
// threads x 32 registers x 4 bytes = 16 KiB a slot, and a flag per slot);
// a store writes each thread's registers 16 bytes at a time at slot +
// (chunk * 128 + thread) * 16 through the L2, fences at GPU scope, meets
// the consumers at their named barrier and has thread 0 set the flag
// (release); an accumulate has thread 0 spin on the flag (acquire) and clear
// it, meets the others at the barrier, and adds what each thread reads back.

#mma = #tilegpu.mma<warps = [4, 1]>

// CHECK-LABEL: gpu.module @tilegym_kernels
// CHECK-DAG: llvm.mlir.global internal @parts__partials_flags() {addr_space = 1 : i32, alignment = 16 : i64} : !llvm.array<16 x i8> {
// CHECK-DAG: llvm.mlir.global internal @parts__partials() {addr_space = 1 : i32, alignment = 16 : i64} : !llvm.array<65536 x i8> {
// CHECK: llvm.mlir.zero : !llvm.array
// CHECK-LABEL: gpu.func @parts
// CHECK: } {tilegpu.warp_role = "producer"}
// CHECK: %[[SLOT:.*]] = arith.muli %{{.*}}, %c16384{{.*}} : index
// CHECK-COUNT-8: llvm.inline_asm has_side_effects "st.global.cg.v4.f32 [$0], {$1, $2, $3, $4};", "l,f,f,f,f"
// CHECK-NEXT: llvm.inline_asm has_side_effects "fence.acq_rel.gpu;", ""
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %c128_i32
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %thread_id_x, %{{.*}} : index
// CHECK-NEXT: scf.if %[[FIRST]]
// CHECK-NEXT: llvm.inline_asm has_side_effects "st.release.gpu.global.b32 [$0], 1;", "l"
// CHECK: scf.if
// CHECK-NEXT: scf.while : () -> () {
// CHECK-NEXT: %[[SEEN:.*]] = llvm.inline_asm has_side_effects "ld.acquire.gpu.global.b32 $0, [$1];", "=r,l"
// CHECK: %[[UNSET:.*]] = arith.cmpi eq, %[[SEEN]], %{{.*}} : i32
// CHECK-NEXT: scf.condition(%[[UNSET]])
// CHECK: llvm.inline_asm has_side_effects "st.relaxed.gpu.global.b32 [$0], 0;", "l"
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %c128_i32
// All eight chunks are loaded before the first add.
// CHECK: "ld.global.cg.v4.f32 {$0, $1, $2, $3}, [$4];", "=f,=f,=f,=f,l"
// CHECK-NOT: arith.addf
// CHECK: "ld.global.cg.v4.f32 {$0, $1, $2, $3}, [$4];", "=f,=f,=f,=f,l"
// CHECK-NOT: arith.addf
// CHECK: "ld.global.cg.v4.f32 {$0, $1, $2, $3}, [$4];", "=f,=f,=f,=f,l"
// CHECK-NOT: arith.addf
// CHECK: "ld.global.cg.v4.f32 {$0, $1, $2, $3}, [$4];", "=f,=f,=f,=f,l"
// CHECK-NOT: arith.addf
// CHECK: "ld.global.cg.v4.f32 {$0, $1, $2, $3}, [$4];", "=f,=f,=f,=f,l"
// CHECK-NOT: arith.addf
// CHECK: "ld.global.cg.v4.f32 {$0, $1, $2, $3}, [$4];", "=f,=f,=f,=f,l"
// CHECK-NOT: arith.addf
// CHECK: "ld.global.cg.v4.f32 {$0, $1, $2, $3}, [$4];", "=f,=f,=f,=f,l"
// CHECK-NOT: arith.addf
// CHECK: "ld.global.cg.v4.f32 {$0, $1, $2, $3}, [$4];", "=f,=f,=f,=f,l"
// CHECK-COUNT-32: arith.addf
// CHECK: } {tilegpu.warp_role = "consumer"}
func.func @parts(%c: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  tilegpu.warp_specialize producer warps 1 {
    %p = arith.constant 0 : index
  } consumer {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %b = tile.block_id 0
    %z = arith.constant dense<1.0> : tensor<64x64xf32, #mma>
    tilegpu.partial_store %z, slot %b of 4 : tensor<64x64xf32, #mma>
    %s = tilegpu.partial_accumulate %z, slot %c1 of 4 : tensor<64x64xf32, #mma>
    tile.store %s, %c[%b, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  }
  return
}

// -----

#mma = #tilegpu.mma<warps = [4, 1]>
#blocked = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>

func.func @not_f32(%c: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  tilegpu.warp_specialize producer warps 1 {
    %p = arith.constant 0 : index
  } consumer {
    %c0 = arith.constant 0 : index
    %z = arith.constant dense<1.0> : tensor<64x64xbf16, #mma>
    // expected-error @+1 {{'tilegpu.partial_store' op value must be an f32 tile, got 'tensor<64x64xbf16, #tilegpu.mma<warps = [4, 1]>>'}}
    tilegpu.partial_store %z, slot %c0 of 4 : tensor<64x64xbf16, #mma>
  }
  return
}

// -----

func.func @no_layout() attributes {tile.kernel, tile.num_warps = 4 : i64} {
  tilegpu.warp_specialize producer warps 1 {
    %p = arith.constant 0 : index
  } consumer {
    %c0 = arith.constant 0 : index
    %z = arith.constant dense<1.0> : tensor<64x64xf32>
    // expected-error @+1 {{'tilegpu.partial_accumulate' op value has no distributed layout: 'tensor<64x64xf32>'}}
    %s = tilegpu.partial_accumulate %z, slot %c0 of 4 : tensor<64x64xf32>
  }
  return
}

// -----

#mma = #tilegpu.mma<warps = [4, 1]>

func.func @outside_consumers() attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<1.0> : tensor<64x64xf32, #mma>
  // expected-error @+1 {{'tilegpu.partial_store' op must be in the consumer region of a tilegpu.warp_specialize}}
  tilegpu.partial_store %z, slot %c0 of 4 : tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<warps = [4, 1]>

func.func @no_slots() attributes {tile.kernel, tile.num_warps = 4 : i64} {
  tilegpu.warp_specialize producer warps 1 {
    %p = arith.constant 0 : index
  } consumer {
    %c0 = arith.constant 0 : index
    %z = arith.constant dense<1.0> : tensor<64x64xf32, #mma>
    // expected-error @+1 {{'tilegpu.partial_store' op attribute 'slots' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 1}}
    tilegpu.partial_store %z, slot %c0 of 0 : tensor<64x64xf32, #mma>
  }
  return
}

// -----

#mma = #tilegpu.mma<warps = [4, 1]>

// One kernel's partials are one buffer: its ops must agree on its shape.
func.func @two_sizes() attributes {tile.kernel, tile.num_warps = 4 : i64} {
  tilegpu.warp_specialize producer warps 1 {
    %p = arith.constant 0 : index
  } consumer {
    %c0 = arith.constant 0 : index
    %z = arith.constant dense<1.0> : tensor<64x64xf32, #mma>
    tilegpu.partial_store %z, slot %c0 of 4 : tensor<64x64xf32, #mma>
    // expected-error @+1 {{'tilegpu.partial_store' op partials of one kernel must have one tile type and one slot count}}
    tilegpu.partial_store %z, slot %c0 of 8 : tensor<64x64xf32, #mma>
  }
  return
}
