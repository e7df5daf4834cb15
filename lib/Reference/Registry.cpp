//===- Registry.cpp - The reference registry and its helpers --------------===//

#include "Programs.h"

#include <charconv>
#include <random>
#include <set>
#include <unistd.h>

namespace tilegym::ref {

namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && text.front() == ' ')
    text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ')
    text.remove_suffix(1);
  return text;
}

std::string sizeNames(const Reference &ref) {
  std::string names;
  for (const SizeParam &param : ref.sizes)
    names += (names.empty() ? "" : ", ") + param.name;
  return names;
}

std::string formatDims(const ArgSpec &arg) {
  std::string s = "[";
  for (size_t i = 0; i < arg.dims.size(); ++i)
    s += (i ? "," : "") + arg.dims[i];
  return s + "]";
}

} // namespace

std::vector<int64_t> ArgSpec::shape(const Sizes &sizes) const {
  std::vector<int64_t> shape;
  for (const std::string &dim : dims)
    shape.push_back(sizes.at(dim));
  return shape;
}

const std::vector<Reference> &registry() {
  static const std::vector<Reference> references = {
      makeVectorAddReference(),
      makeGeluReference(),
      makeSoftmaxReference(),
      makeMatmulReference(),
      makeAttentionReference(/*causal=*/false),
      makeAttentionReference(/*causal=*/true),
  };
  return references;
}

const Reference *lookupReference(std::string_view name) {
  for (const Reference &ref : registry()) {
    if (ref.name == name)
      return &ref;
    for (const std::string &alias : ref.aliases)
      if (alias == name)
        return &ref;
  }
  return nullptr;
}

std::string describe(const Reference &ref) {
  std::string s = ref.name + "(";
  for (size_t i = 0; i < ref.args.size(); ++i) {
    const ArgSpec &arg = ref.args[i];
    s += (i ? ", " : "") + arg.name + formatDims(arg) +
         (arg.role == Role::Input ? " in" : " out");
  }
  s += ") sizes";
  for (const SizeParam &param : ref.sizes)
    s += " " + param.name + "=" + std::to_string(param.defaultValue);
  for (const auto &[name, value] : ref.defaultOptions)
    s += " -D " + name + "=" + value;
  for (const auto &[name, value] : ref.fixedOptions)
    s += " " + name + "=" + value + " (fixed)";
  if (!ref.aliases.empty()) {
    s += " (aliases:";
    for (size_t i = 0; i < ref.aliases.size(); ++i)
      s += (i ? ", " : " ") + ref.aliases[i];
    s += ")";
  }
  return s + ": " + ref.description;
}

Sizes defaultSizes(const Reference &ref) {
  Sizes sizes;
  for (const SizeParam &param : ref.sizes)
    sizes[param.name] = param.defaultValue;
  return sizes;
}

bool parseSizes(const Reference &ref, std::string_view text, Sizes &sizes,
                std::string &error) {
  Sizes parsed = sizes;
  std::set<std::string> seen;
  if (trim(text).empty())
    return true;
  while (true) {
    size_t comma = text.find(',');
    std::string_view item = trim(text.substr(0, comma));
    size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      error = "malformed size '" + std::string(item) +
              "': expected NAME=VALUE, e.g. " + ref.sizes.front().name + "=" +
              std::to_string(ref.sizes.front().defaultValue);
      return false;
    }
    std::string name(trim(item.substr(0, eq)));
    std::string_view value = trim(item.substr(eq + 1));
    bool known = false;
    for (const SizeParam &param : ref.sizes)
      known |= param.name == name;
    if (!known) {
      error = "unknown size '" + name + "' for " + ref.name +
              "; its sizes are " + sizeNames(ref);
      return false;
    }
    if (seen.count(name)) {
      error = "size '" + name + "' given twice";
      return false;
    }
    int64_t number = 0;
    auto [end, ec] =
        std::from_chars(value.data(), value.data() + value.size(), number);
    if (ec == std::errc::result_out_of_range) {
      error = "size '" + name + "': " + std::string(value) + " is out of range";
      return false;
    }
    if (value.empty() || ec != std::errc() ||
        end != value.data() + value.size()) {
      error =
          "size '" + name + "': '" + std::string(value) + "' is not an integer";
      return false;
    }
    if (number <= 0) {
      error =
          "size '" + name + "' must be positive, got " + std::to_string(number);
      return false;
    }
    parsed[name] = number;
    seen.insert(name);
    if (comma == std::string_view::npos)
      break;
    text.remove_prefix(comma + 1);
  }
  // Each element costs its own bytes plus a float64 for the reference and
  // the comparison: 16 bytes is a safe bound for every dtype.
  double totalBytes = 0;
  for (const ArgSpec &arg : ref.args) {
    int64_t elements = 1;
    for (int64_t d : arg.shape(parsed)) {
      if (d > kMaxArgumentElements / elements) {
        error = "argument " + arg.name + formatDims(arg) +
                " would hold more than " +
                std::to_string(kMaxArgumentElements) +
                " (2^31 - 1) elements, the limit of 32-bit element offsets";
        return false;
      }
      elements *= d;
    }
    totalBytes += 16.0 * double(elements);
  }
  double memory =
      double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
  if (memory > 0 && totalBytes > memory) {
    error = "these sizes need about " +
            std::to_string(int64_t(totalBytes / (1 << 20))) +
            " MiB of host memory for the arguments and the reference; this "
            "machine has " +
            std::to_string(int64_t(memory / (1 << 20))) + " MiB";
    return false;
  }
  sizes = std::move(parsed);
  return true;
}

bool checkSignature(const Reference &ref, const std::vector<DType> &dtypes,
                    const std::vector<int64_t> &ranks, std::string &error) {
  if (dtypes.size() != ref.args.size() || ranks.size() != ref.args.size()) {
    error = "kernel has " + std::to_string(dtypes.size()) +
            " arguments but reference '" + ref.name + "' expects " +
            std::to_string(ref.args.size()) + ": " + describe(ref);
    return false;
  }
  for (size_t i = 0; i < ref.args.size(); ++i) {
    const ArgSpec &arg = ref.args[i];
    if (ranks[i] != static_cast<int64_t>(arg.dims.size())) {
      error = "argument " + std::to_string(i + 1) + " ('" + arg.name +
              "') has rank " + std::to_string(ranks[i]) + " but reference '" +
              ref.name + "' expects " + arg.name + formatDims(arg);
      return false;
    }
  }
  return true;
}

Options effectiveOptions(const Reference &ref, const Options &defines) {
  Options options = ref.defaultOptions;
  for (const auto &[name, value] : defines)
    options[name] = value;
  for (const auto &[name, value] : ref.fixedOptions)
    options[name] = value;
  return options;
}

bool optionEnabled(const Options &options, const std::string &name) {
  auto it = options.find(name);
  return it != options.end() && it->second != "0" && it->second != "false";
}

std::vector<HostTensor> makeArguments(const Reference &ref, const Sizes &sizes,
                                      const std::vector<DType> &dtypes,
                                      uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<HostTensor> args;
  for (size_t i = 0; i < ref.args.size(); ++i) {
    const ArgSpec &spec = ref.args[i];
    HostTensor tensor(dtypes[i], spec.shape(sizes));
    if (spec.role == Role::Input)
      tensor.fillUniform(rng, spec.lo, spec.hi);
    else
      tensor.fillPoison();
    args.push_back(std::move(tensor));
  }
  return args;
}

std::vector<std::vector<double>>
runReference(const Reference &ref, const Sizes &sizes, const Options &options,
             const std::vector<HostTensor> &args) {
  std::vector<const HostTensor *> inputs;
  size_t numOutputs = 0;
  for (size_t i = 0; i < ref.args.size(); ++i) {
    if (ref.args[i].role == Role::Input)
      inputs.push_back(&args[i]);
    else
      ++numOutputs;
  }
  std::vector<std::vector<double>> outputs(numOutputs);
  ref.compute(sizes, options, inputs, outputs);
  return outputs;
}

Tolerance toleranceFor(const Reference &ref, const Sizes &sizes,
                       const std::vector<DType> &dtypes) {
  DType precision = leastPreciseDType(dtypes);
  return ref.tolerance ? ref.tolerance(sizes, precision)
                       : defaultTolerance(precision);
}

std::vector<CompareResult>
compareOutputs(const Reference &ref, const Sizes &sizes,
               const std::vector<HostTensor> &args,
               const std::vector<std::vector<double>> &expected) {
  std::vector<DType> dtypes;
  for (const HostTensor &arg : args)
    dtypes.push_back(arg.dtype());
  Tolerance tolerance = toleranceFor(ref, sizes, dtypes);
  std::vector<CompareResult> results;
  size_t output = 0;
  for (size_t i = 0; i < ref.args.size(); ++i)
    if (ref.args[i].role == Role::Output)
      results.push_back(
          compare(ref.args[i].name, args[i], expected[output++], tolerance));
  return results;
}

} // namespace tilegym::ref
