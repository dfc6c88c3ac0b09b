// A one-op harness for built-in operator tests (TFLite SingleOpModel style): builds a one-node
// graph (Data or Const inputs -> op -> NetOutput), compiles it in-process with the built-in OPP
// package, serialises the OM, loads it back and runs it. Exercises the whole atc -> OM -> runtime
// path for every case.
#ifndef OPENATC_TESTS_OPS_OP_HARNESS_H_
#define OPENATC_TESTS_OPS_OP_HARNESS_H_

#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "openatc/common/error.h"
#include "openatc/ir/graph.h"
#include "openatc/runtime/model.h"
#include "openatc/tensor_io/tensor_io.h"

namespace openatc::opp {
class CompileOppSet;
}

namespace openatc::testing {

using tensor_io::HostTensor;

/// The built-in OPP package of this build (<build>/opp/built-in), loaded once per process: what
/// in-process compiles in tests link against.
const opp::CompileOppSet &BuiltinOppSet();

struct OpInput {
  OpInput() = default;  ///< an absent optional input
  OpInput(HostTensor t, bool constant = false) : tensor(std::move(t)), as_const(constant) {}  // NOLINT
  std::optional<HostTensor> tensor;  ///< nullopt: an absent optional input
  bool as_const = false;             ///< feed as a Const node (value known at compile time)
  ge::Format format = ge::FORMAT_ND;  ///< format and origin format of the tensor's descs (GE layouts)
  /// The shape the graph declares for a Data input (-1: known at run time); empty: the tensor's.
  std::vector<int64_t> declared_shape;
};

struct OpCase {
  OpCase(std::string type, std::vector<OpInput> in, std::map<std::string, ir::AttrValue> a = {}, size_t outputs = 1)
      : op_type(std::move(type)), inputs(std::move(in)), attrs(std::move(a)), num_outputs(outputs) {}
  std::string op_type;
  std::vector<OpInput> inputs;
  std::map<std::string, ir::AttrValue> attrs;
  size_t num_outputs = 1;
};

/// Compiles and runs `c`; returns its outputs. Throws openatc::Error on any failure.
std::vector<HostTensor> RunOp(const OpCase &c);

/// Compiles `c` once and runs the loaded model once per entry of `runs` (the Data inputs' values
/// of that run, in input order; declared_shape lets their shapes differ between runs); returns
/// each run's outputs. Throws openatc::Error on any failure.
std::vector<std::vector<HostTensor>> RunOpRuns(const OpCase &c, const std::vector<std::vector<HostTensor>> &runs);

/// Compiles `c` and loads it (as RunOp does) without running it; `feeds` gets the Data inputs'
/// values, in input order.
std::unique_ptr<runtime::LoadedModel> LoadOp(const OpCase &c, std::vector<HostTensor> *feeds);

/// Runs `c` expecting it to fail: returns what the op printed on stderr (its Fail message)
/// followed by the openatc::Error's text, or "<no error>" when it ran cleanly.
std::string RunOpExpectingFailure(const OpCase &c);

template <typename T>
HostTensor Tensor(ge::DataType dtype, std::vector<int64_t> shape, const std::vector<T> &values) {
  HostTensor t;
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.data.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

template <typename T>
std::vector<T> Values(const HostTensor &t) {
  std::vector<T> v(t.data.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), t.data.data(), t.data.size());
  return v;
}

ir::AttrValue IntAttr(int64_t v);
ir::AttrValue FloatAttr(float v);
ir::AttrValue StringAttr(const std::string &v);
ir::AttrValue IntsAttr(const std::vector<int64_t> &v);
ir::AttrValue FloatsAttr(const std::vector<float> &v);

}  // namespace openatc::testing

#endif  // OPENATC_TESTS_OPS_OP_HARNESS_H_
