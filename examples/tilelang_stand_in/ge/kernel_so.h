// Helpers the three TileLang-flow ops share (examples/tilelang_stand_in/ge/*.cpp): where the op's
// own library lies, running the kernel producer, loading a kernel .so from a file or from bytes
// (a memfd), and the shape/dtype inference all three ops use (z shaped and typed as x).
// Everything is inline in an unnamed namespace: each deliverable gets its own copy (dladdr must see the
// library that includes it).
#ifndef OPENATC_EXAMPLES_TILELANG_STAND_IN_KERNEL_SO_H_
#define OPENATC_EXAMPLES_TILELANG_STAND_IN_KERNEL_SO_H_

#include <dlfcn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "graph/custom_op.h"

namespace {
/** The kernel ABI: call(x, y, z, stream), launched on `stream` (add_custom_kernel.py). */
using KernelCall = void (*)(void *x, void *y, void *z, void *stream);

/** The folder of the library this header is compiled into ("" when dladdr cannot tell). */
inline std::string OwnLibraryDir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void *>(&OwnLibraryDir), &info) == 0 || info.dli_fname == nullptr) return "";
  const std::string path = info.dli_fname;
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash == 0 ? 1 : slash);
}

/** Runs `command` through the shell with stderr joined to stdout; returns its exit status (-1 if none). */
inline int RunProducer(const std::string &command, std::string &output) {
  FILE *pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return -1;
  char chunk[512];
  size_t got = 0;
  while ((got = fread(chunk, 1, sizeof(chunk), pipe)) > 0) output.append(chunk, got);
  const int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

inline bool ReadBytes(const std::string &path, std::vector<uint8_t> &bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

/** dlopens `path` and finds `call`; on failure returns null with `error` set. */
inline KernelCall OpenKernel(const std::string &path, void *&handle, std::string &error) {
  handle = dlopen(path.c_str(), RTLD_NOW);
  if (handle == nullptr) {
    error = std::string("dlopen failed: ") + dlerror();
    return nullptr;
  }
  void *sym = dlsym(handle, "call");
  if (sym == nullptr) {
    error = "dlsym 'call' failed in " + path;
    dlclose(handle);
    handle = nullptr;
    return nullptr;
  }
  return reinterpret_cast<KernelCall>(sym);
}

/** Loads a kernel .so from memory: its bytes go to a memfd opened as /proc/self/fd/<fd> (left open). */
inline KernelCall OpenKernelFromBytes(const std::vector<uint8_t> &bytes, void *&handle, std::string &error) {
  const int fd = memfd_create("tilelang_kernel", MFD_CLOEXEC);
  if (fd < 0) {
    error = "memfd_create failed";
    return nullptr;
  }
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) {
      error = "writing the kernel to its memfd failed";
      close(fd);
      return nullptr;
    }
    done += static_cast<size_t>(n);
  }
  return OpenKernel("/proc/self/fd/" + std::to_string(fd), handle, error);
}

inline ge::graphStatus InferLikeX(gert::InferShapeContext *ctx) {
  const auto *in = ctx->GetInputShape(0);
  auto *out = ctx->GetOutputShape(0);
  if (in == nullptr || out == nullptr) return ge::GRAPH_FAILED;
  *out = *in;
  return ge::GRAPH_SUCCESS;
}

inline ge::graphStatus InferTypeLikeX(gert::InferDataTypeContext *ctx) {
  return ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
}

/** x + y on the kernel: z allocated shaped as x, then call(x, y, z, stream). */
inline ge::graphStatus LaunchAdd(gert::EagerOpExecutionContext *ctx, KernelCall call) {
  const gert::Tensor *x = ctx->GetInputTensor(0);
  const gert::Tensor *y = ctx->GetInputTensor(1);
  if (x == nullptr || y == nullptr) return ge::GRAPH_FAILED;
  gert::Tensor *z = ctx->MallocOutputTensor(0, x->GetShape(), x->GetFormat(), x->GetDataType());
  if (z == nullptr) return ge::GRAPH_FAILED;
  call(const_cast<void *>(x->GetAddr()), const_cast<void *>(y->GetAddr()), z->GetAddr(), ctx->GetStream());
  return ge::GRAPH_SUCCESS;
}
}  // namespace

#endif  // OPENATC_EXAMPLES_TILELANG_STAND_IN_KERNEL_SO_H_
