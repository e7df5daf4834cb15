// RUN: tilegym-opt %s --convert-tile-to-linalg | FileCheck %s

// A print loops over its tile in row-major order, one printf per element:
// the format (location, block, coordinates, prefix, one conversion per
// operand), the block's coordinates from the grid arguments, the element's,
// then the values as C's variadic arguments (f32 as f64, index as i64).
// CHECK-DAG: llvm.func @printf(!llvm.ptr, ...) -> i32
// CHECK-DAG: llvm.func @tilegym_cpu_assert_fail(!llvm.ptr, i32, i32, i32)
// CHECK-DAG: llvm.mlir.global internal constant @tilegym_print_0("{{.*}}debug.mlir:{{[0-9]+}}:3: block (%d, %d, %d) [%d, %d] x %%d = %g %lld\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @tilegym_print_1("{{.*}}debug.mlir:{{[0-9]+}}:3: block (%d, %d, %d) n %d\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @tilegym_assert_0("{{.*}}debug.mlir:{{[0-9]+}}:3: x in range\00")
// CHECK-LABEL: func.func @k(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x4xf32>, %[[I:[^:]*]]: index, %[[N:[^:]*]]: i32, %[[OK:[^:]*]]: tensor<2x4xi1>, %[[BX:[^:]*]]: index, %[[BY:[^:]*]]: index, %[[BZ:[^:]*]]: index
// CHECK-DAG: %[[BX32:.*]] = arith.index_cast %[[BX]] : index to i32
// CHECK-DAG: %[[BY32:.*]] = arith.index_cast %[[BY]] : index to i32
// CHECK-DAG: %[[BZ32:.*]] = arith.index_cast %[[BZ]] : index to i32
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK:   scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
// CHECK:     %[[R32:.*]] = arith.index_cast %[[R]] : index to i32
// CHECK:     %[[C32:.*]] = arith.index_cast %[[C]] : index to i32
// CHECK:     %[[E:.*]] = tensor.extract %[[X]][%[[R]], %[[C]]] : tensor<2x4xf32>
// CHECK:     %[[E64:.*]] = arith.extf %[[E]] : f32 to f64
// CHECK:     %[[I64:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK:     llvm.call @printf(%{{.*}}, %[[BX32]], %[[BY32]], %[[BZ32]], %[[R32]], %[[C32]], %[[E64]], %[[I64]]) vararg
// A print without a tile is one call.
// CHECK-NOT: scf.for
// CHECK: llvm.call @printf(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[N]]) vararg
// An assert folds its tile with `and`, then calls the JIT's failure hook
// with the message and the block when the result is false.
// CHECK: %[[ALL:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %true{{.*}}) -> (i1)
// CHECK:   scf.for {{.*}} -> (i1)
// CHECK:     %[[B:.*]] = tensor.extract %[[OK]]
// CHECK:     arith.andi %{{.*}}, %[[B]] : i1
// CHECK: %[[FAILS:.*]] = arith.xori %[[ALL]], %true
// CHECK: scf.if %[[FAILS]] {
// CHECK:   llvm.call @tilegym_cpu_assert_fail(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, i32, i32, i32) -> ()
func.func @k(%x: tensor<2x4xf32>, %i: index, %n: i32, %ok: tensor<2x4xi1>) attributes {tile.kernel, tile.debug = 1 : i64} {
  tile.print "x %d =" : %x, %i : tensor<2x4xf32>, index
  tile.print "n" : %n : i32
  tile.assert %ok, "x in range" : tensor<2x4xi1>
  return
}
