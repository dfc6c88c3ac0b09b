/**
 * @file openatc/frontend/onnx_reader.h
 * The ONNX front end: reads an `onnx.ModelProto` file through Debian's libonnx 1.12 and converts
 * its main graph to an ir::Graph whose nodes are the built-in operators' ONNX op types
 * (the ONNX contract: this header for the front end's side, ops/common/op_util.h for the
 * operators' side).
 *
 * Steps, in order:
 *  1. parse the file as `onnx.ModelProto` (binary protobuf); bytes that parse but hold no model
 *     (no ir_version, opset_import or graph) and a model newer than IR 12 / opset 24 are E10041;
 *  2. for a model libonnx 1.12 knows (IR <= 8, opsets <= 17) whose default-domain op types ONNX
 *     all defines, run ONNX's checker (`onnx::checker::check_model`); a model it rejects is error
 *     E10041 carrying the checker's message. Newer models get OpenATC's own structural check
 *     instead (src/onnx_version.cc), and no ONNX shape inference (the ops infer shapes); a model
 *     with op types ONNX does not define skips the checker, so that the conversion lists all;
 *  3. (libonnx-known models) run the checker's full check (as `onnx.checker.check_model(m, full_check=True)`): ONNX's
 *     shape inference (`onnx::shape_inference::InferShapes`) with type checking and strict errors,
 *     which also fills value_info; a failure is E10041 with ONNX's message (this is what rejects
 *     e.g. Equal on float at opset 10);
 *  4. resolve external-data tensors (ONNX "External Data" spec: `location` relative to the model
 *     file's folder, optional `offset`/`length`), bounds-checked against the data file;
 *  5. convert: a `Data` node per graph input that is not an initializer (attr `index` in input
 *     order; dims from dim_value, -1 for dim_param or unknown dims, [-2] for an unknown rank);
 *     a `Const` node (tensor attr `value`) per initializer and per ONNX `Constant` node; one node
 *     per other ONNX node (op type = ONNX op_type, inputs in ONNX order, an empty input name = an
 *     unconnected anchor, attributes under their ONNX names, plus Int attr `onnx_opset`); output
 *     descs from value_info where known; a `NetOutput` named `Node_Output` from graph outputs.
 *     Node names are unique: an empty ONNX node name becomes `<op_type>_<k>`, a name already used
 *     (by an input, initializer or earlier node) gets `_<k>` appended.
 *  6. version normalisation into the form each built-in implements: older forms where an
 *     attribute became an input (Slice-1, Split-2/11, Squeeze/Unsqueeze-1/11, Clip-1/6, Pad-2,
 *     ReduceSum-1/11, Dropout-1/7/10 ratio, Upsample-7/9 and Resize-10 -> Resize-13 form; the new
 *     inputs are `Const` nodes named `<node>_<input name>`), and the opset-18+ forms
 *     (src/onnx_normalize_new.cc: Reduce*-18 constant axes input -> attribute, Resize-18
 *     attributes, Cast-19 saturate). Split-18 num_outputs, Pad-18 axes, Pad-19 wrap and Resize-19
 *     half_pixel_symmetric are implemented by the ops themselves.
 * Every unsupported thing (non-default domain, STRING/complex/float8/int4/sequence/map dtypes,
 * subgraph or sparse attributes, op types ONNX does not define or `OnnxOptions::is_supported_op`
 * rejects) is collected and reported in ONE error (OA1503) listing node name, op type, domain and
 * opset for each.
 *
 * Dtypes (ONNX TensorProto.DataType -> ge::DataType): FLOAT, FLOAT16, BFLOAT16, DOUBLE,
 * INT8..INT64, UINT8..UINT64, BOOL. STRING, COMPLEX64/128 are unsupported.
 *
 * Errors (openatc::Error, file = the model path; codes in atc/frontend_onnx/ERRORS.md): E10041
 * (not a ModelProto, checker rejection), OA1501 (file unreadable, kIo), OA1502 (external data),
 * OA1503 (unsupported features, listed), OA1505 (malformed graph or tensor beyond what the
 * checker checks).
 */
#ifndef OPENATC_FRONTEND_ONNX_READER_H_
#define OPENATC_FRONTEND_ONNX_READER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "graph/types.h"
#include "openatc/ir/graph.h"

namespace openatc::frontend {

/// Maps a node to a custom op (openatc/frontend/onnx_custom_map.h): given the node's key
/// "<domain>::<opset>::<op_type>" (default domain "ai.onnx"), its name and its converted
/// attributes, returns false when nothing is registered for the key, else sets `om_type` and
/// replaces `attrs` with the mapped ones. Throws openatc::Error when the mapping fails.
using OnnxCustomMapper = std::function<bool(const std::string &key, const std::string &node_name,
                                            std::map<std::string, ir::AttrValue> *attrs, std::string *om_type)>;

struct OnnxOptions {
  /// Whether a (normalised, default-domain) op type has an implementation; nullptr accepts every
  /// op type ONNX defines (and none it does not). The atc driver passes the built-in/custom op registry here after loading the OPP set.
  std::function<bool(const std::string &op_type)> is_supported_op;
  /// Custom-op mapping consulted first for every node of any domain; nullptr maps nothing.
  OnnxCustomMapper map_custom_op;
};

/// Reads and converts the ONNX model at `path` (see the file comment). Throws openatc::Error.
ir::Graph ReadOnnxFile(const std::string &path, const OnnxOptions &options = {});

/// Same for bytes in memory; external data is resolved relative to `model_dir` (empty: external
/// data is an error). `name_for_errors` becomes the error's file.
ir::Graph ReadOnnxBytes(const std::string &bytes, const std::string &model_dir, const std::string &name_for_errors,
                        const OnnxOptions &options = {});

/// Maps an ONNX TensorProto.DataType value to ge::DataType; false for unsupported/unknown ones.
bool OnnxToGeDataType(int32_t onnx_type, ge::DataType *out);

/// ONNX's name of a TensorProto.DataType value ("FLOAT", "STRING"...), "UNKNOWN(<n>)" otherwise.
std::string OnnxDataTypeName(int32_t onnx_type);

}  // namespace openatc::frontend

#endif  // OPENATC_FRONTEND_ONNX_READER_H_
