//===- Checks.h - tilegym-reference-check's shared pieces -------*- C++ -*-===//
//
// The pass/fail record every check writes to, and the checks that live
// outside the tool's main file.
//
//===----------------------------------------------------------------------===//
#ifndef TILEGYM_TOOLS_REFERENCE_CHECK_CHECKS_H
#define TILEGYM_TOOLS_REFERENCE_CHECK_CHECKS_H

#include <cstdint>
#include <string>

namespace tilegym::refcheck {

extern int numPassed, numFailed;

/// Prints "PASS: name" or "FAIL: name: detail" and counts it.
void check(bool ok, const std::string &name, const std::string &detail = "");

bool contains(const std::string &text, const std::string &part);

/// dtype names and the fp8, f16 and bf16 encodings (ElementTypes.cpp).
void checkElementTypes();

} // namespace tilegym::refcheck

#endif
