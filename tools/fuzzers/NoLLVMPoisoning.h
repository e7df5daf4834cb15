//===- NoLLVMPoisoning.h - LLVM's arena annotations off for ASan -*- C++
//-*-===//
//
// Force-included (-include) in every translation unit that a fuzz build
// instruments. LLVM's headers annotate their arena allocators for ASan when
// the including code is built with it (llvm/Support/Allocator.h poisons a
// new slab and unpoisons each allocation from it; Recycler and ArrayRecycler
// likewise). Debian's libLLVM.so and libMLIR.so are not built with ASan, so
// their copies of those inline functions annotate nothing: a slab that an
// instrumented inline StartNewSlab() poisoned is then handed out by the
// library's uninstrumented Allocate() without being unpoisoned, and the next
// write to it (e.g. mlir::RankedTensorType::get from the tile dialect's
// parser) is reported as a use-after-poison that is not a bug. Making the
// annotations no-ops here, as they are in the libraries, removes those false
// reports; ASan still checks every heap and stack access of the
// instrumented code.
//
//===----------------------------------------------------------------------===//
#ifndef TILEGYM_TOOLS_FUZZERS_NOLLVMPOISONING_H
#define TILEGYM_TOOLS_FUZZERS_NOLLVMPOISONING_H

#if defined(__has_include)
#if __has_include(<sanitizer/asan_interface.h>)
// First, so that llvm/Support/Compiler.h's own include of it is a no-op and
// the declarations do not clash with the macros below.
#include <sanitizer/asan_interface.h>
#endif
#endif

#define __asan_poison_memory_region(p, size) ((void)(p), (void)(size))
#define __asan_unpoison_memory_region(p, size) ((void)(p), (void)(size))

#endif // TILEGYM_TOOLS_FUZZERS_NOLLVMPOISONING_H
