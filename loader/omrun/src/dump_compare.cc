// omrun --compare (dump_compare.h).
#include "dump_compare.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "openatc/common/dtype.h"
#include "openatc/common/error.h"
#include "openatc/dump/node_dump.h"
#include "openatc/dump/tensor_stats.h"
#include "openatc/tensor_io/tensor_io.h"

namespace openatc::omrun {
namespace {

using nlohmann::json;

json ReadIndex(const std::string &dir) {
  std::ifstream in(dir + "/index.json");
  json j = in ? json::parse(in, nullptr, false) : json();
  if (!j.is_object() || j.value("format", "") != dump::kDumpFormat || !j.contains("nodes") || !j["nodes"].is_array()) {
    throw Error(ErrorCategory::kUsage, "OA2305",
                "'" + dir + "' is not an omrun dump (no index.json of format " + std::string(dump::kDumpFormat) + ")",
                "Pass an OM to run, or a folder written by omrun --dump");
  }
  return j;
}

// Cosine similarity; 1 for two all-zero tensors, 0 when only one is; NaN when an element is.
double Cosine(const std::vector<double> &a, const std::vector<double> &b) {
  double ab = 0, aa = 0, bb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    ab += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  if (aa == 0 && bb == 0) return 1.0;
  if (aa == 0 || bb == 0) return 0.0;
  return ab / std::sqrt(aa * bb);
}

struct Output {
  std::string node, op_type, file;
  size_t index = 0;
};

// The outputs of a dump keyed by "node:index", in execution order; fused-away names -> host node.
void Collect(const json &index, std::vector<Output> &order, std::map<std::string, Output> &by_key,
             std::map<std::string, std::string> &fused_into) {
  for (const auto &n : index["nodes"]) {
    const std::string name = n.value("name", "");
    if (n.value("precision_cast", false)) continue;  // a rounding the precision mode added, not a graph node
    for (const auto &f : n.value("fused_nodes", json::array()))
      if (f.is_string() && f.get<std::string>() != name) fused_into[f.get<std::string>()] = name;
    for (const auto &o : n.value("outputs", json::array())) {
      if (!o.contains("file") || !o["file"].is_string()) continue;
      Output out{name, n.value("op_type", ""), o["file"].get<std::string>(), o.value("index", size_t{0})};
      order.push_back(out);
      by_key[name + ":" + std::to_string(out.index)] = out;
    }
  }
}

// One matched output: prints its line, returns whether it is within tolerance.
bool CompareOne(const Output &a, const Output &b, const std::string &mine, const std::string &other, double atol,
                double rtol, std::ostream &out) {
  char line[512];
  const std::string key = a.node + ":" + std::to_string(a.index);
  auto npy = [](const std::string &f) { return f.size() > 4 && f.compare(f.size() - 4, 4, ".npy") == 0; };
  if (!npy(a.file) || !npy(b.file)) {  // a dtype NumPy lacks, dumped as raw bytes
    out << "compare node " << key << " (" << a.op_type << "): skipped, raw .bin dump (no NumPy dtype)\n";
    return true;
  }
  const auto ta = tensor_io::ReadNpy(mine + "/" + a.file);
  const auto tb = tensor_io::ReadNpy(other + "/" + b.file);
  if (ta.dtype != tb.dtype || ta.shape != tb.shape) {
    out << "compare node " << key << " (" << a.op_type << "): FAIL " << DataTypeShortName(ta.dtype)
        << ShapeToString(ta.shape) << " here, " << DataTypeShortName(tb.dtype) << ShapeToString(tb.shape)
        << " in the other run\n";
    return false;
  }
  const tensor_io::Comparison c = tensor_io::Compare(ta, tb, atol, rtol);
  const auto da = dump::TensorDoubles(ta), db = dump::TensorDoubles(tb);
  std::string cosine = "n/a";
  if (da && db) {
    std::snprintf(line, sizeof line, "%.8f", Cosine(*da, *db));
    cosine = line;
  }
  std::string rel = "n/a";
  if (c.rel_count > 0) {
    std::snprintf(line, sizeof line, "%.6g", c.max_rel);
    rel = line;
  }
  std::snprintf(line, sizeof line, "compare node %s (%s): %s cosine %s max_abs_err %.6g max_rel_err %s\n", key.c_str(),
                a.op_type.c_str(), c.ok ? "PASS" : "FAIL", cosine.c_str(), c.max_abs, rel.c_str());
  out << line;
  return c.ok;
}

void PrintFusedAway(const std::vector<std::string> &names, const std::map<std::string, std::string> &into,
                    const char *build, std::ostream &out) {
  if (names.empty()) return;
  out << "fused away in " << build << ":";
  for (const auto &n : names) {
    auto it = into.find(n);
    out << " " << n << (it != into.end() ? " (into " + it->second + ")" : std::string(" (absent)"));
  }
  out << "\n";
}

}  // namespace

bool CompareDumps(const std::string &mine, const std::string &other, double atol, double rtol, std::ostream &out) {
  const json a = ReadIndex(mine), b = ReadIndex(other);
  std::vector<Output> order_a, order_b;
  std::map<std::string, Output> key_a, key_b;
  std::map<std::string, std::string> fused_a, fused_b;
  Collect(a, order_a, key_a, fused_a);
  Collect(b, order_b, key_b, fused_b);
  std::string first_bad;
  size_t matched = 0;
  std::vector<std::string> only_b_nodes, only_a_nodes;
  for (const Output &o : order_a) {
    auto it = key_b.find(o.node + ":" + std::to_string(o.index));
    if (it == key_b.end()) {
      if (only_a_nodes.empty() || only_a_nodes.back() != o.node) only_a_nodes.push_back(o.node);
      continue;
    }
    ++matched;
    if (!CompareOne(o, it->second, mine, other, atol, rtol, out) && first_bad.empty())
      first_bad = o.node + ":" + std::to_string(o.index);
  }
  for (const Output &o : order_b) {
    if (key_a.count(o.node + ":" + std::to_string(o.index)) == 0 &&
        (only_b_nodes.empty() || only_b_nodes.back() != o.node))
      only_b_nodes.push_back(o.node);
  }
  PrintFusedAway(only_b_nodes, fused_a, "this build", out);
  PrintFusedAway(only_a_nodes, fused_b, "the other build", out);
  out << "compared " << matched << " node output(s); ";
  if (first_bad.empty()) out << "all within tolerance (atol " << atol << ", rtol " << rtol << ")\n";
  else out << "first node beyond tolerance: " << first_bad << "\n";
  return first_bad.empty();
}

}  // namespace openatc::omrun
