// Test deliverable "refs": RefInplaceOp, a ref op (GE style: input and output share the IR name
// x) whose Execute makes output 0 alias input 0 with MakeOutputRefInput and updates the data in
// place, x = 2 * x + 1 (float32), with a host kernel launched in-process (OPENATC_LAUNCH) on 4
// blocks. Inside Execute it checks that the aliased output has exactly the input's address, size,
// shape and dtype; any difference fails Execute with a message naming both addresses, so a
// runtime that copied instead of aliasing fails the test.
#include <cstdint>
#include <cstdio>

#include "graph/custom_op.h"
#include "graph/operator_reg.h"
#include "openatc/host_kernel.h"

namespace ge {
REG_OP(RefInplaceOp)
    .INPUT(x, TensorType({DT_FLOAT}))
    .OUTPUT(x, TensorType({DT_FLOAT}))
    .OP_END_FACTORY_REG(RefInplaceOp);
}  // namespace ge

// Block b of n updates elements [b * per, (b + 1) * per) of x in place.
OPENATC_HOST_KERNEL(scale_add_inplace, GM_ADDR x, int64_t count) {
  float *v = reinterpret_cast<float *>(x);
  const int64_t per = (count + GetBlockNum() - 1) / GetBlockNum();
  const int64_t begin = GetBlockIdx() * per;
  const int64_t end = begin + per < count ? begin + per : count;
  for (int64_t i = begin; i < end; ++i) v[i] = 2.0f * v[i] + 1.0f;
}

class RefInplaceOp : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    return ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    gert::Tensor *y = ctx->MakeOutputRefInput(0, 0);
    if (x == nullptr || y == nullptr) {
      std::fprintf(stderr, "[ERROR] RefInplaceOp: MakeOutputRefInput(0, 0) returned nullptr\n");
      return ge::GRAPH_FAILED;
    }
    if (y->GetAddr() != x->GetAddr() || ctx->GetOutputTensor(0) != y || y->GetSize() != x->GetSize() ||
        y->GetDataType() != x->GetDataType() || !(y->GetStorageShape() == x->GetStorageShape())) {
      std::fprintf(stderr, "[ERROR] RefInplaceOp: output 0 (%p, %zu bytes) does not alias input 0 (%p, %zu bytes)\n",
                   y->GetAddr(), y->GetSize(), x->GetAddr(), x->GetSize());
      return ge::GRAPH_FAILED;
    }
    const int ret = OPENATC_LAUNCH(scale_add_inplace, 4, ctx->GetStream())(static_cast<uint8_t *>(y->GetAddr()),
                                                                          x->GetShapeSize());
    return ret == 0 ? ge::GRAPH_SUCCESS : ge::GRAPH_FAILED;
  }
};

REG_AUTO_MAPPING_OP(RefInplaceOp);
