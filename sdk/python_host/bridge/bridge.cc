// libopenatc_py_bridge.so: the embedded CPython side of the Python custom-op bridge
// (src/bridge_abi.h). Starts the interpreter or attaches to a running one, takes the GIL around
// every call (py::gil_scoped_acquire = PyGILState_Ensure), and forwards to ge.custom_op._bridge.
#include <pybind11/embed.h>
#include <pybind11/stl.h>

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "../src/bridge_abi.h"

namespace py = pybind11;

namespace {

char *Dup(const std::string &s) {
  char *p = static_cast<char *>(std::malloc(s.size() + 1));
  if (p != nullptr) std::memcpy(p, s.c_str(), s.size() + 1);
  return p;
}

void FreeText(char *text) { std::free(text); }

// Starts the interpreter when none runs; the starting thread then gives up the GIL so that any
// thread can take it (PyGILState_Ensure). An interpreter that already runs is attached, not owned.
bool EnsureInterpreter() {
  if (Py_IsInitialized()) return true;
  Py_InitializeEx(0);
  if (!Py_IsInitialized()) return false;
  PyEval_SaveThread();
  return true;
}

void FlushStdio() {
  for (const char *name : {"stdout", "stderr"}) {
    py::object f = py::module_::import("sys").attr(name);
    if (!f.is_none()) f.attr("flush")();
  }
}

// "<ExcType>: <message>" and the last frames of the traceback.
std::string Describe(py::error_already_set &e) {
  try {
    py::module_ tb = py::module_::import("traceback");
    py::list lines = tb.attr("format_exception")(e.type(), e.value(), e.trace());
    std::string all;
    for (auto &l : lines) all += l.cast<std::string>();
    // Keep the last frames: the header line plus the final 8 "File ..." entries.
    std::vector<size_t> frames;
    for (size_t pos = all.find("  File \""); pos != std::string::npos; pos = all.find("  File \"", pos + 1))
      frames.push_back(pos);
    if (frames.size() > 8) all = "Traceback (most recent call last, last 8 frames):\n" + all.substr(frames[frames.size() - 8]);
    while (!all.empty() && all.back() == '\n') all.pop_back();
    return all;
  } catch (...) {
    return e.what();
  }
}

py::module_ BridgeModule() { return py::module_::import("ge.custom_op._bridge"); }

// The native module handed to Python contexts: malloc_output(handle, index, dims, format, dtype).
struct HostCall {
  OaPyMallocOutput malloc_output;
  void *host_ctx;
  OaPyGetAttr get_attr;
  void *attr_ctx;
  const OaPyCompileCall *compile = nullptr;  // compile / declare_launch_args only
};

const OaPyCompileCall &CompileOf(uintptr_t handle) {
  const OaPyCompileCall *c = reinterpret_cast<HostCall *>(handle)->compile;
  if (c == nullptr) throw std::runtime_error("this context is not a compile or declare_launch_args context");
  return *c;
}

// query(handle, what, a, b) -> (status, text): status 0 answered, 1 no answer.
py::tuple Query(uintptr_t handle, const std::string &what, const std::string &a, const std::string &b) {
  const OaPyCompileCall &c = CompileOf(handle);
  char *answer = nullptr;
  const int status = c.query(c.call_ctx, what.c_str(), a.c_str(), b.c_str(), &answer);
  std::string text = answer != nullptr ? answer : "";
  std::free(answer);
  return py::make_tuple(status, text);
}

// add_launch(handle, name, bin, block_dim, stream_id, [(kind, index, value)]) -> "" or the reason.
std::string AddLaunch(uintptr_t handle, const std::string &name, const py::bytes &bin, uint32_t block_dim,
                      uint32_t stream_id, const std::vector<std::tuple<uint32_t, uint32_t, uint64_t>> &slots) {
  const OaPyCompileCall &c = CompileOf(handle);
  if (c.add_launch == nullptr) return "add_launch is only available inside declare_launch_args";
  std::vector<OaPySlot> out;
  for (const auto &[kind, index, value] : slots) out.push_back({kind, index, value});
  const std::string_view data = bin;
  char *error = nullptr;
  if (c.add_launch(c.call_ctx, name.c_str(), data.data(), data.size(), block_dim, stream_id, out.data(),
                   static_cast<uint32_t>(out.size()), &error) == 0)
    return "";
  std::string why = error != nullptr ? error : "the runtime refused the launch";
  std::free(error);
  return why;
}

py::object NativeModule() {
  static py::module_::module_def def;
  static PyObject *module = nullptr;
  if (module == nullptr) {
    py::module_ m = py::module_::create_extension_module("_openatc_py_native", nullptr, &def);
    m.def("malloc_output", [](uintptr_t handle, uint32_t index, std::vector<int64_t> dims, int32_t format,
                              int32_t dtype) {
      auto *call = reinterpret_cast<HostCall *>(handle);
      uint64_t addr = 0, size = 0;
      if (call->malloc_output(call->host_ctx, index, dims.data(), static_cast<uint32_t>(dims.size()), format, dtype,
                              &addr, &size) != 0) {
        addr = 0;
        size = 0;
      }
      return py::make_tuple(addr, size);
    });
    // get_attr(handle, name, type) -> (status, value): status 0 found, 1 absent, 2 type not passed.
    m.def("get_attr", [](uintptr_t handle, const std::string &name, const std::string &type) -> py::tuple {
      auto *call = reinterpret_cast<HostCall *>(handle);
      OaPyAttrValue v{0, 0.0, nullptr};
      const int status = call->get_attr(call->attr_ctx, name.c_str(), type.c_str(), &v);
      if (status != 0) return py::make_tuple(status, py::none());
      if (type == "float") return py::make_tuple(0, v.f);
      if (type == "bool") return py::make_tuple(0, v.i != 0);
      if (type == "str") return py::make_tuple(0, std::string(v.s != nullptr ? v.s : ""));
      return py::make_tuple(0, v.i);
    });
    m.def("query", &Query);
    m.def("add_launch", &AddLaunch);
    module = m.release().ptr();
  }
  return py::reinterpret_borrow<py::object>(module);
}

py::list Inputs(const OaPyTensor *inputs, uint32_t n) {
  py::list out;
  for (uint32_t i = 0; i < n; ++i) {
    std::vector<int64_t> dims(inputs[i].dims, inputs[i].dims + inputs[i].ndim);
    out.append(py::make_tuple(dims, inputs[i].dtype, inputs[i].format, inputs[i].addr, inputs[i].size));
  }
  return out;
}

std::string &CppProtos() {
  static std::string json = "{}";
  return json;
}

int Load(const char *site_dir, const char *opp_path, char **json_out, char **error_out) {
  if (!EnsureInterpreter()) {
    *error_out = Dup("the embedded Python interpreter did not start");
    return kOaPyNoRuntime;
  }
  py::gil_scoped_acquire gil;
  try {
    py::list path = py::module_::import("sys").attr("path");
    if (site_dir != nullptr && *site_dir != '\0') path.insert(0, site_dir);
    BridgeModule().attr("set_cpp_protos")(CppProtos());
    std::string json = BridgeModule().attr("load")(opp_path).cast<std::string>();
    FlushStdio();
    *json_out = Dup(json);
    return kOaPyOk;
  } catch (py::error_already_set &e) {
    const bool missing = e.matches(PyExc_FileNotFoundError);
    *error_out = Dup(Describe(e));
    try { FlushStdio(); } catch (...) {}
    return missing ? kOaPyPathMissing : kOaPyLoadFailed;
  }
}

// Runs `body` (which returns a kOaPy* code) with the GIL held; a Python exception or a C++ one
// becomes kOaPyCallFailed with its description in *error_out.
template <typename Body>
int Guarded(char **error_out, Body body) {
  py::gil_scoped_acquire gil;
  try {
    return body();
  } catch (py::error_already_set &e) {
    *error_out = Dup(Describe(e));
    try { FlushStdio(); } catch (...) {}
    return kOaPyCallFailed;
  } catch (const std::exception &e) {
    *error_out = Dup(e.what());
    return kOaPyCallFailed;
  }
}

int InferMeta(const char *op_type, const OaPyTensor *inputs, uint32_t n_in, OaPyDesc *outputs, uint32_t n_out,
              uint32_t *n_written, OaPyGetAttr get_attr, void *attr_ctx, char **error_out) {
  HostCall call{nullptr, nullptr, get_attr, attr_ctx};
  return Guarded(error_out, [&] {
    py::list descs = Inputs(inputs, n_in);
    py::list in;
    for (auto d : descs) in.append(py::make_tuple(d[py::int_(0)], d[py::int_(1)]));
    auto result = BridgeModule().attr("call_infer_meta")(op_type, in, NativeModule(),
                                                                reinterpret_cast<uintptr_t>(&call)).cast<std::vector<std::pair<std::vector<int64_t>, int32_t>>>();
    FlushStdio();
    if (result.size() > n_out) {
      *error_out = Dup("infer_meta returned " + std::to_string(result.size()) + " outputs, the node has " +
                       std::to_string(n_out));
      return kOaPyCallFailed;
    }
    for (size_t i = 0; i < result.size(); ++i) {
      if (result[i].first.size() > OPENATC_PY_MAX_DIMS) {
        *error_out = Dup("infer_meta returned a shape of more than 25 dims for output " + std::to_string(i));
        return kOaPyCallFailed;
      }
      outputs[i].ndim = static_cast<uint32_t>(result[i].first.size());
      std::copy(result[i].first.begin(), result[i].first.end(), outputs[i].dims);
      outputs[i].dtype = result[i].second;
    }
    *n_written = static_cast<uint32_t>(result.size());
    return kOaPyOk;
  });
}

int Execute(const char *op_type, const char *backend, const OaPyTensor *inputs, uint32_t n_in, uint32_t n_out,
            OaPyMallocOutput malloc_output, void *host_ctx, OaPyGetAttr get_attr, void *attr_ctx, char **error_out) {
  HostCall call{malloc_output, host_ctx, get_attr, attr_ctx};
  return Guarded(error_out, [&] {
    BridgeModule().attr("call_execute")(op_type, backend, Inputs(inputs, n_in), n_out, NativeModule(),
                                        reinterpret_cast<uintptr_t>(&call));
    FlushStdio();
    return kOaPyOk;
  });
}

// Kept until Load hands it to ge.custom_op._bridge (after putting the site folder on sys.path).
int SetCppProtos(const char *json, char **) {
  CppProtos() = json != nullptr ? json : "{}";
  return kOaPyOk;
}

int CompileCall(const char *op_type, const char *callback, const OaPyTensor *inputs, uint32_t n_in,
                const OaPyTensor *outputs, uint32_t n_out, const OaPyCompileCall *compile, OaPyGetAttr get_attr,
                void *attr_ctx, char **error_out) {
  HostCall call{nullptr, nullptr, get_attr, attr_ctx, compile};
  return Guarded(error_out, [&] {
    BridgeModule().attr("call_compile")(op_type, callback, Inputs(inputs, n_in), Inputs(outputs, n_out),
                                        NativeModule(), reinterpret_cast<uintptr_t>(&call));
    FlushStdio();
    return kOaPyOk;
  });
}

const OaPyBridgeApi kApi = {OPENATC_PY_BRIDGE_ABI_VERSION, Load, InferMeta, Execute, FreeText, SetCppProtos,
                            CompileCall};

}  // namespace

extern "C" __attribute__((visibility("default"))) const OaPyBridgeApi *OpenatcPyBridgeApi(void) { return &kApi; }
