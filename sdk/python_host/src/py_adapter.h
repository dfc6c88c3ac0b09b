// The C++ adapters that stand for Python ops in the custom-op registry (internal).
#ifndef OPENATC_PYTHON_HOST_PY_ADAPTER_H_
#define OPENATC_PYTHON_HOST_PY_ADAPTER_H_

#include <string>

#include "bridge_abi.h"
#include "graph/custom_op.h"

namespace openatc::python_host {

struct PyOpInfo {
  std::string op_type;
  const OaPyBridgeApi *api = nullptr;
  bool infer_meta = false;    ///< a @register_op prototype: ShapeInferOp
  std::string backend;        ///< "host" or "device" when the class has an execute, else ""
};

/// A new adapter with exactly the capabilities `info` names (nullptr when it names none).
ge::BaseCustomOp *NewPyOp(const PyOpInfo &info);

}  // namespace openatc::python_host

#endif  // OPENATC_PYTHON_HOST_PY_ADAPTER_H_
