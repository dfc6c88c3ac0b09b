// The C ABI between the embedder (openatc_python_host, linked into atc: no libpython) and the
// bridge library libopenatc_py_bridge.so (pybind11, needs libpython), which the embedder
// dlopens only when ASCEND_CUSTOM_OPP_PATH names Python plugins (README.md "Python custom ops").
// Every function takes the GIL itself; texts returned through char ** are freed with free_text.
#ifndef OPENATC_PYTHON_HOST_BRIDGE_ABI_H_
#define OPENATC_PYTHON_HOST_BRIDGE_ABI_H_

#include <cstdint>

extern "C" {

#define OPENATC_PY_BRIDGE_ABI_VERSION 2u
#define OPENATC_PY_MAX_DIMS 25u

/// A tensor handed to Python (inputs of execute, infer_meta).
struct OaPyTensor {
  const int64_t *dims;
  uint32_t ndim;
  int32_t dtype;   // ge::DataType
  int32_t format;  // ge::Format (storage)
  uint64_t addr;   // host address (0 for infer_meta)
  uint64_t size;   // bytes
};

/// An output descriptor returned by infer_meta.
struct OaPyDesc {
  int64_t dims[OPENATC_PY_MAX_DIMS];
  uint32_t ndim;
  int32_t dtype;
};

/// Allocates output `index` for execute; returns 0 and the memory, or non-zero.
typedef int (*OaPyMallocOutput)(void *host_ctx, uint32_t index, const int64_t *dims, uint32_t ndim, int32_t format,
                                int32_t dtype, uint64_t *addr, uint64_t *size);

/// A node attribute's value for a callback's keyword argument.
struct OaPyAttrValue {
  int64_t i;      // int, bool, data_type
  double f;       // float
  const char *s;  // str (owned by the node, valid during the call)
};

/// Reads attr `name` as `type` ("int", "float", "bool", "str", "data_type"): 0 and the value, 1 when
/// the node does not set it, 2 when the type is not passed to Python yet.
typedef int (*OaPyGetAttr)(void *attr_ctx, const char *name, const char *type, OaPyAttrValue *value);

/// Status codes of the bridge functions.
enum OaPyStatus : int {
  kOaPyOk = 0,
  kOaPyPathMissing = 1,  // a plugin path does not exist (FileNotFoundError)
  kOaPyLoadFailed = 2,   // importing or validating a plugin raised
  kOaPyCallFailed = 3,   // a callback raised or returned a wrong value
  kOaPyNoRuntime = 4,    // the interpreter could not be started
};

struct OaPyBridgeApi {
  uint32_t abi_version;
  /// Starts (or attaches to) the interpreter, puts `site_dir` first on sys.path, imports the
  /// plugins of `opp_path` and returns the JSON list of their ops in *json_out.
  int (*load)(const char *site_dir, const char *opp_path, char **json_out, char **error_out);
  /// Runs op_type's infer_meta; writes up to n_out descriptors and their count.
  int (*infer_meta)(const char *op_type, const OaPyTensor *inputs, uint32_t n_in, OaPyDesc *outputs, uint32_t n_out,
                    uint32_t *n_written, OaPyGetAttr get_attr, void *attr_ctx, char **error_out);
  /// Runs op_type's execute of `backend` ("host" or "device").
  int (*execute)(const char *op_type, const char *backend, const OaPyTensor *inputs, uint32_t n_in, uint32_t n_out,
                 OaPyMallocOutput malloc_output, void *host_ctx, OaPyGetAttr get_attr, void *attr_ctx,
                 char **error_out);
  void (*free_text)(char *text);
};

/// The bridge library's one exported entry.
const OaPyBridgeApi *OpenatcPyBridgeApi(void);
typedef const OaPyBridgeApi *(*OpenatcPyBridgeApiFn)(void);
}

#endif  // OPENATC_PYTHON_HOST_BRIDGE_ABI_H_
