// The C ABI between the embedder (openatc_python_host, linked into atc: no libpython) and the
// bridge library libopenatc_py_bridge.so (pybind11, needs libpython), which the embedder
// dlopens only when ASCEND_CUSTOM_OPP_PATH names Python plugins (README.md "Python custom ops").
// Every function takes the GIL itself; texts returned through char ** are freed with free_text.
#ifndef OPENATC_PYTHON_HOST_BRIDGE_ABI_H_
#define OPENATC_PYTHON_HOST_BRIDGE_ABI_H_

#include <cstdint>

extern "C" {

#define OPENATC_PY_BRIDGE_ABI_VERSION 3u
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

/// A question of compile / declare_launch_args to the C++ adapter (`what`, arguments a and b):
/// "option" (a = key), "res" (a = group, b = key), "group" (a = group; answer: JSON object),
/// "core_num" (a = core type or ""), "soc_version", "ai_core_num", "stream_id", "workspace"
/// (a = bytes; answer: "<index> <address>"). 0 and a malloc'd answer, or 1 when there is none.
typedef int (*OaPyQuery)(void *call_ctx, const char *what, const char *a, const char *b, char **answer);

/// One argument of a declared launch: an input or output by flattened instance index, a
/// workspace by index, or a scalar value.
enum OaPySlotKind : uint32_t { kOaPySlotInput = 0, kOaPySlotOutput = 1, kOaPySlotWorkspace = 2, kOaPySlotScalar = 3 };
struct OaPySlot {
  uint32_t kind;  // OaPySlotKind
  uint32_t index;
  uint64_t value;  // kOaPySlotScalar only
};

/// AnnotatedArgsContext::AddLaunch: 0, or non-zero and a malloc'd reason in *error.
typedef int (*OaPyAddLaunch)(void *call_ctx, const char *kernel_name, const void *kernel_bin, uint64_t bin_size,
                             uint32_t block_dim, uint32_t stream_id, const OaPySlot *slots, uint32_t n_slots,
                             char **error);

/// What compile and declare_launch_args reach in C++ (add_launch is null for compile).
struct OaPyCompileCall {
  OaPyQuery query;
  OaPyAddLaunch add_launch;
  void *call_ctx;
};

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
  /// The C++ REG_OP prototypes (JSON object op_type -> ir_meta): the canonical IR of op types
  /// without a @register_op prototype. Called before load.
  int (*set_cpp_protos)(const char *json, char **error_out);
  /// Runs op_type's `callback` ("compile" or "declare_launch_args") with the node's inputs and
  /// outputs (for declare_launch_args at their planned addresses) on the op's one instance.
  int (*compile_call)(const char *op_type, const char *callback, const OaPyTensor *inputs, uint32_t n_in,
                      const OaPyTensor *outputs, uint32_t n_out, const OaPyCompileCall *call, OaPyGetAttr get_attr,
                      void *attr_ctx, char **error_out);
};

/// The bridge library's one exported entry.
const OaPyBridgeApi *OpenatcPyBridgeApi(void);
typedef const OaPyBridgeApi *(*OpenatcPyBridgeApiFn)(void);
}

#endif  // OPENATC_PYTHON_HOST_BRIDGE_ABI_H_
