module {
  func.func @k__grid(%arg0: !tile.view<?xf32>) -> (index, index, index) {
    %0 = tile.dim %arg0[0] : !tile.view<?xf32>
    %c1 = arith.constant 1 : index
    %1 = scf.index_switch %0 -> index
    case 2 {
      scf.yield %c1 : index
    }
    default {
      scf.yield %0 : index
    }
    return %1, %c1, %c1 : index, index, index
  }
  func.func @k(%arg0: !tile.view<?xf32>) attributes {tile.grid = @k__grid, tile.kernel, tile.num_warps = 4 : i64} {
    return
  }
}
