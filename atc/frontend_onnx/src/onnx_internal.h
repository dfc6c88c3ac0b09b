// Internal pieces of the ONNX front end shared by its .cc files: tensor conversion, attribute
// conversion, version normalisation, and the collected list of unsupported features.
#ifndef OPENATC_FRONTEND_ONNX_INTERNAL_H_
#define OPENATC_FRONTEND_ONNX_INTERNAL_H_

#include <onnx/onnx_pb.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "openatc/common/error.h"
#include "openatc/ir/graph.h"

namespace openatc::frontend::onnx_detail {

inline constexpr const char *kOpenError = "OA1501";
inline constexpr const char *kExternalDataError = "OA1502";
inline constexpr const char *kUnsupportedError = "OA1503";
inline constexpr const char *kMalformedError = "OA1505";
inline constexpr int64_t kMaxOpset = 17;

/// One unsupported feature, reported with all others in one OA1503 error.
struct Problem {
  std::string where;  ///< "node 'n' (Foo, domain 'x', opset 13)" or "graph input 'x'"
  std::string what;
};

/// Where external data files live: the model's folder ("" = external data not allowed).
struct TensorContext {
  std::string model_dir;
};

/// Converts a TensorProto to a ConstTensor (typed fields, raw_data or external data), checking
/// dims and sizes. Throws OA1505/OA1502; an unsupported dtype throws OA1503 naming `where`.
std::shared_ptr<ir::ConstTensor> ConvertTensor(const onnx::TensorProto &t, const TensorContext &ctx,
                                               const std::string &where);

/// Reads an external-data tensor's bytes (bounds-checked, OA1502/OA1505) into raw_data, so the
/// checker and the conversion see an ordinary tensor. No-op for other tensors and unsupported dtypes.
void InlineExternalData(onnx::TensorProto *t, const TensorContext &ctx, const std::string &where);

/// Makes a Const tensor: 1-D int64 from `values`.
std::shared_ptr<ir::ConstTensor> Int64Tensor(const std::vector<int64_t> &values);
/// A 1-D float32 tensor.
std::shared_ptr<ir::ConstTensor> FloatTensor(const std::vector<float> &values);
/// A scalar of float dtype `dtype` (DT_FLOAT, DT_DOUBLE, DT_FLOAT16, DT_BF16; others -> float).
std::shared_ptr<ir::ConstTensor> FloatScalar(float value, ge::DataType dtype);
/// IEEE half bits of `f` (round to nearest even).
uint16_t FloatToHalfBits(float f);

/// A node during conversion: its (normalised) op type, inputs as tensor names or synthesized
/// constants, and converted attributes.
struct PendingInput {
  std::string name;                            ///< tensor name; "" with no constant = absent
  std::string const_name;                      ///< name suffix for a synthesized constant
  std::shared_ptr<ir::ConstTensor> constant;   ///< a synthesized Const input
};
struct PendingNode {
  std::string op_type;
  std::vector<PendingInput> inputs;
  std::map<std::string, ir::AttrValue> attrs;
};

/// Converts node attributes into `out`; unsupported kinds are appended to `problems`.
void ConvertAttributes(const onnx::NodeProto &node, const TensorContext &ctx, const std::string &where,
                       std::map<std::string, ir::AttrValue> *out, std::vector<Problem> *problems);

/// Rewrites older opset forms into the newest form <= 17 (onnx_reader.h, step 6). `input_dtype`
/// gives the dtype of input 0 (for Clip/Pad scalar constants), DT_UNDEFINED when unknown.
void NormalizeNode(PendingNode &node, int64_t opset, ge::DataType input_dtype);

/// The converted graph; throws one OA1503 listing `problems` after conversion if any.
ir::Graph ConvertModel(const onnx::ModelProto &model, const TensorContext &ctx,
                       const std::function<bool(const std::string &)> &is_supported_op);

}  // namespace openatc::frontend::onnx_detail

#endif  // OPENATC_FRONTEND_ONNX_INTERNAL_H_
