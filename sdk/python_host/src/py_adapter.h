// The C++ adapters that stand for Python ops in the custom-op registry (internal).
#ifndef OPENATC_PYTHON_HOST_PY_ADAPTER_H_
#define OPENATC_PYTHON_HOST_PY_ADAPTER_H_

#include <string>
#include <vector>

#include "bridge_abi.h"
#include "graph/custom_op.h"
#include "openatc/gert/frame.h"

namespace openatc::python_host {

struct PyOpInfo {
  std::string op_type;
  const OaPyBridgeApi *api = nullptr;
  bool infer_meta = false;    ///< a @register_op prototype: ShapeInferOp
  std::string backend;        ///< "host" or "device" when the class has an execute, else ""
  bool compile = false;       ///< the class has compile: CompilableOp
  bool annotated = false;     ///< the class has declare_launch_args: AnnotatedArgsOp
};

/// A new adapter with exactly the capabilities `info` names (nullptr when it names none).
ge::BaseCustomOp *NewPyOp(const PyOpInfo &info);

/// Throws openatc::Error OA1804 naming the op type, the frame's node, `callback` and the Python
/// error `text` (freed here).
[[noreturn]] void CallFailed(const PyOpInfo &info, const gert_impl::Frame *frame, const std::string &callback,
                             char *text);

/// Tensors as the bridge passes them; `dims` owns the shapes the views point at.
struct InputViews {
  std::vector<std::vector<int64_t>> dims;
  std::vector<OaPyTensor> tensors;
};
/// Views of `in` (storage or origin shapes).
void Collect(const std::vector<gert::Tensor *> &in, bool storage, InputViews &v);
/// The REG_OP prototypes of this process as a JSON object op_type -> ir_meta (src/cpp_protos.cc).
std::string CppPrototypesJson();
/// OaPyGetAttr over the node of the frame `attr_ctx`.
int GetAttr(void *attr_ctx, const char *name, const char *type, OaPyAttrValue *value);

}  // namespace openatc::python_host

#endif  // OPENATC_PYTHON_HOST_PY_ADAPTER_H_
