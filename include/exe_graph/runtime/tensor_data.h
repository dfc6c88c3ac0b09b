/**
 * @file exe_graph/runtime/tensor_data.h
 * gert::TensorData: a tensor's address, byte size and placement, optionally owned through a
 * manager callback (GE metadef `exe_graph/runtime/tensor_data.h`). Move-only; the destructor
 * frees through the manager.
 */
#ifndef OPENATC_EXE_GRAPH_RUNTIME_TENSOR_DATA_H_
#define OPENATC_EXE_GRAPH_RUNTIME_TENSOR_DATA_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "graph/error_codes.h"

namespace gert {
enum TensorPlacement : int32_t {
  kOnDeviceHbm = 0,
  kOnHost = 1,
  kFollowing = 2,
  kOnDeviceP2p = 3,
  kTensorPlacementEnd = 4,
};

struct TensorPlacementUtils {
  static bool IsOnDevice(TensorPlacement p) { return p == kOnDeviceHbm || p == kOnDeviceP2p; }
  static bool IsOnHost(TensorPlacement p) { return p == kOnHost || p == kFollowing; }
  static bool IsOnHostFollowing(TensorPlacement p) { return p == kFollowing; }
  static bool IsOnHostNotFollowing(TensorPlacement p) { return p == kOnHost; }
  static bool IsOnDeviceHbm(TensorPlacement p) { return p == kOnDeviceHbm; }
  static bool IsOnDeviceP2p(TensorPlacement p) { return p == kOnDeviceP2p; }
};

enum TensorOperateType : int32_t { kGetTensorAddress = 0, kFreeTensor, kPlusShareCount, kTensorOperateType };

class TensorData {
 public:
  using TensorAddress = void *;
  using ConstTensorAddressPtr = const void *;
  using TensorAddrManager = ge::graphStatus (*)(TensorAddress addr, TensorOperateType operate_type, void **out);

  explicit TensorData(TensorAddress addr = nullptr, const TensorAddrManager manager = nullptr)
      : addr_(addr), manager_(manager), size_(0U), placement_(kTensorPlacementEnd), reserved_0_(0U) {
    std::memset(reserved_1_, 0, sizeof(reserved_1_));
  }
  TensorData(TensorAddress addr, const TensorAddrManager manager, size_t size, TensorPlacement placement)
      : addr_(addr), manager_(manager), size_(size), placement_(placement), reserved_0_(0U) {
    std::memset(reserved_1_, 0, sizeof(reserved_1_));
  }
  TensorData(const TensorData &) = delete;
  TensorData &operator=(const TensorData &) = delete;
  TensorData(TensorData &&other) noexcept
      : addr_(other.addr_), manager_(other.manager_), size_(other.size_), placement_(other.placement_),
        reserved_0_(0U) {
    std::memset(reserved_1_, 0, sizeof(reserved_1_));
    other.addr_ = nullptr;
    other.manager_ = nullptr;
    other.size_ = 0U;
  }
  TensorData &operator=(TensorData &&other) noexcept {
    if (this != &other) {
      (void)Free();
      addr_ = other.addr_;
      manager_ = other.manager_;
      size_ = other.size_;
      placement_ = other.placement_;
      other.addr_ = nullptr;
      other.manager_ = nullptr;
      other.size_ = 0U;
    }
    return *this;
  }
  ~TensorData() { (void)Free(); }

  /// The address; asks the manager (kGetTensorAddress) when one is set.
  TensorAddress GetAddr() const {
    if (manager_ == nullptr || addr_ == nullptr) return addr_;
    void *out = nullptr;
    if (manager_(addr_, kGetTensorAddress, &out) != ge::GRAPH_SUCCESS) return nullptr;
    return out;
  }
  size_t GetSize() const { return size_; }
  void SetSize(const size_t size) { size_ = size; }
  TensorPlacement GetPlacement() const { return placement_; }
  void SetPlacement(const TensorPlacement placement) { placement_ = placement; }
  /// Releases the data through the manager (kFreeTensor); a no-op without one.
  ge::graphStatus Free() {
    if (manager_ == nullptr) return ge::GRAPH_SUCCESS;
    const ge::graphStatus ret = manager_(addr_, kFreeTensor, nullptr);
    if (ret == ge::GRAPH_SUCCESS) {
      addr_ = nullptr;
      manager_ = nullptr;
    }
    return ret;
  }
  ge::graphStatus SetAddr(const ConstTensorAddressPtr addr, TensorAddrManager manager) {
    const ge::graphStatus ret = Free();
    if (ret != ge::GRAPH_SUCCESS) return ret;
    addr_ = const_cast<TensorAddress>(addr);
    manager_ = manager;
    return ge::GRAPH_SUCCESS;
  }
  bool IsSharedWith(const TensorData &other) const { return addr_ == other.addr_ && manager_ == other.manager_; }
  /// Shares `other`'s data (the manager counts the share with kPlusShareCount).
  ge::graphStatus ShareFrom(const TensorData &other) {
    ge::graphStatus ret = Free();
    if (ret != ge::GRAPH_SUCCESS) return ret;
    if (other.manager_ != nullptr) {
      ret = other.manager_(other.addr_, kPlusShareCount, nullptr);
      if (ret != ge::GRAPH_SUCCESS) return ret;
    }
    addr_ = other.addr_;
    manager_ = other.manager_;
    size_ = other.size_;
    placement_ = other.placement_;
    return ge::GRAPH_SUCCESS;
  }
  /// Gives up ownership: returns the address and hands the manager to the caller.
  TensorAddress Release(TensorAddrManager &manager) {
    TensorAddress addr = addr_;
    manager = manager_;
    addr_ = nullptr;
    manager_ = nullptr;
    return addr;
  }

 private:
  TensorAddress addr_;
  TensorAddrManager manager_;
  size_t size_;
  TensorPlacement placement_;
  uint32_t reserved_0_ __attribute__((unused));  // layout padding kept for ABI size
  uint8_t reserved_1_[40];
};
}  // namespace gert

#endif  // OPENATC_EXE_GRAPH_RUNTIME_TENSOR_DATA_H_
