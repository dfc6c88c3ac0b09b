// A C++ ge::Session driven from Python through ctypes (tests/python_acl/test_session.py): the
// process already runs Python when the session runs the Python op PyScaleSub, whose execute
// (plugins/py_scale_sub.py) launches an Ascend C kernel through acl. The prototype below is the
// graph API's view of the op; the Python @register_op gives its infer_meta.
#include <cstdio>
#include <cstring>
#include <map>
#include <vector>

#include "ge/ge_api.h"
#include "graph/graph.h"
#include "graph/operator_reg.h"
#include "graph/tensor.h"
#include "ops_proto_legacy.h"

namespace ge {
REG_OP(PyScaleSub)
    .INPUT(x, TensorType({DT_FLOAT}))
    .INPUT(y, TensorType({DT_FLOAT}))
    .OUTPUT(z, TensorType({DT_FLOAT}))
    .OP_END_FACTORY_REG(PyScaleSub);
}  // namespace ge

namespace {

ge::TensorDesc Desc(int64_t n) { return ge::TensorDesc(ge::Shape({n}), ge::FORMAT_ND, ge::DT_FLOAT); }

ge::op::Data Input(const char *name, int64_t index, int64_t n) {
  ge::op::Data data(name);
  data.set_attr_index(index);
  data.update_input_desc_x(Desc(n));
  data.update_output_desc_y(Desc(n));
  return data;
}

void Fail(char *err, size_t err_len, const char *what) {
  std::snprintf(err, err_len, "%s: %s", what, ge::GEGetErrorMsg().c_str());
}

}  // namespace

/// Runs z = PyScaleSub(x, y) `rounds` times on one session; round r uses x + r. z holds
/// rounds * n floats. Returns 0, or 1 with the reason in err.
extern "C" __attribute__((visibility("default"))) int openatc_test_run_py_session(const float *x, const float *y,
                                                                                 int64_t n, int rounds, float *z,
                                                                                 char *err, size_t err_len) {
  if (ge::GEInitialize(std::map<ge::AscendString, ge::AscendString>{}) != ge::SUCCESS) {
    Fail(err, err_len, "GEInitialize");
    return 1;
  }
  int rc = 0;
  {
    auto in_x = Input("x", 0, n);
    auto in_y = Input("y", 1, n);
    ge::op::PyScaleSub op("scale_sub");
    op.set_input_x(in_x).set_input_y(in_y);
    ge::Graph graph("py_scale_sub");
    graph.SetInputs({in_x, in_y}).SetOutputs({op});
    ge::Session session(std::map<ge::AscendString, ge::AscendString>{});
    if (session.AddGraph(1, graph) != ge::SUCCESS) {
      Fail(err, err_len, "AddGraph");
      rc = 1;
    }
    for (int r = 0; rc == 0 && r < rounds; ++r) {
      std::vector<float> xr(x, x + n);
      for (float &v : xr) v += static_cast<float>(r);
      std::vector<ge::Tensor> outputs;
      const ge::Tensor tx(Desc(n), reinterpret_cast<const uint8_t *>(xr.data()), n * sizeof(float));
      const ge::Tensor ty(Desc(n), reinterpret_cast<const uint8_t *>(y), n * sizeof(float));
      if (session.RunGraph(1, {tx, ty}, outputs) != ge::SUCCESS || outputs.size() != 1 ||
          outputs[0].GetSize() != static_cast<size_t>(n) * sizeof(float)) {
        Fail(err, err_len, "RunGraph");
        rc = 1;
        break;
      }
      std::memcpy(z + r * n, outputs[0].GetData(), n * sizeof(float));
    }
  }
  (void)ge::GEFinalize();
  return rc;
}
