// Helpers of the ge::Session tests (see session_util.h).
#include "session_util.h"

#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "graph/operator_factory.h"
#include "ops_proto_legacy.h"
#include "run_command.h"

namespace openatc::testing {

GeScope::GeScope(const std::map<ge::AscendString, ge::AscendString> &options) {
  std::string roots;
  for (const char *r : {"axpy", "lifecycle", "misbehaving", "session"})
    roots += (roots.empty() ? "" : ":") + BuildPath(std::string("tests/opp/") + r);
  roots += ":" + BuildPath("examples/data_dependent_shape_custom/opp");
  ::setenv("ASCEND_CUSTOM_OPP_PATH", roots.c_str(), 1);
  if (ge::GEInitialize(options) != ge::SUCCESS) throw std::runtime_error("GEInitialize: " + LastGeError());
}
GeScope::~GeScope() { (void)ge::GEFinalize(); }

ge::Operator FloatData(const char *name, const std::vector<int64_t> &dims) {
  ge::TensorDesc desc(ge::Shape(dims), ge::FORMAT_ND, ge::DT_FLOAT);
  auto data = ge::op::Data(name);
  data.update_input_desc_x(desc);
  data.update_output_desc_y(desc);
  return data;
}

ge::Graph MakeGraph(const char *name, const std::vector<ge::Operator> &inputs, const std::vector<ge::Operator> &outputs) {
  ge::Graph g(name);
  g.SetInputs(inputs).SetOutputs(outputs);
  return g;
}

ge::Graph UnaryGraph(const char *op_type, const std::vector<int64_t> &dims) {
  auto x = FloatData("x", dims);
  auto op = ge::OperatorFactory::CreateOperator("op", op_type);
  op.SetInput(0U, x, 0U);  // by index: built-in Relu names its input X, test ops x
  return MakeGraph("unary", {x}, {op});
}

ge::Tensor FloatTensor(const std::vector<int64_t> &dims, const std::vector<float> &values) {
  ge::TensorDesc desc(ge::Shape(dims), ge::FORMAT_ND, ge::DT_FLOAT);
  return ge::Tensor(desc, reinterpret_cast<const uint8_t *>(values.data()), values.size() * sizeof(float));
}

std::vector<float> Floats(const ge::Tensor &t) {
  std::vector<float> out(t.GetSize() / sizeof(float));
  if (!out.empty()) std::memcpy(out.data(), t.GetData(), out.size() * sizeof(float));
  return out;
}

gert::Tensor DeviceTensor(const std::vector<int64_t> &dims, ge::DataType dtype, void *data) {
  gert::StorageShape shape;
  for (int64_t d : dims) {
    shape.MutableOriginShape().AppendDim(d);
    shape.MutableStorageShape().AppendDim(d);
  }
  return gert::Tensor(shape, {ge::FORMAT_ND, ge::FORMAT_ND, {}}, gert::kOnDeviceHbm, dtype, data);
}

std::string LastGeError() { return ge::GEGetErrorMsg(); }

}  // namespace openatc::testing
