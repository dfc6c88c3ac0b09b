/**
 * @file ops/common/random_like.h
 * The shared op of Bernoulli, RandomUniformLike and RandomNormalLike: output of the input's shape,
 * dtype from attribute 0 (`dtype`, an ONNX type number; 0 = the input's), values drawn by Derived:
 *   static bool AcceptsInput(ge::DataType), AcceptsOutput(ge::DataType);
 *   static bool Draw(gert::EagerOpExecutionContext *, const gert::Tensor &input, std::vector<double> *values);
 * (`values` comes sized to the input's element count; false after Fail).
 */
#ifndef OPENATC_OPS_COMMON_RANDOM_LIKE_H_
#define OPENATC_OPS_COMMON_RANDOM_LIKE_H_

#include <vector>

#include "common/movement.h"
#include "common/random.h"
#include "common/signal.h"

namespace openatc_ops {

template <typename Derived>
class RandomLikeOp : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType in = ctx->GetInputDataType(0);
    if (!Derived::AcceptsInput(in)) return Fail(ctx, "input dtype " + DtypeName(in) + " is not supported");
    const ge::DataType d = RandomOutputType(ctx, 0, in, Derived::AcceptsOutput);
    return d == ge::DT_UNDEFINED ? ge::GRAPH_FAILED : ctx->SetOutputDataType(0, d);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "input expected");
    *ctx->GetOutputShape(0) = *x;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "input is missing");
    if (!Derived::AcceptsInput(x->GetDataType()))
      return Fail(ctx, "input dtype " + DtypeName(x->GetDataType()) + " is not supported");
    const ge::DataType d = RandomOutputType(ctx, 0, x->GetDataType(), Derived::AcceptsOutput);
    if (d == ge::DT_UNDEFINED) return ge::GRAPH_FAILED;
    std::vector<double> v(static_cast<size_t>(x->GetShapeSize()));
    if (!Derived::Draw(ctx, *x, &v)) return ge::GRAPH_FAILED;
    gert::Tensor *y = AllocChecked(ctx, 0, TensorDims(*x), d);
    if (y == nullptr) return ge::GRAPH_FAILED;
    if (d == ge::DT_BOOL) {
      for (size_t i = 0; i < v.size(); ++i) y->GetData<uint8_t>()[i] = v[i] != 0 ? 1 : 0;
    } else {
      StoreAs(v, d, y->GetAddr());
    }
    return ge::GRAPH_SUCCESS;
  }
};

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_RANDOM_LIKE_H_
