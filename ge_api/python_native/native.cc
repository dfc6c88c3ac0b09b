// ge._capi._ge_native: the pybind11 extension behind ge.ge_global and ge.session (README.md
// "Python graphs, sessions and ES wrappers"). It wraps libge_runner's C++ API (GEInitialize, ge::Session) for
// the Python process that imports it: the interpreter is the caller's, so a Python custom op that
// ASCEND_CUSTOM_OPP_PATH names is hosted by it (the bridge attaches). Graphs arrive as the address
// of a ge::Graph owned by an ES graph (EsGraphNative); tensors as (dtype, format, dims, bytes).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "ge/ge_api.h"

namespace py = pybind11;

namespace {

using Options = std::map<std::string, std::string>;
using PyTensor = std::tuple<int, int, std::vector<int64_t>, py::bytes>;

std::map<ge::AscendString, ge::AscendString> ToGe(const Options &o) {
  std::map<ge::AscendString, ge::AscendString> out;
  for (const auto &kv : o) out[ge::AscendString(kv.first.c_str())] = ge::AscendString(kv.second.c_str());
  return out;
}

void Check(ge::Status status, const std::string &what) {
  if (status == ge::SUCCESS) return;
  const ge::AscendString msg = ge::GEGetErrorMsgV2();
  const std::string text = msg.GetString() != nullptr ? msg.GetString() : "";
  throw std::runtime_error(what + " failed (status " + std::to_string(status) + ")" + (text.empty() ? "" : ": " + text));
}

ge::Tensor ToGeTensor(const PyTensor &t) {
  const std::string data = std::get<3>(t);
  const ge::TensorDesc desc(ge::Shape(std::get<2>(t)), static_cast<ge::Format>(std::get<1>(t)),
                            static_cast<ge::DataType>(std::get<0>(t)));
  return ge::Tensor(desc, reinterpret_cast<const uint8_t *>(data.data()), data.size());
}

PyTensor FromGeTensor(const ge::Tensor &t) {
  const ge::TensorDesc desc = t.GetTensorDesc();
  return PyTensor(static_cast<int>(desc.GetDataType()), static_cast<int>(desc.GetFormat()), desc.GetShape().GetDims(),
                  py::bytes(reinterpret_cast<const char *>(t.GetData()), t.GetSize()));
}

class PySession {
 public:
  explicit PySession(const Options &options) {
    py::gil_scoped_release release;
    session_ = std::make_unique<ge::Session>(ToGe(options));
  }
  void AddGraph(uint32_t id, uintptr_t graph, const Options &options) {
    if (graph == 0) throw std::invalid_argument("add_graph: the graph is empty (was it built?)");
    py::gil_scoped_release release;
    Check(session_->AddGraph(id, *reinterpret_cast<const ge::Graph *>(graph), ToGe(options)),
          "add_graph(" + std::to_string(id) + ")");
  }
  std::vector<PyTensor> RunGraph(uint32_t id, const std::vector<PyTensor> &inputs) {
    std::vector<ge::Tensor> in, out;
    for (const auto &t : inputs) in.push_back(ToGeTensor(t));
    {
      py::gil_scoped_release release;  // Python custom ops take the GIL back in their callbacks
      Check(session_->RunGraph(id, in, out), "run_graph(" + std::to_string(id) + ")");
    }
    std::vector<PyTensor> result;
    for (const auto &t : out) result.push_back(FromGeTensor(t));
    return result;
  }
  void RemoveGraph(uint32_t id) {
    py::gil_scoped_release release;
    Check(session_->RemoveGraph(id), "remove_graph(" + std::to_string(id) + ")");
  }

 private:
  std::unique_ptr<ge::Session> session_;
};

}  // namespace

PYBIND11_MODULE(_ge_native, m) {
  m.doc() = "OpenATC's native part of ge.ge_global and ge.session (over libge_runner.so)";
  m.def("ge_initialize", [](const Options &options) {
    py::gil_scoped_release release;
    Check(ge::GEInitialize(ToGe(options)), "ge_initialize");
  });
  m.def("ge_finalize", [] {
    py::gil_scoped_release release;
    Check(ge::GEFinalize(), "ge_finalize");
  });
  py::class_<PySession>(m, "Session")
      .def(py::init<const Options &>())
      .def("add_graph", &PySession::AddGraph)
      .def("run_graph", &PySession::RunGraph)
      .def("remove_graph", &PySession::RemoveGraph);
}
