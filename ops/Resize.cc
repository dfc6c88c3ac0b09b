// Resize (ONNX Resize-13; Resize-11 nodes have the same inputs, and the front end rewrites
// Upsample-7/9 and Resize-10 into this form): resizes X (any rank, float/float16/double or
// integer types) to `sizes` or to floor(input * `scales`) per axis (exactly one of the two given
// and non-empty, one value per axis), sampling with `mode` nearest / linear / cubic (N-d,
// separable: linear/cubic one pass per resized axis, nearest one gather over Y) as laid out in
// common/resize_plan.h. `roi` (2 * rank values, starts then ends, normalised) is read for
// tf_crop_and_resize only. linear/cubic compute in double and round integer outputs to nearest
// (saturating). Opset 18: `axes` (scales, sizes
// and roi then hold values for those axes only; the others keep their size) and
// `keep_aspect_ratio_policy` (with sizes: not_larger / not_smaller resize every listed axis by the
// smallest / largest of the size ratios, out = floor(scale * in + 0.5)) and `antialias` (linear
// and cubic on a shrinking axis: the stretched kernel of common/resize_plan.h).
#include <algorithm>
#include <cmath>
#include <limits>

#include "common/index_util.h"
#include "common/resize_plan.h"

namespace ge {
REG_OP(Resize)
    .INPUT(X, TensorType::ALL())
    .OPTIONAL_INPUT(roi, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OPTIONAL_INPUT(scales, TensorType({DT_FLOAT}))
    .OPTIONAL_INPUT(sizes, TensorType({DT_INT64}))
    .OUTPUT(Y, TensorType::ALL())
    .ATTR(coordinate_transformation_mode, String, "half_pixel")
    .ATTR(cubic_coeff_a, Float, -0.75f)
    .ATTR(exclude_outside, Int, 0)
    .ATTR(extrapolation_value, Float, 0.0f)
    .ATTR(mode, String, "nearest")
    .ATTR(nearest_mode, String, "round_prefer_floor")
    .ATTR(axes, ListInt, {})
    .ATTR(keep_aspect_ratio_policy, String, "stretch")
    .ATTR(antialias, Int, 0)
    .OP_END_FACTORY_REG(Resize);
}  // namespace ge

namespace openatc_ops {
namespace {
bool Attrs(const gert::ExtendedKernelContext *ctx, ResizeAttrs *a) {
  std::string err;
  if (!ParseResizeAttrs(AttrStr(ctx, 4, "nearest"), AttrStr(ctx, 0, "half_pixel"), AttrStr(ctx, 5, "round_prefer_floor"),
                        a, &err))
    return Fail(ctx, err), false;
  a->cubic_a = AttrFloat(ctx, 1, -0.75f);
  a->exclude_outside = AttrInt(ctx, 2, 0) != 0;
  a->extrapolation = AttrFloat(ctx, 3, 0.0f);
  a->antialias = AttrInt(ctx, 8, 0) != 0;
  return true;
}

// A present, non-empty optional input (Resize-11 passes empty tensors for unused ones).
bool Given(const gert::Tensor *t) { return t != nullptr && t->GetShapeSize() > 0; }

// The `axes` attribute resolved against rank r (empty: every axis, in order); false on a bad or
// repeated axis.
bool ResizeAxes(const gert::ExtendedKernelContext *ctx, size_t r, std::vector<size_t> *axes) {
  axes->clear();
  const std::vector<int64_t> raw = AttrInts(ctx, 6);
  if (raw.empty()) {
    for (size_t i = 0; i < r; ++i) axes->push_back(i);
    return true;
  }
  std::vector<bool> seen(r, false);
  for (int64_t a : raw) {
    int64_t n = 0;
    if (!NormalizeAxis(a, static_cast<int64_t>(r), &n) || seen[static_cast<size_t>(n)])
      return Fail(ctx, "axes " + DimsToString(raw) + " has a repeated or out-of-range axis for rank " + std::to_string(r)),
             false;
    seen[static_cast<size_t>(n)] = true;
    axes->push_back(static_cast<size_t>(n));
  }
  return true;
}

// Output dims and per-axis scales from scales or sizes (one value per entry of `axes`, expanded
// here to the rank: 1 / the input dim for the other axes). Dims of `in` may be -1 (unknown): the
// output dim is then -1 too (scales, or a kept aspect ratio) or the size.
bool OutputDims(const gert::ExtendedKernelContext *ctx, const Dims &in, const std::vector<double> *scales_in,
                const std::vector<int64_t> *sizes_in, Dims *out, std::vector<double> *sc) {
  const size_t r = in.size();
  if ((scales_in != nullptr) == (sizes_in != nullptr))
    return Fail(ctx, "exactly one of scales and sizes must be given (non-empty)"), false;
  std::vector<size_t> axes;
  if (!ResizeAxes(ctx, r, &axes)) return false;
  const size_t given = scales_in != nullptr ? scales_in->size() : sizes_in->size();
  if (given != axes.size())
    return Fail(ctx, std::string(scales_in != nullptr ? "scales" : "sizes") + " has " + std::to_string(given) +
                         " values; X " + DimsToString(in) + " needs " + std::to_string(axes.size()) +
                         (axes.size() == r ? "" : " (one per entry of axes)")),
           false;
  std::vector<double> scales_v(r, 1.0);
  std::vector<int64_t> sizes_v(in.begin(), in.end());
  for (size_t k = 0; k < axes.size(); ++k) {
    if (scales_in != nullptr) scales_v[axes[k]] = (*scales_in)[k];
    else sizes_v[axes[k]] = (*sizes_in)[k];
  }
  const std::vector<double> *scales = scales_in != nullptr ? &scales_v : nullptr;
  const std::vector<int64_t> *sizes = sizes_in != nullptr ? &sizes_v : nullptr;
  out->assign(r, -1);
  sc->assign(r, 1.0);
  if (scales != nullptr) {
    for (size_t i = 0; i < r; ++i) {
      const double s = (*scales)[i];
      if (!(s > 0) || !std::isfinite(s))
        return Fail(ctx, "scale " + std::to_string(s) + " of axis " + std::to_string(i) + " must be a positive number"),
               false;
      (*sc)[i] = s;
      if (in[i] < 0) continue;
      const double o = std::floor(s * static_cast<double>(in[i]));
      if (o > static_cast<double>(int64_t{1} << 40))
        return Fail(ctx, "scale " + std::to_string(s) + " of axis " + std::to_string(i) + " makes the output too large"),
               false;
      (*out)[i] = static_cast<int64_t>(o);
    }
    return true;
  }
  for (size_t i = 0; i < r; ++i) {
    const int64_t s = (*sizes)[i];
    if (s < 0) return Fail(ctx, "size " + std::to_string(s) + " of axis " + std::to_string(i) + " is negative"), false;
    (*out)[i] = s;
    if (in[i] > 0) (*sc)[i] = static_cast<double>(s) / static_cast<double>(in[i]);
  }
  const std::string policy = AttrStr(ctx, 7, "stretch");
  if (policy == "stretch") return true;
  if (policy != "not_larger" && policy != "not_smaller")
    return Fail(ctx, "keep_aspect_ratio_policy '" + policy + "' is not stretch, not_larger or not_smaller"), false;
  double keep = policy == "not_larger" ? INFINITY : 0.0;
  bool known = true;
  for (size_t a : axes) {
    known = known && in[a] > 0;
    if (in[a] > 0) keep = policy == "not_larger" ? std::min(keep, (*sc)[a]) : std::max(keep, (*sc)[a]);
  }
  for (size_t a : axes) {
    (*sc)[a] = keep;
    (*out)[a] = known ? static_cast<int64_t>(std::floor(keep * static_cast<double>(in[a]) + 0.5)) : -1;
  }
  return true;
}

template <typename T>
T FromDouble(double v) {
  if constexpr (std::is_integral<T>::value) {
    const double r = std::nearbyint(v);
    if (!(r >= static_cast<double>(std::numeric_limits<T>::lowest()))) return std::numeric_limits<T>::lowest();
    if (r >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
    return static_cast<T>(r);
  } else {
    return static_cast<T>(v);
  }
}

// One pass over axis `a` with plan `p`: src has dims `d`, dst the same dims with d[a] = out.
template <typename V, typename Fill>
void Pass(const V *src, V *dst, const Dims &d, size_t a, int64_t out, const AxisPlan &p, V fill, Fill combine) {
  const int64_t outer = Prod(d, 0, a), in = d[a], inner = Prod(d, a + 1, d.size());
  const size_t taps = static_cast<size_t>(p.taps);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t q = 0; q < out; ++q) {
      V *row = dst + (o * out + q) * inner;
      if (p.outside[static_cast<size_t>(q)]) {
        std::fill(row, row + inner, fill);
        continue;
      }
      const int64_t *idx = &p.index[static_cast<size_t>(q) * taps];
      const double *w = &p.weight[static_cast<size_t>(q) * taps];
      const V *base = src + o * in * inner;
      combine(base, row, inner, idx, w, taps);
    }
}

// Nearest in one pass over Y: each output element copies the input element its per-axis taps
// name (or extrapolation_value where tf_crop_and_resize leaves the input); an output block whose
// source block equals the previous one's (upsampling) is copied from that previous block.
template <typename T>
void NearestGather(const T *src, T *dst, const Dims &in, const Dims &out, const std::vector<AxisPlan> &plans, T fill) {
  const size_t r = in.size();
  if (r == 0) {
    dst[0] = src[0];
    return;
  }
  std::vector<int64_t> in_stride(r, 1), out_block(r, 1);
  for (size_t d = r - 1; d-- > 0;) {
    in_stride[d] = in_stride[d + 1] * in[d + 1];
    out_block[d] = out_block[d + 1] * out[d + 1];
  }
  auto walk = [&](auto &self, size_t d, const T *s, T *o) -> void {
    const AxisPlan &p = plans[d];
    if (d + 1 == r) {
      for (int64_t q = 0; q < out[d]; ++q)
        o[q] = p.outside[static_cast<size_t>(q)] ? fill : s[p.index[static_cast<size_t>(q)]];
      return;
    }
    const int64_t block = out_block[d];
    for (int64_t q = 0; q < out[d]; ++q) {
      T *ob = o + q * block;
      const size_t uq = static_cast<size_t>(q);
      if (p.outside[uq]) {
        std::fill(ob, ob + block, fill);
      } else if (q > 0 && !p.outside[uq - 1] && p.index[uq] == p.index[uq - 1]) {
        std::copy(ob - block, ob, ob);
      } else {
        self(self, d + 1, s + p.index[uq] * in_stride[d], ob);
      }
    }
  };
  walk(walk, 0, src, dst);
}

template <typename T>
void Run(const gert::Tensor &x, gert::Tensor &y, const Dims &in, const Dims &out, const std::vector<AxisPlan> &plans,
         const ResizeAttrs &a) {
  const int64_t n_in = NumElements(in);
  Dims cur = in;
  if (a.mode == ResizeMode::kNearest) {
    NearestGather<T>(x.GetData<T>(), y.GetData<T>(), in, out, plans, static_cast<T>(a.extrapolation));
    return;
  }
  std::vector<double> buf(static_cast<size_t>(n_in)), next;
  for (int64_t i = 0; i < n_in; ++i) buf[static_cast<size_t>(i)] = static_cast<double>(x.GetData<T>()[i]);
  for (size_t ax = 0; ax < in.size(); ++ax) {
    if (plans[ax].identity) continue;
    Dims nd = cur;
    nd[ax] = out[ax];
    next.assign(static_cast<size_t>(NumElements(nd)), 0.0);
    Pass<double>(buf.data(), next.data(), cur, ax, out[ax], plans[ax], a.extrapolation,
                 [](const double *base, double *row, int64_t inner, const int64_t *idx, const double *w, size_t taps) {
                   for (size_t k = 0; k < taps; ++k) {
                     if (w[k] == 0) continue;
                     const double *s = base + idx[k] * inner;
                     for (int64_t i = 0; i < inner; ++i) row[i] += w[k] * s[i];
                   }
                 });
    buf.swap(next);
    cur = nd;
  }
  T *dst = y.GetData<T>();
  for (size_t i = 0; i < buf.size(); ++i) dst[i] = FromDouble<T>(buf[i]);
}
}  // namespace

class Resize : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType x = ctx->GetInputDataType(0);
    if (ElemBytes(x) == 0 || x == ge::DT_BOOL || x == ge::DT_BF16) return Fail(ctx, "unsupported X dtype " + DtypeName(x));
    return ctx->SetOutputDataType(0, x);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    ResizeAttrs a;
    if (!Attrs(ctx, &a)) return ge::GRAPH_FAILED;
    const gert::Shape *xs = ctx->GetInputShape(0);
    if (xs == nullptr) return Fail(ctx, "input X expected");
    const Dims in = ToDims(*xs);
    if (in.size() == 1 && in[0] == -2) {
      *ctx->GetOutputShape(0) = ToShape(in);
      return ge::GRAPH_SUCCESS;
    }
    Dims out(in.size(), -1);
    const gert::Tensor *st = ctx->GetOptionalInputTensor(2), *zt = ctx->GetOptionalInputTensor(3);
    std::vector<double> scales, sc;
    std::vector<int64_t> sizes;
    const bool scales_known = st != nullptr && st->GetAddr() != nullptr && ReadAsDouble(st, &scales);
    const bool sizes_known = zt != nullptr && zt->GetAddr() != nullptr && ReadInts(zt, &sizes);
    if (scales_known && !scales.empty() && (zt == nullptr || (sizes_known && sizes.empty()))) {
      if (!OutputDims(ctx, in, &scales, nullptr, &out, &sc)) return ge::GRAPH_FAILED;
    } else if (sizes_known && !sizes.empty() && (st == nullptr || (scales_known && scales.empty()))) {
      if (!OutputDims(ctx, in, nullptr, &sizes, &out, &sc)) return ge::GRAPH_FAILED;
    }
    *ctx->GetOutputShape(0) = ToShape(out);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    ResizeAttrs a;
    if (!Attrs(ctx, &a)) return ge::GRAPH_FAILED;
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "input X is missing");
    const gert::Tensor *rt = ctx->GetOptionalInputTensor(1), *st = ctx->GetOptionalInputTensor(2),
                       *zt = ctx->GetOptionalInputTensor(3);
    std::vector<double> scales, roi;
    std::vector<int64_t> sizes;
    if (Given(st) && (st->GetDataType() != ge::DT_FLOAT || !ReadAsDouble(st, &scales)))
      return Fail(ctx, "scales must be float32, got " + DtypeName(st->GetDataType()));
    if (Given(zt) && !ReadIndexInput(ctx, zt, "sizes", &sizes)) return ge::GRAPH_FAILED;
    const Dims in = TensorDims(*x);
    Dims out;
    std::vector<double> sc;
    if (!OutputDims(ctx, in, Given(st) ? &scales : nullptr, Given(zt) ? &sizes : nullptr, &out, &sc))
      return ge::GRAPH_FAILED;
    const size_t r = in.size();
    if (a.coord == CoordMode::kTfCropAndResize) {
      std::vector<size_t> axes;
      if (!ResizeAxes(ctx, r, &axes)) return ge::GRAPH_FAILED;
      std::vector<double> given;
      if (!Given(rt) || !ReadAsDouble(rt, &given) || given.size() != 2 * axes.size())
        return Fail(ctx, std::string("tf_crop_and_resize needs roi with 2 * ") + (axes.size() == r ? "rank" : "len(axes)") +
                             " = " + std::to_string(2 * axes.size()) + " float values");
      roi.assign(r, 0.0);
      roi.resize(2 * r, 1.0);
      for (size_t k = 0; k < axes.size(); ++k) {
        roi[axes[k]] = given[k];
        roi[r + axes[k]] = given[axes.size() + k];
      }
    }
    for (size_t i = 0; i < r; ++i)
      if (in[i] == 0 && out[i] != 0)
        return Fail(ctx, "cannot resize the empty axis " + std::to_string(i) + " of X " + DimsToString(in) + " to " +
                             std::to_string(out[i]));
    gert::Tensor *y = AllocChecked(ctx, 0, out, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    if (NumElements(out) == 0) return ge::GRAPH_SUCCESS;
    for (size_t i = 0; i < r; ++i)
      if (const double taps = ResizeTaps(a, sc[i]); out[i] > 0 && taps * static_cast<double>(out[i]) > 0x1p28)
        return Fail(ctx, "antialias with scale " + std::to_string(sc[i]) + " on axis " + std::to_string(i) +
                             " needs " + std::to_string(taps) + " taps per output element (" +
                             std::to_string(out[i]) + " outputs), over OpenATC's limit of 2^28 taps per axis");
    std::vector<AxisPlan> plans(r);
    for (size_t i = 0; i < r; ++i)
      plans[i] = PlanAxis(a, in[i], out[i], sc[i], roi.empty() ? 0.0 : roi[i], roi.empty() ? 1.0 : roi[i + r]);
    switch (x->GetDataType()) {
      OPENATC_OPS_FLOAT_CASES(Run<T>(*x, *y, in, out, plans, a))
      OPENATC_OPS_INT_CASES(Run<T>(*x, *y, in, out, plans, a))
      default:
        return Fail(ctx, "unsupported X dtype " + DtypeName(x->GetDataType()));
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Resize);

}  // namespace openatc_ops
