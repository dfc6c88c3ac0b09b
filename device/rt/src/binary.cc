// Kernel binaries: aclrtBinaryLoadFromData/FromFile, aclrtBinaryGetFunction, aclrtBinaryUnLoad.
// A binary is a host ELF shared object built against openatc/host_kernel.h. It is checked
// (ELF class, type, machine; ABI version symbol), written to a memfd and dlopen'ed through
// /proc/self/fd/N, so no file is created. Identical bytes (XXH3-64 + size) are loaded once and
// reference-counted. The memfd stays open while the object is loaded so that the path name,
// which glibc uses to recognise loaded objects, is never reused for different bytes. A binary
// exporting openatc_host_kernel_set_gm_checker gets the runtime's checker (openatc/gm_check.h).
#include "binary.h"

#include <dlfcn.h>
#include <elf.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xxhash.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <unordered_set>
#include <vector>

#include "openatc/block_sync.h"
#include "openatc/common/openmp_policy.h"
#include "openatc/gm_check.h"
#include "openatc/host_kernel.h"
#include "openatc/rt/error_state.h"
#include "openatc/rt/runtime.h"

extern "C" const openatc_gm_checker *openatc_rt_gm_checker(void);  // gm_checker.cc
extern "C" const openatc_block_sync *openatc_rt_block_sync(void);   // coop_launch.cc

namespace openatc {
namespace rt {

struct Function {
  struct Binary *binary = nullptr;
  std::string name;
  KernelEntry entry = nullptr;
  bool has_args_size = false;
  size_t args_size = 0;
  const size_t *params = nullptr;
  size_t param_count = 0;
};

struct Binary {
  uint64_t hash = 0;
  size_t size = 0;
  std::string label;  // "binary '<path>'" or "in-memory binary (N bytes, xxh3 ...)"
  void *dl = nullptr;
  int memfd = -1;
  int refs = 0;
  BlockSetter set_block = nullptr;
  bool cooperative = false;  // calls SyncAll: launches run as fibers (openatc/block_sync.h)
  std::map<std::string, std::unique_ptr<Function>> functions;
};

namespace {

#if defined(__x86_64__)
constexpr uint16_t kMachine = EM_X86_64;
constexpr char kMachineName[] = "x86-64";
#elif defined(__aarch64__)
constexpr uint16_t kMachine = EM_AARCH64;
constexpr char kMachineName[] = "aarch64";
#else
#error "the host runtime supports x86-64 and aarch64"
#endif

std::string MachineName(uint16_t m) {
  switch (m) {
    case EM_X86_64: return "x86-64";
    case EM_AARCH64: return "aarch64";
    case EM_386: return "i386";
    case EM_ARM: return "arm";
    case EM_RISCV: return "riscv";
    default: return "machine " + std::to_string(m);
  }
}

std::string Hex64(uint64_t v) {
  std::ostringstream o;
  o << std::hex << std::setw(16) << std::setfill('0') << v;
  return o.str();
}

std::string FirstBytes(const unsigned char *p, size_t n) {
  std::ostringstream o;
  for (size_t i = 0; i < n && i < 8; ++i) o << (i ? " " : "") << std::hex << std::setw(2) << std::setfill('0') << int(p[i]);
  return o.str();
}

/** Checks the ELF header: 64-bit little-endian shared object for this machine. */
void CheckElf(const std::string &label, const unsigned char *p, size_t n) {
  const char *hint = "Pass the bytes produced by aclrtcGetBinData (a host kernel shared object built with openatc/host_kernel.h)";
  if (n < sizeof(Elf64_Ehdr) || std::memcmp(p, ELFMAG, SELFMAG) != 0) {
    ThrowAcl(ACL_ERROR_INVALID_FILE,
             label + " is not an ELF file (" + std::to_string(n) + " bytes, starting with " +
                 (n == 0 ? std::string("nothing") : FirstBytes(p, n)) + ")",
             hint);
  }
  Elf64_Ehdr h;
  std::memcpy(&h, p, sizeof h);
  if (h.e_ident[EI_CLASS] != ELFCLASS64 || h.e_ident[EI_DATA] != ELFDATA2LSB) {
    ThrowAcl(ACL_ERROR_INVALID_FILE, label + " is not a 64-bit little-endian ELF file", hint);
  }
  if (h.e_type != ET_DYN) {
    std::string type = h.e_type == ET_REL ? "a relocatable object" : h.e_type == ET_EXEC ? "an executable"
                                                                                           : "ELF type " + std::to_string(h.e_type);
    ThrowAcl(ACL_ERROR_INVALID_FILE, label + " is " + type + ", not a shared object", hint);
  }
  if (h.e_machine != kMachine) {
    ThrowAcl(ACL_ERROR_INVALID_FILE,
             label + " is built for " + MachineName(h.e_machine) + ", but this host is " + kMachineName,
             "Compile the kernel for this machine (the host RTC does so)");
  }
}

class Registry {
 public:
  Binary *Load(const unsigned char *data, size_t size, std::string label) {
    uint64_t hash = XXH3_64bits(data, size);
    std::lock_guard<std::mutex> lock(mutex_);
    auto key = std::make_pair(hash, size);
    auto found = by_content_.find(key);
    if (found != by_content_.end()) {
      ++found->second->refs;
      return found->second;
    }
    if (label.empty()) label = "in-memory binary (" + std::to_string(size) + " bytes, xxh3 " + Hex64(hash) + ")";
    CheckElf(label, data, size);
    auto bin = std::make_unique<Binary>();
    bin->hash = hash;
    bin->size = size;
    bin->label = label;
    Open(*bin, data, size);
    bin->refs = 1;
    Binary *raw = bin.release();
    by_content_[key] = raw;
    live_.insert(raw);
    return raw;
  }

  Function *GetFunction(aclrtBinHandle handle, const char *name) {
    std::lock_guard<std::mutex> lock(mutex_);
    Binary *bin = CheckBinary(handle);
    if (name == nullptr) ThrowAcl(ACL_ERROR_INVALID_PARAM, "kernelName is a null pointer");
    auto it = bin->functions.find(name);
    if (it != bin->functions.end()) return it->second.get();
    // An Ascend C kernel's generated entry first (device/rtc/src/source_prep.h), then the host
    // kernel ABI's `NAME(const void *, size_t)` (openatc/host_kernel.h).
    const std::string ascend_entry = std::string("openatc_ascendc_entry_") + name;
    dlerror();
    void *sym = dlsym(bin->dl, ascend_entry.c_str());
    std::string size_symbol = std::string("openatc_ascendc_args_size_") + name;
    const bool ascend = sym != nullptr;
    if (!ascend) {
      sym = dlsym(bin->dl, name);
      size_symbol = std::string("openatc_host_kernel_args_size_") + name;
    }
    if (sym == nullptr) {
      ThrowAcl(ACL_ERROR_KERNEL_NOT_FOUND,
               "kernel '" + std::string(name) + "' is not exported by " + bin->label + " (neither the Ascend C entry " +
                   ascend_entry + " nor the host kernel entry " + name + ")",
               "Check the kernel name passed to aclrtBinaryGetFunction against the __global__ function (Ascend C) or "
               "the OPENATC_HOST_KERNEL name; a template kernel is found by its lowered name (aclrtcGetLoweredName)");
    }
    auto fn = std::make_unique<Function>();
    fn->binary = bin;
    fn->name = name;
    fn->entry = reinterpret_cast<KernelEntry>(sym);
    if (void *s = dlsym(bin->dl, size_symbol.c_str())) {
      fn->has_args_size = true;
      fn->args_size = reinterpret_cast<size_t (*)()>(s)();
    }
    if (void *p = ascend ? dlsym(bin->dl, (std::string("openatc_ascendc_params_") + name).c_str()) : nullptr) {
      fn->params = reinterpret_cast<const size_t *(*)(size_t *)>(p)(&fn->param_count);
    }
    Function *raw = fn.get();
    bin->functions[name] = std::move(fn);
    functions_.insert(raw);
    return raw;
  }

  void Unload(aclrtBinHandle handle) {
    std::lock_guard<std::mutex> lock(mutex_);
    Binary *bin = CheckBinary(handle);
    if (--bin->refs > 0) return;
    for (auto &f : bin->functions) functions_.erase(f.second.get());
    live_.erase(bin);
    by_content_.erase(std::make_pair(bin->hash, bin->size));
    Close(*bin);
    delete bin;
  }

  FunctionView View(aclrtFuncHandle handle) {
    std::lock_guard<std::mutex> lock(mutex_);
    Function *f = CheckFunction(handle);
    FunctionView v;
    v.entry = f->entry;
    v.set_block = f->binary->set_block;
    v.cooperative = f->binary->cooperative;
    v.name = f->name;
    v.has_args_size = f->has_args_size;
    v.args_size = f->args_size;
    v.params = f->params;
    v.param_count = f->param_count;
    return v;
  }

  std::string Name(aclrtFuncHandle handle) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto *f = static_cast<Function *>(handle);
    return functions_.count(f) ? f->name : std::string();
  }

  aclrtBinHandle BinaryOf(aclrtFuncHandle handle) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto *f = static_cast<Function *>(handle);
    return functions_.count(f) ? f->binary : nullptr;
  }

  std::vector<uint8_t> Bytes(aclrtBinHandle handle) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto *b = static_cast<Binary *>(handle);
    std::vector<uint8_t> out;
    if (live_.count(b) == 0) return out;
    out.resize(b->size);
    size_t done = 0;
    while (done < b->size) {
      ssize_t r = pread(b->memfd, out.data() + done, b->size - done, static_cast<off_t>(done));
      if (r <= 0) {
        if (r < 0 && errno == EINTR) continue;
        out.clear();
        break;
      }
      done += static_cast<size_t>(r);
    }
    return out;
  }

 private:
  Binary *CheckBinary(aclrtBinHandle handle) {
    auto *b = static_cast<Binary *>(handle);
    if (b == nullptr || live_.count(b) == 0) {
      ThrowAcl(ACL_ERROR_INVALID_PARAM, "binHandle is not a loaded binary (null, never loaded, or already unloaded)",
               "Pass a handle from aclrtBinaryLoadFromData/FromFile");
    }
    return b;
  }

  Function *CheckFunction(aclrtFuncHandle handle) {
    auto *f = static_cast<Function *>(handle);
    if (f == nullptr || functions_.count(f) == 0) {
      ThrowAcl(ACL_ERROR_INVALID_PARAM, "funcHandle is not a kernel of a loaded binary (null, or its binary was unloaded)",
               "Pass a handle from aclrtBinaryGetFunction");
    }
    return f;
  }

  static std::string ProcPath(int fd) { return "/proc/self/fd/" + std::to_string(fd); }

  static void Open(Binary &bin, const unsigned char *data, size_t size) {
    int fd = memfd_create("openatc-kernel", MFD_CLOEXEC);
    if (fd < 0) ThrowAcl(ACL_ERROR_RT_FAILURE, std::string("memfd_create failed: ") + std::strerror(errno));
    size_t done = 0;
    while (done < size) {
      ssize_t w = write(fd, data + done, size - done);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        int err = errno;
        close(fd);
        ThrowAcl(ACL_ERROR_RT_FAILURE, std::string("writing the kernel binary to a memfd failed: ") + std::strerror(err));
      }
      done += static_cast<size_t>(w);
    }
    openatc::PrepareOpenMpWaitPolicy();  // before the binary can bring in libgomp
    dlerror();
    void *dl = dlopen(ProcPath(fd).c_str(), RTLD_NOW | RTLD_LOCAL);
    if (dl == nullptr) {
      const char *why = dlerror();
      close(fd);
      ThrowAcl(ACL_ERROR_INVALID_FILE, "cannot load " + bin.label + ": " + (why ? why : "dlopen failed"),
               "Make sure every symbol the kernel uses is defined in it or in the C/C++ runtime");
    }
    bin.dl = dl;
    bin.memfd = fd;
    auto fail = [&](const std::string &msg, const std::string &hint) {
      Close(bin);
      ThrowAcl(ACL_ERROR_INVALID_FILE, msg, hint);
    };
    const char *rebuild = "Rebuild the kernel with this SDK's openatc/host_kernel.h";
    auto version_fn = reinterpret_cast<uint32_t (*)()>(dlsym(dl, "openatc_host_kernel_abi_version"));
    if (version_fn == nullptr) {
      fail(bin.label + " does not export openatc_host_kernel_abi_version, so it is not a host kernel binary", rebuild);
    }
    uint32_t version = version_fn();
    if (version != OPENATC_HOST_KERNEL_ABI_VERSION) {
      fail(bin.label + " has host kernel ABI version " + std::to_string(version) + ", but this runtime supports version " +
               std::to_string(OPENATC_HOST_KERNEL_ABI_VERSION),
           rebuild);
    }
    bin.set_block = reinterpret_cast<BlockSetter>(dlsym(dl, "openatc_host_kernel_set_block"));
    if (bin.set_block == nullptr) fail(bin.label + " does not export openatc_host_kernel_set_block", rebuild);
    // Checked global memory (openatc/gm_check.h): kernels built with the Ascend C host library
    // export the setter; others have no checked accesses.
    using GmSetter = void (*)(const openatc_gm_checker *);
    if (auto set_checker = reinterpret_cast<GmSetter>(dlsym(dl, "openatc_host_kernel_set_gm_checker"))) {
      set_checker(openatc_rt_gm_checker());
    }
    // Blocks that synchronise (openatc/block_sync.h): an object that calls SyncAll says so.
    using SyncSetter = void (*)(const openatc_block_sync *);
    if (auto set_sync = reinterpret_cast<SyncSetter>(dlsym(dl, "openatc_host_kernel_set_block_sync"))) {
      set_sync(openatc_rt_block_sync());
    }
    if (auto used = reinterpret_cast<uint32_t (*)()>(dlsym(dl, "openatc_host_kernel_block_sync_used"))) {
      bin.cooperative = used() != 0;
    }
  }

  static void Close(Binary &bin) {
    if (bin.dl != nullptr) dlclose(bin.dl);
    bin.dl = nullptr;
    // If the object stays mapped (another dlopen of it, or NODELETE), keep the fd so the path is
    // not reused for different bytes.
    void *still = dlopen(ProcPath(bin.memfd).c_str(), RTLD_NOW | RTLD_NOLOAD);
    if (still != nullptr) {
      dlclose(still);
      return;
    }
    close(bin.memfd);
    bin.memfd = -1;
  }

  std::mutex mutex_;
  std::map<std::pair<uint64_t, size_t>, Binary *> by_content_;
  std::unordered_set<Binary *> live_;
  std::unordered_set<Function *> functions_;
};

Registry &TheRegistry() {
  static Registry *r = new Registry();  // never destroyed: kernels may run during static teardown
  return *r;
}

const char *MagicName(uint32_t magic) {
  switch (magic) {
    case ACL_RT_BINARY_MAGIC_ELF_AICORE: return "ACL_RT_BINARY_MAGIC_ELF_AICORE";
    case ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE: return "ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE";
    case ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE: return "ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE";
    default: return nullptr;
  }
}

/** Checks the load options: the Ascend magic (any kernel magic of acl_rt.h: host binaries run on
 *  every core type alike), lazy load 0/1 (loading is always immediate on the host), CPU kernel
 *  mode 0. Anything else is refused naming the option. */
void CheckLoadOptions(const aclrtBinaryLoadOptions *options) {
  if (options == nullptr || options->numOpt == 0) return;
  if (options->options == nullptr) {
    ThrowAcl(ACL_ERROR_INVALID_PARAM, "options->numOpt is " + std::to_string(options->numOpt) + " but options->options is null",
             "Pass an array of numOpt aclrtBinaryLoadOption, or numOpt 0");
  }
  for (size_t i = 0; i < options->numOpt; ++i) {
    const aclrtBinaryLoadOption &o = options->options[i];
    const std::string which = "load option " + std::to_string(i);
    // The caller's bytes may hold any value; reading them as the enum type would be undefined for a
    // value outside its range, so read the representation.
    int32_t type = 0;
    static_assert(sizeof(type) == sizeof(o.type), "aclrtBinaryLoadOptionType is 4 bytes");
    std::memcpy(&type, &o.type, sizeof type);
    switch (type) {
      case ACL_RT_BINARY_LOAD_OPT_MAGIC:
        if (MagicName(o.value.magic) == nullptr) {
          ThrowAcl(ACL_ERROR_INVALID_PARAM, which + " (ACL_RT_BINARY_LOAD_OPT_MAGIC) has unknown magic 0x" + Hex64(o.value.magic).substr(8),
                   "Use ACL_RT_BINARY_MAGIC_ELF_AICORE, ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE or ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE");
        }
        break;
      case ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD:
        if (o.value.isLazyLoad > 1) {
          ThrowAcl(ACL_ERROR_INVALID_PARAM,
                   which + " (ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD) is " + std::to_string(o.value.isLazyLoad), "Pass 0 or 1");
        }
        break;
      case ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE:
        if (o.value.cpuKernelMode != 0) {
          ThrowAcl(ACL_ERROR_INVALID_PARAM,
                   which + " (ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE) is " + std::to_string(o.value.cpuKernelMode) +
                       ": AI CPU kernel binaries are not supported by the host runtime",
                   "Load host kernel binaries (aclrtcGetBinData or bisheng's .aicore_binary) with mode 0");
        }
        break;
      default:
        ThrowAcl(ACL_ERROR_INVALID_PARAM, which + " has unknown type " + std::to_string(type),
                 "Use ACL_RT_BINARY_LOAD_OPT_MAGIC, ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD or ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE");
    }
  }
}

std::vector<unsigned char> ReadFile(const char *path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ThrowAcl(ACL_ERROR_INVALID_FILE, "cannot open kernel binary '" + std::string(path) + "': " + std::strerror(errno),
             "Check the path and its permissions");
  }
  in.seekg(0, std::ios::end);
  std::streamoff n = in.tellg();
  if (n < 0) ThrowAcl(ACL_ERROR_INVALID_FILE, "cannot read kernel binary '" + std::string(path) + "'");
  in.seekg(0);
  std::vector<unsigned char> data(static_cast<size_t>(n));
  if (n > 0 && !in.read(reinterpret_cast<char *>(data.data()), n)) {
    ThrowAcl(ACL_ERROR_INVALID_FILE, "cannot read kernel binary '" + std::string(path) + "'");
  }
  return data;
}

}  // namespace

FunctionView ResolveFunction(aclrtFuncHandle func) { return TheRegistry().View(func); }
std::string FunctionName(aclrtFuncHandle func) { return TheRegistry().Name(func); }
aclrtBinHandle FunctionBinary(aclrtFuncHandle func) { return TheRegistry().BinaryOf(func); }
std::vector<uint8_t> BinaryBytes(aclrtBinHandle binary) { return TheRegistry().Bytes(binary); }

}  // namespace rt
}  // namespace openatc

using namespace openatc::rt;

extern "C" {

ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromData(const void *data, size_t length,
                                                     const aclrtBinaryLoadOptions *options, aclrtBinHandle *binHandle) {
  return Guard("aclrtBinaryLoadFromData", [&] {
    if (binHandle == nullptr) ThrowAcl(ACL_ERROR_INVALID_PARAM, "binHandle is a null pointer");
    CheckLoadOptions(options);
    if (data == nullptr || length == 0) {
      ThrowAcl(ACL_ERROR_INVALID_PARAM, data == nullptr ? "data is a null pointer" : "length is 0",
               "Pass the kernel binary's bytes and their count");
    }
    *binHandle = TheRegistry().Load(static_cast<const unsigned char *>(data), length, {});
  });
}

ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromFile(const char *binPath, aclrtBinaryLoadOptions *options,
                                                     aclrtBinHandle *binHandle) {
  return Guard("aclrtBinaryLoadFromFile", [&] {
    if (binHandle == nullptr) ThrowAcl(ACL_ERROR_INVALID_PARAM, "binHandle is a null pointer");
    CheckLoadOptions(options);
    if (binPath == nullptr) ThrowAcl(ACL_ERROR_INVALID_PARAM, "binPath is a null pointer");
    std::vector<unsigned char> bytes = ReadFile(binPath);
    if (bytes.empty()) ThrowAcl(ACL_ERROR_INVALID_FILE, "kernel binary '" + std::string(binPath) + "' is empty");
    *binHandle = TheRegistry().Load(bytes.data(), bytes.size(), "binary '" + std::string(binPath) + "'");
  });
}

ACL_FUNC_VISIBILITY aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char *kernelName,
                                                    aclrtFuncHandle *funcHandle) {
  return Guard("aclrtBinaryGetFunction", [&] {
    if (funcHandle == nullptr) ThrowAcl(ACL_ERROR_INVALID_PARAM, "funcHandle is a null pointer");
    *funcHandle = TheRegistry().GetFunction(binHandle, kernelName);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle) {
  return Guard("aclrtBinaryUnLoad", [&] { TheRegistry().Unload(binHandle); });
}

}  // extern "C"
