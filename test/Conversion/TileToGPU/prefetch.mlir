// RUN: tilegym-opt %s --split-input-file --tilegpu-assign-layouts --tilegpu-remove-layout-conversions --tilegpu-allocate-shared-memory --convert-tile-to-gpu | FileCheck %s
// RUN: tilegym-opt %s --split-input-file --tilegpu-assign-layouts=chip=sm_80 --tilegpu-remove-layout-conversions --tilegpu-allocate-shared-memory=chip=sm_80 --convert-tile-to-gpu=chip=sm_80 | FileCheck %s --check-prefix=SM80

// One row of 4096 f32 on 128 threads: thread 0 asks for the row's part in
// the view, [col, min(size, col + 4096)), trimmed inward to 16 bytes.
// CHECK-LABEL: gpu.func @row
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[ROW:.*]] = arith.addi %[[TID]], %c0
// CHECK: %[[FIRST:.*]] = arith.cmpi ult, %[[ROW]], %c1
// CHECK: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : index
// CHECK: %[[IN2:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : index
// CHECK: %[[BOUNDS:.*]] = arith.andi %[[IN]], %[[IN2]]
// CHECK: %[[OK:.*]] = arith.andi %[[FIRST]], %[[BOUNDS]]
// CHECK: %[[COUNT:.*]] = arith.minsi %{{.*}}, %c4096
// CHECK: %[[START:.*]] = llvm.ptrtoint
// CHECK: %[[N:.*]] = arith.index_cast %[[COUNT]] : index to i64
// CHECK: %[[BYTES:.*]] = arith.muli %[[N]], %c4_i64
// CHECK: %[[END:.*]] = arith.addi %[[START]], %[[BYTES]]
// CHECK: %[[UP:.*]] = arith.addi %[[START]], %c15_i64
// CHECK: %[[ASTART:.*]] = arith.andi %[[UP]], %c-16_i64
// CHECK: %[[AEND:.*]] = arith.andi %[[END]], %c-16_i64
// CHECK: %[[NONEMPTY:.*]] = arith.cmpi ult, %[[ASTART]], %[[AEND]] : i64
// CHECK: %[[GO:.*]] = arith.andi %[[OK]], %[[NONEMPTY]]
// CHECK: scf.if %[[GO]] {
// CHECK:   %[[P:.*]] = llvm.inttoptr %[[ASTART]] : i64 to !llvm.ptr<1>
// CHECK:   %[[D:.*]] = arith.subi %[[AEND]], %[[ASTART]] : i64
// CHECK:   %[[S:.*]] = arith.trunci %[[D]] : i64 to i32
// CHECK:   nvvm.cp.async.bulk.prefetch %[[P]], %[[S]] : <1>
// CHECK: }
// CHECK-NOT: nvvm.cp.async.bulk.prefetch
// SM80-LABEL: gpu.func @row
// SM80-NOT: prefetch
// SM80: gpu.return
func.func @row(%x: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %i = tile.block_id 0
  %c0 = arith.constant 0 : index
  tile.prefetch %x[%i, %c0] shape [1, 4096] : !tile.view<?x?xf32>
  return
}

// -----

// 256 rows of 8 bf16 on 128 threads: each thread asks for two rows (row
// tid, then tid + 128), all rows in range, so no row-count guard.
// CHECK-LABEL: gpu.func @rows
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: arith.addi %[[TID]], %c0
// CHECK-NOT: arith.cmpi ult, %{{.*}}, %c256
// CHECK: arith.minsi %{{.*}}, %c8
// CHECK: nvvm.cp.async.bulk.prefetch
// CHECK: arith.addi %[[TID]], %c128
// CHECK: arith.minsi %{{.*}}, %c8
// CHECK: nvvm.cp.async.bulk.prefetch
// CHECK-NOT: nvvm.cp.async.bulk.prefetch
func.func @rows(%x: !tile.view<?x?xbf16>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %i = tile.block_id 0
  %j = tile.block_id 1
  tile.prefetch %x[%i, %j] shape [256, 8] : !tile.view<?x?xbf16>
  return
}
