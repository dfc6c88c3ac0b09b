// FLOPs from an omrun profile trace and the CPU's peak (see model_flops.h).
#include "model_flops.h"

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

namespace openatc::bench {
namespace {
// "float32[1, 8, 28, 28] ND" -> {1, 8, 28, 28}; false when the text has no [dims].
bool ParseDims(const std::string &desc, std::vector<double> *dims) {
  const size_t open = desc.find('['), close = desc.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open) return false;
  dims->clear();
  std::stringstream in(desc.substr(open + 1, close - open - 1));
  std::string item;
  while (std::getline(in, item, ',')) {
    char *end = nullptr;
    const double v = std::strtod(item.c_str(), &end);
    if (end == item.c_str() || v < 0) return false;
    dims->push_back(v);
  }
  return true;
}

double Product(const std::vector<double> &d, size_t from = 0) {
  double p = 1;
  for (size_t i = from; i < d.size(); ++i) p *= d[i];
  return p;
}

// One node's operations; -1 when its shapes do not fit the op.
double NodeFlops(const std::string &op, const std::vector<std::vector<double>> &in, const std::vector<double> &y) {
  if (op == "Conv") {
    if (in.size() < 2 || in[1].size() < 3) return -1;
    return 2 * Product(y) * Product(in[1], 1);  // W = [C_out, C_in/group, k...]
  }
  if (op == "ConvTranspose") {
    if (in.size() < 2 || in[1].size() < 3) return -1;
    return 2 * Product(in[0]) * Product(in[1], 1);  // W = [C_in, C_out/group, k...]
  }
  if (op == "MatMul") {
    if (in.empty() || in[0].empty()) return -1;
    return 2 * Product(y) * in[0].back();
  }
  if (op == "Gemm") {
    if (in.empty() || in[0].size() != 2 || y.size() != 2 || y[0] == 0) return -1;
    return 2 * Product(y) * (Product(in[0]) / y[0]);  // K = |A| / M, whether A is transposed or not
  }
  return 0;
}
}  // namespace

FlopCount CountProfileFlops(const std::string &trace_json) {
  FlopCount r;
  const nlohmann::json doc = nlohmann::json::parse(trace_json, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("traceEvents") || !doc["traceEvents"].is_array()) {
    r.error = "not a Chrome trace with traceEvents";
    return r;
  }
  for (const auto &e : doc["traceEvents"]) {
    if (!e.is_object() || !e.contains("args") || !e["args"].is_object()) continue;
    const auto &a = e["args"];
    if (!a.contains("op_type") || !a.contains("run") || a["run"] != 0) continue;
    const std::string op = a["op_type"].get<std::string>();
    if (op != "Conv" && op != "ConvTranspose" && op != "MatMul" && op != "Gemm") continue;
    std::vector<std::vector<double>> in;
    std::vector<double> y, d;
    bool ok = a.contains("inputs") && a["inputs"].is_array() && a.contains("outputs") && a["outputs"].is_array() &&
              !a["outputs"].empty() && a["outputs"][0].is_string() && ParseDims(a["outputs"][0], &y);
    if (ok) {
      for (const auto &i : a["inputs"]) {
        if (!i.is_string() || !ParseDims(i, &d)) {
          ok = false;
          break;
        }
        in.push_back(d);
      }
    }
    const double f = ok ? NodeFlops(op, in, y) : -1;
    if (f < 0) {
      r.error = "node '" + e.value("name", std::string("?")) + "' (" + op + "): shapes do not fit the op";
      return r;
    }
    r.flops += f;
    ++r.nodes;
  }
  return r;
}

CpuPeak PeakFromCpuinfo(const std::string &text) {
  CpuPeak p;
  double mhz = 0;
  const std::regex clock("cpu MHz\\s*:\\s*([0-9.]+)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), clock); it != std::sregex_iterator(); ++it)
    mhz = std::max(mhz, std::atof((*it)[1].str().c_str()));
  auto has = [&](const char *flag) { return std::regex_search(text, std::regex(std::string("flags\\s*:.*\\b") + flag + "\\b")); };
  p.lanes = has("avx512f") ? 16 : (has("fma") || has("avx2")) ? 8 : 4;
  p.ghz = mhz / 1000.0;
  p.gflops_per_thread = p.lanes * 2 * p.ghz;
  return p;
}

}  // namespace openatc::bench
