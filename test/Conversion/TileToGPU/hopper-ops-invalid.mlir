// RUN: tilegym-opt %s --split-input-file --convert-tile-to-gpu=chip=sm_80 --verify-diagnostics
//
// IR that names Hopper's instructions, lowered for a chip without them: the
// emitter says which instruction needs which chip rather than writing PTX
// that ptxas rejects (or, for the fence, drops silently).

#mma = #tilegpu.mma<warps = [4, 1]>
func.func @wgmma_on_sm80(%vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64, tilegpu.shared_memory = 16384 : i64} {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %ra = tilegpu.local_alloc {tilegpu.shared = #tilegpu.shared<offset = 0, bytes = 8192>} : !tilegpu.memdesc<64x64xbf16, swizzle = 128>
  %rb = tilegpu.local_alloc {tilegpu.shared = #tilegpu.shared<offset = 8192, bytes = 8192>} : !tilegpu.memdesc<64x64xbf16, swizzle = 128>
  %bt = tilegpu.memdesc_trans %rb : !tilegpu.memdesc<64x64xbf16, swizzle = 128> -> !tilegpu.memdesc<64x64xbf16, swizzle = 128, transposed>
  // expected-error @+1 {{'tilegpu.mma' op is a wgmma dot, which needs sm_90a; the target is sm_80}}
  %d = tilegpu.mma wgmma %ra, %bt, %z : !tilegpu.memdesc<64x64xbf16, swizzle = 128>, !tilegpu.memdesc<64x64xbf16, swizzle = 128, transposed>, tensor<64x64xf32, #mma>
  tile.store %d, %vc[%c0, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#mma = #tilegpu.mma<warps = [4, 1]>
func.func @mma_wait_on_sm80(%vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  // expected-error @+1 {{'tilegpu.mma_wait' op waits for wgmma groups, which need sm_90a; the target is sm_80}}
  %w = tilegpu.mma_wait 0 %z : tensor<64x64xf32, #mma>
  tile.store %w, %vc[%c0, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

func.func @fence_on_sm80() attributes {tile.kernel, tile.num_warps = 4 : i64} {
  // expected-error @+1 {{'tilegpu.fence_async_shared' op is a proxy fence, which needs sm_90 or later; the target is sm_80}}
  tilegpu.fence_async_shared
  return
}


// -----

func.func @mbarrier_arrive_on_sm80() attributes {tile.kernel, tile.num_warps = 4 : i64, tilegpu.shared_memory = 16 : i64} {
  %c0 = arith.constant 0 : i32
  %bars = tilegpu.mbarrier_alloc {tilegpu.shared = #tilegpu.shared<offset = 0, bytes = 16>} : !tilegpu.mbarriers<1>
  // expected-error @+1 {{'tilegpu.mbarrier_arrive' op needs sm_90 or later; the target is sm_80}}
  tilegpu.mbarrier_arrive %bars[%c0] : !tilegpu.mbarriers<1>
  return
}
