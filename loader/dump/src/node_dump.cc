// The omrun dump layout (openatc/dump/node_dump.h).
#include "openatc/dump/node_dump.h"

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "openatc/common/atomic_file.h"
#include "openatc/chain_block.h"
#include "openatc/common/dtype.h"
#include "openatc/common/error.h"
#include "openatc/dump/tensor_stats.h"
#include "openatc/tensor_io/tensor_io.h"

namespace openatc::dump {
namespace fs = std::filesystem;
namespace {

[[noreturn]] void DumpError(const NodeDumpOptions &o, const std::string &dir, const std::string &why) {
  throw Error(ErrorCategory::kIo, "OA2304", "cannot write the " + o.folder_label + " '" + dir + "': " + why,
              o.folder_hint);
}

bool IsEarlierDump(const fs::path &dir) {
  std::ifstream in(dir / "index.json");
  if (!in) return false;
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  return j.is_object() && j.value("format", "") == kDumpFormat;
}

// A file name from a node name: characters outside [A-Za-z0-9._-] become '_'.
std::string SafeName(const std::string &name) {
  std::string s = name.empty() ? std::string("node") : name;
  for (char &c : s) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    if (!ok) c = '_';
  }
  if (s[0] == '.') s[0] = '_';
  return s;
}

// The chain block `t` (an output of `n`) is stored in, or 0 when plain (the dump shows NCHW).
int64_t ChainBlockOf(const ir::Node &n, const HostTensor &t) {
  const int64_t b = ChainLayoutBlock(n);
  return b > 0 && t.shape.size() == 4 && t.shape[1] % b == 0 ? b : 0;
}

void Unblock(HostTensor &t, int64_t b) {
  const int64_t N = t.shape[0], C = t.shape[1], H = t.shape[2], W = t.shape[3];
  if (N * C * H * W == 0) return;
  const size_t e = t.data.size() / static_cast<size_t>(N * C * H * W);
  std::vector<uint8_t> plain(t.data.size());
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t hw = 0; hw < H * W; ++hw) {
        const int64_t from = ((n * (C / b) + c / b) * H * W + hw) * b + c % b;
        const int64_t to = (n * C + c) * H * W + hw;
        std::memcpy(plain.data() + static_cast<size_t>(to) * e, t.data.data() + static_cast<size_t>(from) * e, e);
      }
  t.data.swap(plain);
}

}  // namespace

// The node that produced the k-th connected input of `n` (inputs views leave unconnected ones out).
const ir::Node &NodeDump::Producer(const ir::Node &n, size_t k) const {
  for (const auto &e : n.inputs) {
    if (!e.connected()) continue;
    if (k-- == 0) return model_.graph.nodes[static_cast<size_t>(e.node)];
  }
  return n;
}

int64_t ChainLayoutBlock(const ir::Node &n) {
  auto it = n.attrs.find("_openatc_layout");
  if (it == n.attrs.end() || it->second.s != "blocked") return 0;
  auto w = n.attrs.find(kChainBlockAttr);
  return RunChainBlock(w != n.attrs.end() && w->second.kind == ir::AttrKind::kInt ? w->second.i : 8);
}

std::vector<std::string> FusedNodes(const ir::Node &n) {
  auto it = n.attrs.find("openatc_fused_nodes");
  return it == n.attrs.end() ? std::vector<std::string>{} : it->second.list_s;
}

NodeDump::NodeDump(const om::Model &model, const std::string &model_path, std::string dir, NodeDumpOptions options)
    : model_(model), model_path_(model_path), dir_(std::move(dir)), options_(std::move(options)) {
  std::error_code ec;
  const fs::path target(dir_);
  if (fs::exists(target, ec)) {
    if (!fs::is_directory(target, ec)) DumpError(options_, dir_, "it exists and is not a folder");
    if (!fs::is_empty(target, ec) && !IsEarlierDump(target))
      DumpError(options_, dir_,
                "it holds files that are not an omrun dump (no index.json of format " + std::string(kDumpFormat) + ")");
  }
  fs::path parent = target.parent_path();
  if (parent.empty()) parent = ".";
  staging_ = (parent / ("." + target.filename().string() + ".partial." + std::to_string(::getpid()))).string();
  fs::remove_all(staging_, ec);
  if (!fs::create_directories(staging_, ec) || ec)
    DumpError(options_, dir_, "cannot create '" + staging_ + "': " + ec.message());
}

NodeDump::~NodeDump() {
  std::error_code ec;
  if (!staging_.empty()) fs::remove_all(staging_, ec);  // a run that failed leaves nothing behind
}

// `slot` is "<output>" or "input.<input>".
std::string NodeDump::FileFor(size_t node, const std::string &slot) {
  std::string base = SafeName(model_.graph.nodes[node].name) + "." + slot;
  if (!used_names_.insert(base).second) {  // two names that sanitise alike: the node index decides
    base += "~" + std::to_string(node);
    used_names_.insert(base);
  }
  return base;
}

bool NodeDump::Selected(const ir::Node &n) const {
  if (options_.layers.empty() || options_.layers.count(n.name) != 0) return true;
  for (const std::string &f : FusedNodes(n))
    if (options_.layers.count(f) != 0) return true;
  return false;
}

// The index.json entries of one node's inputs or outputs (`slot` "input" or ""), writing their files.
nlohmann::json NodeDump::Tensors(size_t index, const std::vector<runtime::TensorView> &views, const char *slot) {
  const ir::Node &n = model_.graph.nodes[index];
  nlohmann::json list = nlohmann::json::array();
  for (size_t k = 0; k < views.size(); ++k) {
    const runtime::TensorView &v = views[k];
    nlohmann::json o = {
        {"index", k}, {"dtype", DataTypeShortName(v.dtype)}, {"shape", v.shape}, {"format", FormatName(v.format)}};
    if (v.data == nullptr) {
      o["file"] = nullptr;  // nothing read it, so the op did not write it
      list.push_back(std::move(o));
      continue;
    }
    HostTensor t;
    t.dtype = v.dtype;
    t.shape = v.shape;
    const auto *p = static_cast<const uint8_t *>(v.data);
    t.data.assign(p, p + v.bytes);
    if (const int64_t b = ChainBlockOf(*slot == '\0' ? n : Producer(n, k), t); b > 0) Unblock(t, b);
    if (options_.stats) {
      const auto stats = ComputeStats(t);
      o["stats"] = stats ? StatsJson(*stats) : nlohmann::json(nullptr);  // null: a dtype without numbers
      list.push_back(std::move(o));
      continue;
    }
    const std::string base = FileFor(index, (*slot ? std::string(slot) + "." : std::string()) + std::to_string(k));
    const bool npy = !NumpyDescr(v.dtype).empty() || v.dtype == ge::DT_BF16;
    const std::string file = base + (npy ? ".npy" : ".bin");
    if (npy)
      tensor_io::WriteNpy(staging_ + "/" + file, t);
    else
      tensor_io::WriteBin(staging_ + "/" + file, t);
    o["file"] = file;
    list.push_back(std::move(o));
  }
  return list;
}

void NodeDump::Finished(size_t index, const std::vector<runtime::TensorView> &inputs,
                        const std::vector<runtime::TensorView> &outputs) {
  if (done_ || !error_.empty()) return;
  const ir::Node &n = model_.graph.nodes[index];
  if (!Selected(n)) return;
  nlohmann::json entry = {{"name", n.name}, {"op_type", n.type}};
  try {
    if (options_.inputs) entry["inputs"] = Tensors(index, inputs, "input");
    entry["outputs"] = options_.outputs ? Tensors(index, outputs, "") : nlohmann::json::array();
  } catch (const std::exception &e) {
    error_ = e.what();
    return;
  }
  const std::vector<std::string> fused = FusedNodes(n);
  if (!fused.empty()) entry["fused_nodes"] = fused;
  // What a precision mode made of it (atc/compiler/src/passes/precision.h).
  for (const char *attr : {"openatc_compute_dtype", "openatc_output_dtype"}) {
    auto it = n.attrs.find(attr);
    if (it != n.attrs.end()) entry[std::string(attr).substr(8)] = it->second.s;
  }
  if (n.attrs.count("openatc_precision_cast")) entry["precision_cast"] = true;
  nodes_.push_back(std::move(entry));
}

void NodeDump::Commit() {
  if (done_) return;
  done_ = true;
  if (!error_.empty()) DumpError(options_, dir_, error_);
  nlohmann::json index = {{"format", kDumpFormat}, {"model", model_path_}, {"run", options_.run}};
  if (options_.stats) index["data"] = "stats";
  index["nodes"] = nodes_;
  const std::string text = index.dump(1) + "\n";
  if (const auto failure = WriteFileAtomic(staging_ + "/index.json", text.data(), text.size()))
    DumpError(options_, dir_, std::string("index.json: ") + std::strerror(failure->err));
  std::error_code ec;
  const fs::path target(dir_);
  const std::string old = staging_ + ".old";
  if (fs::exists(target, ec)) {
    fs::rename(target, old, ec);
    if (ec) DumpError(options_, dir_, "cannot move the earlier dump aside: " + ec.message());
  }
  fs::rename(staging_, target, ec);
  if (ec) DumpError(options_, dir_, "cannot put the dump in place: " + ec.message());
  staging_.clear();
  fs::remove_all(old, ec);
}

}  // namespace openatc::dump
