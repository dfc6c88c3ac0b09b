// Test deliverable with ops that break the rules, one failure each, for the lifecycle and
// robustness tests (every op computes y = f(x) on float32 directly in Execute: on the host target
// tensor memory is host memory):
//   AsymSerializeOp  Serialize writes a call counter, so Serialize after Deserialize differs
//   LostStateOp      Compile sets scale = 2; Deserialize does not restore it (y = scale * x)
//   ThrowingOp       Execute throws std::runtime_error
//   FailingInferOp   InferShape returns GRAPH_FAILED
//   EmptySerializeOp Serialize returns an empty buffer
//   NoPortableOp     CompilableOp without PortableOp (the portability rule)
//   GoodPortableOp   all correct (y = 3 * x), the control case
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "graph/custom_op.h"

namespace {
ge::graphStatus SameShape(gert::InferShapeContext *ctx) {
  *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
  return ge::GRAPH_SUCCESS;
}
ge::graphStatus SameType(gert::InferDataTypeContext *ctx) {
  return ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
}
ge::graphStatus Scale(gert::EagerOpExecutionContext *ctx, float scale) {
  const gert::Tensor *x = ctx->GetInputTensor(0);
  gert::Tensor *y = ctx->MallocOutputTensor(0, x->GetShape(), x->GetFormat(), x->GetDataType());
  if (y == nullptr) return ge::GRAPH_FAILED;
  for (int64_t i = 0; i < x->GetShapeSize(); ++i) y->GetData<float>()[i] = scale * x->GetData<float>()[i];
  return ge::GRAPH_SUCCESS;
}

// Common base: shape inference passes through; Compile/Serialize/Deserialize are trivial.
class Base : public ge::EagerExecuteOp, public ge::ShapeInferOp, public ge::CompilableOp {
 public:
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override { return SameShape(ctx); }
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return SameType(ctx); }
  ge::graphStatus Compile(gert::OpCompileContext *) override { return ge::GRAPH_SUCCESS; }
};
}  // namespace

class AsymSerializeOp : public Base, public ge::PortableOp {
 public:
  ge::graphStatus Serialize(std::vector<uint8_t> &b) override {
    static int calls = 0;  // across objects: the fresh object writes a different byte
    b = {1, 2, static_cast<uint8_t>(calls++)};
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Deserialize(const std::vector<uint8_t> &) override { return ge::GRAPH_SUCCESS; }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override { return Scale(ctx, 1.0f); }
};

class LostStateOp : public Base, public ge::PortableOp {
 public:
  ge::graphStatus Compile(gert::OpCompileContext *) override {
    scale_ = 2.0f;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Serialize(std::vector<uint8_t> &b) override {
    b = {'v', '1'};
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Deserialize(const std::vector<uint8_t> &) override { return ge::GRAPH_SUCCESS; }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override { return Scale(ctx, scale_); }

 private:
  float scale_ = 1.0f;
};

class ThrowingOp : public Base, public ge::PortableOp {
 public:
  ge::graphStatus Serialize(std::vector<uint8_t> &b) override {
    b = {0};
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Deserialize(const std::vector<uint8_t> &) override { return ge::GRAPH_SUCCESS; }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *) override { throw std::runtime_error("kernel table is empty"); }
};

class FailingInferOp : public Base, public ge::PortableOp {
 public:
  ge::graphStatus InferShape(gert::InferShapeContext *) override { return ge::GRAPH_FAILED; }
  ge::graphStatus Serialize(std::vector<uint8_t> &b) override {
    b = {0};
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Deserialize(const std::vector<uint8_t> &) override { return ge::GRAPH_SUCCESS; }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override { return Scale(ctx, 1.0f); }
};

class EmptySerializeOp : public Base, public ge::PortableOp {
 public:
  ge::graphStatus Serialize(std::vector<uint8_t> &b) override {
    b.clear();
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Deserialize(const std::vector<uint8_t> &) override { return ge::GRAPH_SUCCESS; }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override { return Scale(ctx, 1.0f); }
};

class NoPortableOp : public Base {
 public:
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override { return Scale(ctx, 1.0f); }
};

class GoodPortableOp : public Base, public ge::PortableOp {
 public:
  ge::graphStatus Compile(gert::OpCompileContext *) override {
    scale_ = 3.0f;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Serialize(std::vector<uint8_t> &b) override {
    b = {static_cast<uint8_t>(scale_)};
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Deserialize(const std::vector<uint8_t> &b) override {
    if (b.size() != 1) return ge::GRAPH_FAILED;
    scale_ = b[0];
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override { return Scale(ctx, scale_); }

 private:
  float scale_ = 1.0f;
};

REG_AUTO_MAPPING_OP(AsymSerializeOp);
REG_AUTO_MAPPING_OP(LostStateOp);
REG_AUTO_MAPPING_OP(ThrowingOp);
REG_AUTO_MAPPING_OP(FailingInferOp);
REG_AUTO_MAPPING_OP(EmptySerializeOp);
REG_AUTO_MAPPING_OP(NoPortableOp);
REG_AUTO_MAPPING_OP(GoodPortableOp);
