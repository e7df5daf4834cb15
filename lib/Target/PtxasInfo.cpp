//===- PtxasInfo.cpp - registers and spills from ptxas -v -----------------===//
#include "tilegym/Target/PtxasInfo.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

/// The integer just before `word` in `line` ("168 registers"), if any.
static std::optional<int64_t> numberBefore(StringRef line, StringRef word) {
  size_t at = line.find(word);
  if (at == StringRef::npos)
    return std::nullopt;
  StringRef before = line.take_front(at).rtrim();
  size_t start = before.find_last_not_of("0123456789");
  StringRef digits =
      start == StringRef::npos ? before : before.drop_front(start + 1);
  int64_t value;
  if (digits.empty() || digits.getAsInteger(10, value))
    return std::nullopt;
  return value;
}

std::map<std::string, tilegym::PtxasResources>
tilegym::parsePtxasInfo(StringRef text) {
  std::map<std::string, PtxasResources> out;
  PtxasResources *current = nullptr;
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  for (StringRef line : lines) {
    // ptxas info    : Compiling entry function 'k' for 'sm_90a'
    if (size_t at = line.find("Compiling entry function '");
        at != StringRef::npos) {
      StringRef name =
          line.drop_front(at + strlen("Compiling entry function '"));
      current = &out[name.take_until([](char c) { return c == '\''; }).str()];
      continue;
    }
    if (!current)
      continue;
    //     0 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads
    if (auto v = numberBefore(line, " bytes spill stores"))
      current->spillStoreBytes = *v;
    if (auto v = numberBefore(line, " bytes spill loads"))
      current->spillLoadBytes = *v;
    // ptxas info    : Used 168 registers, used 1 barriers, ...
    if (line.contains("Used "))
      if (auto v = numberBefore(line, " registers"))
        current->registers = *v;
  }
  return out;
}

Expected<std::map<std::string, tilegym::PtxasResources>>
tilegym::runPtxasInfo(StringRef ptxas, StringRef ptx, StringRef chip) {
  SmallString<128> input, cubin, log;
  for (auto [path, suffix] :
       {std::pair{&input, "ptx"}, {&cubin, "cubin"}, {&log, "log"}})
    if (std::error_code ec =
            sys::fs::createTemporaryFile("tilegym-ptxas", suffix, *path))
      return createStringError(ec, "cannot create a temporary file");
  scope_exit cleanup([&] {
    for (const SmallString<128> *path : {&input, &cubin, &log})
      sys::fs::remove(*path);
  });
  {
    std::error_code ec;
    raw_fd_ostream os(input, ec);
    if (ec)
      return createStringError(ec, "cannot write " + input);
    os << ptx;
  }
  std::string arch = ("-arch=" + chip).str();
  SmallVector<StringRef> args{ptxas, arch, "-v", input, "-o", cubin};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log),
                                          StringRef(log)};
  std::string error;
  int rc = sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                               /*SecondsToWait=*/120, 0, &error);
  auto text = MemoryBuffer::getFile(log);
  if (rc != 0)
    return createStringError(
        inconvertibleErrorCode(),
        "ptxas failed" + (error.empty() ? "" : ": " + error) +
            (text ? ": " + (*text)->getBuffer().trim().str() : ""));
  if (!text)
    return createStringError(text.getError(), "cannot read ptxas' output");
  return parsePtxasInfo((*text)->getBuffer());
}
