// ONNX AttributeProto -> ir::AttrValue under the attribute's ONNX name (onnx_reader.h, step 5):
// INT -> Int, FLOAT -> Float, STRING -> String, INTS -> ListInt, FLOATS -> ListFloat,
// STRINGS -> ListString, TENSOR -> Tensor, TYPE_PROTO -> DataType (the element type; Optional's
// `type`). GRAPH / GRAPHS are converted by the caller (onnx_convert.cc, subgraphs). Sparse
// tensors and tensor lists are unsupported.
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
      case AP::GRAPH:
      case AP::GRAPHS: continue;  // subgraphs: onnx_convert.cc
      case AP::TYPE_PROTO: {
        const onnx::TypeProto *t = &a.tp();
        while (t->has_optional_type()) t = &t->optional_type().elem_type();
        while (t->has_sequence_type()) t = &t->sequence_type().elem_type();
        v.kind = ir::AttrKind::kDataType;
        if (!t->has_tensor_type() || !OnnxToGeDataType(t->tensor_type().elem_type(), &v.dt)) {
          problems->push_back({where, "attribute '" + a.name() + "' names a type that is not a tensor, sequence or "
                                      "optional of a supported dtype"});
          continue;
        }
        break;
      }
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
