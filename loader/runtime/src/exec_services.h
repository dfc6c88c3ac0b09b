// ExecServices: what EagerOpExecutionContext delegates to during a run (internal to the runtime).
#ifndef OPENATC_RUNTIME_EXEC_SERVICES_H_
#define OPENATC_RUNTIME_EXEC_SERVICES_H_

#include <memory>
#include <utility>
#include <vector>

#include <string>

#include "buffer_pool.h"
#include "openatc/gert/frame.h"
#include "openatc/rt/gm_registry.h"

namespace openatc::runtime {

/// A 64-byte-aligned host allocation (the host target's "device" memory), zero-filled unless
/// its writer fills it. With a label (not empty), its first `checked` bytes are registered for the
/// global-memory checks while it lives (openatc/rt/gm_registry.h); those bytes are left as
/// allocated, as a device's memory is (run-time outputs and workspaces, which the node writes:
/// zeroing them cost a third of ppocr-mobile-v2-cls's per-run instructions), the rest is zeroed.
class HostBuffer {
 public:
  enum class Fill { kZero, kNone };  ///< kNone: the caller writes every byte before reading any
  explicit HostBuffer(size_t size, Fill fill = Fill::kZero);
  /// With `pool` (not null), the memory is taken from and given back to it (buffer_pool.h).
  HostBuffer(size_t size, size_t checked, std::string label, std::shared_ptr<BufferPool> pool = nullptr);
  ~HostBuffer();
  HostBuffer(const HostBuffer &) = delete;
  HostBuffer &operator=(const HostBuffer &) = delete;
  uint8_t *data() const { return data_; }
  size_t size() const { return size_; }

 private:
  static size_t Capacity(size_t size);  ///< bytes allocated for `size`

  uint8_t *data_ = nullptr;
  size_t size_ = 0;
  std::shared_ptr<BufferPool> pool_;
  rt::GmRegistration checked_;
};

/// Per-node services. Output memory is allocated here and handed to the run (`TakeOutputs`);
/// workspaces and args blocks live until the node has finished.
class ExecServices : public gert_impl::Services {
 public:
  /// `pool`: where MallocOutputTensor takes output memory from (the model's; null: malloc).
  /// `checked` false: the node launches no kernels, so the outputs it allocates are not
  /// registered for the global-memory checks (a consumer that launches registers what it reads).
  explicit ExecServices(void *stream, std::shared_ptr<BufferPool> pool = nullptr, bool checked = true)
      : stream_(stream), checked_(checked), pool_(std::move(pool)) {}
  void *Stream(gert_impl::Frame &) override { return stream_; }
  gert::Tensor *MallocOutputTensor(gert_impl::Frame &f, size_t index, const gert::StorageShape &shape,
                                   const gert::StorageFormat &format, ge::DataType dtype) override;
  gert::Tensor *MakeOutputRefInput(gert_impl::Frame &f, size_t output_index, size_t input_index) override;
  void *MallocWorkSpace(gert_impl::Frame &f, size_t size) override;
  const gert::KernelArgs *MallocReadOnlyDevArgs(gert_impl::Frame &f, void *host_args, size_t size) override;
  /// kPlacementHost: the host copy UpdateHostArgs patches; kPlacementDevice: the copy kernels read.
  const gert::KernelArgs *GetKernelArgs(gert_impl::Frame &f, ge::Placement placement, size_t index) override;
  /// Copies every host args block to its device copy (after UpdateHostArgs), as GE re-syncs them.
  void SyncArgsToDevice();
  size_t args_blocks() const { return device_args_.size(); }

  /// Buffers allocated for output i (nullptr when the output aliases an input or was not allocated).
  std::vector<std::shared_ptr<HostBuffer>> &output_buffers() { return outputs_; }
  /// Output i aliases input j: ref_inputs()[i] = j, else -1.
  std::vector<int64_t> &ref_inputs() { return ref_inputs_; }
  /// Where MallocOutputTensor keeps the labels of the outputs it allocated (by output index:
  /// bytes, label), so that a later run of the node allocating the same sizes builds none.
  void set_label_cache(std::vector<std::pair<size_t, std::string>> *cache) { label_cache_ = cache; }
  /// Output i was handed its pre-bound memory (the memory plan or a caller's output buffer).
  bool used_prebound(size_t i) const { return i < prebound_.size() && prebound_[i]; }
  /// Forgets the node's run (its outputs, workspaces and args blocks; the run holds what it
  /// took), keeping the vectors' capacity: the same services serve the node's next run.
  void Reset() {
    outputs_.clear();
    ref_inputs_.clear();
    prebound_.clear();
    scratch_.clear();
    host_args_.clear();
    device_args_.clear();
  }

 private:
  void *Scratch(gert_impl::Frame &f, size_t size, const std::string &what);

  void *stream_;
  std::vector<std::pair<size_t, std::string>> *label_cache_ = nullptr;
  bool checked_ = true;
  std::shared_ptr<BufferPool> pool_;
  std::vector<std::shared_ptr<HostBuffer>> outputs_;
  std::vector<int64_t> ref_inputs_;
  std::vector<bool> prebound_;
  std::vector<std::unique_ptr<HostBuffer>> scratch_;
  std::vector<std::unique_ptr<gert::KernelArgs>> host_args_, device_args_;
};

}  // namespace openatc::runtime

#endif  // OPENATC_RUNTIME_EXEC_SERVICES_H_
