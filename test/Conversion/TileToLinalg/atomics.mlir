// RUN: tilegym-opt %s --convert-tile-to-linalg | FileCheck %s

// Atomics loop over the tile like scatter; each unmasked, in-bounds element
// is one LLVM atomic at its address (the view's strided metadata), relaxed,
// and yields the old value; the others yield 0.
// CHECK-LABEL: func.func @rmw(
// CHECK-SAME: %[[X:[^:]*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>, %[[R:[^:]*]]: tensor<8xi32>, %[[C:[^:]*]]: tensor<8xi32>, %[[M:[^:]*]]: tensor<8xi1>, %[[V:[^:]*]]: tensor<8xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[NEW:.*]] = bufferization.alloc_tensor() : tensor<8xf32>
// CHECK: %[[OLD:.*]] = scf.for %[[E:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[NEW]]) -> (tensor<8xf32>)
// CHECK:   %[[MK:.*]] = tensor.extract %[[M]][%[[E]]] : tensor<8xi1>
// CHECK:   %[[RX:.*]] = arith.index_cast
// CHECK:   %[[CX:.*]] = arith.index_cast
// CHECK:   %[[OK:.*]] = arith.andi
// CHECK:   %[[EL:.*]] = scf.if %[[OK]] -> (f32) {
// CHECK:     %[[VAL:.*]] = tensor.extract %[[V]][%[[E]]] : tensor<8xf32>
// CHECK:     %[[BASE:.*]], %[[OFF:.*]], %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[X]]
// CHECK:     %[[A:.*]] = arith.muli %[[RX]], %[[STRIDES]]#0
// CHECK:     %[[B:.*]] = arith.addi %[[OFF]], %[[A]]
// CHECK:     %[[C2:.*]] = arith.muli %[[CX]], %[[STRIDES]]#1
// CHECK:     %[[LIN:.*]] = arith.addi %[[B]], %[[C2]]
// CHECK:     %[[P:.*]] = memref.extract_aligned_pointer_as_index %[[BASE]]
// CHECK:     %[[PTR:.*]] = llvm.inttoptr
// CHECK:     %[[EP:.*]] = llvm.getelementptr %[[PTR]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:     %[[R0:.*]] = llvm.atomicrmw fadd %[[EP]], %[[VAL]] monotonic : !llvm.ptr, f32
// CHECK:     scf.yield %[[R0]] : f32
// CHECK:   } else {
// CHECK:     scf.yield %[[ZERO]] : f32
// CHECK:   tensor.insert %[[EL]] into %[[ACC]][%[[E]]]
func.func @rmw(%x: !tile.view<?x?xf32>, %r: tensor<8xi32>, %c: tensor<8xi32>,
               %m: tensor<8xi1>, %v: tensor<8xf32>) -> tensor<8xf32> {
  %o = tile.atomic_rmw add %v, %x[%r, %c] mask %m
      : tensor<8xf32>, !tile.view<?x?xf32>, [tensor<8xi32>, tensor<8xi32>], tensor<8xi1>
  return %o : tensor<8xf32>
}

// Float max and min propagate NaN (fmaximum, fminimum); integer ones are
// signed; exchange is xchg.
// CHECK-LABEL: func.func @kinds(
// CHECK: llvm.atomicrmw fmaximum %{{.*}}, %{{.*}} monotonic : !llvm.ptr, f16
// CHECK: llvm.atomicrmw fminimum %{{.*}}, %{{.*}} monotonic : !llvm.ptr, f16
// CHECK: llvm.atomicrmw max %{{.*}}, %{{.*}} monotonic : !llvm.ptr, i32
// CHECK: llvm.atomicrmw min %{{.*}}, %{{.*}} monotonic : !llvm.ptr, i32
// CHECK: llvm.atomicrmw add %{{.*}}, %{{.*}} monotonic : !llvm.ptr, i32
// CHECK: llvm.atomicrmw xchg %{{.*}}, %{{.*}} monotonic : !llvm.ptr, bf16
func.func @kinds(%h: !tile.view<?xf16>, %i: !tile.view<?xi32>, %b: !tile.view<?xbf16>,
                 %k: tensor<4xi32>, %vh: tensor<4xf16>, %vb: tensor<4xbf16>) {
  %0 = tile.atomic_rmw max %vh, %h[%k] : tensor<4xf16>, !tile.view<?xf16>, [tensor<4xi32>]
  %1 = tile.atomic_rmw min %vh, %h[%k] : tensor<4xf16>, !tile.view<?xf16>, [tensor<4xi32>]
  %2 = tile.atomic_rmw max %k, %i[%k] : tensor<4xi32>, !tile.view<?xi32>, [tensor<4xi32>]
  %3 = tile.atomic_rmw min %k, %i[%k] : tensor<4xi32>, !tile.view<?xi32>, [tensor<4xi32>]
  %4 = tile.atomic_rmw add %k, %i[%k] : tensor<4xi32>, !tile.view<?xi32>, [tensor<4xi32>]
  %5 = tile.atomic_rmw xchg %vb, %b[%k] : tensor<4xbf16>, !tile.view<?xbf16>, [tensor<4xi32>]
  return
}

// Compare-and-swap compares bits: floats as integers of their width.
// CHECK-LABEL: func.func @cas(
// CHECK: %[[CMP:.*]] = tensor.extract %{{.*}} : tensor<4xf32>
// CHECK: %[[NEW:.*]] = tensor.extract %{{.*}} : tensor<4xf32>
// CHECK-DAG: %[[CB:.*]] = arith.bitcast %[[CMP]] : f32 to i32
// CHECK-DAG: %[[NB:.*]] = arith.bitcast %[[NEW]] : f32 to i32
// CHECK: %[[PAIR:.*]] = llvm.cmpxchg %{{.*}}, %[[CB]], %[[NB]] monotonic monotonic : !llvm.ptr, i32
// CHECK: %[[SEEN:.*]] = llvm.extractvalue %[[PAIR]][0] : !llvm.struct<(i32, i1)>
// CHECK: %[[OLD:.*]] = arith.bitcast %[[SEEN]] : i32 to f32
// CHECK: scf.yield %[[OLD]] : f32
func.func @cas(%x: !tile.view<?xf32>, %k: tensor<4xi32>, %e: tensor<4xf32>,
               %v: tensor<4xf32>) -> tensor<4xf32> {
  %o = tile.atomic_cas %e, %v, %x[%k] : tensor<4xf32>, !tile.view<?xf32>, [tensor<4xi32>]
  return %o : tensor<4xf32>
}
