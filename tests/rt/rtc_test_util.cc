// Helpers for the RTC tests (see rtc_test_util.h).
#include "rtc_test_util.h"

#include <dirent.h>

#include "acl/acl_rt_compile.h"

namespace rttest {

const char *const kAddKernel = R"(
#include "openatc/host_kernel.h"
OPENATC_HOST_KERNEL(add_custom, GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n) {
  uint32_t per = (n + GetBlockNum() - 1) / GetBlockNum();
  uint32_t begin = per * GetBlockIdx();
  uint32_t end = begin + per < n ? begin + per : n;
  const T *a = reinterpret_cast<const T *>(x);
  const T *b = reinterpret_cast<const T *>(y);
  T *c = reinterpret_cast<T *>(z);
  for (uint32_t i = begin; i < end; ++i) c[i] = a[i] + b[i];
}
OPENATC_HOST_KERNEL(block_info, GM_ADDR out) {
  reinterpret_cast<int64_t *>(out)[GetBlockIdx()] = GetBlockIdx() * 100000 + GetBlockNum();
}
)";

const char *const kTritonKernel = R"(
#include "openatc/host_kernel.h"
OPENATC_HOST_KERNEL(add_kernel, void *sync_block_lock, void *workspace, const float *x, const float *y, float *out,
                    int32_t n_elements, int32_t grid_x, int32_t grid_y, int32_t grid_z) {
  (void)sync_block_lock;
  int32_t pid = static_cast<int32_t>(GetBlockIdx());
  for (int32_t i = pid * 4; i < pid * 4 + 4 && i < n_elements; ++i) out[i] = x[i] + y[i];
  if (pid == 0) {
    int32_t *w = static_cast<int32_t *>(workspace);
    w[0] = grid_x; w[1] = grid_y; w[2] = grid_z; w[3] = n_elements;
  }
}
)";

Compiled Compile(const std::string &source, const std::vector<std::string> &options, const std::string &name) {
  Compiled out;
  aclrtcProg prog = nullptr;
  out.rc = aclrtcCreateProg(&prog, source.c_str(), name.c_str(), 0, nullptr, nullptr);
  if (out.rc != ACL_SUCCESS) {
    out.error = aclGetRecentErrMsg();
    return out;
  }
  std::vector<const char *> opts;
  for (const auto &o : options) opts.push_back(o.c_str());
  out.rc = aclrtcCompileProg(prog, static_cast<int>(opts.size()), opts.data());
  if (out.rc != ACL_SUCCESS) out.error = aclGetRecentErrMsg();
  size_t log_size = 0;
  if (aclrtcGetCompileLogSize(prog, &log_size) == ACL_SUCCESS && log_size > 0) {
    std::string log(log_size, '\0');
    aclrtcGetCompileLog(prog, &log[0]);
    log.resize(log_size - 1);
    out.log = log;
  }
  if (out.rc == ACL_SUCCESS) {
    size_t size = 0;
    aclrtcGetBinDataSize(prog, &size);
    out.binary.resize(size);
    aclrtcGetBinData(prog, reinterpret_cast<char *>(out.binary.data()));
  }
  aclrtcDestroyProg(&prog);
  return out;
}

std::set<std::string> ListDir(const std::string &dir) {
  std::set<std::string> names;
  DIR *d = opendir(dir.c_str());
  if (d == nullptr) return names;
  while (dirent *e = readdir(d)) {
    std::string n = e->d_name;
    if (n != "." && n != "..") names.insert(n);
  }
  closedir(d);
  return names;
}

}  // namespace rttest
