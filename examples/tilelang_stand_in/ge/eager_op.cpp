// Flow A (eager): AddCustom, an EagerExecuteOp whose first Execute dlopens the kernel .so the
// producer wrote beforehand (add_custom_kernel.py with no arguments: 4096 floats) from
// <first ASCEND_CUSTOM_OPP_PATH entry>/op_graph/lib/linux/<arch>/add_kernel.so, <arch> being the
// machine this deliverable was built for (TL_ARCH); with the variable unset, beside this library.
#include <cstdlib>
#include <iostream>
#include <mutex>

#include "add_custom.h"
#include "kernel_so.h"

namespace {
constexpr int64_t kKernelElements = 4096;  // what the producer's no-argument form builds

std::string KernelPath() {
  const char *opp = std::getenv("ASCEND_CUSTOM_OPP_PATH");
  std::string root = opp == nullptr ? "" : opp;
  root = root.substr(0, root.find(':'));
  if (root.empty()) return OwnLibraryDir() + "/add_kernel.so";
  return root + "/op_graph/lib/linux/" TL_ARCH "/add_kernel.so";
}
}  // namespace

class AddCustom : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ~AddCustom() override {
    if (handle_ != nullptr) dlclose(handle_);
  }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    std::call_once(once_, [this] {
      std::string error;
      call_ = OpenKernel(KernelPath(), handle_, error);
      if (call_ == nullptr) std::cerr << "AddCustom: " << error << std::endl;
    });
    if (call_ == nullptr) return ge::GRAPH_FAILED;
    const gert::Tensor *x = ctx->GetInputTensor(0);
    const gert::Tensor *y = ctx->GetInputTensor(1);
    if (x == nullptr || y == nullptr || x->GetShapeSize() != kKernelElements || y->GetShapeSize() != kKernelElements) {
      std::cerr << "AddCustom: the kernel adds exactly " << kKernelElements << " floats per input" << std::endl;
      return ge::GRAPH_FAILED;
    }
    return LaunchAdd(ctx, call_);
  }

  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override { return InferLikeX(ctx); }
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return InferTypeLikeX(ctx); }

 private:
  std::once_flag once_;
  void *handle_ = nullptr;
  KernelCall call_ = nullptr;
};

REG_AUTO_MAPPING_OP(AddCustom);
