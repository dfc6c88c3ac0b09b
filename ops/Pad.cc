// Pad (ONNX Pad-13): pads `data` by `pads` ([x1_begin, x2_begin, ..., x1_end, x2_end, ...],
// int64, negative values crop) in `mode` constant (the optional scalar `constant_value`, default
// 0), reflect (mirror without repeating the edge, as numpy.pad 'reflect', repeated for pads
// longer than the dim), edge (repeat the border element) or wrap (Pad-19: numpy.pad 'wrap',
// the data repeated periodically). Pad-18's optional `axes` input (int64,
// negative counts from the back, no repeats) names the axes `pads` is for (2 * len(axes) values);
// the other axes are not padded.
#include <cstdint>
#include <cstring>

#include "common/movement.h"

namespace ge {
REG_OP(Pad)
    .INPUT(data, TensorType::ALL())
    .INPUT(pads, TensorType({DT_INT64}))
    .OPTIONAL_INPUT(constant_value, TensorType::ALL())
    .OPTIONAL_INPUT(axes, TensorType({DT_INT64}))
    .OUTPUT(output, TensorType::ALL())
    .ATTR(mode, String, "constant")
    .OP_END_FACTORY_REG(Pad);
}  // namespace ge

namespace openatc_ops {
namespace {
enum class Mode { kConstant, kReflect, kEdge, kWrap };

bool ParseMode(const gert::ExtendedKernelContext *ctx, Mode *m) {
  const std::string s = AttrStr(ctx, 0, "constant");
  if (s == "constant") *m = Mode::kConstant;
  else if (s == "reflect") *m = Mode::kReflect;
  else if (s == "edge") *m = Mode::kEdge;
  else if (s == "wrap") *m = Mode::kWrap;
  else {
    Fail(ctx, "mode '" + s + "' is not one of constant, reflect, edge, wrap");
    return false;
  }
  return true;
}

// Pad-18: `pads` for `axes` only -> the full [begins..., ends...] form for `rank` axes.
bool ExpandPads(const gert::ExtendedKernelContext *ctx, size_t rank, const std::vector<int64_t> &axes,
                std::vector<int64_t> *pads) {
  if (pads->size() != 2 * axes.size()) {
    Fail(ctx, "pads has " + std::to_string(pads->size()) + " values; axes " + DimsToString(axes) + " needs " +
                  std::to_string(2 * axes.size()));
    return false;
  }
  std::vector<int64_t> full(2 * rank, 0);
  std::vector<bool> seen(rank, false);
  for (size_t k = 0; k < axes.size(); ++k) {
    int64_t a = 0;
    if (!NormalizeAxis(axes[k], static_cast<int64_t>(rank), &a) || seen[static_cast<size_t>(a)]) {
      Fail(ctx, "axes " + DimsToString(axes) + " has an axis out of range for rank " + std::to_string(rank) +
                    " or repeated");
      return false;
    }
    seen[static_cast<size_t>(a)] = true;
    full[static_cast<size_t>(a)] = (*pads)[k];
    full[static_cast<size_t>(a) + rank] = (*pads)[k + axes.size()];
  }
  *pads = full;
  return true;
}

bool PadDims(const gert::ExtendedKernelContext *ctx, const Dims &in, const std::vector<int64_t> &pads, Dims *out) {
  if (pads.size() != 2 * in.size()) {
    Fail(ctx, "pads has " + std::to_string(pads.size()) + " values; data " + DimsToString(in) + " needs " +
                  std::to_string(2 * in.size()));
    return false;
  }
  out->resize(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const int64_t b = pads[i], e = pads[i + in.size()];
    if (in[i] < 0) {
      (*out)[i] = -1;
      continue;
    }
    const bool overflow = b > INT64_MAX / 4 || e > INT64_MAX / 4 || b < -in[i] || e < -in[i];
    const int64_t d = overflow ? -1 : in[i] + b + e;
    if (d < 0) {
      Fail(ctx, "pads " + DimsToString(pads) + " give axis " + std::to_string(i) + " of data " + DimsToString(in) +
                    " a negative or overflowing size");
      return false;
    }
    (*out)[i] = d;
  }
  return true;
}

// Input index of output index `o` on an axis of size n with begin pad b; -1 = the constant.
int64_t SourceIndex(int64_t o, int64_t n, int64_t b, Mode m) {
  int64_t i = o - b;
  if (i >= 0 && i < n) return i;
  if (m == Mode::kConstant) return -1;
  if (m == Mode::kEdge) return i < 0 ? 0 : n - 1;
  if (m == Mode::kWrap) return ((i % n) + n) % n;
  if (n == 1) return 0;
  const int64_t period = 2 * (n - 1);
  i %= period;
  if (i < 0) i += period;
  return i < n ? i : period - i;
}

template <typename U>
void PadCopy(const U *in, U *out, const Dims &id, const Dims &od, const std::vector<int64_t> &pads, Mode m, U fill) {
  const size_t rank = od.size();
  if (NumElements(od) == 0) return;
  if (rank == 0) {
    out[0] = in[0];
    return;
  }
  std::vector<std::vector<int64_t>> map(rank);
  for (size_t a = 0; a < rank; ++a)
    for (int64_t o = 0; o < od[a]; ++o) map[a].push_back(SourceIndex(o, id[a], pads[a], m));
  const std::vector<int64_t> strides = ContiguousStrides(id);
  std::vector<int64_t> idx(rank, 0);
  const int64_t inner = od[rank - 1];
  const std::vector<int64_t> &last = map[rank - 1];
  for (U *row = out;; row += inner) {
    int64_t base = 0;
    bool constant = false;
    for (size_t a = 0; a + 1 < rank; ++a) {
      const int64_t s = map[a][idx[a]];
      if (s < 0) constant = true;
      base += s * strides[a];
    }
    for (int64_t j = 0; j < inner; ++j) row[j] = constant || last[j] < 0 ? fill : in[base + last[j]];
    size_t d = rank - 1;
    while (d-- > 0) {
      if (++idx[d] < od[d]) break;
      idx[d] = 0;
    }
    if (d == static_cast<size_t>(-1)) return;
  }
}

template <typename U>
void PadTyped(const gert::Tensor &x, gert::Tensor &y, const Dims &od, const std::vector<int64_t> &pads, Mode m,
              const void *fill_bytes) {
  U fill{};
  if (fill_bytes != nullptr) std::memcpy(&fill, fill_bytes, sizeof(U));
  PadCopy(static_cast<const U *>(x.GetAddr()), static_cast<U *>(y.GetAddr()), TensorDims(x), od, pads, m, fill);
}
}  // namespace

class Pad : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return SameDtypeAsInput0(ctx); }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "input data expected");
    Mode m;
    if (!ParseMode(ctx, &m)) return ge::GRAPH_FAILED;
    const Dims in = ToDims(*x);
    std::vector<int64_t> pads, axes;
    const bool has_axes = ctx->GetOptionalInputShape(3) != nullptr;
    Dims out;
    if (in.size() == 1 && in[0] == -2) out = in;
    else if (!KnownInts(ctx, 1, &pads) || (has_axes && !KnownInts(ctx, 3, &axes))) out.assign(in.size(), -1);
    else if (has_axes && !ExpandPads(ctx, in.size(), axes, &pads)) return ge::GRAPH_FAILED;
    else if (!PadDims(ctx, in, pads, &out)) return ge::GRAPH_FAILED;
    *ctx->GetOutputShape(0) = ToShape(out);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    std::vector<int64_t> pads;
    if (x == nullptr || !ReadInts(ctx->GetRequiredInputTensor(1), &pads)) return Fail(ctx, "data and int64 pads expected");
    Mode m;
    if (!ParseMode(ctx, &m)) return ge::GRAPH_FAILED;
    const Dims in = TensorDims(*x);
    const gert::Tensor *axes_t = ctx->GetOptionalInputTensor(3);
    std::vector<int64_t> axes;
    if (axes_t != nullptr && !ReadInts(axes_t, &axes)) return Fail(ctx, "axes must be an int64 tensor");
    if (axes_t != nullptr && !ExpandPads(ctx, in.size(), axes, &pads)) return ge::GRAPH_FAILED;
    Dims out;
    if (!PadDims(ctx, in, pads, &out)) return ge::GRAPH_FAILED;
    if (m != Mode::kConstant)
      for (size_t i = 0; i < in.size(); ++i)
        if (in[i] == 0 && out[i] > 0)
          return Fail(ctx, "cannot " + std::string(m == Mode::kEdge ? "edge" : (m == Mode::kWrap ? "wrap" : "reflect")) +
                               "-pad the empty axis " +
                               std::to_string(i) + " of data " + DimsToString(in));
    const gert::Tensor *cv = ctx->GetOptionalInputTensor(2);
    const void *fill = nullptr;
    if (cv != nullptr && cv->GetShapeSize() > 0) {
      if (cv->GetDataType() != x->GetDataType())
        return Fail(ctx, "constant_value is " + DtypeName(cv->GetDataType()) + " but data is " + DtypeName(x->GetDataType()));
      fill = cv->GetAddr();
    }
    gert::Tensor *y = AllocChecked(ctx, 0, out, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    switch (ElemBytes(x->GetDataType())) {
      case 1: PadTyped<uint8_t>(*x, *y, out, pads, m, fill); break;
      case 2: PadTyped<uint16_t>(*x, *y, out, pads, m, fill); break;
      case 4: PadTyped<uint32_t>(*x, *y, out, pads, m, fill); break;
      case 8: PadTyped<uint64_t>(*x, *y, out, pads, m, fill); break;
      default: return Fail(ctx, "unsupported dtype " + DtypeName(x->GetDataType()));
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Pad);

}  // namespace openatc_ops
