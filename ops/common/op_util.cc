// Shared helpers of the built-in operators.
#include "common/op_util.h"

#include <cstring>

namespace openatc_ops {

Dims ToDims(const gert::Shape &s) {
  Dims d(s.GetDimNum());
  for (size_t i = 0; i < d.size(); ++i) d[i] = s.GetDim(i);
  return d;
}

gert::Shape ToShape(const Dims &d) {
  gert::Shape s;
  for (int64_t v : d) s.AppendDim(v);
  return s;
}

int64_t NumElements(const Dims &d) {
  int64_t n = 1;
  for (int64_t v : d) {
    if (v < 0) return -1;
    n *= v;
  }
  return n;
}

std::string DimsToString(const Dims &d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + "]";
}

ge::graphStatus Fail(const gert::ExtendedKernelContext *ctx, const std::string &message) {
  std::fprintf(stderr, "%s '%s': %s\n", ctx ? ctx->GetNodeType() : "?", ctx ? ctx->GetNodeName() : "?",
               message.c_str());
  return ge::GRAPH_FAILED;
}

bool BroadcastDims(const Dims &a, const Dims &b, Dims *out) {
  const size_t rank = a.size() > b.size() ? a.size() : b.size();
  Dims r(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (x == y) r[i] = x;
    else if (x == 1) r[i] = y;
    else if (y == 1) r[i] = x;
    else if (x < 0) r[i] = y;  // unknown meets known: the known one (or a run-time error)
    else if (y < 0) r[i] = x;
    else return false;
  }
  *out = r;
  return true;
}

std::vector<int64_t> BroadcastStrides(const Dims &in, const Dims &out) {
  std::vector<int64_t> strides(out.size(), 0);
  int64_t stride = 1;
  for (size_t k = 0; k < in.size(); ++k) {
    const size_t i = in.size() - 1 - k;
    const size_t o = out.size() - 1 - k;
    strides[o] = in[i] == 1 && out[o] != 1 ? 0 : stride;
    stride *= in[i];
  }
  return strides;
}

gert::Tensor *AllocOutput(gert::EagerOpExecutionContext *ctx, size_t index, const Dims &dims, ge::DataType dtype) {
  gert::StorageShape shape;
  shape.MutableStorageShape() = ToShape(dims);
  shape.MutableOriginShape() = shape.GetStorageShape();
  gert::Tensor *t = ctx->MallocOutputTensor(index, shape, {ge::FORMAT_ND, ge::FORMAT_ND, {}}, dtype);
  if (t == nullptr) Fail(ctx, "cannot allocate output " + std::to_string(index) + " " + DimsToString(dims));
  return t;
}

bool ReadInts(const gert::Tensor *t, std::vector<int64_t> *out) {
  if (t == nullptr || t->GetAddr() == nullptr) return false;
  const int64_t n = t->GetShapeSize();
  if (n < 0) return false;
  out->clear();
  if (t->GetDataType() == ge::DT_INT64) {
    const auto *p = t->GetData<int64_t>();
    out->assign(p, p + n);
  } else if (t->GetDataType() == ge::DT_INT32) {
    const auto *p = t->GetData<int32_t>();
    for (int64_t i = 0; i < n; ++i) out->push_back(p[i]);
  } else {
    return false;
  }
  return true;
}

bool NormalizeAxis(int64_t axis, int64_t rank, int64_t *out) {
  if (axis < -rank || axis >= rank) return false;
  *out = axis < 0 ? axis + rank : axis;
  return true;
}

int64_t AttrInt(const gert::ExtendedKernelContext *ctx, size_t index, int64_t def) {
  const gert::RuntimeAttrs *a = ctx->GetAttrs();
  const int64_t *v = a ? a->GetInt(index) : nullptr;
  return v ? *v : def;
}

float AttrFloat(const gert::ExtendedKernelContext *ctx, size_t index, float def) {
  const gert::RuntimeAttrs *a = ctx->GetAttrs();
  const float *v = a ? a->GetFloat(index) : nullptr;
  return v ? *v : def;
}

std::string AttrStr(const gert::ExtendedKernelContext *ctx, size_t index, const std::string &def) {
  const gert::RuntimeAttrs *a = ctx->GetAttrs();
  const char *v = a ? a->GetStr(index) : nullptr;
  return v ? std::string(v) : def;
}

std::vector<int64_t> AttrInts(const gert::ExtendedKernelContext *ctx, size_t index) {
  const gert::RuntimeAttrs *a = ctx->GetAttrs();
  const auto *v = a ? a->GetListInt(index) : nullptr;
  return v ? std::vector<int64_t>(v->GetData(), v->GetData() + v->GetSize()) : std::vector<int64_t>{};
}

std::vector<float> AttrFloats(const gert::ExtendedKernelContext *ctx, size_t index) {
  const gert::RuntimeAttrs *a = ctx->GetAttrs();
  const auto *v = a ? a->GetListFloat(index) : nullptr;
  return v ? std::vector<float>(v->GetData(), v->GetData() + v->GetSize()) : std::vector<float>{};
}

std::vector<std::string> AttrStrings(const gert::ExtendedKernelContext *ctx, size_t index) {
  const gert::RuntimeAttrs *a = ctx->GetAttrs();
  const char *p = a ? a->GetStr(index) : nullptr;
  std::vector<std::string> out;
  while (p != nullptr && *p != '\0') {
    out.emplace_back(p);
    p += out.back().size() + 1;
  }
  return out;
}

}  // namespace openatc_ops
