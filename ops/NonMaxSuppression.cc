// NonMaxSuppression (ONNX NonMaxSuppression-11): greedy per-(batch, class) box selection.
// boxes [B, N, 4] (center_point_box 0: [y1, x1, y2, x2], either corner order; 1: [x_center,
// y_center, width, height]), scores [B, C, N]; optional max_output_boxes_per_class (int64, 1
// element; absent or <= 0: nothing selected), iou_threshold (float, default 0) and
// score_threshold (float; absent: no filter, else only scores > threshold are candidates).
// Candidates go by descending score, equal scores by lower box index first; a candidate is
// dropped when its IoU with an already selected box of its class is > iou_threshold (boxes
// that do not overlap or have no area have IoU 0). Output: int64 [n, 3] rows (batch, class,
// box) in batch, class, selection order; a NaN score goes after every number; n depends on the
// data (InferShape writes [-1, 3]).
#include <algorithm>
#include <cmath>
#include <numeric>

#include "common/index_util.h"

namespace ge {
REG_OP(NonMaxSuppression)
    .INPUT(boxes, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(scores, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OPTIONAL_INPUT(max_output_boxes_per_class, TensorType({DT_INT64}))
    .OPTIONAL_INPUT(iou_threshold, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OPTIONAL_INPUT(score_threshold, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(selected_indices, TensorType({DT_INT64}))
    .ATTR(center_point_box, Int, 0)
    .OP_END_FACTORY_REG(NonMaxSuppression);
}  // namespace ge

namespace openatc_ops {
namespace {
struct Box {
  double x0, y0, x1, y1;
};

Box ToBox(const double *b, bool center) {
  if (center) return {b[0] - b[2] / 2, b[1] - b[3] / 2, b[0] + b[2] / 2, b[1] + b[3] / 2};
  return {std::min(b[1], b[3]), std::min(b[0], b[2]), std::max(b[1], b[3]), std::max(b[0], b[2])};
}

// IoU(a, b) > threshold, with IoU 0 for disjoint or area-less boxes. For float/float16 boxes the
// IoU and threshold are compared as float, as a float computation rounds them (a threshold equal
// to the float IoU then keeps the box).
bool Suppresses(const Box &a, const Box &b, double threshold, bool as_float) {
  const double ix = std::min(a.x1, b.x1) - std::max(a.x0, b.x0);
  const double iy = std::min(a.y1, b.y1) - std::max(a.y0, b.y0);
  if (ix <= 0 || iy <= 0) return false;
  const double inter = ix * iy;
  const double area_a = (a.x1 - a.x0) * (a.y1 - a.y0), area_b = (b.x1 - b.x0) * (b.y1 - b.y0);
  const double uni = area_a + area_b - inter;
  if (area_a <= 0 || area_b <= 0 || uni <= 0) return false;
  if (as_float) return static_cast<float>(inter / uni) > static_cast<float>(threshold);
  return inter / uni > threshold;
}

struct Params {
  int64_t max_out = 0;
  double iou = 0;
  bool has_score = false;
  double score = 0;
  bool as_float = true;  // boxes are float or float16
};

// One scalar of an optional input: false (after Fail) when it is present but not 1 element.
bool OptionalScalar(gert::EagerOpExecutionContext *ctx, size_t index, const char *what, bool *present, double *v) {
  const gert::Tensor *t = ctx->GetOptionalInputTensor(index);
  *present = false;
  if (t == nullptr) return true;
  std::vector<double> vals;
  if (!ReadAsDouble(t, &vals))
    return Fail(ctx, std::string(what) + " has unsupported dtype " + DtypeName(t->GetDataType())), false;
  if (vals.empty()) return true;  // an empty tensor reads as absent, as ONNX's reference does
  if (vals.size() != 1)
    return Fail(ctx, std::string(what) + " must hold one value, got " + std::to_string(vals.size())), false;
  *present = true;
  *v = vals[0];
  return true;
}

bool ReadParams(gert::EagerOpExecutionContext *ctx, Params *p) {
  const gert::Tensor *m = ctx->GetOptionalInputTensor(2);
  std::vector<int64_t> mv;
  if (m != nullptr && !ReadIndexInput(ctx, m, "max_output_boxes_per_class", &mv)) return false;
  if (mv.size() > 1)
    return Fail(ctx, "max_output_boxes_per_class must hold one value, got " + std::to_string(mv.size())), false;
  if (mv.size() == 1) p->max_out = std::max<int64_t>(mv[0], 0);
  bool present = false;
  double v = 0;
  if (!OptionalScalar(ctx, 3, "iou_threshold", &present, &v)) return false;
  if (present) p->iou = v;
  if (!OptionalScalar(ctx, 4, "score_threshold", &p->has_score, &p->score)) return false;
  return true;
}

// Selected box indices of one (batch, class).
std::vector<int64_t> SelectClass(const std::vector<Box> &boxes, const double *scores, const Params &p) {
  std::vector<int64_t> order;
  for (size_t i = 0; i < boxes.size(); ++i)
    if (!p.has_score || scores[i] > p.score) order.push_back(static_cast<int64_t>(i));
  // Descending score, NaN after every number (a strict weak order even with NaN).
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return !std::isnan(scores[a]) && (std::isnan(scores[b]) || scores[a] > scores[b]);
  });
  std::vector<int64_t> kept;
  for (int64_t c : order) {
    if (static_cast<int64_t>(kept.size()) >= p.max_out) break;
    bool keep = true;
    for (int64_t k : kept)
      if (Suppresses(boxes[static_cast<size_t>(c)], boxes[static_cast<size_t>(k)], p.iou, p.as_float)) {
        keep = false;
        break;
      }
    if (keep) kept.push_back(c);
  }
  return kept;
}
}  // namespace

class NonMaxSuppression : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    return ctx->SetOutputDataType(0, ge::DT_INT64);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    *ctx->GetOutputShape(0) = ToShape({-1, 3});
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *bt = ctx->GetInputTensor(0), *st = ctx->GetInputTensor(1);
    if (bt == nullptr || st == nullptr) return Fail(ctx, "inputs boxes and scores expected");
    const Dims bd = TensorDims(*bt), sd = TensorDims(*st);
    if (bd.size() != 3 || bd[2] != 4) return Fail(ctx, "boxes must be [batches, boxes, 4], got " + DimsToString(bd));
    if (sd.size() != 3 || sd[0] != bd[0] || sd[2] != bd[1])
      return Fail(ctx, "scores must be [batches, classes, boxes] = [" + std::to_string(bd[0]) + ", C, " +
                           std::to_string(bd[1]) + "] for boxes " + DimsToString(bd) + ", got " + DimsToString(sd));
    const int64_t cpb = AttrInt(ctx, 0, 0);
    if (cpb != 0 && cpb != 1) return Fail(ctx, "center_point_box must be 0 or 1, got " + std::to_string(cpb));
    Params p;
    if (!ReadParams(ctx, &p)) return ge::GRAPH_FAILED;
    p.as_float = bt->GetDataType() != ge::DT_DOUBLE;
    std::vector<double> bv, sv;
    if (!ReadAsDouble(bt, &bv) || !ReadAsDouble(st, &sv)) return Fail(ctx, "boxes and scores must be float tensors");
    const int64_t nb = bd[0], n = bd[1], nc = sd[1];
    std::vector<int64_t> rows;
    std::vector<Box> boxes(static_cast<size_t>(n));
    for (int64_t b = 0; b < nb; ++b) {
      for (int64_t i = 0; i < n; ++i)
        boxes[static_cast<size_t>(i)] = ToBox(&bv[static_cast<size_t>((b * n + i) * 4)], cpb == 1);
      for (int64_t c = 0; c < nc; ++c)
        for (int64_t k : SelectClass(boxes, &sv[static_cast<size_t>((b * nc + c) * n)], p))
          rows.insert(rows.end(), {b, c, k});
    }
    gert::Tensor *y = AllocChecked(ctx, 0, {static_cast<int64_t>(rows.size() / 3), 3}, ge::DT_INT64);
    if (y == nullptr) return ge::GRAPH_FAILED;
    std::copy(rows.begin(), rows.end(), y->GetData<int64_t>());
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(NonMaxSuppression);

}  // namespace openatc_ops
