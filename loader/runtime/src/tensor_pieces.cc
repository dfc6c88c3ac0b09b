// SliceAxis / JoinAxis over C-order bytes: a tensor is [outer, axis length, inner] around `axis`.
#include "tensor_pieces.h"

#include <cstring>
#include <string>

#include "openatc/common/dtype.h"
#include "openatc/common/error.h"

namespace openatc::runtime {
namespace {

size_t Product(const std::vector<int64_t> &s, size_t from, size_t to) {
  size_t p = 1;
  for (size_t k = from; k < to; ++k) p *= static_cast<size_t>(s[k]);
  return p;
}

[[noreturn]] void Fail(const std::string &what) {
  throw Error(ErrorCategory::kInvalidInput, "OA2210", what, "Feed values that fit the operator (ONNX operator spec)");
}

}  // namespace

size_t NormalizeAxis(int64_t axis, size_t rank, int extra, const char *what) {
  const int64_t r = static_cast<int64_t>(rank) + extra;
  if (axis < -r || axis >= r)
    Fail(std::string(what) + " " + std::to_string(axis) + " is outside [" + std::to_string(-r) + ", " +
         std::to_string(r - 1) + "] for a tensor of rank " + std::to_string(rank));
  return static_cast<size_t>(axis < 0 ? axis + r : axis);
}

HostTensor SliceAxis(const HostTensor &t, size_t axis, int64_t begin, int64_t len, bool keep_dim) {
  const size_t es = DataTypeSize(t.dtype);
  const size_t outer = Product(t.shape, 0, axis), n = static_cast<size_t>(t.shape[axis]);
  const size_t inner = Product(t.shape, axis + 1, t.shape.size()) * es;
  HostTensor out;
  out.dtype = t.dtype;
  out.shape = t.shape;
  out.shape[axis] = len;
  if (!keep_dim) out.shape.erase(out.shape.begin() + static_cast<std::ptrdiff_t>(axis));
  const size_t chunk = static_cast<size_t>(len) * inner;
  out.data.resize(outer * chunk);
  for (size_t o = 0; o < outer; ++o)
    if (chunk) std::memcpy(out.data.data() + o * chunk, t.data.data() + (o * n + static_cast<size_t>(begin)) * inner, chunk);
  return out;
}

HostTensor JoinAxis(const std::vector<HostTensor> &parts, size_t axis, bool new_axis) {
  if (parts.empty()) Fail("there is nothing to concatenate (the sequence is empty)");
  const HostTensor &first = parts.front();
  std::vector<int64_t> unit = first.shape;  // each part's shape with the join axis in place
  if (new_axis) unit.insert(unit.begin() + static_cast<std::ptrdiff_t>(axis), 1);
  const size_t es = DataTypeSize(first.dtype);
  const size_t outer = Product(unit, 0, axis), inner = Product(unit, axis + 1, unit.size()) * es;
  HostTensor out;
  out.dtype = first.dtype;
  out.shape = unit;
  out.shape[axis] = 0;
  for (const HostTensor &p : parts) {
    std::vector<int64_t> s = p.shape;
    if (new_axis) s.insert(s.begin() + static_cast<std::ptrdiff_t>(axis), 1);
    bool fits = p.dtype == first.dtype && s.size() == unit.size();
    for (size_t k = 0; fits && k < s.size(); ++k) fits = k == axis || s[k] == unit[k];
    if (!fits)
      Fail("tensors " + DataTypeShortName(first.dtype) + " " + ShapeToString(first.shape) + " and " +
           DataTypeShortName(p.dtype) + " " + ShapeToString(p.shape) + " cannot be joined along axis " + std::to_string(axis));
    out.shape[axis] += s[axis];
  }
  out.data.resize(outer * static_cast<size_t>(out.shape[axis]) * inner);
  uint8_t *dst = out.data.data();
  for (size_t o = 0; o < outer; ++o) {
    for (const HostTensor &p : parts) {
      const size_t len = static_cast<size_t>(new_axis ? 1 : p.shape[axis]) * inner;
      if (len) std::memcpy(dst, p.data.data() + o * len, len);
      dst += len;
    }
  }
  return out;
}

}  // namespace openatc::runtime
