//===- CheckFolder.cpp - a run's inputs and expected outputs on disk ------===//

#include "tilegym/Reference/CheckFolder.h"
#include "tilegym/Reference/Npy.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace tilegym::ref {

namespace {

std::string nameOf(const std::vector<runtime::Param> &params, size_t i) {
  return params[i].name.empty() ? "arg" + std::to_string(i + 1)
                                : params[i].name;
}

bool exists(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

} // namespace

bool writeCheckSettings(const std::string &dir, const BoundArguments &bound,
                        const Tolerance &tolerance, std::string &error) {
  std::ofstream args(dir + "/args.txt", std::ios::trunc);
  for (size_t i = 0; i < bound.params.size(); ++i) {
    if (bound.params[i].kind != TG_ARG_SCALAR)
      continue;
    const tg_arg &a = bound.scalars[i];
    char value[32];
    if (a.dtype == TG_I32 || a.dtype == TG_I64)
      std::snprintf(value, sizeof value, "%lld", (long long)a.int_value);
    else
      std::snprintf(value, sizeof value, "%.17g", a.float_value);
    args << nameOf(bound.params, i) << "=" << value << "\n";
  }
  // Views the kernel only writes have no .npy input to give their shape.
  std::ofstream shapes(dir + "/shapes.txt", std::ios::trunc);
  for (size_t i = 0; i < bound.params.size(); ++i) {
    if (bound.params[i].kind != TG_ARG_VIEW || bound.params[i].read)
      continue;
    shapes << nameOf(bound.params, i) << "=";
    for (size_t d = 0; d < bound.tensors[i].shape().size(); ++d)
      shapes << (d ? "x" : "") << bound.tensors[i].shape()[d];
    shapes << "\n";
  }
  char line[128];
  std::snprintf(line, sizeof line, "atol=%.17g rtol=%.17g max_rel_err=%.17g\n",
                tolerance.atol, tolerance.rtol, tolerance.maxRelErr);
  std::ofstream tol(dir + "/tolerance.txt", std::ios::trunc);
  tol << line;
  if (!args || !tol || !shapes) {
    error = "cannot write args.txt, shapes.txt or tolerance.txt in " + dir;
    return false;
  }
  return true;
}

bool readCheckInputs(const std::string &dir,
                     const std::vector<runtime::Param> &params,
                     ArgumentChoices &choices, std::string &error) {
  auto given = [](const std::vector<std::string> &list,
                  const std::string &name) {
    for (const std::string &item : list)
      if (item.rfind(name + "=", 0) == 0 ||
          item.find("," + name + "=") != std::string::npos)
        return true;
    return false;
  };
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i].kind != TG_ARG_VIEW || !params[i].read)
      continue;
    std::string name = nameOf(params, i);
    if (given(choices.inputs, name) || given(choices.inits, name))
      continue;
    std::string path = dir + "/" + name + ".npy";
    if (!exists(path)) {
      error = "--check: " + path + " is missing (the input " + name + ")";
      return false;
    }
    choices.inputs.push_back(name + "=" + path);
  }
  std::ifstream shapes(dir + "/shapes.txt");
  if (!shapes) {
    error = "--check: " + dir + "/shapes.txt is missing";
    return false;
  }
  for (std::string line; std::getline(shapes, line);)
    if (!line.empty() && !given(choices.shapes, line.substr(0, line.find('='))))
      choices.shapes.push_back(line);
  std::ifstream args(dir + "/args.txt");
  if (!args) {
    error = "--check: " + dir + "/args.txt is missing";
    return false;
  }
  for (std::string line; std::getline(args, line);)
    if (!line.empty() &&
        !given(choices.scalars, line.substr(0, line.find('='))))
      choices.scalars.push_back(line);
  return true;
}

bool readExpectation(const std::string &dir, const BoundArguments &bound,
                     Expectation &expectation, std::string &error) {
  size_t n = bound.params.size();
  expectation.expected.assign(n, {});
  expectation.scale.assign(n, {});
  for (size_t i = 0; i < n; ++i) {
    if (bound.params[i].kind != TG_ARG_VIEW || !bound.params[i].written)
      continue;
    std::string base = dir + "/" + nameOf(bound.params, i);
    NpyArray array;
    if (!readNpy(base + ".ref.npy", kMaxArgumentElements, array, error))
      return false;
    if (array.shape != bound.tensors[i].shape()) {
      error = base + ".ref.npy has shape " + formatShape(array.shape) +
              ", the output " + formatShape(bound.tensors[i].shape());
      return false;
    }
    expectation.expected[i] = std::move(array.values);
    if (exists(base + ".scale.npy")) {
      if (!readNpy(base + ".scale.npy", kMaxArgumentElements, array, error))
        return false;
      if (array.values.size() != expectation.expected[i].size()) {
        error = base + ".scale.npy does not match " + base + ".ref.npy";
        return false;
      }
      expectation.scale[i] = std::move(array.values);
    }
  }
  std::ifstream tol(dir + "/tolerance.txt");
  std::string text((std::istreambuf_iterator<char>(tol)),
                   std::istreambuf_iterator<char>());
  Tolerance &t = expectation.tolerance;
  if (std::sscanf(text.c_str(), "atol=%lf rtol=%lf max_rel_err=%lf", &t.atol,
                  &t.rtol, &t.maxRelErr) != 3 ||
      !(t.atol >= 0) || !(t.rtol >= 0) || !(t.maxRelErr >= 0)) {
    error = dir + "/tolerance.txt is missing or malformed (expected "
                  "\"atol=A rtol=R max_rel_err=E\")";
    return false;
  }
  return true;
}

std::vector<CompareResult> compareWritten(const BoundArguments &bound,
                                          const Expectation &expectation) {
  std::vector<CompareResult> results;
  for (size_t i = 0; i < bound.params.size(); ++i) {
    if (bound.params[i].kind != TG_ARG_VIEW || !bound.params[i].written)
      continue;
    const std::vector<double> &scale = expectation.scale[i];
    results.push_back(compare(paramLabel(bound.params, i), bound.tensors[i],
                              expectation.expected[i], expectation.tolerance,
                              scale.empty() ? nullptr : &scale));
  }
  return results;
}

bool printUnchecked(std::ostream &os, const BoundArguments &bound,
                    const std::string &hint) {
  int64_t unwritten = 0;
  for (size_t i = 0; i < bound.params.size(); ++i) {
    if (bound.params[i].kind != TG_ARG_VIEW || !bound.params[i].written)
      continue;
    const HostTensor &t = bound.tensors[i];
    int64_t count = 0, nan = 0;
    for (int64_t e = 0; e < t.numel(); ++e) {
      if (t.isPoison(e))
        ++count;
      else if (std::isnan(t.get(e)))
        ++nan;
    }
    unwritten += count;
    os << paramLabel(bound.params, i) << " " << formatShape(t.shape()) << " "
       << dtypeName(t.dtype()) << ": unwritten=" << count << " nan=" << nan
       << "\n";
  }
  os << "verdict: UNCHECKED (no reference: " << hint << ")"
     << (unwritten ? "; some outputs were not written" : "") << "\n";
  return unwritten == 0;
}

} // namespace tilegym::ref
