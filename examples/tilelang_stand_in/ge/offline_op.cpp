// Flow C (offline): AddCustomOffline, a CompilableOp + PortableOp. Compile (run by atc) spawns the
// producer beside this library once per input size, keeps the .so bytes and loads them from a
// memfd; Serialize writes every kept kernel into the OM and Deserialize (at model load, with no
// OPP path and no Python) loads them back from memory. The buffer uses the layout of GE's
// TileLang offline sample, every integer a little-endian u32:
//   magic 0x4F504B4E, version 1, count, then per kernel in key order: key_len, key (N in decimal),
//   so_size, the .so bytes.
#include <cstdlib>
#include <iostream>
#include <map>
#include <mutex>

#include "add_custom.h"
#include "kernel_so.h"

namespace {
constexpr uint32_t kMagic = 0x4F504B4Eu;
constexpr uint32_t kVersion = 1;
constexpr uint32_t kMaxCount = 64;
constexpr uint32_t kMaxKey = 256;
constexpr uint32_t kMaxSo = 100u << 20;

struct Kernel {
  std::vector<uint8_t> so;
  void *handle = nullptr;
  KernelCall call = nullptr;
};
using Kernels = std::map<std::string, Kernel>;

void PutU32(std::vector<uint8_t> &b, uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

/** Reads a u32 at `at` (advanced); false past the end. */
bool GetU32(const std::vector<uint8_t> &b, size_t &at, uint32_t &v) {
  if (b.size() < 4 || at > b.size() - 4) return false;
  v = 0;
  for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(b[at + i]) << (8 * i);
  at += 4;
  return true;
}

bool GetBytes(const std::vector<uint8_t> &b, size_t &at, uint32_t n, std::vector<uint8_t> &out) {
  if (at > b.size() || n > b.size() - at) return false;
  out.assign(b.begin() + static_cast<std::ptrdiff_t>(at), b.begin() + static_cast<std::ptrdiff_t>(at + n));
  at += n;
  return true;
}

void Release(Kernels &k) {
  for (auto &e : k) dlclose(e.second.handle);
  k.clear();
}

/** One entry of the buffer, read, checked and loaded into `into`; false (with a message) otherwise. */
bool ReadEntry(const std::vector<uint8_t> &b, size_t &at, Kernels &into) {
  uint32_t key_len = 0, so_len = 0;
  std::vector<uint8_t> key, so;
  if (!GetU32(b, at, key_len) || key_len == 0 || key_len > kMaxKey || !GetBytes(b, at, key_len, key) ||
      !GetU32(b, at, so_len) || so_len == 0 || so_len > kMaxSo || !GetBytes(b, at, so_len, so)) {
    std::cerr << "Deserialize: truncated or out-of-range entry" << std::endl;
    return false;
  }
  const std::string k(key.begin(), key.end());
  if (into.count(k) != 0) {
    std::cerr << "Deserialize: duplicate key=" << k << std::endl;
    return false;
  }
  Kernel entry;
  std::string error;
  entry.call = OpenKernelFromBytes(so, entry.handle, error);
  if (entry.call == nullptr) {
    std::cerr << "Deserialize: " << error << std::endl;
    return false;
  }
  entry.so = std::move(so);
  std::cout << "Deserialized kernel, key=" << k << ", so_size=" << entry.so.size() << std::endl;
  into[k] = std::move(entry);
  return true;
}

/** Runs the producer for `key` elements into a temporary file and returns its bytes. */
bool Produce(const std::string &key, std::vector<uint8_t> &so) {
  char tmp[] = "/tmp/tilelang_offline_XXXXXX.so";
  const int fd = mkstemps(tmp, 3);
  if (fd < 0) return false;
  close(fd);
  std::cout << "Compiling TileLang kernel (stand-in producer, host bisheng)" << std::endl;
  std::string output;
  const int rc = RunProducer("python3 " + OwnLibraryDir() + "/add_custom_kernel.py " + key + " " + tmp, output);
  const bool ok = rc == 0 && ReadBytes(tmp, so) && !so.empty();
  unlink(tmp);
  if (rc != 0) std::cerr << "TileLang compilation failed (exit=" << rc << "):" << std::endl << output << std::endl;
  else std::cout << output;
  return ok;
}
}  // namespace

class AddCustomOffline : public ge::CompilableOp,
                         public ge::PortableOp,
                         public ge::EagerExecuteOp,
                         public ge::ShapeInferOp {
 public:
  ~AddCustomOffline() override { Release(kernels_); }

  ge::graphStatus Compile(gert::OpCompileContext *ctx) override {
    const gert::Tensor *x = ctx == nullptr ? nullptr : ctx->GetInputTensor(0);
    if (x == nullptr) return ge::GRAPH_FAILED;
    const std::string key = std::to_string(x->GetShapeSize());
    std::lock_guard<std::mutex> lock(mutex_);
    if (kernels_.count(key) != 0) {
      std::cout << "TileLang kernel already compiled for key=" << key << std::endl;
      return ge::GRAPH_SUCCESS;
    }
    Kernel k;
    std::string error;
    if (!Produce(key, k.so)) return ge::GRAPH_FAILED;
    k.call = OpenKernelFromBytes(k.so, k.handle, error);
    if (k.call == nullptr) {
      std::cerr << "AddCustomOffline: " << error << std::endl;
      return ge::GRAPH_FAILED;
    }
    std::cout << "TileLang kernel compiled and loaded, key=" << key << ", so_size=" << k.so.size() << std::endl;
    kernels_[key] = std::move(k);
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus Serialize(std::vector<uint8_t> &buffer) override {
    std::lock_guard<std::mutex> lock(mutex_);
    PutU32(buffer, kMagic);
    PutU32(buffer, kVersion);
    PutU32(buffer, static_cast<uint32_t>(kernels_.size()));
    for (const auto &e : kernels_) {
      PutU32(buffer, static_cast<uint32_t>(e.first.size()));
      buffer.insert(buffer.end(), e.first.begin(), e.first.end());
      PutU32(buffer, static_cast<uint32_t>(e.second.so.size()));
      buffer.insert(buffer.end(), e.second.so.begin(), e.second.so.end());
    }
    std::cout << "Serialized " << kernels_.size() << " kernel(s), total buffer size=" << buffer.size() << std::endl;
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus Deserialize(const std::vector<uint8_t> &buffer) override {
    size_t at = 0;
    uint32_t magic = 0, version = 0, count = 0;
    if (!GetU32(buffer, at, magic) || magic != kMagic) {
      std::cerr << "Deserialize: invalid magic" << std::endl;
      return ge::GRAPH_FAILED;
    }
    if (!GetU32(buffer, at, version) || version != kVersion || !GetU32(buffer, at, count) || count == 0 ||
        count > kMaxCount) {
      std::cerr << "Deserialize: unsupported version or kernel count" << std::endl;
      return ge::GRAPH_FAILED;
    }
    Kernels loaded;
    for (uint32_t i = 0; i < count; ++i) {
      if (!ReadEntry(buffer, at, loaded)) {
        Release(loaded);
        return ge::GRAPH_FAILED;
      }
    }
    if (at != buffer.size()) {
      std::cerr << "Deserialize: " << buffer.size() - at << " trailing byte(s)" << std::endl;
      Release(loaded);
      return ge::GRAPH_FAILED;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    Release(kernels_);
    kernels_ = std::move(loaded);
    std::cout << "Deserialized " << kernels_.size() << " kernel(s)" << std::endl;
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return ge::GRAPH_FAILED;
    const std::string key = std::to_string(x->GetShapeSize());
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = kernels_.find(key);
    if (it == kernels_.end()) {
      std::cerr << "Execute: kernel not found for key=" << key << std::endl;
      return ge::GRAPH_FAILED;
    }
    return LaunchAdd(ctx, it->second.call);
  }

  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override { return InferLikeX(ctx); }
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return InferTypeLikeX(ctx); }

 private:
  std::mutex mutex_;
  Kernels kernels_;
};

REG_AUTO_MAPPING_OP(AddCustomOffline);
