// RUN: tilegym-opt %s --split-input-file --tile-pipeline-loads=dot-operands-in-shared-memory=1 --tilegpu-assign-layouts --tilegpu-remove-layout-conversions --tilegpu-accelerate-dots=remarks=1 --tilegpu-pipeline --tilegpu-allocate-shared-memory=remarks=1 --convert-tile-to-gpu=remarks=1 -o /dev/null 2>&1 | FileCheck %s
// RUN: tilegym-opt %s --split-input-file --tile-pipeline-loads=dot-operands-in-shared-memory=1 --tilegpu-assign-layouts=chip=sm_80 --tilegpu-remove-layout-conversions --tilegpu-accelerate-dots="chip=sm_80 remarks=1" --tilegpu-pipeline=chip=sm_80 --tilegpu-allocate-shared-memory="chip=sm_80 remarks=1" --convert-tile-to-gpu="chip=sm_80 remarks=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: tilegym-opt %s --split-input-file --tilegpu-assign-layouts --tilegpu-remove-layout-conversions --tilegpu-accelerate-dots=remarks=1 --tilegpu-pipeline --tilegpu-allocate-shared-memory=remarks=1 --convert-tile-to-gpu=remarks=1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNSTAGED
//
// convert-tile-to-gpu says which path each dot takes and why, what each
// loop stages, and each kernel's shared memory.

// Operands loaded two iterations ahead (tile-pipeline-loads: a loop with
// one dot) are staged in a ring of 3 stages: 128x64 and 64x128 bf16, 16 KiB
// each per stage.
// CHECK: remark: runs as wgmma
// CHECK: remark: dot operands staged in shared memory by cp.async: 2 in 3 stages (98304 bytes)
// CHECK: remark: shared memory per block: 98304 bytes, dynamic
// SM80: remark: runs on mma.sync: wgmma needs sm_90a
// SM80: remark: dot operands staged in shared memory by cp.async: 2 in 3 stages
// UNSTAGED: remark: runs on mma.sync: its rhs is not staged in shared memory
func.func @matmul(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>, %n: index) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<128x128xf32>) {
    %at = tile.load %a[%c0, %k] : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
    %bt = tile.load %b[%k, %c0] : !tile.view<?x?xbf16> -> tensor<64x128xbf16>
    %d = tile.dot %at, %bt, %acc : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  }
  tile.store %acc, %c[%c0, %c0] : tensor<128x128xf32>, !tile.view<?x?xf32>
  return
}

// -----

// CHECK: remark: runs on mma.sync: wgmma needs warpgroups, a multiple of 4 warps; the kernel has 2
func.func @two_warps(%a: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 2 : i64} {
  %c0 = arith.constant 0 : index
  %at = tile.load %a[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
  %bt = tile.load %a[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.dot %at, %bt, %z : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
  tile.store %d, %c[%c0, %c0] : tensor<64x64xf32>, !tile.view<?x?xf32>
  return
}

// -----

// A tf32 wgmma reads A from shared memory; loaded without a loop to
// stage it through, it stays on mma.sync.
// CHECK: remark: runs on mma.sync: a tf32 wgmma reads its lhs from shared memory; it is not staged there
func.func @tf32(%a: !tile.view<?x?xf32>, %c: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %at = tile.load %a[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  %bt = tile.load %a[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.dot %at, %bt, %z {precision = 1 : i32} : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
  tile.store %d, %c[%c0, %c0] : tensor<64x64xf32>, !tile.view<?x?xf32>
  return
}

// -----

// A permute between blocked layouts moves through shared memory: the
// conversion and its bytes are said at the op.
// CHECK: remark: shared memory: 16384 bytes at offset 0 for a layout conversion
// CHECK: remark: shared memory per block: 16384 bytes, static
// CHECK: remark: layout conversion of a tile of 4096 elements through 16384 bytes of shared memory
func.func @transpose(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  %p = tile.permute %t [1, 0] : tensor<64x64xf32> -> tensor<64x64xf32>
  tile.store %p, %y[%c0, %c0] : tensor<64x64xf32>, !tile.view<?x?xf32>
  return
}
