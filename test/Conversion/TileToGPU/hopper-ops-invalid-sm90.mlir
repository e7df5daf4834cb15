// RUN: tilegym-opt %s --convert-tile-to-gpu=chip=sm_90 --verify-diagnostics

// sm_90 (without the a) has the fence but not wgmma.
#mma = #tilegpu.mma<warps = [4, 1]>
func.func @mma_wait_on_sm90(%vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  tilegpu.fence_async_shared
  // expected-error @+1 {{'tilegpu.mma_wait' op waits for wgmma groups, which need sm_90a; the target is sm_90}}
  %w = tilegpu.mma_wait 0 %z : tensor<64x64xf32, #mma>
  tile.store %w, %vc[%c0, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}
