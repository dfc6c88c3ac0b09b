// Test helpers for reading converted graphs: node lookup, Const values, error capture.
#ifndef OPENATC_TESTS_FRONTEND_ONNX_ONNX_TEST_UTIL_H_
#define OPENATC_TESTS_FRONTEND_ONNX_ONNX_TEST_UTIL_H_

#include <cstring>
#include <string>
#include <vector>

#include "onnx_builder.h"
#include "openatc/common/error.h"
#include "openatc/frontend/onnx_reader.h"

namespace openatc::testing {

inline ir::Graph ReadModel(const onnx::ModelProto &m, const frontend::OnnxOptions &o = {},
                           const std::string &dir = "") {
  return frontend::ReadOnnxBytes(m.SerializeAsString(), dir, "m.onnx", o);
}

/// The error ReadModel throws ("" code when it does not throw).
inline Error ReadError(const onnx::ModelProto &m, const frontend::OnnxOptions &o = {}, const std::string &dir = "") {
  try {
    ReadModel(m, o, dir);
  } catch (const Error &e) {
    return e;
  }
  return Error(ErrorCategory::kInternal, "", "no error");
}

inline const ir::Node &NodeNamed(const ir::Graph &g, const std::string &name) {
  int32_t i = g.FindNode(name);
  if (i < 0) throw std::runtime_error("no node " + name);
  return g.nodes[static_cast<size_t>(i)];
}

inline const ir::Node &Producer(const ir::Graph &g, const ir::Endpoint &e) {
  return g.nodes.at(static_cast<size_t>(e.node));
}

template <typename T>
std::vector<T> ConstValues(const ir::Node &n) {
  const auto &t = n.attrs.at("value").t;
  std::vector<T> v(t->data.size / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), t->data.data, t->data.size);
  return v;
}

}  // namespace openatc::testing

#endif  // OPENATC_TESTS_FRONTEND_ONNX_ONNX_TEST_UTIL_H_
