//===- Npy.cpp - NumPy .npy files for kernel arguments --------------------===//

#include "tilegym/Reference/Npy.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>

namespace tilegym::ref {

namespace {

/// numpy's dtype string for an element type as written.
const char *descrOf(DType type) {
  switch (type) {
  case DType::F64:
    return "<f8";
  case DType::F32:
  case DType::BF16: // bf16 and fp8, which numpy lacks, are written as f32.
  case DType::F8E4M3:
  case DType::F8E5M2:
    return "<f4";
  case DType::F16:
    return "<f2";
  case DType::I32:
    return "<i4";
  case DType::I1:
    return "|b1";
  case DType::I8:
    return "|i1";
  case DType::I64:
    return "<i8";
  }
  return "?";
}

/// The text between `key`'s ': ' and the next `end` in a header dict.
bool field(const std::string &header, const std::string &key, char end,
           std::string &value) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos)
    return false;
  size_t colon = header.find(':', at);
  if (colon == std::string::npos)
    return false;
  size_t start = header.find_first_not_of(' ', colon + 1);
  if (start == std::string::npos)
    return false;
  size_t stop = header.find(end, start + 1);
  if (stop == std::string::npos)
    return false;
  value = header.substr(start, stop + 1 - start);
  return true;
}

} // namespace

bool writeNpy(const std::string &path, const HostTensor &tensor,
              std::string &error) {
  std::string shape = "(";
  for (int64_t d : tensor.shape())
    shape += std::to_string(d) + ", ";
  if (tensor.rank() > 1)
    shape.resize(shape.size() - 2);
  else if (tensor.rank() == 1)
    shape.resize(shape.size() - 1); // "(n,)"
  shape += ")";
  std::string header = std::string("{'descr': '") + descrOf(tensor.dtype()) +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Magic (6) + version (2) + length (2) + header + '\n', a multiple of 64.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';

  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) {
    error = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  out.write("\x93NUMPY\x01\x00", 8);
  uint16_t length = uint16_t(header.size());
  char lengthBytes[2] = {char(length & 0xff), char(length >> 8)};
  out.write(lengthBytes, 2);
  out.write(header.data(), std::streamsize(header.size()));
  if (tensor.dtype() == DType::BF16 || isFP8(tensor.dtype())) {
    for (int64_t i = 0; i < tensor.numel(); ++i) {
      float v = float(tensor.get(i));
      out.write(reinterpret_cast<const char *>(&v), sizeof v);
    }
  } else {
    out.write(static_cast<const char *>(tensor.data()),
              std::streamsize(tensor.sizeInBytes()));
  }
  if (!out) {
    error = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

bool readNpy(const std::string &path, int64_t maxElements, NpyArray &array,
             std::string &error) {
  auto bad = [&](const std::string &why) {
    error = path + ": " + why;
    return false;
  };
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return bad(std::string("cannot open: ") + std::strerror(errno));
  char magic[8];
  if (!in.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0)
    return bad("not a .npy file (no \\x93NUMPY magic)");
  int major = static_cast<unsigned char>(magic[6]);
  if (major < 1 || major > 3)
    return bad("unsupported .npy version " + std::to_string(major));
  uint32_t length = 0;
  unsigned char bytes[4] = {0, 0, 0, 0};
  if (!in.read(reinterpret_cast<char *>(bytes), major == 1 ? 2 : 4))
    return bad("truncated header");
  length = bytes[0] | bytes[1] << 8 | uint32_t(bytes[2]) << 16 |
           uint32_t(bytes[3]) << 24;
  if (length > (1u << 20))
    return bad("header of " + std::to_string(length) + " bytes is too long");
  std::string header(length, '\0');
  if (!in.read(header.data(), length))
    return bad("truncated header");

  std::string descr, fortran, shape;
  if (!field(header, "descr", '\'', descr) ||
      !field(header, "fortran_order", ',', fortran) ||
      !field(header, "shape", ')', shape))
    return bad("malformed header (expected 'descr', 'fortran_order' and "
               "'shape')");
  descr = descr.substr(1, descr.size() - 2);
  if (fortran.find("False") == std::string::npos)
    return bad("Fortran-order arrays are not supported; save a C-order "
               "array (numpy.ascontiguousarray)");
  if (descr.size() < 3 || (descr[0] != '<' && descr[0] != '|') ||
      (descr[1] != 'f' && descr[1] != 'i' && descr[1] != 'u' &&
       descr[1] != 'b'))
    return bad("unsupported dtype '" + descr +
               "' (expected little-endian float, integer or bool)");
  // The element size in bytes: one digit, a power of two up to 8.
  int size = descr.size() == 3 ? descr[2] - '0' : 0;
  if (descr.size() != 3 || size < 1 || size > 8 || (size & (size - 1)) ||
      (descr[1] == 'f' && size < 2) || (descr[1] == 'b' && size != 1))
    return bad("unsupported dtype '" + descr + "'");

  array.shape.clear();
  int64_t numel = 1;
  size_t pos = 1;
  while (pos < shape.size()) {
    size_t next = shape.find_first_of(",)", pos);
    std::string item = shape.substr(pos, next - pos);
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    if (!item.empty()) {
      if (item.find_first_not_of("0123456789") != std::string::npos ||
          item.size() > 12)
        return bad("malformed shape " + shape);
      int64_t d = std::stoll(item);
      if (d && numel > maxElements / d)
        return bad("more than " + std::to_string(maxElements) + " elements");
      numel *= d;
      array.shape.push_back(d);
    }
    if (next == std::string::npos || shape[next] == ')')
      break;
    pos = next + 1;
  }
  if (array.shape.size() > 8)
    return bad("rank " + std::to_string(array.shape.size()) +
               " exceeds the limit of 8");

  std::string data((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  if (int64_t(data.size()) != numel * size)
    return bad("holds " + std::to_string(data.size()) +
               " bytes of data; its "
               "shape and dtype need " +
               std::to_string(numel * size));
  array.descr = descr;
  array.values.resize(numel);
  const char *p = data.data();
  for (int64_t i = 0; i < numel; ++i, p += size) {
    double v = 0;
    if (descr[1] == 'f') {
      if (size == 2) {
        uint16_t h;
        std::memcpy(&h, p, 2);
        v = halfBitsToFloat(h);
      } else if (size == 4) {
        float f;
        std::memcpy(&f, p, 4);
        v = f;
      } else {
        std::memcpy(&v, p, 8);
      }
    } else {
      uint64_t raw = 0;
      std::memcpy(&raw, p, size);
      if (descr[1] == 'i' && size < 8 && (raw >> (8 * size - 1)))
        raw |= ~uint64_t(0) << (8 * size); // Sign-extend.
      v = descr[1] == 'u' ? double(raw) : double(int64_t(raw));
      if (descr[1] == 'b')
        v = raw != 0;
    }
    array.values[i] = v;
  }
  return true;
}

} // namespace tilegym::ref
