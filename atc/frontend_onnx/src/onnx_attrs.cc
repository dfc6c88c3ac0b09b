// ONNX AttributeProto -> ir::AttrValue under the attribute's ONNX name (onnx_reader.h, step 5):
// INT -> Int, FLOAT -> Float, STRING -> String, INTS -> ListInt, FLOATS -> ListFloat,
// STRINGS -> ListString, TENSOR -> Tensor. Graphs, sparse tensors, tensor/graph lists and type
// protos are unsupported.
#include "onnx_internal.h"

namespace openatc::frontend::onnx_detail {

void ConvertAttributes(const onnx::NodeProto &node, const TensorContext &ctx, const std::string &where,
                       std::map<std::string, ir::AttrValue> *out, std::vector<Problem> *problems) {
  using AP = onnx::AttributeProto;
  for (const auto &a : node.attribute()) {
    ir::AttrValue v;
    switch (a.type()) {
      case AP::INT: v.kind = ir::AttrKind::kInt; v.i = a.i(); break;
      case AP::FLOAT: v.kind = ir::AttrKind::kFloat; v.f = a.f(); break;
      case AP::STRING: v.kind = ir::AttrKind::kString; v.s = a.s(); break;
      case AP::INTS:
        v.kind = ir::AttrKind::kListInt;
        v.list_i.assign(a.ints().begin(), a.ints().end());
        break;
      case AP::FLOATS:
        v.kind = ir::AttrKind::kListFloat;
        v.list_f.assign(a.floats().begin(), a.floats().end());
        break;
      case AP::STRINGS:
        v.kind = ir::AttrKind::kListString;
        v.list_s.assign(a.strings().begin(), a.strings().end());
        break;
      case AP::TENSOR:
        try {
          v.kind = ir::AttrKind::kTensor;
          v.t = ConvertTensor(a.t(), ctx, where + " attribute '" + a.name() + "'");
        } catch (const Error &e) {
          if (e.code() != kUnsupportedError) throw;
          problems->push_back({where, "attribute '" + a.name() + "': " + e.message()});
          continue;
        }
        break;
      default:
        problems->push_back({where, "attribute '" + a.name() + "' is of kind " +
                                        AP::AttributeType_Name(a.type()) +
                                        ", which is not supported (subgraphs, sparse tensors, tensor lists)"});
        continue;
    }
    (*out)[a.name()] = std::move(v);
  }
}

}  // namespace openatc::frontend::onnx_detail
