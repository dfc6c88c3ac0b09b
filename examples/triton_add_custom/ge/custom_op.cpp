// AddCustom, the host port of the GE side of GE's triton_add_custom sample: an EagerExecuteOp
// only. Execute loads the precompiled Triton kernel binary add_kernel.npubin, takes its function
// add_kernel and launches it with the Triton host-args layout on ceil(n / 1024) blocks.
//
// Differences from the sample, on purpose:
//  - Where the binary is found. The sample reads ./add_kernel.npubin from the working directory.
//    Here Execute looks, in order, next to this .so (dladdr), in the working directory, then in
//    <root>/op_graph/lib/linux/<arch>/ of every ASCEND_CUSTOM_OPP_PATH root (the .so of an OM
//    is loaded from memory, /proc/self/fd/N, so it has no directory of its own). When no
//    candidate exists Execute fails naming every path it tried.
//  - Loaded once. The sample loads and unloads the binary in every Execute. Here the first
//    Execute loads it and keeps the handle until the op object is destroyed: the bytes never
//    change, and a static (sink) model replays the recorded launch, which needs the function
//    handle to stay valid after Execute returned.
//  - The prototype: see op_graph/include/add_custom.h.
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "add_custom.h"
#include "graph/custom_op.h"

namespace {
constexpr const char *kBinaryName = "add_kernel.npubin";
constexpr const char *kKernelName = "add_kernel";
constexpr int64_t kBlockSize = 1024;  // BLOCK_SIZE the kernel was compiled with

#ifndef TRITON_ADD_ARCH
#if defined(__x86_64__)
#define TRITON_ADD_ARCH "x86_64"
#else
#define TRITON_ADD_ARCH "aarch64"
#endif
#endif

// The Triton-Ascend host-args block (devices without FFTS, i.e. not A3): pointers 8-aligned, ints
// 4-aligned, no padding: offsets 0, 8, 16, 24, 32, 40, 44, 48, 52; 56 bytes.
struct TritonAddArgs {
  void *sync_block_lock;
  void *workspace_addr;
  const void *x;
  const void *y;
  void *out;
  int32_t n_elements;
  int32_t grid_x;
  int32_t grid_y;
  int32_t grid_z;
};
static_assert(sizeof(TritonAddArgs) == 56, "Triton host args are 56 bytes");

std::string DirOf(const std::string &path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

// Candidate paths for the kernel binary, in lookup order.
std::vector<std::string> Candidates() {
  std::vector<std::string> out;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void *>(&DirOf), &info) != 0 && info.dli_fname != nullptr) {
    const std::string self = info.dli_fname;
    if (self.rfind("/proc/self/fd/", 0) != 0) out.push_back(DirOf(self) + "/" + kBinaryName);
  }
  out.push_back(std::string("./") + kBinaryName);
  if (const char *env = std::getenv("ASCEND_CUSTOM_OPP_PATH")) {
    std::string roots = env;
    size_t start = 0;
    while (start <= roots.size()) {
      size_t end = roots.find(':', start);
      if (end == std::string::npos) end = roots.size();
      const std::string root = roots.substr(start, end - start);
      if (!root.empty()) out.push_back(root + "/op_graph/lib/linux/" TRITON_ADD_ARCH "/" + kBinaryName);
      start = end + 1;
    }
  }
  return out;
}

bool ReadFile(const std::string &path, std::vector<char> *bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  bytes->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !bytes->empty();
}
}  // namespace

namespace ge {

class AddCustom : public EagerExecuteOp {
 public:
  ~AddCustom() override {
    if (bin_ != nullptr) (void)aclrtBinaryUnLoad(bin_);
  }

  graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    aclrtFuncHandle func = Kernel();
    if (func == nullptr) return GRAPH_FAILED;
    const gert::Tensor *x = ctx->GetInputTensor(0);
    const gert::Tensor *y = ctx->GetInputTensor(1);
    if (x == nullptr || y == nullptr) {
      std::fprintf(stderr, "[ERROR] AddCustom: an input tensor is missing\n");
      return GRAPH_FAILED;
    }
    const int64_t n = x->GetShapeSize();
    if (y->GetShapeSize() != n || n <= 0 || n > INT32_MAX) {
      std::fprintf(stderr, "[ERROR] AddCustom: x and y must hold the same number (1..2^31-1) of elements, got %lld and %lld\n",
                   static_cast<long long>(n), static_cast<long long>(y->GetShapeSize()));
      return GRAPH_FAILED;
    }
    gert::Tensor *z = ctx->MallocOutputTensor(0, x->GetShape(), x->GetFormat(), x->GetDataType());
    if (z == nullptr) return GRAPH_FAILED;
    // A one-dimensional grid: ceil(n / BLOCK_SIZE) programs.
    const int32_t grid_x = static_cast<int32_t>((n + kBlockSize - 1) / kBlockSize);
    TritonAddArgs args{nullptr, nullptr, x->GetAddr(), y->GetAddr(), z->GetAddr(), static_cast<int32_t>(n),
                       grid_x, 1, 1};
    const uint32_t block_num = static_cast<uint32_t>(grid_x);
    if (aclrtLaunchKernelWithHostArgs(func, block_num, ctx->GetStream(), nullptr, &args, sizeof(args), nullptr, 0) !=
        ACL_SUCCESS) {
      std::fprintf(stderr, "[ERROR] AddCustom: launching %s failed: %s\n", kKernelName, aclGetRecentErrMsg());
      return GRAPH_FAILED;
    }
    return GRAPH_SUCCESS;
  }

 private:
  // Loads add_kernel.npubin on first use and keeps its function handle.
  aclrtFuncHandle Kernel() {
    std::lock_guard<std::mutex> lock(mu_);
    if (func_ != nullptr) return func_;
    const std::vector<std::string> tried = Candidates();
    std::vector<char> bytes;
    std::string found;
    for (const auto &path : tried) {
      if (ReadFile(path, &bytes)) {
        found = path;
        break;
      }
    }
    if (found.empty()) {
      std::string list;
      for (const auto &p : tried) list += (list.empty() ? "'" : ", '") + p + "'";
      std::fprintf(stderr,
                   "[ERROR] AddCustom: cannot find the kernel binary %s; tried %s. Set ASCEND_CUSTOM_OPP_PATH to "
                   "the OPP root the example built (it writes %s next to libcust_opapi.so), or run from a "
                   "directory holding the file\n",
                   kBinaryName, list.c_str(), kBinaryName);
      return nullptr;
    }
    aclrtBinaryLoadOption option{};
    option.type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
    option.value.magic = ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE;
    aclrtBinaryLoadOptions options{&option, 1};
    if (aclrtBinaryLoadFromData(bytes.data(), bytes.size(), &options, &bin_) != ACL_SUCCESS) {
      std::fprintf(stderr, "[ERROR] AddCustom: cannot load '%s': %s\n", found.c_str(), aclGetRecentErrMsg());
      bin_ = nullptr;
      return nullptr;
    }
    if (aclrtBinaryGetFunction(bin_, kKernelName, &func_) != ACL_SUCCESS) {
      std::fprintf(stderr, "[ERROR] AddCustom: '%s' has no kernel %s: %s\n", found.c_str(), kKernelName,
                   aclGetRecentErrMsg());
      func_ = nullptr;
    }
    return func_;
  }

  std::mutex mu_;
  aclrtBinHandle bin_ = nullptr;
  aclrtFuncHandle func_ = nullptr;
};

REG_AUTO_MAPPING_OP(AddCustom);

}  // namespace ge
