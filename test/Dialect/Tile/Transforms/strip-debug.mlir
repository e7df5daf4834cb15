// RUN: tilegym-opt %s --tile-strip-debug | FileCheck %s

// Without tile.debug = 1 the prints and asserts go; the values they read
// stay (canonicalization removes them).
// CHECK-LABEL: func.func @release
// CHECK-NEXT: %{{.*}} = arith.cmpf
// CHECK-NEXT: return
func.func @release(%x: tensor<4xf32>) attributes {tile.kernel} {
  tile.print "x" : %x : tensor<4xf32>
  %ok = arith.cmpf olt, %x, %x : tensor<4xf32>
  tile.assert %ok, "x" : tensor<4xi1>
  return
}

// tile.debug = 0 is a release build too.
// CHECK-LABEL: func.func @debug_off
// CHECK-NOT: tile.print
// CHECK: return
func.func @debug_off(%n: index) attributes {tile.kernel, tile.debug = 0 : i64} {
  tile.print "n" : %n : index
  return
}

// Kept with tile.debug = 1, inside loops too.
// CHECK-LABEL: func.func @debug
// CHECK: tile.print "x" : %{{.*}} : tensor<4xf32>
// CHECK: scf.for
// CHECK:   tile.assert %{{.*}}, "in loop" : i1
func.func @debug(%x: tensor<4xf32>, %b: i1, %n: index) attributes {tile.kernel, tile.debug = 1 : i64} {
  tile.print "x" : %x : tensor<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    tile.assert %b, "in loop" : i1
  }
  return
}
