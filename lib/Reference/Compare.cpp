//===- Compare.cpp - Comparing kernel outputs with a reference ------------===//

#include "tilegym/Reference/Compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace tilegym::ref {

namespace {

std::string formatDouble(const char *format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), format, value);
  return buffer;
}

/// Enough digits to tell neighbouring f32 values apart.
std::string formatValue(double value) { return formatDouble("%.9g", value); }
std::string formatError(double value) {
  return std::isnan(value) ? "nan" : formatDouble("%.2e", value);
}

int precisionRank(DType type) {
  switch (type) {
  case DType::F8E5M2:
    return -2;
  case DType::F8E4M3:
    return -1;
  case DType::BF16:
    return 0;
  case DType::F16:
    return 1;
  case DType::F32:
    return 2;
  case DType::F64:
    return 3;
  case DType::I8:
  case DType::I32:
  case DType::I64:
  case DType::I1:
    break;
  }
  return 4;
}

} // namespace

Tolerance defaultTolerance(DType precision) {
  switch (precision) {
  case DType::F32:
    return {1e-6, 1e-5, 1e-5};
  case DType::F16:
    return {1e-3, 2e-3, 2e-3};
  case DType::BF16:
    return {1e-2, 2e-2, 1e-2};
  case DType::F64:
    return {1e-12, 1e-10, 1e-10};
  case DType::F8E4M3:
    return {1.6e-2, 0.125, 0.0625};
  case DType::F8E5M2:
    return {3.2e-2, 0.25, 0.125};
  case DType::I8:
  case DType::I32:
  case DType::I64:
  case DType::I1:
    break;
  }
  return {0.0, 0.0, 0.0};
}

DType leastPreciseDType(const std::vector<DType> &dtypes) {
  DType least = DType::I32;
  for (DType type : dtypes)
    if (precisionRank(type) < precisionRank(least))
      least = type;
  return least;
}

CompareResult compare(const std::string &name, const HostTensor &out,
                      const std::vector<double> &ref,
                      const Tolerance &tolerance,
                      const std::vector<double> *scale) {
  CompareResult result;
  result.name = name;
  result.shape = out.shape();
  result.dtype = out.dtype();
  result.tolerance = tolerance;
  if (static_cast<int64_t>(ref.size()) != out.numel() ||
      (scale && scale->size() != ref.size())) {
    result.error = "output has " + std::to_string(out.numel()) +
                   " elements but the reference has " +
                   std::to_string(ref.size());
    return result;
  }

  double diffSq = 0.0, refSq = 0.0;
  for (int64_t i = 0; i < out.numel(); ++i) {
    if (out.isPoison(i)) {
      if (result.unwritten++ == 0)
        result.firstUnwritten = i;
      continue;
    }
    double got = out.get(i), expected = ref[i];
    double diff = std::fabs(got - expected);
    // The conditioning of the element: |ref|, or the reference on |inputs|
    // where that is larger and finite (a sum's or dot's error bound).
    double magnitude = std::fabs(expected);
    if (scale && std::isfinite((*scale)[i]))
      magnitude = std::max(magnitude, std::fabs((*scale)[i]));
    diffSq += diff * diff;
    refSq += magnitude * magnitude;
    result.maxAbsErr = std::isnan(diff)
                           ? std::numeric_limits<double>::infinity()
                           : std::max(result.maxAbsErr, diff);
    // `got == expected` admits matching infinities; NaN fails both tests.
    bool ok =
        got == expected || diff <= tolerance.atol + tolerance.rtol * magnitude;
    if (!ok && result.mismatches++ == 0) {
      result.firstMismatch = i;
      result.firstMismatchGot = got;
      result.firstMismatchExpected = expected;
    }
  }
  double diffNorm = std::sqrt(diffSq), refNorm = std::sqrt(refSq);
  result.relErr = refNorm > 0.0 ? diffNorm / refNorm : diffNorm;
  result.pass = result.mismatches == 0 && result.unwritten == 0 &&
                result.relErr <= tolerance.maxRelErr;
  return result;
}

void printSummary(std::ostream &os, const CompareResult &result) {
  os << result.name << " " << formatShape(result.shape) << " "
     << dtypeName(result.dtype) << ": ";
  if (!result.error.empty()) {
    os << "error: " << result.error << " FAIL\n";
    return;
  }
  const Tolerance &tol = result.tolerance;
  os << "max_abs_err=" << formatError(result.maxAbsErr)
     << " rel_err=" << formatError(result.relErr)
     << " mismatches=" << result.mismatches << " unwritten=" << result.unwritten
     << " (atol=" << tol.atol << " rtol=" << tol.rtol
     << " max_rel_err=" << tol.maxRelErr << ") "
     << (result.pass ? "PASS" : "FAIL") << "\n";
  if (result.firstMismatch >= 0)
    os << result.name << ": first mismatch at "
       << formatIndex(result.shape, result.firstMismatch) << ": got "
       << formatValue(result.firstMismatchGot) << ", expected "
       << formatValue(result.firstMismatchExpected) << "\n";
  if (result.firstUnwritten >= 0)
    os << result.name << ": first unwritten at "
       << formatIndex(result.shape, result.firstUnwritten) << "\n";
}

bool printVerdict(std::ostream &os, const std::vector<CompareResult> &results) {
  size_t failed = 0;
  for (const CompareResult &result : results) {
    printSummary(os, result);
    failed += !result.pass;
  }
  if (failed == 0) {
    os << "verdict: PASS\n";
    return true;
  }
  os << "verdict: FAIL (" << failed << " of " << results.size()
     << " outputs failed)\n";
  return false;
}

} // namespace tilegym::ref
