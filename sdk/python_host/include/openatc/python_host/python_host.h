/**
 * @file openatc/python_host/python_host.h
 * The embedder of GE's Python custom ops (README.md "Python custom ops"). CPython is never a
 * link dependency: when ASCEND_CUSTOM_OPP_PATH names Python plugins, the bridge library
 * libopenatc_py_bridge.so (beside libgert.so; it links libpython) is dlopened, the plugins are
 * imported, and each Python op type is registered in the process-wide custom-op registry as a
 * C++ adapter (ShapeInferOp when a @register_op prototype gives infer_meta, EagerExecuteOp when
 * the class has an execute, CompilableOp for compile, AnnotatedArgsOp for declare_launch_args).
 */
#ifndef OPENATC_PYTHON_HOST_PYTHON_HOST_H_
#define OPENATC_PYTHON_HOST_PYTHON_HOST_H_

#include <set>
#include <string>
#include <vector>

namespace openatc::python_host {

/// GE's pre-check of ASCEND_CUSTOM_OPP_PATH (`value`): entries split on ':', blanks skipped. An
/// existing regular file counts when it ends in ".py"; a directory counts when it directly holds
/// a *.py file or a subdirectory with __init__.py (names starting with '_' or '.' skipped).
struct PluginScan {
  std::vector<std::string> plugins;   ///< the entries that count
  std::vector<std::string> warnings;  ///< missing entries not ending in ".py"
};
/// Throws openatc::Error OA1801 naming the entry when one ending in ".py" does not exist.
PluginScan ScanPluginEntries(const std::string &value);

/// When ASCEND_CUSTOM_OPP_PATH names Python plugins: loads the bridge, imports them (once per
/// process) and registers their op types. Returns the registered op types (empty when the
/// variable names no plugin: Python is then never loaded). Errors: OA1801 (a plugin path is
/// missing), OA1802 (Python cannot be loaded), OA1803 (a plugin fails to import, registers an
/// invalid op, or a callback's signature does not bind to the op's IR).
std::vector<std::string> LoadPythonCustomOpsFromEnv();

/// The Python op types registered so far, and those whose class has a HOST-backend execute
/// (constant folding runs those at compile time).
std::set<std::string> PythonOpTypes();
std::set<std::string> HostExecuteOpTypes();
/// The Python op types whose class has declare_launch_args: their declared launches carry the
/// kernel into the OM (after compile, when the class has one), so the OM needs no Python.
std::set<std::string> AnnotatedOpTypes();

}  // namespace openatc::python_host

#endif  // OPENATC_PYTHON_HOST_PYTHON_HOST_H_
