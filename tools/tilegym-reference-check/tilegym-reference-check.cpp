//===- tilegym-reference-check.cpp - Self-test of the reference library ---===//
//
// Checks the reference library against facts known independently of it:
// IEEE bit patterns, hand-computed results, mathematical invariants. Prints
// one line per check and "N passed, N failed"; exits 1 on any failure.
// `--list` prints the registered programs instead.
//
//===----------------------------------------------------------------------===//

#include "Checks.h"

#include "tilegym/Reference/Reference.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <limits>
#include <sstream>

using namespace tilegym::ref;
using namespace tilegym::refcheck;

int tilegym::refcheck::numPassed = 0, tilegym::refcheck::numFailed = 0;

void tilegym::refcheck::check(bool ok, const std::string &name,
                              const std::string &detail) {
  if (ok) {
    ++numPassed;
    std::cout << "PASS: " << name << "\n";
    return;
  }
  ++numFailed;
  std::cout << "FAIL: " << name << (detail.empty() ? "" : ": " + detail)
            << "\n";
}

bool tilegym::refcheck::contains(const std::string &text,
                                 const std::string &part) {
  return text.find(part) != std::string::npos;
}

namespace {

//===----------------------------------------------------------------------===//
// Host tensors
//===----------------------------------------------------------------------===//

void checkTensors() {
  HostTensor t(DType::F32, {2, 3, 4});
  check(t.numel() == 24 && t.sizeInBytes() == 96 &&
            t.strides() == std::vector<int64_t>{12, 4, 1} &&
            reinterpret_cast<uintptr_t>(t.data()) % 64 == 0,
        "tensor size, strides and alignment");
  check(formatIndex(t.shape(), 23) == "[1, 2, 3]" &&
            formatIndex(t.shape(), 5) == "[0, 1, 1]",
        "linear index to multi-index");

  HostTensor bf(DType::BF16, {2});
  bf.set(0, 1.0 + std::ldexp(1.0, -9)); // Below the tie: rounds to 1.0.
  bf.set(1, -2.5);
  check(bf.get(0) == 1.0 && bf.get(1) == -2.5,
        "bf16 set rounds, get reads back");

  HostTensor i32(DType::I32, {4});
  i32.set(0, 2.6);
  i32.set(1, -2.5);
  i32.set(2, 1e12);
  i32.set(3, std::nan(""));
  check(i32.get(0) == 3 && i32.get(1) == -2 && i32.get(2) == 2147483647.0 &&
            i32.get(3) == 0,
        "i32 set rounds to nearest even and saturates");
  HostTensor i1(DType::I1, {2});
  i1.set(0, 0.3);
  i1.set(1, 0.0);
  check(i1.get(0) == 1 && i1.get(1) == 0, "i1 set stores value != 0");

  bool poisonOk = true;
  for (DType type : {DType::F32, DType::F16, DType::BF16, DType::I32, DType::I1,
                     DType::I64, DType::F8E4M3, DType::F8E5M2}) {
    HostTensor p(type, {5});
    p.fillPoison();
    for (int64_t i = 0; i < 5; ++i)
      poisonOk &= p.isPoison(i) && (!isFloat(type) || std::isnan(p.get(i)));
    p.set(2, 0.0);
    poisonOk &= !p.isPoison(2) && p.isPoison(3);
  }
  check(poisonOk, "poison fills, is detected, and is cleared by a write");
  HostTensor computedNaN(DType::F32, {1});
  computedNaN.set(0, std::nan(""));
  check(!computedNaN.isPoison(0), "a computed NaN is not poison");

  std::mt19937_64 rng1(42), rng2(42);
  HostTensor u1(DType::BF16, {1000}), u2(DType::BF16, {1000});
  u1.fillUniform(rng1, -3.0, 2.0);
  u2.fillUniform(rng2, -3.0, 2.0);
  bool inRange = true;
  double lo = INFINITY, hi = -INFINITY;
  for (int64_t i = 0; i < u1.numel(); ++i) {
    inRange &= u1.get(i) >= -3.0 && u1.get(i) <= 2.0;
    lo = std::min(lo, u1.get(i));
    hi = std::max(hi, u1.get(i));
  }
  check(inRange && lo < -2.9 && hi > 1.9 &&
            std::memcmp(u1.data(), u2.data(), u1.sizeInBytes()) == 0,
        "uniform fill: in range, spread, reproducible from the seed");
  HostTensor ints(DType::I32, {1000});
  ints.fillUniform(rng1, -2.5, 3.0);
  bool intsOk = true, sawLo = false, sawHi = false;
  for (int64_t i = 0; i < ints.numel(); ++i) {
    double v = ints.get(i);
    intsOk &= v >= -2 && v <= 3;
    sawLo |= v == -2;
    sawHi |= v == 3;
  }
  check(intsOk && sawLo && sawHi,
        "uniform i32 fill covers [ceil(lo), floor(hi)]");
}

//===----------------------------------------------------------------------===//
// Registry, sizes and signatures
//===----------------------------------------------------------------------===//

void checkRegistry() {
  const Reference *softmax = lookupReference("softmax");
  check(lookupReference("vector_add") && lookupReference("gelu") &&
            lookupReference("matmul") && lookupReference("attention") &&
            softmax,
        "flagship programs registered");
  check(lookupReference("softmax_online") == softmax &&
            lookupReference("softmax_looped") == softmax,
        "softmax aliases");
  check(!lookupReference("softmax2"), "unknown program gives nullptr");
  const Reference *causal = lookupReference("attention_causal");
  const Reference *full = lookupReference("attention");
  check(
      causal && optionEnabled(effectiveOptions(*causal, {}), "CAUSAL") &&
          optionEnabled(effectiveOptions(*causal, {{"CAUSAL", "0"}}),
                        "CAUSAL") &&
          !optionEnabled(effectiveOptions(*full, {}), "CAUSAL") &&
          !optionEnabled(effectiveOptions(*full, {{"CAUSAL", "1"}}), "CAUSAL"),
      "attention_causal is causal and attention is not, whatever a "
      "kernel's CAUSAL const says");

  bool consistent = true;
  for (const Reference &ref : registry()) {
    Sizes sizes = defaultSizes(ref);
    for (const ArgSpec &arg : ref.args)
      for (const std::string &dim : arg.dims)
        consistent &= sizes.count(dim) == 1;
    consistent &= ref.compute != nullptr;
  }
  check(consistent, "every argument dimension names a size parameter");

  Sizes matmulSizes = defaultSizes(*lookupReference("matmul"));
  check(matmulSizes == Sizes{{"M", 257}, {"N", 129}, {"K", 300}},
        "matmul default sizes");
}

void checkSizeParsing() {
  const Reference &ref = *lookupReference("softmax");
  Sizes sizes = defaultSizes(ref);
  std::string error;
  check(parseSizes(ref, "M=4096,N=512", sizes, error) &&
            sizes == Sizes{{"M", 4096}, {"N", 512}},
        "sizes 'M=4096,N=512' parse");
  check(parseSizes(ref, " N = 8 ", sizes, error) && sizes.at("N") == 8 &&
            sizes.at("M") == 4096 && parseSizes(ref, "", sizes, error) &&
            sizes.at("N") == 8,
        "sizes: spaces allowed, unnamed sizes and empty text change nothing");

  struct ErrorCase {
    const char *text;
    const char *message;
  };
  for (const ErrorCase &c :
       {ErrorCase{"M4096", "malformed size 'M4096': expected NAME=VALUE"},
        ErrorCase{"M=1,", "malformed size ''"},
        ErrorCase{"Q=3", "unknown size 'Q' for softmax; its sizes are M, N"},
        ErrorCase{"N=0", "size 'N' must be positive, got 0"},
        ErrorCase{"N=-5", "size 'N' must be positive, got -5"},
        ErrorCase{"N=abc", "size 'N': 'abc' is not an integer"},
        ErrorCase{"N=12x", "size 'N': '12x' is not an integer"},
        ErrorCase{"N=", "size 'N': '' is not an integer"},
        ErrorCase{"N=99999999999999999999",
                  "size 'N': 99999999999999999999 is out of range"},
        ErrorCase{"M=1,M=2", "size 'M' given twice"}}) {
    Sizes before = sizes;
    error.clear();
    bool ok = parseSizes(ref, c.text, sizes, error);
    check(!ok && contains(error, c.message) && sizes == before,
          std::string("sizes '") + c.text + "' rejected: " + c.message,
          "got '" + error + "'");
  }
}

void checkSignatures() {
  const Reference &ref = *lookupReference("matmul");
  std::string error;
  check(checkSignature(ref, {DType::BF16, DType::BF16, DType::F32}, {2, 2, 2},
                       error),
        "matching signature accepted");
  check(!checkSignature(ref, {DType::F32, DType::F32}, {2, 2}, error) &&
            contains(error, "kernel has 2 arguments but reference 'matmul' "
                            "expects 3"),
        "argument count mismatch rejected", error);
  check(!checkSignature(ref, {DType::F32, DType::F32, DType::F32}, {2, 1, 2},
                        error) &&
            contains(error, "argument 2 ('b') has rank 1 but reference "
                            "'matmul' expects b[K,N]"),
        "rank mismatch rejected", error);
}

//===----------------------------------------------------------------------===//
// The programs
//===----------------------------------------------------------------------===//

/// Runs `name` on inputs set from `values` (one list per input, f32).
std::vector<std::vector<double>>
runOn(const std::string &name, const Sizes &sizes,
      const std::vector<std::vector<double>> &values,
      const Options &defines = {}) {
  const Reference &ref = *lookupReference(name);
  std::vector<HostTensor> args;
  size_t input = 0;
  for (const ArgSpec &spec : ref.args) {
    HostTensor t(DType::F32, spec.shape(sizes));
    if (spec.role == Role::Input)
      for (int64_t i = 0; i < t.numel(); ++i)
        t.set(i, values[input][i]);
    input += spec.role == Role::Input;
    args.push_back(std::move(t));
  }
  return runReference(ref, sizes, effectiveOptions(ref, defines), args);
}

/// Random inputs for `name` at `sizes`, as values.
std::vector<std::vector<double>>
randomInputs(const std::string &name, const Sizes &sizes, uint64_t seed) {
  const Reference &ref = *lookupReference(name);
  std::vector<DType> dtypes(ref.args.size(), DType::F32);
  std::vector<HostTensor> args = makeArguments(ref, sizes, dtypes, seed);
  std::vector<std::vector<double>> values;
  for (size_t i = 0; i < args.size(); ++i) {
    if (ref.args[i].role != Role::Input)
      continue;
    values.emplace_back(args[i].numel());
    for (int64_t j = 0; j < args[i].numel(); ++j)
      values.back()[j] = args[i].get(j);
  }
  return values;
}

void checkVectorAdd() {
  auto c = runOn("vector_add", {{"N", 3}}, {{1, 2.5, -4}, {0.5, -2.5, 8}})[0];
  check(c == std::vector<double>{1.5, 0, 4}, "vector_add of 3 elements");
}

void checkGelu() {
  // x * w + b = 0, 1, -1, 1 (the last through w = 0.5, b = 0).
  auto y = runOn("gelu", {{"M", 1}, {"N", 4}},
                 {{0, 1, 1, 2}, {1, 1, -1, 0.5}, {0, 0, 0, 0}})[0];
  check(y[0] == 0.0, "gelu(0) = 0");
  check(std::fabs(y[1] - 0.8411919906) < 1e-9, "gelu(1) = 0.8411919906",
        "got " + std::to_string(y[1]));
  check(std::fabs(y[2] + 0.1588080094) < 1e-9, "gelu(-1) = -0.1588080094");
  check(y[3] == y[1], "gelu applies x * w + b before the activation");
}

void checkSoftmax() {
  const int64_t m = 4, n = 37;
  // Multiples of 1/8 in [-4, 4]: adding 2.0 to a row is exact in f32.
  std::vector<double> x(m * n), shifted(m * n);
  for (int64_t i = 0; i < m * n; ++i) {
    x[i] = static_cast<double>((i * 37) % 65 - 32) / 8.0;
    shifted[i] = x[i] + 2.0 * static_cast<double>(i / n);
  }
  Sizes sizes{{"M", m}, {"N", n}};
  auto y = runOn("softmax", sizes, {x})[0];
  auto yShifted = runOn("softmax", sizes, {shifted})[0];
  double worstSum = 0.0, worstShift = 0.0;
  for (int64_t i = 0; i < m; ++i) {
    double sum = 0.0;
    for (int64_t j = 0; j < n; ++j) {
      sum += y[i * n + j];
      worstShift =
          std::max(worstShift, std::fabs(y[i * n + j] - yShifted[i * n + j]));
    }
    worstSum = std::max(worstSum, std::fabs(sum - 1.0));
  }
  check(worstSum < 1e-12, "softmax rows sum to 1");
  check(worstShift < 1e-15, "softmax invariant to adding a constant per row");
  auto big = runOn("softmax", {{"M", 1}, {"N", 2}}, {{1000.0, 1000.0}})[0];
  check(big[0] == 0.5 && big[1] == 0.5, "softmax subtracts the row max");
}

void checkMatmul() {
  // [[1,2,3],[4,5,6]] @ [[7,8],[9,10],[11,12]] = [[58,64],[139,154]].
  auto c = runOn("matmul", {{"M", 2}, {"N", 2}, {"K", 3}},
                 {{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12}})[0];
  check(c == std::vector<double>{58, 64, 139, 154}, "matmul 2x3 @ 3x2");
}

void checkAttention() {
  // S = 1: the only weight is 1, so O = V exactly.
  Sizes one{{"B", 2}, {"H", 2}, {"S", 1}, {"D", 4}};
  auto in = randomInputs("attention", one, 1);
  check(runOn("attention", one, in)[0] == in[2],
        "attention with S=1 returns V");

  // Causal: query 0 sees key 0 alone, so O[b,h,0,:] = V[b,h,0,:].
  const int64_t s = 5, d = 8;
  Sizes sizes{{"B", 2}, {"H", 3}, {"S", s}, {"D", d}};
  in = randomInputs("attention", sizes, 2);
  auto causal = runOn("attention_causal", sizes, in)[0];
  auto full = runOn("attention", sizes, in)[0];
  bool firstRowIsV = true, laterRowsDiffer = false;
  for (int64_t bh = 0; bh < 6; ++bh)
    for (int64_t c = 0; c < d; ++c) {
      int64_t first = bh * s * d + c;
      firstRowIsV &= causal[first] == in[2][first];
      laterRowsDiffer |= causal[first + d] != full[first + d];
    }
  check(firstRowIsV, "causal attention: first query row equals V[..., 0, :]");
  check(laterRowsDiffer, "causal and full attention differ past row 0");
  check(runOn("attention_causal", sizes, in, {{"CAUSAL", "0"}})[0] == causal,
        "attention_causal computes causal attention, even told CAUSAL=0");
  bool lastRowSame = true;
  for (int64_t bh = 0; bh < 6; ++bh)
    for (int64_t c = 0; c < d; ++c)
      lastRowSame &= causal[bh * s * d + (s - 1) * d + c] ==
                     full[bh * s * d + (s - 1) * d + c];
  check(lastRowSame, "causal attention: the last query row sees every key");

  // D = 4 (scale 1/2), S = 2, q = [e0, 0], k = [0, 2 ln3 e0], v rows all 4
  // and all 8: row 0 scores [0, ln 3], weights [1/4, 3/4] -> 7; row 1 scores
  // equal -> 6; causal row 0 sees key 0 alone -> 4.
  Sizes tiny{{"B", 1}, {"H", 1}, {"S", 2}, {"D", 4}};
  std::vector<std::vector<double>> hand{
      {1, 0, 0, 0, 0, 0, 0, 0},
      {0, 0, 0, 0, 2 * std::log(3.0), 0, 0, 0},
      {4, 4, 4, 4, 8, 8, 8, 8}};
  auto o = runOn("attention", tiny, hand)[0];
  auto oc = runOn("attention_causal", tiny, hand)[0];
  bool handOk = true;
  for (int64_t c = 0; c < 4; ++c)
    handOk &= std::fabs(o[c] - 7) < 1e-6 && o[4 + c] == 6 && oc[c] == 4 &&
              oc[4 + c] == 6;
  check(handOk,
        "attention hand-computed case (scale 1/sqrt(D)), causal and not",
        "got row 0 " + std::to_string(o[0]) + ", row 1 " +
            std::to_string(o[4]) + ", causal row 0 " + std::to_string(oc[0]));
}

/// Runs `name` on random inputs with TILEGYM_REF_THREADS=`threads`.
std::vector<std::vector<double>>
runThreaded(const std::string &name, const Sizes &sizes, const char *threads) {
  setenv("TILEGYM_REF_THREADS", threads, 1);
  auto in = randomInputs(name, sizes, 3);
  return runOn(name, sizes, in);
}

bool sameBits(const std::vector<std::vector<double>> &a,
              const std::vector<std::vector<double>> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].size() != b[i].size() ||
        std::memcmp(a[i].data(), b[i].data(), a[i].size() * sizeof(double)))
      return false;
  return true;
}

/// Rows split over threads must not change a bit. 5 threads on 23..37 rows
/// give uneven ranges, whatever the machine's core count.
void checkThreads() {
  const char *saved = std::getenv("TILEGYM_REF_THREADS");
  std::string savedValue = saved ? saved : "";
  setenv("TILEGYM_REF_THREADS", "3", 1);
  check(referenceThreads() == 3, "TILEGYM_REF_THREADS sets the thread count");
  unsetenv("TILEGYM_REF_THREADS");
  unsigned byDefault = referenceThreads();
  setenv("TILEGYM_REF_THREADS", "0", 1);
  bool zeroIgnored = referenceThreads() == byDefault;
  setenv("TILEGYM_REF_THREADS", "4x", 1);
  check(byDefault >= 1 && zeroIgnored && referenceThreads() == byDefault,
        "invalid TILEGYM_REF_THREADS falls back to the core count");
  const std::vector<std::pair<std::string, Sizes>> cases{
      {"matmul", {{"M", 37}, {"N", 29}, {"K", 41}}},
      {"attention", {{"B", 2}, {"H", 3}, {"S", 23}, {"D", 16}}},
      {"attention_causal", {{"B", 2}, {"H", 3}, {"S", 23}, {"D", 16}}},
      {"softmax", {{"M", 33}, {"N", 100}}},
      {"gelu", {{"M", 31}, {"N", 50}}}};
  for (const auto &[name, sizes] : cases)
    check(
        sameBits(runThreaded(name, sizes, "1"), runThreaded(name, sizes, "5")),
        name + ": 5 threads equal 1 thread bit for bit");
  if (saved)
    setenv("TILEGYM_REF_THREADS", savedValue.c_str(), 1);
  else
    unsetenv("TILEGYM_REF_THREADS");
}

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

void checkCompare() {
  const Tolerance tol = defaultTolerance(DType::F32);
  HostTensor out(DType::F32, {4, 5});
  std::vector<double> ref(20);
  for (int64_t i = 0; i < 20; ++i) {
    out.set(i, 0.25 * static_cast<double>(i) - 2);
    ref[i] = out.get(i);
  }
  CompareResult same = compare("y", out, ref, tol);
  check(same.pass && same.mismatches == 0 && same.unwritten == 0 &&
            same.maxAbsErr == 0 && same.relErr == 0,
        "compare passes identical data");

  HostTensor perturbed = out.clone();
  perturbed.set(13, ref[13] + 1.0 / 1024); // Exact in f32.
  CompareResult bad = compare("y", perturbed, ref, tol);
  check(!bad.pass && bad.mismatches == 1 && bad.firstMismatch == 13 &&
            bad.firstMismatchExpected == ref[13] && bad.unwritten == 0 &&
            bad.maxAbsErr == 1.0 / 1024,
        "compare catches one perturbed element");

  HostTensor unwritten = out.clone();
  HostTensor poison(DType::F32, {1});
  poison.fillPoison();
  std::memcpy(static_cast<char *>(unwritten.data()) + 7 * 4, poison.data(), 4);
  CompareResult hole = compare("y", unwritten, ref, tol);
  check(!hole.pass && hole.unwritten == 1 && hole.firstUnwritten == 7 &&
            hole.mismatches == 0,
        "compare catches one unwritten element");

  HostTensor nan = out.clone();
  nan.set(3, std::nan(""));
  CompareResult nanResult = compare("y", nan, ref, tol);
  check(!nanResult.pass && nanResult.mismatches == 1 &&
            nanResult.unwritten == 0 && std::isinf(nanResult.maxAbsErr),
        "compare counts a computed NaN as a mismatch");

  // Every element off by 5e-6 * |ref| passes rtol = 1e-5 alone, but the
  // relative error 5e-6 must then stay under maxRelErr: tighten it to 1e-6.
  HostTensor drift = out.clone();
  for (int64_t i = 0; i < 20; ++i)
    drift.set(i, ref[i] * (1 + 5e-6));
  CompareResult drifted = compare("y", drift, ref, {1e-6, 1e-5, 1e-6});
  check(!drifted.pass && drifted.mismatches == 0 &&
            std::fabs(drifted.relErr - 5e-6) < 1e-7,
        "compare fails a spread error on the relative norm alone");

  CompareResult wrongSize = compare("y", out, std::vector<double>(3), tol);
  check(!wrongSize.pass && !wrongSize.error.empty(),
        "compare rejects a reference of the wrong size");

  std::ostringstream os;
  bool verdict = printVerdict(os, {same, bad, hole});
  const std::string text = os.str();
  check(!verdict &&
            contains(text, "y [4, 5] f32: max_abs_err=0.00e+00 "
                           "rel_err=0.00e+00 mismatches=0 "
                           "unwritten=0") &&
            contains(text, "y: first mismatch at [2, 3]: got 1.25097656, "
                           "expected 1.25") &&
            contains(text, "y: first unwritten at [1, 2]") &&
            contains(text, "verdict: FAIL (2 of 3 outputs failed)"),
        "summary lines and verdict", text);
}

void checkTolerances() {
  check(leastPreciseDType({DType::F32, DType::BF16, DType::F16}) ==
                DType::BF16 &&
            leastPreciseDType({DType::F32, DType::F16}) == DType::F16 &&
            leastPreciseDType({DType::I32}) == DType::I32,
        "least precise dtype");
  const Reference &matmul = *lookupReference("matmul");
  Tolerance tf32 = toleranceFor(matmul, {{"M", 1}, {"N", 1}, {"K", 400}},
                                {DType::F32, DType::F32, DType::F32});
  Tolerance bf16 = toleranceFor(matmul, {{"M", 1}, {"N", 1}, {"K", 400}},
                                {DType::BF16, DType::BF16, DType::F32});
  check(std::fabs(tf32.atol - 0.04) < 1e-12 && bf16.rtol == 2e-2,
        "matmul tolerance: tf32 for f32 inputs, the bf16 table for bf16");
}

/// For every program at its default sizes: a "kernel" that writes the
/// reference rounded to the output type passes, one that writes nothing
/// fails with every element unwritten.
void checkEndToEnd() {
  for (const Reference &ref : registry()) {
    for (DType type : {DType::F32, DType::F16, DType::BF16}) {
      Sizes sizes = defaultSizes(ref);
      std::vector<DType> dtypes(ref.args.size(), type);
      std::vector<HostTensor> args = makeArguments(ref, sizes, dtypes, 7);
      auto expected = runReference(ref, sizes, effectiveOptions(ref, {}), args);
      auto untouched = compareOutputs(ref, sizes, args, expected);
      size_t output = 0;
      for (size_t i = 0; i < args.size(); ++i) {
        if (ref.args[i].role != Role::Output)
          continue;
        for (int64_t j = 0; j < args[i].numel(); ++j)
          args[i].set(j, expected[output][j]);
        ++output;
      }
      auto written = compareOutputs(ref, sizes, args, expected);
      std::ostringstream summary;
      bool passed = printVerdict(summary, written);
      check(passed && !untouched[0].pass &&
                untouched[0].unwritten ==
                    static_cast<int64_t>(expected[0].size()),
            ref.name + " " + dtypeName(type) +
                ": rounded reference passes, poisoned output fails",
            summary.str());
    }
  }
}

//===----------------------------------------------------------------------===//
// Tolerances against kernels that compute the way fast GPU kernels do
//===----------------------------------------------------------------------===//

/// f32 -> tf32 as a tensor core takes f32 bits it was not given rounded:
/// the low 13 mantissa bits dropped (the worst case for the tolerance).
float truncateToTF32(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  bits &= 0xffffe000u;
  std::memcpy(&value, &bits, sizeof(bits));
  return value;
}

/// Writes the outputs through `kernel`, then compares with the reference.
template <typename Kernel>
void checkRealisticKernel(const std::string &what, const std::string &name,
                          const Sizes &sizes, DType type,
                          const Options &defines, Kernel kernel) {
  const Reference &ref = *lookupReference(name);
  std::vector<HostTensor> args =
      makeArguments(ref, sizes, std::vector<DType>(ref.args.size(), type), 11);
  kernel(args);
  auto expected =
      runReference(ref, sizes, effectiveOptions(ref, defines), args);
  std::ostringstream summary;
  bool passed =
      printVerdict(summary, compareOutputs(ref, sizes, args, expected));
  check(passed, what + " passes", summary.str());
}

void checkTolerancesAdmitRealKernels() {
  for (int64_t k : {300, 4096}) {
    Sizes sizes{{"M", 64}, {"N", 48}, {"K", k}};
    checkRealisticKernel(
        "matmul f32 in truncated tf32, f32 sums, K=" + std::to_string(k),
        "matmul", sizes, DType::F32, {}, [&](std::vector<HostTensor> &args) {
          for (int64_t i = 0; i < 64; ++i)
            for (int64_t j = 0; j < 48; ++j) {
              float acc = 0.0f;
              for (int64_t p = 0; p < k; ++p)
                acc +=
                    truncateToTF32(static_cast<float>(args[0].get(i * k + p))) *
                    truncateToTF32(static_cast<float>(args[1].get(p * 48 + j)));
              args[2].set(i * 48 + j, acc);
            }
        });
  }

  // Flash attention as GPU kernels run it: 64-key blocks, online softmax in
  // f32, probabilities rounded to bf16 before the P V product.
  for (bool causal : {false, true}) {
    Sizes sizes = defaultSizes(*lookupReference("attention"));
    const int64_t bhCount = sizes["B"] * sizes["H"], s = sizes["S"],
                  d = sizes["D"];
    Options defines{{"CAUSAL", causal ? "1" : "0"}};
    checkRealisticKernel(
        std::string("flash attention bf16") + (causal ? " causal" : ""),
        causal ? "attention_causal" : "attention", sizes, DType::BF16, defines,
        [&](std::vector<HostTensor> &args) {
          std::vector<double> q = args[0].values(), kv = args[1].values(),
                              v = args[2].values();
          const float scale = 1.0f / std::sqrt(static_cast<float>(d));
          for (int64_t bh = 0; bh < bhCount; ++bh)
            for (int64_t i = 0; i < s; ++i) {
              const int64_t base = bh * s * d;
              float rowMax = -INFINITY, rowSum = 0.0f;
              std::vector<float> acc(d, 0.0f);
              int64_t numKeys = causal ? i + 1 : s;
              for (int64_t start = 0; start < numKeys; start += 64) {
                int64_t end = std::min(numKeys, start + 64);
                std::vector<float> scores;
                float blockMax = rowMax;
                for (int64_t j = start; j < end; ++j) {
                  float dot = 0.0f;
                  for (int64_t c = 0; c < d; ++c)
                    dot += static_cast<float>(q[base + i * d + c]) *
                           static_cast<float>(kv[base + j * d + c]);
                  scores.push_back(dot * scale);
                  blockMax = std::max(blockMax, scores.back());
                }
                float alpha = std::exp(rowMax - blockMax);
                rowSum *= alpha;
                for (float &a : acc)
                  a *= alpha;
                for (int64_t j = start; j < end; ++j) {
                  float p = std::exp(scores[j - start] - blockMax);
                  rowSum += p;
                  float pBF16 = bf16BitsToFloat(floatToBF16Bits(p));
                  for (int64_t c = 0; c < d; ++c)
                    acc[c] += pBF16 * static_cast<float>(v[base + j * d + c]);
                }
                rowMax = blockMax;
              }
              for (int64_t c = 0; c < d; ++c)
                args[3].set(base + i * d + c, acc[c] / rowSum);
            }
        });
  }
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 2 && std::strcmp(argv[1], "--list") == 0) {
    for (const Reference &ref : registry())
      std::cout << describe(ref) << "\n";
    return 0;
  }
  if (argc != 1) {
    std::cerr << "usage: tilegym-reference-check [--list]\n";
    return 2;
  }
  checkElementTypes();
  checkTensors();
  checkRegistry();
  checkSizeParsing();
  checkSignatures();
  checkVectorAdd();
  checkGelu();
  checkSoftmax();
  checkMatmul();
  checkAttention();
  checkThreads();
  checkCompare();
  checkTolerances();
  checkEndToEnd();
  checkTolerancesAdmitRealKernels();
  std::cout << numPassed << " passed, " << numFailed << " failed\n";
  return numFailed == 0 ? 0 : 1;
}
