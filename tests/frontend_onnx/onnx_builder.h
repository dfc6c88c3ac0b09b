// Test helpers: small ONNX models and values built in memory with onnx::ModelProto and libonnx's
// MakeAttribute, for the front-end tests and the tests that feed ONNX models or sequence values
// to atc and omrun (tests/acl/acl_sequence_io_test.cc).
#ifndef OPENATC_TESTS_FRONTEND_ONNX_ONNX_BUILDER_H_
#define OPENATC_TESTS_FRONTEND_ONNX_ONNX_BUILDER_H_

#include <onnx/defs/attr_proto_util.h>
#include <onnx/onnx-data_pb.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <string>
#include <variant>
#include <vector>

namespace openatc::testing {

/// A dim: a number, or a dim_param name.
using Dim = std::variant<int64_t, std::string>;

inline onnx::ValueInfoProto Value(const std::string &name, int32_t elem, const std::vector<Dim> &dims,
                                  bool with_shape = true) {
  onnx::ValueInfoProto v;
  v.set_name(name);
  auto *tt = v.mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elem);
  if (with_shape) {
    auto *shape = tt->mutable_shape();
    for (const auto &d : dims) {
      auto *dim = shape->add_dim();
      if (std::holds_alternative<int64_t>(d)) dim->set_dim_value(std::get<int64_t>(d));
      else dim->set_dim_param(std::get<std::string>(d));
    }
  }
  return v;
}

/// A graph input or output that is a sequence of tensors of element type `elem` (no shape).
inline onnx::ValueInfoProto SequenceValue(const std::string &name, int32_t elem) {
  onnx::ValueInfoProto v;
  v.set_name(name);
  v.mutable_type()->mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(elem);
  return v;
}

inline onnx::NodeProto Node(const std::string &op, const std::vector<std::string> &inputs,
                            const std::vector<std::string> &outputs, const std::string &name = "",
                            const std::vector<onnx::AttributeProto> &attrs = {}, const std::string &domain = "") {
  onnx::NodeProto n;
  n.set_op_type(op);
  n.set_name(name);
  if (!domain.empty()) n.set_domain(domain);
  for (const auto &i : inputs) n.add_input(i);
  for (const auto &o : outputs) n.add_output(o);
  for (const auto &a : attrs) *n.add_attribute() = a;
  return n;
}

inline onnx::TensorProto FloatInit(const std::string &name, const std::vector<int64_t> &dims,
                                   const std::vector<float> &values) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) t.add_dims(d);
  for (float v : values) t.add_float_data(v);
  return t;
}

inline onnx::TensorProto Int64Init(const std::string &name, const std::vector<int64_t> &dims,
                                   const std::vector<int64_t> &values) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::INT64);
  for (int64_t d : dims) t.add_dims(d);
  for (int64_t v : values) t.add_int64_data(v);
  return t;
}

/// An onnx.SequenceProto of tensors (elem_type TENSOR) holding `elems`.
inline onnx::SequenceProto TensorSequence(const std::vector<onnx::TensorProto> &elems) {
  onnx::SequenceProto s;
  s.set_elem_type(onnx::SequenceProto::TENSOR);
  for (const auto &e : elems) *s.add_tensor_values() = e;
  return s;
}

struct ModelSpec {
  int64_t opset = 13;
  int64_t ir_version = 8;
  std::vector<onnx::ValueInfoProto> inputs, outputs;
  std::vector<onnx::NodeProto> nodes;
  std::vector<onnx::TensorProto> initializers;
  std::vector<std::pair<std::string, int64_t>> extra_opsets;  ///< other domains
};

inline onnx::ModelProto MakeModel(const ModelSpec &s) {
  onnx::ModelProto m;
  m.set_ir_version(s.ir_version);
  m.set_producer_name("openatc-test");
  auto *op = m.add_opset_import();
  op->set_domain("");
  op->set_version(s.opset);
  for (const auto &[d, v] : s.extra_opsets) {
    auto *o = m.add_opset_import();
    o->set_domain(d);
    o->set_version(v);
  }
  auto *g = m.mutable_graph();
  g->set_name("test_graph");
  for (const auto &v : s.inputs) *g->add_input() = v;
  for (const auto &v : s.outputs) *g->add_output() = v;
  for (const auto &n : s.nodes) *g->add_node() = n;
  for (const auto &t : s.initializers) *g->add_initializer() = t;
  // The checker needs a shape on every graph output: outputs declared without one get the shape
  // ONNX's own shape inference gives them (as exporters do).
  onnx::shape_inference::InferShapes(m);
  return m;
}

}  // namespace openatc::testing

#endif  // OPENATC_TESTS_FRONTEND_ONNX_ONNX_BUILDER_H_
