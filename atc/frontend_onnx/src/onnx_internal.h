// Internal pieces of the ONNX front end shared by its .cc files: tensor conversion, attribute
// conversion, version normalisation, and the collected list of unsupported features.
#ifndef OPENATC_FRONTEND_ONNX_INTERNAL_H_
#define OPENATC_FRONTEND_ONNX_INTERNAL_H_

#include <onnx/onnx_pb.h>

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "openatc/common/error.h"
#include "openatc/frontend/onnx_reader.h"
#include "openatc/ir/graph.h"

namespace openatc::frontend::onnx_detail {

inline constexpr const char *kOpenError = "OA1501";
inline constexpr const char *kExternalDataError = "OA1502";
inline constexpr const char *kUnsupportedError = "OA1503";
inline constexpr const char *kMalformedError = "OA1505";
inline constexpr int64_t kMaxOpset = 24;             ///< newest default-domain opset OpenATC reads
inline constexpr int64_t kMaxIrVersion = 12;         ///< newest IR version OpenATC reads
inline constexpr int64_t kLibonnxMaxOpset = 17;      ///< newest opset libonnx 1.12's checker knows
inline constexpr int64_t kLibonnxMaxIrVersion = 8;   ///< newest IR version libonnx 1.12's checker knows

/// What kind of unsupported feature a Problem is (the error's advice depends on it).
enum class ProblemKind { kOther, kUnknownOp, kNoBuiltin, kDomain };

/// One unsupported feature, reported with all others in one OA1503 error.
struct Problem {
  std::string where;  ///< "node 'n' (Foo, domain 'x', opset 13)" or "graph input 'x'"
  std::string what;
  ProblemKind kind = ProblemKind::kOther;
};

// onnx_version.cc
/// Throws E10041 for bytes that parse but hold no model, a graph using the default domain without
/// importing its opset, and a model newer than OpenATC reads (IR > kMaxIrVersion or default-domain
/// opset > kMaxOpset).
void CheckIsModelWeRead(const onnx::ModelProto &m);
/// Whether libonnx 1.12's checker and shape inference know the model's IR version and opsets.
bool LibonnxKnowsVersions(const onnx::ModelProto &m);
/// IR < 3 or default-domain opset < 7: a checker rejection is then advised as "too old".
bool IsOldModel(const onnx::ModelProto &m);
/// Indexes of default-domain main-graph nodes whose op type ONNX (as libonnx 1.12 knows it) does
/// not define at the model's opset.
std::set<int> NodesWithoutSchema(const onnx::ModelProto &m);
/// The opset that first defines `op_type` when that is 18..24 (libonnx 1.12 does not know those
/// operators), else 0.
int64_t OnnxOpAddedAfter17(const std::string &op_type);
/// OpenATC's own check of a model newer than libonnx 1.12 (E10041): ir_version present, every
/// node has an op_type, every tensor has one producer. Topological order and
/// dangling inputs are checked by the conversion (OA1505).
void CheckNewerModel(const onnx::ModelProto &m);

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

/// The constant value of a tensor name (initializer or Constant output), nullptr when not constant.
using ConstLookup = std::function<const ir::ConstTensor *(const std::string &tensor)>;

/// Rewrites older opset forms into the one form the built-in op implements (onnx_reader.h, step
/// 6). `input_dtype` gives the dtype of input 0 (for Clip/Pad scalar constants), DT_UNDEFINED when
/// unknown. A form that cannot be rewritten (opset-18 Reduce* axes that are not constant, ...) is
/// appended to `problems` (kind kOther) naming `where`.
void NormalizeNode(PendingNode &node, int64_t opset, ge::DataType input_dtype, const ConstLookup &const_of,
                   const std::string &where, std::vector<Problem> *problems);

/// The opset-18+ part of NormalizeNode (onnx_normalize_new.cc).
void NormalizeNewerNode(PendingNode &node, int64_t opset, const ConstLookup &const_of, const std::string &where,
                        std::vector<Problem> *problems);

/// For an opset-18+ default-domain node: lists every attribute libonnx 1.12's schema of the op
/// does not know and the front end does not handle (onnx_normalize_new.cc).
void CheckNewerAttributes(const onnx::NodeProto &node, int64_t opset, const std::string &where,
                          std::vector<Problem> *problems);

/// The converted graph; throws one OA1503 listing `problems` after conversion if any.
/// `no_schema`: indexes of nodes ONNX does not define (NodesWithoutSchema); each is accepted only
/// when `is_supported_op` says so (a custom op of that type).
ir::Graph ConvertModel(const onnx::ModelProto &model, const TensorContext &ctx,
                       const std::function<bool(const std::string &)> &is_supported_op,
                       const std::set<int> &no_schema, const OnnxCustomMapper &map_custom = nullptr);

}  // namespace openatc::frontend::onnx_detail

#endif  // OPENATC_FRONTEND_ONNX_INTERNAL_H_
