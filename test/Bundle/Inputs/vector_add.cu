// A hand-written stand-in for the GPU backend's vector_add, used to prove
// tilegym-runner on a real GPU before the backend exists (docs/gpu.md). It
// follows the runtime's packing: each view is (allocated pointer, aligned
// pointer, offset, size, stride), 64-bit each. One block of 128 threads
// per 1024 elements, as examples/vector_add.tile's grid says.
//
//   nvcc --ptx -arch=sm_90a -DELEM=float vector_add.cu -o vector_add.ptx
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#ifndef ELEM
#define ELEM float
#endif

#define VIEW(x) ELEM *x##_alloc, ELEM *x, long long x##_offset, long long x##_size, \
    long long x##_stride

extern "C" __global__ void __launch_bounds__(128)
vector_add(VIEW(a), VIEW(b), VIEW(c)) {
  long long base = (long long)blockIdx.x * 1024 + threadIdx.x;
#pragma unroll
  for (int k = 0; k < 8; ++k) {
    long long i = base + k * 128;
    if (i < c_size)
      c[c_offset + i * c_stride] =
          a[a_offset + i * a_stride] + b[b_offset + i * b_stride];
  }
}
