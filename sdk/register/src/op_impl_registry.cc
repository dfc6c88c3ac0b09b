// gert::OpImplRegisterV2 (register/op_impl_registry.h): legacy IMPL_OP hooks, recorded per op type
// in a process-wide table (openatc/register/op_impl.h). Each builder call updates the table.
#include "sdk_visibility.h"

#include <map>
#include <mutex>

#include "openatc/common/log.h"
#include "openatc/register/op_impl.h"

namespace gert {
class OpImplRegisterV2Impl {
 public:
  std::string op_type;
};
}  // namespace gert

namespace openatc::reg {
namespace {
struct ImplTable {
  std::mutex mu;
  std::map<std::string, OpImplFuncs> funcs;
};
ImplTable &Table() {
  static ImplTable *t = new ImplTable();  // never destroyed: hooks may be read at exit
  return *t;
}
template <typename F>
void Update(const gert::OpImplRegisterV2Impl *impl, F &&f) {
  if (impl == nullptr || impl->op_type.empty()) return;
  ImplTable &t = Table();
  std::lock_guard<std::mutex> lock(t.mu);
  f(t.funcs[impl->op_type]);
}
}  // namespace

bool FindOpImpl(const std::string &op_type, OpImplFuncs *out) {
  ImplTable &t = Table();
  std::lock_guard<std::mutex> lock(t.mu);
  const auto it = t.funcs.find(op_type);
  if (it == t.funcs.end()) return false;
  if (out != nullptr) *out = it->second;
  return true;
}
}  // namespace openatc::reg

namespace gert {
using openatc::reg::OpImplFuncs;
using openatc::reg::Update;

OpImplRegisterV2::OpImplRegisterV2(const ge::char_t *op_type) : impl_(std::make_unique<OpImplRegisterV2Impl>()) {
  impl_->op_type = op_type != nullptr ? op_type : "";
  if (impl_->op_type.empty()) openatc::reg::SetSdkError("IMPL_OP: the op type is empty; registration ignored");
}
OpImplRegisterV2::OpImplRegisterV2(const OpImplRegisterV2 &register_data)
    : impl_(std::make_unique<OpImplRegisterV2Impl>(*register_data.impl_)) {}
OpImplRegisterV2::OpImplRegisterV2(OpImplRegisterV2 &&register_data) noexcept
    : impl_(std::make_unique<OpImplRegisterV2Impl>()) {
  std::swap(impl_, register_data.impl_);
}
OpImplRegisterV2::~OpImplRegisterV2() = default;

OpImplRegisterV2 &OpImplRegisterV2::InferShape(InferShapeKernelFunc infer_shape_func) {
  if (infer_shape_func == nullptr) {
    openatc::LogWarning("IMPL_OP(" + impl_->op_type + ").InferShape: the function is null; ignored");
    return *this;
  }
  Update(impl_.get(), [&](OpImplFuncs &f) { f.infer_shape = infer_shape_func; });
  return *this;
}
OpImplRegisterV2 &OpImplRegisterV2::InferDataType(InferDataTypeKernelFunc infer_datatype_func) {
  if (infer_datatype_func == nullptr) {
    openatc::LogWarning("IMPL_OP(" + impl_->op_type + ").InferDataType: the function is null; ignored");
    return *this;
  }
  Update(impl_.get(), [&](OpImplFuncs &f) { f.infer_datatype = infer_datatype_func; });
  return *this;
}
OpImplRegisterV2 &OpImplRegisterV2::InferOutDataTypeSameWithFirstInput() {
  Update(impl_.get(), [](OpImplFuncs &f) { f.output_dtype_same_as_first_input = true; });
  return *this;
}
OpImplRegisterV2 &OpImplRegisterV2::InputsDataDependency(std::initializer_list<int32_t> inputs) {
  Update(impl_.get(), [&](OpImplFuncs &f) { f.inputs_data_dependency.assign(inputs.begin(), inputs.end()); });
  return *this;
}
OpImplRegisterV2 &OpImplRegisterV2::OutputShapeDependOnCompute(std::initializer_list<int32_t> outputs) {
  Update(impl_.get(), [&](OpImplFuncs &f) { f.output_shape_depend_on_compute.assign(outputs.begin(), outputs.end()); });
  return *this;
}
}  // namespace gert
