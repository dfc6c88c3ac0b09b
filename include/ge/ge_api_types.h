/**
 * @file ge/ge_api_types.h
 * ge::Status and the option keys the online (ge::Session) flow reads, with GE's spellings (GE
 * `inc/external/ge/ge_api_types.h`). Options are passed as string maps to GEInitialize, Session
 * and LoadGraph; keys not listed here are accepted and logged, as GE accepts them.
 */
#ifndef OPENATC_GE_GE_API_TYPES_H_
#define OPENATC_GE_GE_API_TYPES_H_

#include <cstdint>

#include "graph/ascend_string.h"

namespace ge {
/// Return type of every ge/ge_api.h call: SUCCESS (0) or an error (ge/ge_api_error_codes.h).
using Status = uint32_t;

/// Device id (decimal string). The host target has device 0 only; other values are accepted.
const char_t *const OPTION_EXEC_DEVICE_ID = "ge.exec.deviceId";
/// "0": RunGraph runs the graph on the eager (dynamic) path, calling Execute every run;
/// "1": a static graph runs in sink mode (launches recorded once, replayed). Default "1".
const char_t *const OPTION_GRAPH_RUN_MODE = "ge.graphRunMode";
/// Read by ops through OpCompileContext::GetOption during CompileGraph.
const char_t *const JIT_COMPILE = "ge.jit_compile";
/// Target SoC; only "host" (the default) compiles on this machine.
const char_t *const SOC_VERSION = "ge.socVersion";
}  // namespace ge

#endif  // OPENATC_GE_GE_API_TYPES_H_
