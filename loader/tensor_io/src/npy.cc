// NumPy .npy reading (format 1.0/2.0/3.0, C order, little-endian) and writing (1.0, 2.0 when the
// header is too long), per NumPy's "NPY format" specification (numpy/lib/format.py docs).
// bfloat16 travels as a 2-byte void ('<V2'), as numpy.save writes ml_dtypes.bfloat16 arrays.
#include <cctype>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "file_util.h"
#include "openatc/common/dtype.h"
#include "openatc/common/error.h"
#include "openatc/minifloat.h"
#include "openatc/onnx_dtype.h"
#include "openatc/tensor_io/tensor_io.h"

namespace openatc {
namespace tensor_io {
namespace {

const char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;

// NumPy has no bfloat16. ml_dtypes' bfloat16 arrays are saved by numpy.save with the descr of a
// 2-byte void ('<V2'), and np.load(f).view(ml_dtypes.bfloat16) restores them; OpenATC writes
// bfloat16 the same way and reads a 2-byte void as bfloat16.
const char kBf16Descr[] = "<V2";
bool IsBf16Descr(const std::string &d) { return d == "<V2" || d == "|V2" || d == "=V2"; }
// The float8 types (ml_dtypes float8_e4m3fn, float8_e5m2, float8_e8m0fnu) are written the same
// way, as 1-byte voids (np.load(f).view(ml_dtypes.float8_e4m3fn)); read back, '|V1' is ambiguous,
// so reading stays refused (use .pb or .bin inputs for float8).
// The FNUZ float8 types (ml_dtypes float8_e4m3fnuz, float8_e5m2fnuz) likewise. The packed 4-bit
// types are written unpacked, one element per byte, '|V1', the element's nibble in the low 4 bits
// (two's complement for int4, the E2M1 bit pattern for float4e2m1), the high 4 bits 0; reading
// them from .npy is refused as for float8.
const char kFloat8Descr[] = "|V1";
bool IsOneByteVoid(ge::DataType d) { return IsFloat8DataType(d) || Is4BitDataType(d); }

[[noreturn]] void Bad(const std::string &path, const std::string &what, const std::string &hint =
                          "Save the array with numpy.save (C order, little-endian)") {
  throw Error(ErrorCategory::kInvalidInput, "OA3001", "not a valid .npy file: " + what, hint).WithFile(path);
}

// A tiny reader of the header's Python dict literal: {'key': value, ...}; values are a quoted
// string, True/False, or a tuple of non-negative integers.
struct HeaderParser {
  const std::string &s;
  const std::string &path;
  size_t pos = 0;

  void SkipSpace() {
    while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos]))) ++pos;
  }
  bool Eat(char c) {
    SkipSpace();
    if (pos < s.size() && s[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  void Expect(char c) {
    if (!Eat(c)) Bad(path, std::string("header: expected '") + c + "' at character " + std::to_string(pos));
  }
  std::string String() {
    SkipSpace();
    if (pos >= s.size() || (s[pos] != '\'' && s[pos] != '"'))
      Bad(path, "header: expected a quoted string at character " + std::to_string(pos));
    char q = s[pos++];
    size_t end = s.find(q, pos);
    if (end == std::string::npos) Bad(path, "header: unterminated string");
    std::string out = s.substr(pos, end - pos);
    pos = end + 1;
    return out;
  }
  bool Bool() {
    SkipSpace();
    if (s.compare(pos, 4, "True") == 0) { pos += 4; return true; }
    if (s.compare(pos, 5, "False") == 0) { pos += 5; return false; }
    Bad(path, "header: fortran_order is neither True nor False");
  }
  std::vector<int64_t> Tuple() {
    std::vector<int64_t> dims;
    Expect('(');
    while (!Eat(')')) {
      SkipSpace();
      size_t start = pos;
      uint64_t v = 0;
      while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos]))) {
        v = v * 10 + static_cast<uint64_t>(s[pos] - '0');
        if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) Bad(path, "header: a dim is too large");
        ++pos;
      }
      if (pos == start) Bad(path, "header: shape holds something other than non-negative integers");
      if (pos < s.size() && s[pos] == 'L') ++pos;  // Python 2 long suffix
      dims.push_back(static_cast<int64_t>(v));
      if (!Eat(',')) {
        Expect(')');
        break;
      }
    }
    return dims;
  }
};

// Writes `t`'s bytes under the header of `descr` (WriteNpy below).
void WriteNpyWithDescr(const std::string &path, const std::string &descr, const HostTensor &t);
}  // namespace

HostTensor ReadNpy(const std::string &path) { return ReadNpyBytes(ReadFileBytes(path), path); }

HostTensor ReadNpyBytes(const std::vector<uint8_t> &bytes, const std::string &path) {
  if (bytes.size() < 10) Bad(path, "the file is only " + std::to_string(bytes.size()) + " bytes (truncated header)");
  if (std::memcmp(bytes.data(), kMagic, kMagicLen) != 0) Bad(path, "bad magic (expected \\x93NUMPY)");
  const uint8_t major = bytes[6], minor = bytes[7];
  size_t header_len = 0, header_start = 0;
  if (major == 1) {
    header_len = bytes[8] | (static_cast<size_t>(bytes[9]) << 8);
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) Bad(path, "truncated header");
    header_len = bytes[8] | (static_cast<size_t>(bytes[9]) << 8) | (static_cast<size_t>(bytes[10]) << 16) |
                 (static_cast<size_t>(bytes[11]) << 24);
    header_start = 12;
  } else {
    Bad(path, "format version " + std::to_string(major) + "." + std::to_string(minor) +
                  " is not supported (1.0, 2.0 and 3.0 are)");
  }
  if (header_len > bytes.size() - header_start)
    Bad(path, "the header says " + std::to_string(header_len) + " bytes but the file ends after " +
                  std::to_string(bytes.size() - header_start) + " (truncated header)");
  const std::string header(reinterpret_cast<const char *>(bytes.data() + header_start), header_len);

  HeaderParser p{header, path};
  std::string descr;
  bool fortran = false, have_descr = false, have_order = false, have_shape = false;
  std::vector<int64_t> shape;
  p.Expect('{');
  while (!p.Eat('}')) {
    std::string key = p.String();
    p.Expect(':');
    if (key == "descr") {
      p.SkipSpace();
      if (p.pos < header.size() && header[p.pos] == '[')
        Bad(path, "structured dtypes (a list descr) are not supported", "Save a plain numeric array");
      descr = p.String();
      have_descr = true;
    } else if (key == "fortran_order") {
      fortran = p.Bool();
      have_order = true;
    } else if (key == "shape") {
      shape = p.Tuple();
      have_shape = true;
    } else {
      Bad(path, "header: unexpected key '" + key + "'");
    }
    if (!p.Eat(',')) {
      p.Expect('}');
      break;
    }
  }
  if (!have_descr || !have_order || !have_shape)
    Bad(path, "header lacks one of 'descr', 'fortran_order', 'shape'");
  if (fortran)
    Bad(path, "Fortran-order arrays are not supported", "Save a C-order array: numpy.save(f, numpy.ascontiguousarray(a))");
  if (descr.size() >= 2 && descr[0] == '>' && descr.substr(1) != "i1" && descr.substr(1) != "u1" &&
      descr.substr(1) != "b1")
    Bad(path, "big-endian data ('" + descr + "') is not supported", "Save little-endian data: a.astype(a.dtype.newbyteorder('<'))");
  HostTensor t;
  std::string d = descr;
  if (d.size() >= 2 && d[0] == '>') d[0] = '|';
  if (IsBf16Descr(d))
    t.dtype = ge::DT_BF16;
  else if (!DataTypeFromNumpyDescr(d, &t.dtype))
    Bad(path, "dtype '" + descr + "' is not supported",
        "Use float16/32/64, int8/16/32/64, uint8/16/32/64, bool or complex64/128");
  t.shape = shape;
  const int64_t count = ShapeElementCount(shape);
  const size_t elem = DataTypeSize(t.dtype);
  const size_t available = bytes.size() - header_start - header_len;
  if (count < 0 || (elem != 0 && static_cast<uint64_t>(count) > available / elem + 1))
    Bad(path, "shape " + ShapeToString(shape) + " needs more data than the file holds (" + std::to_string(available) +
                  " bytes)");
  const uint64_t need = static_cast<uint64_t>(count) * elem;
  if (need != available)
    Bad(path, "shape " + ShapeToString(shape) + " of " + DataTypeShortName(t.dtype) + " needs " + std::to_string(need) +
                  " data bytes but the file holds " + std::to_string(available));
  t.data.assign(bytes.begin() + static_cast<std::ptrdiff_t>(header_start + header_len), bytes.end());
  return t;
}

void WriteNpy(const std::string &path, const HostTensor &t) {
  std::string descr = t.dtype == ge::DT_BF16 ? kBf16Descr : IsOneByteVoid(t.dtype) ? kFloat8Descr : NumpyDescr(t.dtype);
  if (descr.empty())
    throw Error(ErrorCategory::kInvalidInput, "OA3001",
                "dtype " + DataTypeShortName(t.dtype) + " has no NumPy equivalent", "Write it with --outfmt BIN")
        .WithFile(path);
  if (Is4BitDataType(t.dtype)) {  // unpacked: one element per byte
    HostTensor wide;
    wide.dtype = ge::DT_UINT8;
    wide.shape = t.shape;
    const int64_t n = ShapeElementCount(t.shape);
    for (int64_t i = 0; i < n && static_cast<size_t>(i / 2) < t.data.size(); ++i)
      wide.data.push_back(GetNibble(t.data.data(), i));
    return WriteNpyWithDescr(path, descr, wide);
  }
  WriteNpyWithDescr(path, descr, t);
}

namespace {
void WriteNpyWithDescr(const std::string &path, const std::string &descr, const HostTensor &t) {
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < t.shape.size(); ++i) {
    dict += std::to_string(t.shape[i]);
    if (t.shape.size() == 1 || i + 1 < t.shape.size()) dict += t.shape.size() == 1 ? "," : ", ";
  }
  dict += "), }";
  // Pad with spaces and end with '\n' so the data starts at a multiple of 64 bytes.
  size_t prefix = 10;
  size_t padded = (prefix + dict.size() + 1 + 63) / 64 * 64;
  if (padded - prefix > 65535) {  // the 1.0 length field is 16 bits: use format 2.0
    prefix = 12;
    padded = (prefix + dict.size() + 1 + 63) / 64 * 64;
  }
  const size_t total = prefix + dict.size() + 1;
  dict.append(padded - total, ' ');
  dict += '\n';
  std::vector<uint8_t> out(kMagic, kMagic + kMagicLen);
  out.push_back(prefix == 10 ? 1 : 2);
  out.push_back(0);
  const size_t hl = dict.size();
  out.push_back(static_cast<uint8_t>(hl & 0xff));
  out.push_back(static_cast<uint8_t>((hl >> 8) & 0xff));
  if (prefix == 12) {
    out.push_back(static_cast<uint8_t>((hl >> 16) & 0xff));
    out.push_back(static_cast<uint8_t>((hl >> 24) & 0xff));
  }
  out.insert(out.end(), dict.begin(), dict.end());
  out.insert(out.end(), t.data.begin(), t.data.end());
  WriteFileAtomic(path, out.data(), out.size());
}

}  // namespace

}  // namespace tensor_io
}  // namespace openatc
