// Flow B (online): AddCustomOnline, a CompilableOp whose Compile (run by CompileGraph) spawns the
// kernel producer installed beside this library, `python3 add_custom_kernel.py <N> <tmp.so>`, once
// per input size N (the cache key, N in decimal), loads the .so and keeps it; Execute uses the
// kernel compiled for its input's size.
#include <cstdlib>
#include <iostream>
#include <map>
#include <mutex>

#include "add_custom.h"
#include "kernel_so.h"

namespace {
struct Loaded {
  void *handle = nullptr;
  KernelCall call = nullptr;
};
}  // namespace

class AddCustomOnline : public ge::CompilableOp, public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ~AddCustomOnline() override {
    for (auto &k : kernels_) dlclose(k.second.handle);
  }

  ge::graphStatus Compile(gert::OpCompileContext *ctx) override {
    const gert::Tensor *x = ctx == nullptr ? nullptr : ctx->GetInputTensor(0);
    if (x == nullptr) return ge::GRAPH_FAILED;
    const std::string key = std::to_string(x->GetShapeSize());
    std::lock_guard<std::mutex> lock(mutex_);
    if (kernels_.count(key) != 0) {
      std::cout << "TileLang kernel already compiled for key=" << key << std::endl;
      return ge::GRAPH_SUCCESS;
    }
    char tmp[] = "/tmp/tilelang_online_XXXXXX.so";
    const int fd = mkstemps(tmp, 3);
    if (fd < 0) return ge::GRAPH_FAILED;
    close(fd);
    std::cout << "Compiling TileLang kernel (stand-in producer, host bisheng)" << std::endl;
    std::string output;
    const int rc = RunProducer("python3 " + OwnLibraryDir() + "/add_custom_kernel.py " + key + " " + tmp, output);
    if (rc != 0) {
      std::cerr << "TileLang compilation failed (exit=" << rc << "):" << std::endl << output << std::endl;
      unlink(tmp);
      return ge::GRAPH_FAILED;
    }
    std::cout << output;
    Loaded k;
    std::string error;
    k.call = OpenKernel(tmp, k.handle, error);
    unlink(tmp);
    if (k.call == nullptr) {
      std::cerr << "AddCustomOnline: " << error << std::endl;
      return ge::GRAPH_FAILED;
    }
    kernels_[key] = k;
    std::cout << "TileLang kernel compiled and loaded, key=" << key << std::endl;
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return ge::GRAPH_FAILED;
    const std::string key = std::to_string(x->GetShapeSize());
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = kernels_.find(key);
    if (it == kernels_.end()) {
      std::cerr << "Execute: kernel not compiled for key=" << key << ", CompileGraph must be called before execution"
                << std::endl;
      return ge::GRAPH_FAILED;
    }
    return LaunchAdd(ctx, it->second.call);
  }

  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override { return InferLikeX(ctx); }
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return InferTypeLikeX(ctx); }

 private:
  std::mutex mutex_;
  std::map<std::string, Loaded> kernels_;
};

REG_AUTO_MAPPING_OP(AddCustomOnline);
