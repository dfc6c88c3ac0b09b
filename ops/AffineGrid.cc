// AffineGrid (ONNX AffineGrid-20): the sampling grid of an affine transform, as GridSample reads
// it. theta (N, 2, 3) with size = (N, C, H, W) gives grid (N, H, W, 2); theta (N, 3, 4) with size =
// (N, C, D, H, W) gives (N, D, H, W, 3). Each output point is theta . (x, y[, z], 1) over the
// normalised base grid, x along W, y along H, z along D: for an axis of length L, coordinate i is
// -1 + 2i / (L - 1) with align_corners (-1 when L = 1) and -1 + (2i + 1) / L without. Float,
// float16 and double; sums in double, rounded once.
#include "common/movement.h"

namespace ge {
REG_OP(AffineGrid)
    .INPUT(theta, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(size, TensorType({DT_INT64}))
    .OUTPUT(grid, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .ATTR(align_corners, Int, 0)
    .OP_END_FACTORY_REG(AffineGrid);
}  // namespace ge

namespace openatc_ops {
namespace {

// Output dims for theta dims `t` and the size values `s` (empty: not known yet); "" or the error.
std::string GridDims(const Dims &t, const std::vector<int64_t> &s, bool size_known, Dims *out) {
  if (t.size() != 3 || !((t[1] == 2 && t[2] == 3) || (t[1] == 3 && t[2] == 4)))
    return "theta must be (N, 2, 3) or (N, 3, 4); got " + DimsToString(t);
  const size_t spatial = static_cast<size_t>(t[1]);
  if (!size_known) {
    out->assign(spatial + 2, -1);
    (*out)[0] = t[0];
    out->back() = t[1];
    return "";
  }
  if (s.size() != spatial + 2)
    return "size " + DimsToString(s) + " must have " + std::to_string(spatial + 2) + " values for theta " +
           DimsToString(t);
  for (int64_t v : s)
    if (v < 0) return "size " + DimsToString(s) + " has a negative value";
  if (t[0] >= 0 && s[0] != t[0])
    return "size's N (" + std::to_string(s[0]) + ") differs from theta's (" + std::to_string(t[0]) + ")";
  *out = {s[0]};
  out->insert(out->end(), s.begin() + 2, s.end());
  out->push_back(t[1]);
  return "";
}

double Coord(int64_t i, int64_t len, bool align) {
  if (align) return len == 1 ? -1.0 : -1.0 + 2.0 * static_cast<double>(i) / static_cast<double>(len - 1);
  return -1.0 + (2.0 * static_cast<double>(i) + 1.0) / static_cast<double>(len);
}

template <typename T>
void Grid(const T *theta, T *grid, const Dims &out, bool align) {
  const size_t k = out.back();  // 2 or 3 output coordinates, k + 1 homogeneous inputs
  const int64_t d = k == 3 ? out[1] : 1, h = out[k == 3 ? 2 : 1], w = out[k == 3 ? 3 : 2];
  T *g = grid;
  for (int64_t n = 0; n < out[0]; ++n) {
    const T *th = theta + n * static_cast<int64_t>(k * (k + 1));
    for (int64_t z = 0; z < d; ++z)
      for (int64_t y = 0; y < h; ++y)
        for (int64_t x = 0; x < w; ++x) {
          const double base[4] = {Coord(x, w, align), Coord(y, h, align), k == 3 ? Coord(z, d, align) : 1.0, 1.0};
          for (size_t r = 0; r < k; ++r) {
            double s = 0;
            for (size_t c = 0; c <= k; ++c) s += static_cast<double>(th[r * (k + 1) + c]) * base[k == 3 ? c : (c == 2 ? 3 : c)];
            *g++ = static_cast<T>(s);
          }
        }
  }
}

}  // namespace

class AffineGrid : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType t = ctx->GetInputDataType(0);
    if (t != ge::DT_FLOAT && t != ge::DT_FLOAT16 && t != ge::DT_DOUBLE)
      return Fail(ctx, "theta must be float32, float16 or double");
    return ctx->SetOutputDataType(0, t);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *t = ctx->GetInputShape(0);
    if (t == nullptr || ctx->GetInputShape(1) == nullptr) return Fail(ctx, "inputs theta and size expected");
    std::vector<int64_t> size;
    const bool known = KnownInts(ctx, 1, &size);
    Dims out;
    const std::string err = GridDims(ToDims(*t), size, known, &out);
    if (!err.empty()) return Fail(ctx, err);
    *ctx->GetOutputShape(0) = ToShape(out);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *t = ctx->GetInputTensor(0), *s = ctx->GetInputTensor(1);
    std::vector<int64_t> size;
    if (t == nullptr || s == nullptr || !ReadInts(s, &size)) return Fail(ctx, "inputs theta and int64 size expected");
    Dims out;
    const std::string err = GridDims(ToDims(t->GetStorageShape()), size, true, &out);
    if (!err.empty()) return Fail(ctx, err);
    gert::Tensor *g = AllocChecked(ctx, 0, out, t->GetDataType());
    if (g == nullptr) return ge::GRAPH_FAILED;
    const bool align = AttrInt(ctx, 0, 0) != 0;
    switch (t->GetDataType()) {
      OPENATC_OPS_FLOAT_CASES(Grid<T>(t->GetData<T>(), g->GetData<T>(), out, align))
      default:
        return Fail(ctx, "theta must be float32, float16 or double");
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(AffineGrid);

}  // namespace openatc_ops
