// Parsing and launching AnnotatedArgsOp launch records.
#include "annotated.h"

#include <cstring>

#include "graph/utils/args_format_desc_utils.h"
#include "openatc/common/error.h"

namespace openatc::runtime {
namespace {
class Reader {
 public:
  Reader(const std::string &b, const ir::Node &n, const std::string &path) : b_(b), node_(n), path_(path) {}
  template <typename T>
  T Get() {
    Need(sizeof(T));
    T v;
    std::memcpy(&v, b_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return v;
  }
  std::string Bytes(uint64_t n) {
    Need(n);
    std::string s = b_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  bool done() const { return pos_ == b_.size(); }
  [[noreturn]] void Bad(const std::string &what) const {
    throw Error(ErrorCategory::kCorruptOm, "OA2108", "the annotated launch record is malformed: " + what,
                "Rebuild the OM with atc")
        .WithFile(path_)
        .WithNode(node_.name, node_.type);
  }

 private:
  void Need(uint64_t n) const {
    if (n > b_.size() - pos_) Bad("truncated at byte " + std::to_string(pos_));
  }
  const std::string &b_;
  const ir::Node &node_;
  const std::string &path_;
  size_t pos_ = 0;
};
}  // namespace

std::unique_ptr<AnnotatedNode> LoadAnnotated(const ir::Node &node, const std::string &path) {
  auto it = node.attrs.find("_annotated_launches");
  if (it == node.attrs.end() || it->second.kind != ir::AttrKind::kBytes) return nullptr;
  auto a = std::make_unique<AnnotatedNode>();
  Reader r(it->second.s, node, path);
  if (r.Get<uint32_t>() != 1) r.Bad("unknown version");
  const uint32_t count = r.Get<uint32_t>();
  for (uint32_t i = 0; i < count; ++i) {
    AnnotatedLaunch l;
    l.kernel_name = r.Bytes(r.Get<uint32_t>());
    const std::string bin = r.Bytes(r.Get<uint64_t>());
    l.block_dim = r.Get<uint32_t>();
    const uint32_t nslots = r.Get<uint32_t>();
    for (uint32_t k = 0; k < nslots; ++k) {
      AnnotatedLaunch::Slot s;
      s.type = r.Get<uint32_t>();
      s.index = r.Get<int32_t>();
      s.value = r.Get<uint64_t>();
      l.slots.push_back(s);
    }
    aclrtBinHandle handle = nullptr;
    if (aclrtBinaryLoadFromData(bin.data(), bin.size(), nullptr, &handle) != ACL_SUCCESS ||
        aclrtBinaryGetFunction(handle, l.kernel_name.c_str(), &l.func) != ACL_SUCCESS) {
      throw Error(ErrorCategory::kCorruptOm, "OA2109",
                  "the declared kernel '" + l.kernel_name + "' does not load: " + aclGetRecentErrMsg(),
                  "Rebuild the OM with atc")
          .WithFile(path)
          .WithNode(node.name, node.type);
    }
    a->launches.push_back(std::move(l));
  }
  if (!r.done()) r.Bad("trailing bytes");
  auto ws = node.attrs.find("_annotated_workspaces");
  if (ws != node.attrs.end() && ws->second.kind == ir::AttrKind::kListInt) {
    for (int64_t size : ws->second.list_i) {
      if (size <= 0 || size > (int64_t{1} << 40)) r.Bad("workspace size " + std::to_string(size));
      a->workspaces.push_back(std::make_unique<HostBuffer>(static_cast<size_t>(size)));
    }
  }
  return a;
}

void LaunchAnnotated(const AnnotatedNode &a, const gert_impl::Frame &frame, void *stream) {
  for (const auto &l : a.launches) {
    std::vector<uint64_t> slots;
    for (const auto &s : l.slots) {
      const void *addr = nullptr;
      switch (static_cast<ge::AddrType>(s.type)) {
        case ge::AddrType::INPUT_INSTANCE:
          if (s.index < 0 || static_cast<size_t>(s.index) >= frame.inputs.size()) throw Error(ErrorCategory::kCorruptOm, "OA2108", "input slot index out of range");
          addr = frame.inputs[static_cast<size_t>(s.index)]->GetAddr();
          break;
        case ge::AddrType::OUTPUT_INSTANCE:
          if (s.index < 0 || static_cast<size_t>(s.index) >= frame.outputs.size()) throw Error(ErrorCategory::kCorruptOm, "OA2108", "output slot index out of range");
          addr = frame.outputs[static_cast<size_t>(s.index)]->GetAddr();
          break;
        case ge::AddrType::WORKSPACE:
          if (s.index < 0 || static_cast<size_t>(s.index) >= a.workspaces.size()) throw Error(ErrorCategory::kCorruptOm, "OA2108", "workspace slot index out of range");
          addr = a.workspaces[static_cast<size_t>(s.index)]->data();
          break;
        case ge::AddrType::CUSTOM_VALUE:
          slots.push_back(s.value);
          continue;
        default:
          throw Error(ErrorCategory::kCorruptOm, "OA2108", "unknown slot type " + std::to_string(s.type));
      }
      slots.push_back(static_cast<uint64_t>(reinterpret_cast<uintptr_t>(addr)));
    }
    if (aclrtLaunchKernelV2(l.func, l.block_dim, slots.data(), slots.size() * 8, nullptr, stream) != ACL_SUCCESS ||
        aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
      throw Error(ErrorCategory::kCustomOp, "OA2205",
                  "launching declared kernel '" + l.kernel_name + "' failed: " + aclGetRecentErrMsg());
    }
  }
}

}  // namespace openatc::runtime
