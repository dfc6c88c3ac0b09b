// Helpers of the ge::Session tests: GE started with the test OPP roots, small graphs built with
// the GE API, and host tensors.
#ifndef OPENATC_TESTS_SESSION_SESSION_UTIL_H_
#define OPENATC_TESTS_SESSION_SESSION_UTIL_H_

#include <map>
#include <string>
#include <vector>

#include "exe_graph/runtime/runtime_tensor.h"
#include "ge/ge_api.h"
#include "graph/graph.h"

namespace openatc::testing {

/// Option maps (a braced list alone is ambiguous between ge::Session's two constructors, as in GE).
using GeOptions = std::map<ge::AscendString, ge::AscendString>;

/// GEInitialize with ASCEND_CUSTOM_OPP_PATH = the test roots (axpy, lifecycle, misbehaving,
/// session, and examples/data_dependent_shape_custom's) for the scope; GEFinalize at the end.
struct GeScope {
  explicit GeScope(const GeOptions &options = GeOptions{});
  ~GeScope();
};

/// A Data node of float32 `dims` (input and output desc set, index left at its default 0).
ge::Operator FloatData(const char *name, const std::vector<int64_t> &dims);
/// Graph `name`: the Data nodes in `inputs` order, outputs of `outputs`.
ge::Graph MakeGraph(const char *name, const std::vector<ge::Operator> &inputs, const std::vector<ge::Operator> &outputs);
/// data -> op_type(x) -> graph output, float32 `dims`.
ge::Graph UnaryGraph(const char *op_type, const std::vector<int64_t> &dims);

ge::Tensor FloatTensor(const std::vector<int64_t> &dims, const std::vector<float> &values);
std::vector<float> Floats(const ge::Tensor &t);
/// A gert::Tensor over `data` (host memory is device memory on the host target).
gert::Tensor DeviceTensor(const std::vector<int64_t> &dims, ge::DataType dtype, void *data);

/// GEGetErrorMsg() of the calling thread.
std::string LastGeError();

}  // namespace openatc::testing

#endif  // OPENATC_TESTS_SESSION_SESSION_UTIL_H_
