// Output, workspace and args allocation for Execute callbacks (eager path). Each allocation is
// registered for the global-memory checks with its requested size (not GE's 512-byte rounding).
#include "exec_services.h"

#include <cstdlib>
#include <cstring>
#include <new>

#include "openatc/common/dtype.h"
#include "openatc/common/log.h"

namespace openatc::runtime {
namespace {
constexpr size_t kAlign = 64;
constexpr size_t kRound = 512;  // GE rounds output and workspace sizes up to 512 bytes
size_t RoundUp(size_t n) { return n == 0 ? kRound : (n + kRound - 1) / kRound * kRound; }
}  // namespace

size_t HostBuffer::Capacity(size_t size) { return (size + kAlign - 1) / kAlign * kAlign + kAlign; }

HostBuffer::HostBuffer(size_t size, Fill fill) : size_(size) {
  data_ = static_cast<uint8_t *>(std::aligned_alloc(kAlign, Capacity(size)));
  if (data_ == nullptr) throw std::bad_alloc();
  if (fill == Fill::kZero) std::memset(data_, 0, size);
}
HostBuffer::HostBuffer(size_t size, size_t checked, std::string label, std::shared_ptr<BufferPool> pool)
    : size_(size), pool_(std::move(pool)) {
  data_ = pool_ ? pool_->Take(Capacity(size)) : static_cast<uint8_t *>(std::aligned_alloc(kAlign, Capacity(size)));
  if (data_ == nullptr) throw std::bad_alloc();
  const size_t head = checked < size ? checked : size;
  std::memset(data_ + head, 0, size - head);
  if (!label.empty()) checked_ = rt::GmRegistration(data_, checked, std::move(label));
}
HostBuffer::~HostBuffer() {
  checked_ = rt::GmRegistration();  // unregister before the memory goes
  if (pool_) pool_->Give(data_, Capacity(size_));
  else std::free(data_);
}

gert::Tensor *ExecServices::MallocOutputTensor(gert_impl::Frame &f, size_t index, const gert::StorageShape &shape,
                                               const gert::StorageFormat &format, ge::DataType dtype) {
  if (index >= f.outputs.size()) {
    LogError("node '" + f.node->name + "': MallocOutputTensor(" + std::to_string(index) + ") is out of range (" +
             std::to_string(f.outputs.size()) + " outputs)");
    return nullptr;
  }
  gert::Tensor *t = f.outputs[index];
  const int64_t count = shape.GetStorageShape().GetShapeSize();
  // openatc::ElementsByteSize: GE's sizes plus the packed sub-byte types (rounded up to whole
  // bytes) and OpenATC's private dtypes (openatc/private_dtype.h).
  const std::optional<uint64_t> nbytes = openatc::ElementsByteSize(dtype, count);
  if (!nbytes.has_value()) {
    LogError("node '" + f.node->name + "': MallocOutputTensor(" + std::to_string(index) +
             ") with an unknown shape or an unsupported dtype");
    return nullptr;
  }
  const size_t bytes = static_cast<size_t>(*nbytes);
  if (outputs_.size() < f.outputs.size()) outputs_.resize(f.outputs.size());
  if (prebound_.size() < f.outputs.size()) prebound_.resize(f.outputs.size(), false);
  if (t->GetAddr() != nullptr) {
    // Planned (or caller-bound) memory, as GE returns it: shape, format and dtype are overwritten.
    // Unlike GE we refuse a request larger than the plan instead of overrunning it.
    if (bytes > t->GetSize()) {
      LogError("node '" + f.node->name + "': MallocOutputTensor(" + std::to_string(index) + ") asks for " +
               std::to_string(bytes) + " bytes but the memory plan holds " + std::to_string(t->GetSize()));
      return nullptr;
    }
    t->GetShape() = shape;
    t->MutableFormat() = format;
    t->SetDataType(dtype);
    t->SetSize(bytes);
    prebound_[index] = true;
    return t;
  }
  if (ref_inputs_.size() < f.outputs.size()) ref_inputs_.resize(f.outputs.size(), -1);
  std::shared_ptr<HostBuffer> buf;
  try {
    // Unchecked (a node that launches no kernel): no label, so the buffer is not registered; the
    // first consumer that launches one registers what it reads.
    std::pair<size_t, std::string> made, *label = &made;
    if (checked_) {
      if (label_cache_ != nullptr) {
        if (label_cache_->size() <= index) label_cache_->resize(index + 1);
        label = &(*label_cache_)[index];
      }
      if (label->second.empty() || label->first != bytes) {
        label->first = bytes;
        label->second = "output " + std::to_string(index) + " of node '" + f.node->name + "' (" +
                        std::to_string(bytes) + " bytes, allocated at run time)";
      }
    }
    buf = std::make_shared<HostBuffer>(RoundUp(bytes), bytes, label->second, pool_);
  } catch (const std::bad_alloc &) {
    LogError("node '" + f.node->name + "': cannot allocate " + std::to_string(bytes) + " bytes for output " +
             std::to_string(index));
    return nullptr;
  }
  t->GetShape() = shape;
  t->MutableFormat() = format;
  t->SetDataType(dtype);
  t->MutableTensorData() = gert::TensorData(buf->data(), nullptr, bytes, gert::kOnDeviceHbm);
  outputs_[index] = std::move(buf);
  ref_inputs_[index] = -1;
  return t;
}

gert::Tensor *ExecServices::MakeOutputRefInput(gert_impl::Frame &f, size_t output_index, size_t input_index) {
  if (output_index >= f.outputs.size() || input_index >= f.inputs.size() || f.inputs[input_index] == nullptr)
    return nullptr;
  gert::Tensor *out = f.outputs[output_index];
  const gert::Tensor *in = f.inputs[input_index];
  out->GetShape() = in->GetShape();
  out->MutableFormat() = in->GetFormat();
  out->SetDataType(in->GetDataType());
  out->MutableTensorData() = gert::TensorData(const_cast<void *>(in->GetAddr()), nullptr, in->GetSize(),
                                              in->GetPlacement());
  if (ref_inputs_.size() < f.outputs.size()) ref_inputs_.resize(f.outputs.size(), -1);
  if (outputs_.size() < f.outputs.size()) outputs_.resize(f.outputs.size());
  ref_inputs_[output_index] = static_cast<int64_t>(input_index);
  outputs_[output_index].reset();
  return out;
}

void *ExecServices::MallocWorkSpace(gert_impl::Frame &f, size_t size) { return Scratch(f, size, "workspace"); }

// Memory living until the node has finished, checked as "<what> of node 'n' (N bytes)".
void *ExecServices::Scratch(gert_impl::Frame &f, size_t size, const std::string &what) {
  try {
    scratch_.push_back(std::make_unique<HostBuffer>(
        RoundUp(size), size, what + " of node '" + f.node->name + "' (" + std::to_string(size) + " bytes)"));
  } catch (const std::bad_alloc &) {
    LogError("node '" + f.node->name + "': cannot allocate a " + what + " of " + std::to_string(size) + " bytes");
    return nullptr;
  }
  return scratch_.back()->data();
}

const gert::KernelArgs *ExecServices::MallocReadOnlyDevArgs(gert_impl::Frame &f, void *host_args, size_t size) {
  if (host_args == nullptr || size == 0) return nullptr;
  void *host = Scratch(f, size, "host args block");
  void *device = Scratch(f, size, "args block");
  if (host == nullptr || device == nullptr) return nullptr;
  std::memcpy(host, host_args, size);  // the caller may free its copy on return
  std::memcpy(device, host_args, size);
  auto make = [&](void *data, ge::Placement placement) {
    auto args = std::make_unique<gert::KernelArgs>();
    args->args_data = data;
    args->args_size = size;
    args->placement = placement;
    return args;
  };
  host_args_.push_back(make(host, ge::kPlacementHost));
  device_args_.push_back(make(device, ge::kPlacementDevice));
  return device_args_.back().get();
}

const gert::KernelArgs *ExecServices::GetKernelArgs(gert_impl::Frame &, ge::Placement placement, size_t index) {
  auto &list = placement == ge::kPlacementHost ? host_args_ : device_args_;
  return index < list.size() ? list[index].get() : nullptr;
}

void ExecServices::SyncArgsToDevice() {
  for (size_t i = 0; i < host_args_.size(); ++i)
    std::memcpy(device_args_[i]->args_data, host_args_[i]->args_data, host_args_[i]->args_size);
}

}  // namespace openatc::runtime
