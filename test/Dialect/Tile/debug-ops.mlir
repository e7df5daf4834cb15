// RUN: tilegym-opt %s --split-input-file | FileCheck %s
// RUN: tilegym-opt %s --split-input-file --mlir-print-op-generic | tilegym-opt --split-input-file | FileCheck %s

// tile.print takes a prefix and scalars or one tile; tile.assert an i1
// scalar or tile and a message.
// CHECK-LABEL: func.func @debug_ops
// CHECK: tile.print "x =" : %{{.*}}, %{{.*}}, %{{.*}} : tensor<4x8xf32>, index, i32
// CHECK: tile.print "just text"
// CHECK-NEXT: %[[S:.*]] = arith.addi
// CHECK-NEXT: tile.print "then" : %[[S]] : index
// CHECK: tile.assert %{{.*}}, "x in range" : tensor<4x8xi1>
// CHECK: tile.assert %{{.*}}, "scalar" : i1
func.func @debug_ops(%x: tensor<4x8xf32>, %i: index, %n: i32, %ok: tensor<4x8xi1>, %s: i1) {
  tile.print "x =" : %x, %i, %n : tensor<4x8xf32>, index, i32
  tile.print "just text"
  %sum = arith.addi %i, %i : index
  tile.print "then" : %sum : index
  tile.assert %ok, "x in range" : tensor<4x8xi1>
  tile.assert %s, "scalar" : i1
  return
}
