// One case of the opset-18+ conformance set (newer_cases.cc): a single-graph ONNX model built with
// onnx.pb.h, its inputs and expected outputs, written in the backend-test layout.
#ifndef OPENATC_TESTS_CONFORMANCE_NEWER_MODEL_H_
#define OPENATC_TESTS_CONFORMANCE_NEWER_MODEL_H_

#include <onnx/onnx_pb.h>
#include <sys/stat.h>

#include <cstdint>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

namespace openatc::newer {

class Case {
 public:
  Case(std::string name, int64_t opset, int64_t ir) : name_(std::move(name)) {
    model_.set_ir_version(ir);
    model_.set_producer_name("openatc-newer-cases");
    auto *op = model_.add_opset_import();
    op->set_domain("");
    op->set_version(opset);
    model_.mutable_graph()->set_name(name_);
  }
  void Input(const std::string &n, const std::vector<int64_t> &dims, const std::vector<float> &v) {
    Declare(model_.mutable_graph()->add_input(), n, onnx::TensorProto::FLOAT, dims);
    inputs_.push_back(Tensor(n, onnx::TensorProto::FLOAT, dims, v.data(), v.size() * 4));
  }
  void InputBool(const std::string &n, const std::vector<int64_t> &dims, const std::vector<uint8_t> &v) {
    Declare(model_.mutable_graph()->add_input(), n, onnx::TensorProto::BOOL, dims);
    inputs_.push_back(Tensor(n, onnx::TensorProto::BOOL, dims, v.data(), v.size()));
  }
  void InputInt64(const std::string &n, const std::vector<int64_t> &dims, const std::vector<int64_t> &v) {
    Declare(model_.mutable_graph()->add_input(), n, onnx::TensorProto::INT64, dims);
    inputs_.push_back(Tensor(n, onnx::TensorProto::INT64, dims, v.data(), v.size() * 8));
  }
  void Output(const std::string &n, const std::vector<int64_t> &dims, const std::vector<float> &v) {
    Declare(model_.mutable_graph()->add_output(), n, onnx::TensorProto::FLOAT, dims);
    outputs_.push_back(Tensor(n, onnx::TensorProto::FLOAT, dims, v.data(), v.size() * 4));
  }
  void OutputBool(const std::string &n, const std::vector<int64_t> &dims, const std::vector<uint8_t> &v) {
    Declare(model_.mutable_graph()->add_output(), n, onnx::TensorProto::BOOL, dims);
    outputs_.push_back(Tensor(n, onnx::TensorProto::BOOL, dims, v.data(), v.size()));
  }
  void OutputDouble(const std::string &n, const std::vector<int64_t> &dims, const std::vector<double> &v) {
    Declare(model_.mutable_graph()->add_output(), n, onnx::TensorProto::DOUBLE, dims);
    outputs_.push_back(Tensor(n, onnx::TensorProto::DOUBLE, dims, v.data(), v.size() * 8));
  }
  /// An input / output of any element type, its bytes given as ONNX stores them in raw_data.
  void InputRaw(const std::string &n, int32_t elem, const std::vector<int64_t> &dims, const std::vector<uint8_t> &b) {
    Declare(model_.mutable_graph()->add_input(), n, elem, dims);
    inputs_.push_back(Tensor(n, elem, dims, b.data(), b.size()));
  }
  void OutputRaw(const std::string &n, int32_t elem, const std::vector<int64_t> &dims, const std::vector<uint8_t> &b) {
    Declare(model_.mutable_graph()->add_output(), n, elem, dims);
    outputs_.push_back(Tensor(n, elem, dims, b.data(), b.size()));
  }
  /// An initializer whose values are in int32_data (how ONNX stores float8 bit patterns).
  void Int32DataInit(const std::string &n, int32_t elem, const std::vector<int64_t> &dims, const std::vector<int32_t> &v) {
    onnx::TensorProto t;
    t.set_name(n);
    t.set_data_type(elem);
    for (int64_t d : dims) t.add_dims(d);
    for (int32_t x : v) t.add_int32_data(x);
    *model_.mutable_graph()->add_initializer() = t;
  }
  void FloatInit(const std::string &n, const std::vector<int64_t> &dims, const std::vector<float> &v) {
    *model_.mutable_graph()->add_initializer() = Tensor(n, onnx::TensorProto::FLOAT, dims, v.data(), v.size() * 4);
  }
  void IntInit(const std::string &n, const std::vector<int64_t> &dims, const std::vector<int64_t> &v) {
    *model_.mutable_graph()->add_initializer() = Tensor(n, onnx::TensorProto::INT64, dims, v.data(), v.size() * 8);
  }
  void AddNode(const std::string &op, const std::vector<std::string> &ins, const std::vector<std::string> &outs,
               const std::vector<onnx::AttributeProto> &attrs = {}) {
    auto *n = model_.mutable_graph()->add_node();
    n->set_op_type(op);
    n->set_name(op + "_" + std::to_string(model_.graph().node_size()));
    for (const auto &i : ins) n->add_input(i);
    for (const auto &o : outs) n->add_output(o);
    for (const auto &a : attrs) *n->add_attribute() = a;
  }
  void Write(const std::string &root) const {
    const std::string dir = root + "/" + name_, set = dir + "/test_data_set_0";
    ::mkdir(dir.c_str(), 0755);
    ::mkdir(set.c_str(), 0755);
    Save(dir + "/model.onnx", model_.SerializeAsString());
    for (size_t i = 0; i < inputs_.size(); ++i)
      Save(set + "/input_" + std::to_string(i) + ".pb", inputs_[i].SerializeAsString());
    for (size_t i = 0; i < outputs_.size(); ++i)
      Save(set + "/output_" + std::to_string(i) + ".pb", outputs_[i].SerializeAsString());
  }

 private:
  static void Declare(onnx::ValueInfoProto *v, const std::string &n, int32_t elem, const std::vector<int64_t> &dims) {
    v->set_name(n);
    auto *tt = v->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(elem);
    auto *shape = tt->mutable_shape();
    for (int64_t d : dims) shape->add_dim()->set_dim_value(d);
  }
  static onnx::TensorProto Tensor(const std::string &n, int32_t elem, const std::vector<int64_t> &dims,
                                  const void *data, size_t bytes) {
    onnx::TensorProto t;
    t.set_name(n);
    t.set_data_type(elem);
    for (int64_t d : dims) t.add_dims(d);
    t.set_raw_data(std::string(static_cast<const char *>(data), bytes));
    return t;
  }
  static void Save(const std::string &path, const std::string &bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
  }

  std::string name_;
  onnx::ModelProto model_;
  std::vector<onnx::TensorProto> inputs_, outputs_;
};

/// Writes the float8 Cast / CastLike / QuantizeLinear / DequantizeLinear cases (float8_cases.cc).
void Float8Cases(const std::string &root);

/// Writes the INT4 / UINT4 / FLOAT4E2M1 and FNUZ float8 cases (packed4_fnuz_cases.cc).
void Packed4FnuzCases(const std::string &root);

/// Writes the blocked QuantizeLinear / DequantizeLinear cases (quant_blocked_cases.cc).
void QuantBlockedCases(const std::string &root);

/// Writes the transformer-era and NaN / empty-tensor cases (transformer_cases.cc) under `root`.
void TransformerCases(const std::string &root);

}  // namespace openatc::newer

#endif  // OPENATC_TESTS_CONFORMANCE_NEWER_MODEL_H_
