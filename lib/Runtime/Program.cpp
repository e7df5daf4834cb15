//===- Program.cpp - kernels run in sequence as one program ---------------===//
#include "tilegym/Runtime/Program.h"

#include <algorithm>

using namespace tilegym;
using namespace tilegym::runtime;

static std::string label(const std::vector<Param> &params, size_t i) {
  return params[i].name.empty() ? "parameter " + std::to_string(i + 1)
                                : params[i].name;
}

std::vector<tg_arg>
ProgramSignature::kernelArgs(size_t k,
                             const std::vector<tg_arg> &programArgs) const {
  std::vector<tg_arg> args;
  for (size_t index : argIndex[k])
    args.push_back(programArgs[index]);
  return args;
}

bool runtime::mergeSignatures(const std::vector<std::string> &kernels,
                              const std::vector<std::vector<Param>> &signatures,
                              ProgramSignature &program, std::string &error) {
  program = ProgramSignature();
  program.kernels = kernels;
  std::vector<bool> writtenSoFar;
  for (size_t k = 0; k < signatures.size(); ++k) {
    std::vector<size_t> indices;
    std::vector<bool> writes;
    for (size_t j = 0; j < signatures[k].size(); ++j) {
      const Param &p = signatures[k][j];
      auto where = [&] {
        return "kernel '" + kernels[k] + "', " + label(signatures[k], j);
      };
      if (signatures.size() > 1 && p.name.empty()) {
        error = where() + ": parameters of a kernel sequence need names";
        return false;
      }
      size_t index = program.params.size();
      for (size_t i = 0; i < program.params.size() && !p.name.empty(); ++i)
        if (program.params[i].name == p.name)
          index = i;
      if (index == program.params.size()) {
        program.params.push_back(p);
        program.params.back().read = p.kind == TG_ARG_VIEW && p.read;
        writtenSoFar.push_back(false);
      } else {
        Param &q = program.params[index];
        std::string why;
        if (q.kind != p.kind || q.dtype != p.dtype)
          why = std::string("is ") +
                (p.kind == TG_ARG_VIEW ? "a view of " : "a scalar ") +
                dtypeName(p.dtype) + " here, " +
                (q.kind == TG_ARG_VIEW ? "a view of " : "a scalar ") +
                dtypeName(q.dtype) + " in an earlier kernel";
        else if (q.sizes != p.sizes)
          why = "has other static sizes or another rank than in an earlier "
                "kernel";
        for (size_t d = 0; why.empty() && d < p.dims.size(); ++d) {
          if (q.dims.empty())
            q.dims.assign(p.sizes.size(), "");
          if (p.dims[d].empty())
            continue;
          if (q.dims[d].empty())
            q.dims[d] = p.dims[d];
          else if (q.dims[d] != p.dims[d])
            why = "names dimension " + std::to_string(d) + " " + p.dims[d] +
                  ", an earlier kernel " + q.dims[d];
        }
        if (!why.empty()) {
          error = where() + " " + why;
          return false;
        }
        if (p.kind == TG_ARG_VIEW && p.read && !writtenSoFar[index])
          q.read = true;
        q.written = q.written || p.written;
        if (q.defaultValue.empty())
          q.defaultValue = p.defaultValue;
      }
      indices.push_back(index);
      writes.push_back(p.kind == TG_ARG_VIEW && p.written);
    }
    for (size_t j = 0; j < indices.size(); ++j)
      if (writes[j])
        writtenSoFar[indices[j]] = true;
    program.argIndex.push_back(std::move(indices));
  }
  // A parameter's `written` stays as merged: any kernel writing it.
  for (size_t i = 0; i < program.params.size(); ++i)
    program.params[i].written = false;
  for (size_t k = 0; k < signatures.size(); ++k)
    for (size_t j = 0; j < signatures[k].size(); ++j)
      if (signatures[k][j].kind == TG_ARG_VIEW && signatures[k][j].written)
        program.params[program.argIndex[k][j]].written = true;
  return true;
}

bool runtime::resolveKernelNames(const std::string &spec,
                                 const std::vector<std::string> &kernels,
                                 const std::vector<NamedProgram> &programs,
                                 const std::string &where,
                                 std::vector<std::string> &names,
                                 std::string &error) {
  names.clear();
  auto program =
      std::find_if(programs.begin(), programs.end(),
                   [&](const NamedProgram &p) { return p.name == spec; });
  if (spec.empty() && kernels.size() == 1) {
    names = kernels;
  } else if (spec.empty()) {
    if (programs.size() != 1) {
      error = where + " has " + std::to_string(kernels.size()) +
              " kernels and " + std::to_string(programs.size()) +
              " programs; pick one, or a sequence, with --kernel "
              "NAME[,NAME...]";
      return false;
    }
    names = programs.front().kernels;
  } else if (program != programs.end()) {
    names = program->kernels;
  } else {
    for (size_t start = 0; start <= spec.size();) {
      size_t comma = std::min(spec.find(',', start), spec.size());
      std::string name = spec.substr(start, comma - start);
      size_t first = name.find_first_not_of(" \t");
      size_t last = name.find_last_not_of(" \t");
      names.push_back(first == std::string::npos
                          ? ""
                          : name.substr(first, last - first + 1));
      start = comma + 1;
    }
  }
  for (const std::string &name : names)
    if (std::find(kernels.begin(), kernels.end(), name) == kernels.end()) {
      error = "no kernel or program named '" + name + "' in " + where;
      return false;
    }
  return true;
}
