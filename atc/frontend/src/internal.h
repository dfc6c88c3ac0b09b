// Internal declarations shared by the GE IR front end's source files (not installed).
#ifndef OPENATC_FRONTEND_SRC_INTERNAL_H_
#define OPENATC_FRONTEND_SRC_INTERNAL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ge_ir.pb.h"
#include "openatc/common/error.h"
#include "openatc/frontend/ge_ir_reader.h"
#include "openatc/ir/graph.h"

namespace openatc::frontend::detail {

namespace geir = ::openatc::geir;

/// Error codes of this front end (atc/frontend/ERRORS.md).
inline constexpr const char *kParseFailed = "E10041";
inline constexpr const char *kNoGraph = "OA1001";
inline constexpr const char *kBadNodeName = "OA1002";
inline constexpr const char *kEmptyOpType = "OA1003";
inline constexpr const char *kUnknownInput = "OA1004";
inline constexpr const char *kBadEdge = "OA1005";
inline constexpr const char *kCycle = "OA1006";
inline constexpr const char *kDtypeMismatch = "OA1007";
inline constexpr const char *kShapeMismatch = "OA1008";
inline constexpr const char *kUnsupportedAttr = "OA1009";
inline constexpr const char *kBadTensorDesc = "OA1010";
inline constexpr const char *kBadConst = "OA1011";
inline constexpr const char *kBadOutputs = "OA1012";
inline constexpr const char *kBadDataIndex = "OA1013";
inline constexpr const char *kReadFailed = "OA1014";

/// Largest output index accepted on a node that declares no output_desc (guards allocation).
inline constexpr int64_t kMaxImplicitOutputs = 65536;

/// An openatc::Error of category kGraph.
Error GraphError(const char *code, const std::string &message, const std::string &hint = {});

// ---- sniff.cc ----
/// Chooses the encoding for kAuto (extension of `name`, then content); returns others as given.
GeIrEncoding ResolveEncoding(const std::string &bytes, GeIrEncoding encoding,
                             const std::string &name);
/// Parses `bytes` as a ModelDef in the given encoding (kAuto resolved by content). Throws
/// E10041 with protobuf's message (and line:column for JSON/text).
void ParseModelDef(const std::string &bytes, GeIrEncoding encoding, const std::string &name,
                   geir::ModelDef *model);

// ---- proto_to_ir.cc ----
/// Proto DataType number -> C++ ge::DataType, by name (docs/ge-ir.md §2.1). False if unknown.
bool ProtoDataTypeToGe(int proto_dtype, ge::DataType *dtype);
/// TensorDescriptor -> ir::TensorDesc (docs/ge-ir.md §2.3). Throws OA1010; `what` names the desc in
/// messages ("output 0").
ir::TensorDesc ConvertTensorDesc(const geir::TensorDescriptor &td, const std::string &what);
/// TensorDef -> ConstTensor (copies the data).
std::shared_ptr<ir::ConstTensor> ConvertTensor(const geir::TensorDef &t, const std::string &what);
/// AttrDef -> ir::AttrValue. Returns false when the attr is to be dropped (an internal '_' attr of
/// a kind we do not model); throws OA1009 for other unsupported kinds.
bool ConvertAttr(const std::string &name, const geir::AttrDef &attr, ir::AttrValue *out);

// ---- edges.cc ----
struct ParsedEdge {
  enum Kind { kUnconnected, kData, kControl } kind = kUnconnected;
  std::string src;
  int64_t index = 0;
};
/// Parses one OpDef.input / GraphDef.output entry (docs/ge-ir.md §3). Throws OA1005 when malformed;
/// `where` names the entry in the message ("input 1").
ParsedEdge ParseEdge(const std::string &text, const std::string &where);
/// Levenshtein distance between two names.
size_t EditDistance(const std::string &a, const std::string &b);
/// " Did you mean 'x'?"-style hint text naming the closest node of `g`, or a generic hint.
std::string SuggestNodeHint(const ir::Graph &g, const std::string &missing);

// ---- graph_checks.cc ----
/// Which descs came from the file (as opposed to being derived from the producer).
struct DescOrigin {
  std::vector<std::vector<bool>> input_explicit;  ///< [node][input slot]
  std::vector<bool> output_explicit;              ///< [node]
};
/// Dtype and shape agreement on every data edge whose two descs are both explicit.
void CheckEdgeDescs(const ir::Graph &g, const DescOrigin &origin);
/// Throws OA1006 naming a node on a cycle and the cycle path (data and control edges).
void CheckNoCycle(const ir::Graph &g);

}  // namespace openatc::frontend::detail

#endif  // OPENATC_FRONTEND_SRC_INTERNAL_H_
