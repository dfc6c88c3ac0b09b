// dlopen of deliverables for compilation, memfd loading of OM-embedded ones, and the pull ABI.
#include "openatc/opp/deliverable.h"

#include <dlfcn.h>
#include <link.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>

#include "graph/custom_op_pull_registry.h"
#include "openatc/common/error.h"
#include "openatc/common/log.h"
#include "openatc/common/op_cache.h"
#include "openatc/common/openmp_policy.h"
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

// ELF identification (System V gABI): what dlopen would refuse, said in words.
constexpr uint8_t kElfClass32 = 1, kElfClass64 = 2, kElfLittle = 1, kElfBig = 2;
constexpr uint16_t kElfTypeDyn = 3;

std::string MachineName(unsigned machine) {
  struct Name {
    unsigned id;
    const char *name;
  };
  static const Name kNames[] = {{2, "SPARC"},     {3, "x86"},       {8, "MIPS"},      {20, "PowerPC"},
                                {21, "PowerPC64"}, {22, "S/390"},     {40, "ARM"},      {43, "SPARC V9"},
                                {62, "x86-64"},    {183, "AArch64"},  {243, "RISC-V"},  {258, "LoongArch"}};
  for (const Name &n : kNames)
    if (n.id == machine) return std::string(n.name) + " (" + std::to_string(machine) + ")";
  return "machine " + std::to_string(machine);
}

unsigned HostMachine() {
#if defined(__x86_64__)
  return 62;
#elif defined(__aarch64__)
  return 183;
#elif defined(__i386__)
  return 3;
#elif defined(__arm__)
  return 40;
#elif defined(__riscv)
  return 243;
#elif defined(__powerpc64__)
  return 21;
#elif defined(__s390x__)
  return 22;
#elif defined(__loongarch__)
  return 258;
#else
  return 0;
#endif
}

constexpr uint8_t kHostClass = sizeof(void *) == 8 ? kElfClass64 : kElfClass32;
constexpr uint8_t kHostData = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? kElfLittle : kElfBig;

std::string NotElfText(const uint8_t *head, size_t size) {
  if (size == 0) return "it is not an ELF file: it is empty";
  size_t shown = size < 32 ? size : 32;
  bool text = true;
  for (size_t i = 0; i < shown && text; ++i)
    text = (head[i] >= 0x20 && head[i] < 0x7f) || head[i] == '\n' || head[i] == '\r' || head[i] == '\t';
  if (text) {
    std::string t;
    for (size_t i = 0; i < shown; ++i)
      t += (head[i] == '\n' || head[i] == '\r' || head[i] == '\t') ? ' ' : static_cast<char>(head[i]);
    return "it is not an ELF file: it looks like text (it starts with \"" + t + (size > shown ? "..." : "") + "\")";
  }
  char hex[8];
  std::string bytes;
  for (size_t i = 0; i < (size < 4 ? size : 4); ++i) {
    std::snprintf(hex, sizeof(hex), "%s%02x", i ? " " : "", head[i]);
    bytes += hex;
  }
  return "it is not an ELF file (its first bytes are " + bytes + ", an ELF file starts with 7f 45 4c 46)";
}
}  // namespace

std::string ElfMismatch(const uint8_t *head, size_t size) {
  if (size < 4 || std::memcmp(head, "\x7f" "ELF", 4) != 0) return NotElfText(head, size);
  if (size < 20) return "it is a truncated ELF file (" + std::to_string(size) + " bytes)";
  const uint8_t cls = head[4], data = head[5];
  auto class_text = [](uint8_t c) {
    return c == kElfClass32 ? std::string("ELF class 32 (32-bit)")
                            : c == kElfClass64 ? std::string("ELF class 64 (64-bit)")
                                               : "an unknown ELF class (" + std::to_string(c) + ")";
  };
  if (cls != kHostClass) return "it is " + class_text(cls) + ", but this process is " + class_text(kHostClass);
  if (data != kElfLittle && data != kElfBig) return "its ELF data encoding (" + std::to_string(data) + ") is unknown";
  auto u16 = [&](size_t off) {
    return data == kElfLittle ? static_cast<unsigned>(head[off] | (head[off + 1] << 8))
                              : static_cast<unsigned>((head[off] << 8) | head[off + 1]);
  };
  const unsigned type = u16(16), machine = u16(18);
  if (machine != HostMachine())
    return "it is built for " + MachineName(machine) + ", but this process runs on " + MachineName(HostMachine());
  if (data != kHostData)
    return std::string("it is ") + (data == kElfBig ? "big" : "little") + "-endian, but this process is " +
           (kHostData == kElfBig ? "big" : "little") + "-endian";
  if (type != kElfTypeDyn) {
    const char *what = type == 1 ? "a relocatable object (.o), not a shared library"
                     : type == 2 ? "an executable, not a shared library"
                     : type == 4 ? "a core dump, not a shared library"
                                 : "not a shared library";
    return std::string("it is an ELF file but ") + what + " (e_type " + std::to_string(type) + ")";
  }
  return "";
}

std::string HostElfText() {
  return MachineName(HostMachine()) + ", " + (kHostClass == kElfClass64 ? "64" : "32") + "-bit";
}

namespace {
// The first bytes of `path` (at most 64, an ELF64 header); false when it cannot be read.
bool ReadHeader(const std::string &path, std::vector<uint8_t> *head) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  head->assign(64, 0);
  in.read(reinterpret_cast<char *>(head->data()), 64);
  head->resize(static_cast<size_t>(in.gcount()));
  return !in.bad();
}

// `name` defined in the object `handle` itself (dlsym also searches its dependencies: a
// deliverable linked against a library that declares traits must not inherit them), or null.
void *OwnSymbol(void *handle, const char *name) {
  void *sym = ::dlsym(handle, name);
  if (sym == nullptr) return nullptr;
  Dl_info info;
  struct link_map *defined_in = nullptr, *own = nullptr;
  if (::dladdr1(sym, &info, reinterpret_cast<void **>(&defined_in), RTLD_DL_LINKMAP) == 0 ||
      ::dlinfo(handle, RTLD_DI_LINKMAP, &own) != 0 || defined_in != own)
    return nullptr;
  return sym;
}

bool LaunchesNoKernels(void *handle) {
  auto fn = reinterpret_cast<int32_t (*)()>(OwnSymbol(handle, "OpenAtcDeliverableLaunchesNoKernels"));
  return fn != nullptr && fn() != 0;
}

bool ExecuteSizesOutputs(void *handle) {
  auto fn = reinterpret_cast<int32_t (*)()>(OwnSymbol(handle, "OpenAtcDeliverableExecuteSizesOutputs"));
  return fn != nullptr && fn() != 0;
}

const char *(*KernelTrace(void *handle))() {
  return reinterpret_cast<const char *(*)()>(OwnSymbol(handle, "OpenAtcDeliverableKernelTrace"));
}

std::vector<std::string> PureOps(void *handle) {
  auto fn = reinterpret_cast<const char *(*)()>(OwnSymbol(handle, "OpenAtcDeliverablePureOps"));
  const char *list = fn ? fn() : nullptr;
  std::vector<std::string> types;
  std::istringstream in(list ? list : "");
  for (std::string t; in >> t;) types.push_back(t);
  return types;
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
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error(ErrorCategory::kIo, "OA0101", "cannot open file: " + std::string(std::strerror(errno)))
      .WithFile(path);
  std::vector<uint8_t> data;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && st.st_size > 0) data.reserve(static_cast<size_t>(st.st_size));
  uint8_t buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const std::string why = std::strerror(errno);
      ::close(fd);
      throw Error(ErrorCategory::kIo, "OA0102", "cannot read file: " + why).WithFile(path);
    }
    if (n == 0) break;
    data.insert(data.end(), buf, buf + n);
  }
  ::close(fd);
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
    // dlopen reports a foreign or non-ELF file as if it were missing; say what the file is.
    std::vector<uint8_t> head;
    if (ReadHeader(file, &head)) {
      const std::string mismatch = ElfMismatch(head.data(), head.size());
      if (!mismatch.empty()) {
        throw Error(ErrorCategory::kGraph, "OA1201", "cannot load the custom-op deliverable: " + mismatch,
                    "Rebuild it for this host (" + HostElfText() +
                        " ELF shared library), or remove it from ASCEND_CUSTOM_OPP_PATH")
            .WithFile(file);
      }
    }
    ir::Bytes image = ir::Bytes::FromVector(ReadFileBytes(file));
    gert_impl::SetLoadingOrigin(file);
    PrepareOpenMpWaitPolicy();  // before the library can bring in libgomp
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
    d.image = std::move(image);
    d.sdk_version = VersionOf(handle);
    d.launches_no_kernels = LaunchesNoKernels(handle);
    d.execute_sizes_outputs = ExecuteSizesOutputs(handle);
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
    if (d.op_types.empty()) {
      // Linking any REG_AUTO_MAPPING_OP pulls in the pull ABI, so a .so without it has none.
      const bool no_abi = ::dlsym(handle, "GetRegisteredCustomOpCreatorNum") == nullptr;
      const std::string reason = !why.empty() && !no_abi ? why
                                 : no_abi ? "no REG_AUTO_MAPPING_OP, hence no custom-op pull ABI either"
                                          : "its creator list is empty: no REG_AUTO_MAPPING_OP in it";
      LogWarning("'" + file + "': the deliverable registers no op type (" + reason +
                 "), so atc uses nothing from it. Register its ops with REG_AUTO_MAPPING_OP, or remove it from "
                 "ASCEND_CUSTOM_OPP_PATH");
    }
    LogInfo("loaded deliverable '" + file + "' (" + std::to_string(d.op_types.size()) + " op types)");
    deliverables_.push_back(std::move(d));
  }
}

int CompileOppSet::Provider(const std::string &op_type) const {
  auto it = provider_.find(op_type);
  return it == provider_.end() ? -1 : it->second;
}

namespace {
// The embedded images this process has loaded, by content: a second model whose deliverable has
// the same bytes (every OM atc writes embeds the built-in ops) shares the loaded object instead of
// mapping another copy, which would stay for the process's life (handles are never closed).
std::mutex loaded_images_mutex;
std::map<std::string, void *> &LoadedImages() {
  static auto *images = new std::map<std::string, void *>();  // never destroyed: handles outlive exit
  return *images;
}

// dlopen of `image` from a memfd. The memfd stays open while the object is loaded: glibc
// identifies loaded objects by path, so reusing the fd number would make a later
// dlopen("/proc/self/fd/N") return this object.
void *OpenFromMemory(const ir::Bytes &image, const std::string &name_for_errors) {
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
    PrepareOpenMpWaitPolicy();  // before the library can bring in libgomp
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
  return handle;
}
}  // namespace

Deliverable LoadEmbedded(const ir::Bytes &image, const std::string &name_for_errors,
                         gert_impl::CustomOpRegistry &registry) {
  const std::string mismatch = ElfMismatch(image.data, image.size < 64 ? image.size : 64);
  if (!mismatch.empty()) {
    throw Error(ErrorCategory::kCorruptOm, "OA1203", "the embedded deliverable does not load: " + mismatch,
                "Rebuild the OM with atc on a host of this architecture (" + HostElfText() + ")")
        .WithFile(name_for_errors);
  }
  void *handle = nullptr;
  {
    const std::string key = opcache::Xxh3Hex128(image.data, image.size) + ":" + std::to_string(image.size);
    std::lock_guard<std::mutex> lock(loaded_images_mutex);
    auto it = LoadedImages().find(key);
    if (it != LoadedImages().end()) {
      handle = it->second;
    } else {
      handle = OpenFromMemory(image, name_for_errors);
      LoadedImages().emplace(key, handle);
    }
  }
  Deliverable d;
  d.path = name_for_errors;
  d.file_name = BaseName(name_for_errors);
  d.handle = handle;
  d.image = image;
  d.sdk_version = VersionOf(handle);
  d.launches_no_kernels = LaunchesNoKernels(handle);
  d.execute_sizes_outputs = ExecuteSizesOutputs(handle);
  d.pure_ops = PureOps(handle);
  d.kernel_trace = KernelTrace(handle);
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
