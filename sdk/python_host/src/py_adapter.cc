// Python op adapters: ShapeInferOp runs the prototype's infer_meta, EagerExecuteOp runs the
// class's execute. A Python error becomes openatc::Error OA1804 naming the op type, the node,
// the callback and the last traceback frames (GuardedCall passes our errors through).
#include "py_adapter.h"

#include "py_compile_parts.h"

#include <cstdlib>
#include <tuple>
#include <vector>

#include "openatc/common/error.h"
#include "openatc/gert/frame.h"

namespace openatc::python_host {

[[noreturn]] void CallFailed(const PyOpInfo &info, const gert_impl::Frame *frame, const std::string &callback,
                             char *text) {
  std::string what = text != nullptr ? text : "unknown error";
  info.api->free_text(text);
  Error e(ErrorCategory::kCustomOp, "OA1804", "the Python " + callback + " of op type '" + info.op_type + "' failed:\n" + what,
          "Fix the Python callback at the file and line the traceback names");
  e.WithNode(frame != nullptr && frame->node != nullptr ? frame->node->name : "", info.op_type);
  throw e;
}

void Collect(const std::vector<gert::Tensor *> &in, bool storage, InputViews &v) {
  v.dims.resize(in.size());
  v.tensors.resize(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const gert::Tensor &t = *in[i];
    const gert::Shape &s = storage ? t.GetStorageShape() : t.GetOriginShape();
    for (size_t d = 0; d < s.GetDimNum(); ++d) v.dims[i].push_back(s.GetDim(d));
    v.tensors[i] = {v.dims[i].data(), static_cast<uint32_t>(v.dims[i].size()), static_cast<int32_t>(t.GetDataType()),
                    static_cast<int32_t>(t.GetStorageFormat()), reinterpret_cast<uint64_t>(t.GetAddr()),
                    static_cast<uint64_t>(t.GetSize())};
  }
}

// Attrs by name from the node (frame = attr_ctx); representation as gert's RuntimeAttrs.
int GetAttr(void *attr_ctx, const char *name, const char *type, OaPyAttrValue *value) {
  const gert_impl::NodeInfo *node = static_cast<gert_impl::Frame *>(attr_ctx)->node;
  const void *p = nullptr;
  for (size_t i = 0; i < node->attr_names.size() && p == nullptr; ++i)
    if (node->attr_names[i] == name) p = node->attrs.Get(i);
  if (p == nullptr) return 1;
  const std::string t = type;
  if (t == "int") value->i = *static_cast<const int64_t *>(p);
  else if (t == "float") value->f = *static_cast<const float *>(p);
  else if (t == "bool") value->i = *static_cast<const bool *>(p) ? 1 : 0;
  else if (t == "data_type") value->i = static_cast<int64_t>(*static_cast<const ge::DataType *>(p));
  else if (t == "str") value->s = static_cast<const char *>(p);
  else return 2;
  return 0;
}

namespace {

class PyInferPart : public virtual ge::ShapeInferOp {
 public:
  explicit PyInferPart(const PyOpInfo &info) : info_(info) {}
  // infer_meta gives dtypes and shapes at once: both are written here, InferShape has nothing left.
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    gert_impl::Frame *frame = gert_impl::ContextAccess::Get(ctx);
    InputViews v;
    Collect(frame->inputs, false, v);
    std::vector<OaPyDesc> out(frame->outputs.size());
    uint32_t written = 0;
    char *err = nullptr;
    if (info_.api->infer_meta(info_.op_type.c_str(), v.tensors.data(), static_cast<uint32_t>(v.tensors.size()),
                              out.data(), static_cast<uint32_t>(out.size()), &written, GetAttr, frame, &err) != kOaPyOk)
      CallFailed(info_, frame, "infer_meta", err);
    for (uint32_t i = 0; i < written; ++i) {
      gert::Tensor &t = *frame->outputs[i];
      t.SetDataType(static_cast<ge::DataType>(out[i].dtype));
      gert::Shape &s = t.MutableOriginShape();
      s.SetDimNum(0);
      for (uint32_t d = 0; d < out[i].ndim; ++d) s.AppendDim(out[i].dims[d]);
    }
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus InferShape(gert::InferShapeContext *) override { return ge::GRAPH_SUCCESS; }

 private:
  PyOpInfo info_;
};

int MallocOutput(void *host_ctx, uint32_t index, const int64_t *dims, uint32_t ndim, int32_t format, int32_t dtype,
                 uint64_t *addr, uint64_t *size) {
  auto *ctx = static_cast<gert::EagerOpExecutionContext *>(host_ctx);
  gert::StorageShape shape;
  for (uint32_t d = 0; d < ndim; ++d) {
    shape.MutableOriginShape().AppendDim(dims[d]);
    shape.MutableStorageShape().AppendDim(dims[d]);
  }
  const auto f = static_cast<ge::Format>(format);
  gert::Tensor *t = ctx->MallocOutputTensor(index, shape, gert::StorageFormat(f, f, gert::ExpandDimsType()),
                                            static_cast<ge::DataType>(dtype));
  if (t == nullptr) return 1;
  *addr = reinterpret_cast<uint64_t>(t->GetAddr());
  *size = t->GetSize();
  return 0;
}

class PyExecPart : public virtual ge::EagerExecuteOp {
 public:
  explicit PyExecPart(const PyOpInfo &info) : info_(info) {}
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    gert_impl::Frame *frame = gert_impl::ContextAccess::Get(ctx);
    InputViews v;
    Collect(frame->inputs, true, v);
    char *err = nullptr;
    if (info_.api->execute(info_.op_type.c_str(), info_.backend.c_str(), v.tensors.data(),
                           static_cast<uint32_t>(v.tensors.size()), static_cast<uint32_t>(frame->outputs.size()),
                           MallocOutput, ctx, GetAttr, frame, &err) != kOaPyOk)
      CallFailed(info_, frame, "execute (" + info_.backend + " backend)", err);
    return ge::GRAPH_SUCCESS;
  }

 private:
  PyOpInfo info_;
};

// One adapter class per mix of parts: PyOp<Parts...> derives from exactly the chosen ones.
template <class... Parts>
class PyOp final : public Parts... {
 public:
  explicit PyOp(const PyOpInfo &info) : Parts(info)... {}
};

using AllParts = std::tuple<PyInferPart, PyExecPart, PyCompilePart, PyAnnotatedPart>;

template <size_t K, class... Chosen>
ge::BaseCustomOp *Pick(const PyOpInfo &info, const bool (&want)[std::tuple_size_v<AllParts>]) {
  if constexpr (K == std::tuple_size_v<AllParts>) {
    if constexpr (sizeof...(Chosen) == 0) return nullptr;
    else return new PyOp<Chosen...>(info);
  } else {
    using Part = std::tuple_element_t<K, AllParts>;
    return want[K] ? Pick<K + 1, Chosen..., Part>(info, want) : Pick<K + 1, Chosen...>(info, want);
  }
}

}  // namespace

ge::BaseCustomOp *NewPyOp(const PyOpInfo &info) {
  const bool want[] = {info.infer_meta, !info.backend.empty(), info.compile, info.annotated};
  return Pick<0>(info, want);
}

}  // namespace openatc::python_host
