//===- Programs.h - Constructors of the registered programs -----*- C++ -*-===//
//
// Private to the library. One function per program, called in order by
// registry(): an explicit list rather than self-registering static objects,
// which a static library's link could silently drop.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGYM_LIB_REFERENCE_PROGRAMS_H
#define TILEGYM_LIB_REFERENCE_PROGRAMS_H

#include "tilegym/Reference/Reference.h"

namespace tilegym::ref {

Reference makeVectorAddReference();
Reference makeGeluReference();
Reference makeSoftmaxReference();
Reference makeMatmulReference();
Reference makeAttentionReference(bool causal);

} // namespace tilegym::ref

#endif // TILEGYM_LIB_REFERENCE_PROGRAMS_H
