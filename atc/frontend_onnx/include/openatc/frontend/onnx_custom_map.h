/**
 * @file openatc/frontend/onnx_custom_map.h
 * Custom ops mapped from ONNX as GE's parser plugins map them (register/register.h):
 * framework plugin libraries (every .so in `<root>/framework/onnx/`) are loaded from each
 * ASCEND_CUSTOM_OPP_PATH root (sorted by name), and the returned mapper turns a node whose
 * "<domain>::<opset>::<op_type>" has a REGISTER_CUSTOM_OP(...).FrameworkType(ONNX) registration
 * into a node of the registered type (attributes through the parse function). Registrations in
 * deliverables already loaded count too. Errors: OA1506 (a plugin that cannot be loaded, a parse
 * function that fails or throws, an attribute kind a parse function cannot receive).
 */
#ifndef OPENATC_FRONTEND_ONNX_CUSTOM_MAP_H_
#define OPENATC_FRONTEND_ONNX_CUSTOM_MAP_H_

#include <string>
#include <vector>

#include "openatc/frontend/onnx_reader.h"

namespace openatc::frontend {

/// dlopens every framework plugin under the custom OPP roots once per process; returns the paths
/// loaded (in load order). Throws OA1506 for a library that cannot be loaded.
std::vector<std::string> LoadOnnxParserPlugins();

/// The OnnxOptions::map_custom_op that consults the REGISTER_CUSTOM_OP registry.
OnnxCustomMapper RegisteredOnnxCustomMapper();

}  // namespace openatc::frontend

#endif  // OPENATC_FRONTEND_ONNX_CUSTOM_MAP_H_
