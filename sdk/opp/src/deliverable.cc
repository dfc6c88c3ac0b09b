// dlopen of deliverables for compilation, memfd loading of OM-embedded ones, and the pull ABI.
#include "openatc/opp/deliverable.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "graph/custom_op_pull_registry.h"
#include "openatc/common/error.h"
#include "openatc/common/log.h"
#include "openatc/opp/opp_paths.h"

#ifndef OPENATC_SDK_VERSION
#error "OPENATC_SDK_VERSION must be defined by the build"
#endif

namespace openatc::opp {
namespace {
using GetNumFn = size_t (*)();
using GetCreatorsFn = int32_t (*)(ge::CustomOpTypeToCreator *, size_t, size_t);
using GetAbiFn = uint32_t (*)();
using GetVersionFn = const char *(*)();

std::string BaseName(const std::string &path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Reads the .so's own creator list through the pull ABI. Returns false when it has none.
bool PullCreators(void *handle, std::vector<ge::CustomOpTypeToCreator> *out, std::string *why) {
  auto abi = reinterpret_cast<GetAbiFn>(::dlsym(handle, "GetRegisteredCustomOpCreatorAbiVersion"));
  auto num = reinterpret_cast<GetNumFn>(::dlsym(handle, "GetRegisteredCustomOpCreatorNum"));
  auto get = reinterpret_cast<GetCreatorsFn>(::dlsym(handle, "GetRegisteredCustomOpCreators"));
  if (abi == nullptr || num == nullptr || get == nullptr) {
    *why = "it does not export the custom-op pull ABI (link it with custom_op_registry_static)";
    return false;
  }
  if (abi() != ge::kCustomOpCreatorPullAbiVersion) {
    *why = "its pull ABI version is " + std::to_string(abi()) + ", this runtime reads version " +
           std::to_string(ge::kCustomOpCreatorPullAbiVersion);
    return false;
  }
  size_t n = num();
  out->assign(n, ge::CustomOpTypeToCreator{});
  if (get(out->data(), n, sizeof(ge::CustomOpTypeToCreator)) != 0) {
    *why = "GetRegisteredCustomOpCreators failed";
    return false;
  }
  return true;
}

std::string VersionOf(void *handle) {
  auto fn = reinterpret_cast<GetVersionFn>(::dlsym(handle, "OpenAtcDeliverableSdkVersion"));
  const char *v = fn ? fn() : nullptr;
  return v ? v : "";
}
}  // namespace

std::string SdkVersion() { return OPENATC_SDK_VERSION; }

bool SdkVersionCompatible(const std::string &version) {
  int a[3] = {0, 0, 0}, b[3] = {0, 0, 0};
  if (std::sscanf(version.c_str(), "%d.%d.%d", &a[0], &a[1], &a[2]) < 2) return false;
  std::sscanf(OPENATC_SDK_VERSION, "%d.%d.%d", &b[0], &b[1], &b[2]);
  if (a[0] != b[0]) return false;
  if (a[0] == 0 && a[1] != b[1]) return false;
  return true;
}

std::vector<uint8_t> ReadFileBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorCategory::kIo, "OA0101", "cannot open file: " + std::string(std::strerror(errno)))
      .WithFile(path);
  std::vector<uint8_t> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw Error(ErrorCategory::kIo, "OA0102", "cannot read file").WithFile(path);
  return data;
}

void CompileOppSet::Load(const std::vector<std::string> &roots, const std::string &builtin_root) {
  roots_ = roots;
  builtin_root_ = builtin_root;
  if (!builtin_root.empty()) roots_.push_back(builtin_root);
  std::vector<std::string> files;
  for (const auto &root : roots_) {
    auto found = DeliverablesInRoot(root, &searched_);
    files.insert(files.end(), found.begin(), found.end());
  }
  for (const auto &file : files) {
    gert_impl::SetLoadingOrigin(file);
    void *handle = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    gert_impl::SetLoadingOrigin("");
    if (handle == nullptr) {
      const char *err = ::dlerror();
      throw Error(ErrorCategory::kGraph, "OA1201",
                  std::string("cannot load the custom-op deliverable: ") + (err ? err : "unknown dlopen error"),
                  "Rebuild the deliverable for this machine, or remove it from ASCEND_CUSTOM_OPP_PATH")
          .WithFile(file);
    }
    Deliverable d;
    d.path = file;
    d.file_name = BaseName(file);
    d.handle = handle;
    d.sdk_version = VersionOf(handle);
    std::vector<ge::CustomOpTypeToCreator> creators;
    std::string why;
    if (PullCreators(handle, &creators, &why)) {
      for (const auto &c : creators) {
        if (c.op_type == nullptr) continue;
        d.op_types.push_back(c.op_type);
        provider_.emplace(c.op_type, static_cast<int>(deliverables_.size()));  // first wins
      }
    } else {
      LogDebug("'" + file + "': " + why);
    }
    LogInfo("loaded deliverable '" + file + "' (" + std::to_string(d.op_types.size()) + " op types)");
    deliverables_.push_back(std::move(d));
  }
}

int CompileOppSet::Provider(const std::string &op_type) const {
  auto it = provider_.find(op_type);
  return it == provider_.end() ? -1 : it->second;
}

Deliverable LoadEmbedded(const ir::Bytes &image, const std::string &name_for_errors,
                         gert_impl::CustomOpRegistry &registry) {
  int fd = ::memfd_create(BaseName(name_for_errors).c_str(), MFD_CLOEXEC);
  if (fd < 0) throw Error(ErrorCategory::kInternal, "OA1202", std::string("memfd_create failed: ") + std::strerror(errno));
  size_t written = 0;
  while (written < image.size) {
    ssize_t n = ::write(fd, image.data + written, image.size - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      throw Error(ErrorCategory::kInternal, "OA1202", "cannot write the deliverable to memory");
    }
    written += static_cast<size_t>(n);
  }
  const std::string proc_path = "/proc/self/fd/" + std::to_string(fd);
  void *handle = nullptr;
  {
    gert_impl::OfflineLoadingGuard guard;
    handle = ::dlopen(proc_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  }
  if (handle == nullptr) {
    ::close(fd);
    const char *err = ::dlerror();
    throw Error(ErrorCategory::kCorruptOm, "OA1203",
                std::string("the embedded deliverable does not load: ") + (err ? err : "unknown dlopen error"),
                "Rebuild the OM with atc on a compatible machine")
        .WithFile(name_for_errors);
  }
  // The memfd stays open while the object is loaded: glibc identifies loaded objects by path, so
  // reusing the fd number would make a later dlopen("/proc/self/fd/N") return this object.
  Deliverable d;
  d.path = name_for_errors;
  d.file_name = BaseName(name_for_errors);
  d.handle = handle;
  d.sdk_version = VersionOf(handle);
  if (!d.sdk_version.empty() && !SdkVersionCompatible(d.sdk_version)) {
    throw Error(ErrorCategory::kNotOm, "OA1204",
                "the embedded deliverable was built against OpenATC SDK " + d.sdk_version +
                    ", which this runtime (SDK " + SdkVersion() + ") cannot load",
                "Rebuild the deliverable and the OM with this SDK")
        .WithFile(name_for_errors);
  }
  std::vector<ge::CustomOpTypeToCreator> creators;
  std::string why;
  if (!PullCreators(handle, &creators, &why)) {
    throw Error(ErrorCategory::kCorruptOm, "OA1205", "the embedded deliverable cannot be used: " + why)
        .WithFile(name_for_errors);
  }
  for (const auto &c : creators) {
    if (c.op_type == nullptr || c.creator == nullptr) continue;
    ge::CustomOpCreateFunc fn = c.creator;
    registry.Register(c.op_type, [fn]() { return fn(); }, name_for_errors);
    d.op_types.push_back(c.op_type);
  }
  return d;
}

}  // namespace openatc::opp
