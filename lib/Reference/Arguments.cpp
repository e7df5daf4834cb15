//===- Arguments.cpp - any kernel's arguments, from its signature ---------===//

#include "tilegym/Reference/Arguments.h"
#include "tilegym/Reference/Npy.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace tilegym::ref {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

/// Splits "a=1,b=2" into ("a", "1"), ("b", "2"); commas inside parentheses
/// do not split ("uniform(0,1)").
bool splitItems(const std::string &option, const std::string &text,
                bool splitCommas,
                std::vector<std::pair<std::string, std::string>> &items,
                std::string &error) {
  std::vector<std::string> parts;
  int depth = 0;
  std::string current;
  for (char c : text) {
    depth += c == '(' ? 1 : c == ')' ? -1 : 0;
    if (c == ',' && depth == 0 && splitCommas) {
      parts.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  parts.push_back(current);
  for (const std::string &part : parts) {
    std::string_view item = trim(part);
    size_t eq = item.find('=');
    if (eq == std::string_view::npos || trim(item.substr(0, eq)).empty() ||
        trim(item.substr(eq + 1)).empty()) {
      error = option + ": '" + std::string(item) + "' is not NAME=VALUE";
      return false;
    }
    items.emplace_back(std::string(trim(item.substr(0, eq))),
                       std::string(trim(item.substr(eq + 1))));
  }
  return true;
}

/// Runs `body(name, value)` on every item of every occurrence of `option`
/// (`texts`), in order; stops at the first that fails (body sets `error`).
template <typename Body>
static bool forEachItem(const char *option,
                        const std::vector<std::string> &texts,
                        std::string &error, Body body) {
  for (const std::string &text : texts) {
    std::vector<std::pair<std::string, std::string>> items;
    if (!splitItems(option, text, true, items, error))
      return false;
    for (const auto &[name, value] : items)
      if (!body(name, value))
        return false;
  }
  return true;
}

bool parseCount(std::string_view text, int64_t &value) {
  auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  return !text.empty() && ec == std::errc() &&
         end == text.data() + text.size() && value >= 0;
}

bool parseNumber(std::string_view text, double &value) {
  std::string s(trim(text));
  if (s.empty())
    return false;
  char *end = nullptr;
  errno = 0;
  value = std::strtod(s.c_str(), &end);
  return *end == '\0' && std::isfinite(value);
}

/// "normal", "normal(m,s)", "uniform(a,b)", "randint(a,b)", "zeros",
/// "ones", "full(v)".
bool parseDistribution(const std::string &text, Distribution &d,
                       std::string &error) {
  std::string name = text, args;
  size_t paren = text.find('(');
  if (paren != std::string::npos) {
    if (text.back() != ')') {
      error = "'" + text + "' lacks its closing ')'";
      return false;
    }
    name = text.substr(0, paren);
    args = text.substr(paren + 1, text.size() - paren - 2);
  }
  std::vector<double> numbers;
  if (paren != std::string::npos) {
    std::string_view rest = args;
    while (true) {
      size_t comma = rest.find(',');
      double v;
      if (!parseNumber(rest.substr(0, comma), v)) {
        error = "'" + text + "': '" + std::string(trim(rest.substr(0, comma))) +
                "' is not a finite number";
        return false;
      }
      numbers.push_back(v);
      if (comma == std::string_view::npos)
        break;
      rest.remove_prefix(comma + 1);
    }
  }
  auto want = [&](size_t n) {
    if (numbers.size() == n)
      return true;
    error =
        "'" + text + "': " + name + " takes " + std::to_string(n) + " numbers";
    return false;
  };
  if (name == "uniform" || name == "randint") {
    if (!want(2))
      return false;
    d.kind = name == "uniform" ? Distribution::Kind::Uniform
                               : Distribution::Kind::RandInt;
    d.a = numbers[0];
    d.b = numbers[1];
    if (d.a > d.b || (d.kind == Distribution::Kind::RandInt &&
                      std::floor(d.b) < std::ceil(d.a))) {
      error = "'" + text + "': the range is empty";
      return false;
    }
    return true;
  }
  if (name == "normal") {
    if (paren == std::string::npos)
      numbers = {0.0, 1.0};
    if (!want(2))
      return false;
    if (numbers[1] < 0) {
      error = "'" + text + "': the standard deviation is negative";
      return false;
    }
    d = {Distribution::Kind::Normal, numbers[0], numbers[1], ""};
    return true;
  }
  if (name == "zeros" || name == "ones") {
    if (paren != std::string::npos && !want(0))
      return false;
    d = {Distribution::Kind::Constant, name == "ones" ? 1.0 : 0.0, 0, ""};
    return true;
  }
  if (name == "full") {
    if (!want(1))
      return false;
    d = {Distribution::Kind::Constant, numbers[0], 0, ""};
    return true;
  }
  error = "unknown distribution '" + text +
          "'; expected normal, normal(MEAN,STD), uniform(LO,HI), "
          "randint(LO,HI), zeros, ones or full(VALUE)";
  return false;
}

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

} // namespace

std::optional<DType> refDType(tg_dtype dtype) {
  return parseDType(runtime::dtypeName(dtype));
}

std::string Distribution::describe() const {
  switch (kind) {
  case Kind::Uniform:
    return "uniform(" + number(a) + "," + number(b) + ")";
  case Kind::Normal:
    return "normal(" + number(a) + "," + number(b) + ")";
  case Kind::RandInt:
    return "randint(" + number(a) + "," + number(b) + ")";
  case Kind::Constant:
    return "full(" + number(a) + ")";
  case Kind::File:
    return file;
  case Kind::Poison:
    return "poisoned";
  }
  return "?";
}

std::string paramLabel(const std::vector<runtime::Param> &params, size_t i) {
  return params[i].name.empty() ? "parameter " + std::to_string(i + 1)
                                : params[i].name;
}

tg_arg hostView(tg_dtype dtype, HostTensor &tensor) {
  return tg_view(dtype, reinterpret_cast<uint64_t>(tensor.data()),
                 int32_t(tensor.rank()), tensor.shape().data(),
                 tensor.strides().data());
}

std::vector<tg_arg> BoundArguments::hostArgs() {
  std::vector<tg_arg> args;
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i].kind == TG_ARG_SCALAR) {
      args.push_back(scalars[i]);
      continue;
    }
    args.push_back(hostView(params[i].dtype, tensors[i]));
  }
  return args;
}

bool bindArguments(const std::vector<runtime::Param> &params,
                   const ArgumentChoices &choices, uint64_t seed,
                   BoundArguments &bound, std::string &error) {
  const size_t n = params.size();
  auto find = [&](const std::string &option, const std::string &name,
                  size_t &index) {
    for (size_t i = 0; i < n; ++i)
      if (params[i].name == name) {
        index = i;
        return true;
      }
    std::string names;
    for (size_t i = 0; i < n; ++i)
      names += (i ? ", " : "") + paramLabel(params, i);
    error = option + ": no parameter named '" + name +
            "'; the kernel's "
            "parameters are " +
            (names.empty() ? "none" : names);
    return false;
  };
  auto requireView = [&](const std::string &option, size_t i) {
    if (params[i].kind == TG_ARG_VIEW)
      return true;
    error = option + ": '" + params[i].name +
            "' is a scalar; give it with --arg " + params[i].name + "=VALUE";
    return false;
  };

  // Shapes given whole: --shape, then the .npy files of --input.
  std::vector<std::vector<int64_t>> given(n);
  std::vector<std::string> givenBy(n);
  std::vector<Distribution> fills(n);
  std::vector<std::vector<double>> fileValues(n);
  std::vector<bool> hasFill(n, false);
  if (!forEachItem(
          "--shape", choices.shapes, error,
          [&](const std::string &name, const std::string &value) {
            size_t i;
            if (!find("--shape", name, i) || !requireView("--shape", i))
              return false;
            if (!givenBy[i].empty()) {
              error = "--shape: '" + name + "' given twice";
              return false;
            }
            std::vector<int64_t> shape;
            std::string_view rest = value;
            while (true) {
              size_t x = rest.find('x');
              int64_t d;
              if (!parseCount(trim(rest.substr(0, x)), d) ||
                  d > kMaxArgumentElements) {
                error = "--shape " + name + "=" + value + ": '" +
                        std::string(trim(rest.substr(0, x))) +
                        "' is not a size (expected sizes joined by 'x', e.g. "
                        "4096x1024)";
                return false;
              }
              shape.push_back(d);
              if (x == std::string_view::npos)
                break;
              rest.remove_prefix(x + 1);
            }
            given[i] = shape;
            givenBy[i] = "--shape " + name + "=" + value;
            return true;
          }))
    return false;
  if (!forEachItem(
          "--input", choices.inputs, error,
          [&](const std::string &name, const std::string &file) {
            size_t i;
            if (!find("--input", name, i) || !requireView("--input", i))
              return false;
            if (hasFill[i]) {
              error = "--input: '" + name + "' given twice";
              return false;
            }
            NpyArray array;
            if (!readNpy(file, kMaxArgumentElements, array, error)) {
              error = "--input " + name + ": " + error;
              return false;
            }
            if (!givenBy[i].empty() && given[i] != array.shape) {
              error = "--input " + name + ": " + file + " has shape " +
                      formatShape(array.shape) + ", but " + givenBy[i] +
                      " says " + formatShape(given[i]);
              return false;
            }
            if (!isFloat(*refDType(params[i].dtype)) && array.descr[1] == 'f') {
              for (double v : array.values)
                if (v != std::floor(v)) {
                  error = "--input " + name + ": " + file + " holds " +
                          number(v) + ", not an integer, for a view of " +
                          runtime::dtypeName(params[i].dtype);
                  return false;
                }
            }
            given[i] = array.shape;
            givenBy[i] = "--input " + name + "=" + file;
            fills[i] = {Distribution::Kind::File, 0, 0, file};
            fileValues[i] = std::move(array.values);
            hasFill[i] = true;
            return true;
          }))
    return false;
  if (!forEachItem("--init", choices.inits, error,
                   [&](const std::string &name, const std::string &dist) {
                     size_t i;
                     if (!find("--init", name, i) || !requireView("--init", i))
                       return false;
                     if (hasFill[i]) {
                       error = "--init: '" + name + "' is already filled (" +
                               fills[i].describe() + ")";
                       return false;
                     }
                     if (!parseDistribution(dist, fills[i], error)) {
                       error = "--init " + name + ": " + error;
                       return false;
                     }
                     hasFill[i] = true;
                     return true;
                   }))
    return false;

  // Dimension names: from --size, then from whole shapes; all must agree.
  std::set<std::string> dimNames;
  for (const runtime::Param &p : params)
    for (const std::string &d : p.dims)
      if (!d.empty())
        dimNames.insert(d);
  Sizes sizes;
  std::map<std::string, std::string> sizeSource;
  if (!forEachItem("--size", choices.sizes, error,
                   [&](const std::string &name, const std::string &value) {
                     if (!dimNames.count(name)) {
                       std::string names;
                       for (const std::string &d : dimNames)
                         names += (names.empty() ? "" : ", ") + d;
                       error =
                           "--size: no dimension named '" + name + "'; " +
                           (names.empty()
                                ? "this kernel names none (give whole shapes "
                                  "with --shape NAME=AxB)"
                                : "this kernel's dimension names are " + names);
                       return false;
                     }
                     int64_t v;
                     if (!parseCount(value, v) || v > kMaxArgumentElements) {
                       error = "--size " + name + "=" + value +
                               ": not a size (an integer "
                               "from 0 to " +
                               std::to_string(kMaxArgumentElements) + ")";
                       return false;
                     }
                     if (sizeSource.count(name)) {
                       error = "--size: '" + name + "' given twice";
                       return false;
                     }
                     sizes[name] = v;
                     sizeSource[name] = "--size " + name + "=" + value;
                     return true;
                   }))
    return false;
  std::vector<std::vector<int64_t>> shapes(n);
  for (size_t i = 0; i < n; ++i) {
    const runtime::Param &p = params[i];
    if (p.kind != TG_ARG_VIEW || givenBy[i].empty())
      continue;
    if (given[i].size() != p.sizes.size()) {
      error = givenBy[i] + ": " + paramLabel(params, i) + " has rank " +
              std::to_string(p.sizes.size()) + ", the shape " +
              formatShape(given[i]) + " rank " +
              std::to_string(given[i].size());
      return false;
    }
    for (size_t d = 0; d < p.sizes.size(); ++d) {
      int64_t v = given[i][d];
      if (p.sizes[d] != TG_DYNAMIC && v != p.sizes[d]) {
        error = givenBy[i] + ": dimension " + std::to_string(d) + " of " +
                paramLabel(params, i) + " is static, " +
                std::to_string(p.sizes[d]) + ", not " + std::to_string(v);
        return false;
      }
      if (d < p.dims.size() && !p.dims[d].empty()) {
        const std::string &name = p.dims[d];
        auto [it, isNew] = sizes.try_emplace(name, v);
        if (!isNew && it->second != v) {
          error = givenBy[i] + ": dimension " + name + " is " +
                  std::to_string(v) + ", but " + sizeSource[name] + " gives " +
                  name + " = " + std::to_string(it->second);
          return false;
        }
        if (isNew)
          sizeSource[name] = givenBy[i];
      }
    }
    shapes[i] = given[i];
  }
  // The remaining shapes, from static sizes and dimension names.
  std::vector<std::string> missing;
  for (size_t i = 0; i < n; ++i) {
    const runtime::Param &p = params[i];
    if (p.kind != TG_ARG_VIEW || !givenBy[i].empty())
      continue;
    for (size_t d = 0; d < p.sizes.size(); ++d) {
      if (p.sizes[d] != TG_DYNAMIC) {
        shapes[i].push_back(p.sizes[d]);
        continue;
      }
      bool named = d < p.dims.size() && !p.dims[d].empty();
      if (named && sizes.count(p.dims[d])) {
        shapes[i].push_back(sizes[p.dims[d]]);
        continue;
      }
      std::string what = named ? "--size " + p.dims[d] + "=..."
                               : "--shape " + paramLabel(params, i) + "=...";
      if (std::find(missing.begin(), missing.end(), what) == missing.end())
        missing.push_back(what);
      shapes[i].push_back(0);
    }
  }
  if (!missing.empty()) {
    error = "sizes not given; pass ";
    for (size_t m = 0; m < missing.size(); ++m)
      error += (m ? ", " : "") + missing[m];
    return false;
  }

  // Scalars: --arg, else the source's default.
  std::vector<tg_arg> scalars(n);
  std::vector<bool> scalarGiven(n, false);
  if (!forEachItem("--arg", choices.scalars, error,
                   [&](const std::string &name, const std::string &value) {
                     size_t i;
                     if (!find("--arg", name, i))
                       return false;
                     if (params[i].kind != TG_ARG_SCALAR) {
                       error = "--arg: '" + name +
                               "' is a view; give its shape with "
                               "--shape and its data with --init or --input";
                       return false;
                     }
                     if (scalarGiven[i]) {
                       error = "--arg: '" + name + "' given twice";
                       return false;
                     }
                     if (!runtime::parseScalar(params[i].dtype, value,
                                               scalars[i], error)) {
                       error = "--arg " + name + ": " + error;
                       return false;
                     }
                     scalarGiven[i] = true;
                     return true;
                   }))
    return false;
  for (size_t i = 0; i < n; ++i) {
    const runtime::Param &p = params[i];
    if (p.kind != TG_ARG_SCALAR || scalarGiven[i])
      continue;
    if (p.defaultValue.empty()) {
      error = "scalar parameter " + paramLabel(params, i) + " (" +
              runtime::dtypeName(p.dtype) + ") has no value; pass --arg " +
              (p.name.empty() ? "NAME" : p.name) +
              "=VALUE or give it a default in the source";
      return false;
    }
    if (!runtime::parseScalar(p.dtype, p.defaultValue, scalars[i], error)) {
      error = "the default of " + paramLabel(params, i) + ": " + error;
      return false;
    }
  }

  // Sizes and memory, before anything is allocated.
  double totalBytes = 0;
  for (size_t i = 0; i < n; ++i) {
    if (params[i].kind != TG_ARG_VIEW)
      continue;
    int64_t elements = 1;
    for (int64_t d : shapes[i]) {
      if (d && elements > kMaxArgumentElements / d) {
        error = paramLabel(params, i) + " " + formatShape(shapes[i]) +
                " has more than " + std::to_string(kMaxArgumentElements) +
                " elements (the GPU's 32-bit element offsets)";
        return false;
      }
      elements *= d;
    }
    // The tensor, a float64 copy for a reference and one for its scale.
    totalBytes += double(elements) * 24;
  }
  double memory =
      double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
  if (memory > 0 && totalBytes > memory) {
    error = "these sizes need about " +
            std::to_string(int64_t(totalBytes / (1 << 20))) +
            " MiB of host memory; this machine has " +
            std::to_string(int64_t(memory / (1 << 20))) + " MiB";
    return false;
  }

  bound = BoundArguments();
  bound.params = params;
  bound.sizes = sizes;
  bound.scalars = scalars;
  std::mt19937_64 rng(seed);
  for (size_t i = 0; i < n; ++i) {
    const runtime::Param &p = params[i];
    if (p.kind != TG_ARG_VIEW) {
      bound.tensors.emplace_back();
      bound.fills.emplace_back();
      continue;
    }
    std::optional<DType> dtype = refDType(p.dtype);
    if (!dtype) {
      error = paramLabel(params, i) + ": views of " +
              runtime::dtypeName(p.dtype) + " are not supported";
      return false;
    }
    HostTensor t(*dtype, shapes[i]);
    Distribution fill = fills[i];
    if (!hasFill[i]) {
      if (!p.read)
        fill.kind = Distribution::Kind::Poison;
      else if (*dtype == DType::I1)
        fill = {Distribution::Kind::RandInt, 0, 1, ""};
      else if (!isFloat(*dtype))
        fill = {Distribution::Kind::RandInt, -100, 100, ""};
    }
    switch (fill.kind) {
    case Distribution::Kind::Uniform:
      t.fillUniform(rng, fill.a, fill.b);
      break;
    case Distribution::Kind::RandInt:
      t.fillUniform(rng, std::ceil(fill.a), std::floor(fill.b));
      if (!isFloat(*dtype))
        break;
      // fillUniform draws reals for float views: round them.
      for (int64_t e = 0; e < t.numel(); ++e)
        t.set(e, std::round(t.get(e)));
      break;
    case Distribution::Kind::Normal:
      t.fillNormal(rng, fill.a, fill.b);
      break;
    case Distribution::Kind::Constant:
      t.fill(fill.a);
      break;
    case Distribution::Kind::File:
      for (int64_t e = 0; e < t.numel(); ++e)
        t.set(e, fileValues[i][e]);
      break;
    case Distribution::Kind::Poison:
      t.fillPoison();
      break;
    }
    bound.tensors.push_back(std::move(t));
    bound.fills.push_back(fill);
  }
  std::vector<tg_arg> args = bound.hostArgs();
  runtime::Status st =
      runtime::checkArguments(params, args.data(), args.size());
  if (!st.ok()) {
    error = st.message;
    return false;
  }
  return true;
}

std::string describeArguments(const BoundArguments &bound) {
  std::string text;
  for (size_t i = 0; i < bound.params.size(); ++i) {
    const runtime::Param &p = bound.params[i];
    text += (i ? ", " : "") + paramLabel(bound.params, i);
    if (p.kind == TG_ARG_SCALAR) {
      const tg_arg &a = bound.scalars[i];
      text +=
          std::string(" ") + runtime::dtypeName(p.dtype) + " = " +
          (a.dtype == TG_I32 || a.dtype == TG_I64 ? std::to_string(a.int_value)
                                                  : number(a.float_value));
      continue;
    }
    const HostTensor &t = bound.tensors[i];
    text += "[";
    for (int64_t d = 0; d < t.rank(); ++d) {
      text += d ? ", " : "";
      if (size_t(d) < p.dims.size() && !p.dims[d].empty())
        text += p.dims[d] + "=";
      text += std::to_string(t.shape()[d]);
    }
    text += std::string("] ") + runtime::dtypeName(p.dtype);
    text += p.read && p.written ? " inout" : p.written ? " out" : " in";
    if (bound.fills[i].kind != Distribution::Kind::Poison)
      text += " " + bound.fills[i].describe();
  }
  return text;
}

bool dumpViews(const std::string &dir, const std::string &suffix,
               const BoundArguments &bound,
               const std::vector<const HostTensor *> &views,
               std::string &error) {
  if (::mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) {
    error = "cannot create " + dir + ": " + std::strerror(errno);
    return false;
  }
  for (size_t i = 0; i < views.size() && i < bound.params.size(); ++i) {
    if (!views[i])
      continue;
    std::string name = bound.params[i].name.empty()
                           ? "arg" + std::to_string(i + 1)
                           : bound.params[i].name;
    if (!writeNpy(dir + "/" + name + suffix + ".npy", *views[i], error))
      return false;
  }
  return true;
}

} // namespace tilegym::ref
