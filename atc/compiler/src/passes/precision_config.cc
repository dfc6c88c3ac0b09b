// PrecisionConfigFromOptions and the default mixed-precision lists (precision.h).
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "openatc/common/error.h"
#include "openatc/common/log.h"
#include "precision.h"

namespace openatc::compiler::passes {
namespace {

std::string Get(const std::map<std::string, std::string> &o, const char *key) {
  auto it = o.find(key);
  return it == o.end() ? std::string() : it->second;
}

std::string ReadAll(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string Trim(const std::string &s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// precision_mode_v2 -> the v1 mode it selects (ATC's mapping).
std::string FromV2(const std::string &v2) {
  if (v2 == "fp16") return "force_fp16";
  if (v2 == "origin") return "must_keep_origin_dtype";
  if (v2 == "mixed_float16") return "allow_mix_precision_fp16";
  if (v2 == "mixed_bfloat16") return "allow_mix_precision_bf16";
  return v2;  // cube_fp16in_fp32out keeps its name; cube_hif8 / mixed_hif8 are refused below
}

void ApplyMixlist(const std::string &path, PrecisionConfig &c) {
  const nlohmann::json j = nlohmann::json::parse(ReadAll(path), nullptr, false);
  if (!j.is_object()) return;  // atc/cli/src/config_files.cc refused it already
  for (const auto &[list, body] : j.items()) {
    std::set<std::string> *target = list == "white-list" ? &c.white : list == "black-list" ? &c.black : nullptr;
    for (const auto &t : body.value("to-add", nlohmann::json::array())) {
      const std::string type = t.get<std::string>();
      c.white.erase(type);
      c.black.erase(type);
      if (target != nullptr) target->insert(type);  // gray-list: in neither list
    }
    for (const auto &t : body.value("to-remove", nlohmann::json::array()))
      if (target != nullptr) target->erase(t.get<std::string>());
  }
}

// [ByOpType] / [ByNodeName] key=mode lines; the file was validated by atc's command line.
void ApplyOpPrecisionMode(const std::string &path, PrecisionConfig &c) {
  std::istringstream in(ReadAll(path));
  std::string line;
  std::map<std::string, std::string> *section = nullptr;
  while (std::getline(in, line)) {
    const std::string l = Trim(line);
    if (l.empty() || l[0] == '#' || l[0] == ';') continue;
    if (l[0] == '[') {
      section = l == "[ByNodeName]" ? &c.exec_by_name : l == "[ByOpType]" ? &c.exec_by_type : nullptr;
      continue;
    }
    const size_t eq = l.find('=');
    if (section == nullptr || eq == std::string::npos) continue;
    const std::string key = Trim(l.substr(0, eq)), mode = Trim(l.substr(eq + 1));
    if (mode == "enable_float_32_execution" || mode == "enable_hi_float_32_execution") {
      (*section)[key] = mode;
    } else {
      LogWarning("--op_precision_mode: '" + mode +
                 "' has no effect on the host: each built-in kernel has one implementation (the entries are "
                 "recorded in the OM's build record, and an op's Compile reads ge.exec.op_precision_mode)");
    }
  }
}

}  // namespace

const std::set<std::string> &Hf32OpTypes() {
  static const std::set<std::string> s = {"Conv",        "Conv2D",        "ConvTranspose", "MatMul",
                                          "MatMulV2",    "BatchMatMul",   "BatchMatMulV2", "Gemm"};
  return s;
}

const std::set<std::string> &DefaultWhiteList() {
  // The matrix ops, which the chip runs on its cube unit in float16.
  static const std::set<std::string> s = {"Conv", "ConvTranspose", "MatMul", "Gemm", "Einsum", "RNN", "GRU", "LSTM"};
  return s;
}

const std::set<std::string> &DefaultBlackList() {
  // Ops whose result float16 cannot hold well: exponentials, logarithms, reductions and
  // normalisations (sums of many terms, divisions by small values).
  static const std::set<std::string> s = {
      "Exp", "Log", "Pow", "Softmax", "LogSoftmax", "Softplus", "Erf", "Sqrt", "Reciprocal", "Div",
      "ReduceSum", "ReduceMean", "ReduceProd", "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp",
      "ReduceSumSquare", "CumSum", "BatchNormalization", "InstanceNormalization", "LayerNormalization",
      "GroupNormalization", "LpNormalization", "MeanVarianceNormalization", "RMSNormalization", "Attention"};
  return s;
}

PrecisionConfig PrecisionConfigFromOptions(const std::map<std::string, std::string> &ge_options) {
  PrecisionConfig c;
  const std::string v1 = Get(ge_options, "ge.exec.precision_mode");
  const std::string v2 = Get(ge_options, "ge.exec.precision_mode_v2");
  if (!v2.empty()) c.mode = FromV2(v2);
  else if (!v1.empty()) c.mode = v1;
  if (c.mode == "cube_hif8" || c.mode == "mixed_hif8")
    throw Error(ErrorCategory::kUsage, "E10001",
                "--precision_mode_v2=" + c.mode + " selects hifloat8, which only Ascend 950 chips have",
                "Use fp16, mixed_float16 or mixed_bfloat16, or origin");
  c.white = DefaultWhiteList();
  c.black = DefaultBlackList();
  const std::string mixlist = Get(ge_options, "ge.exec.modify_mixlist");
  if (!mixlist.empty()) ApplyMixlist(mixlist, c);
  const std::string op_precision = Get(ge_options, "ge.exec.op_precision_mode");
  if (!op_precision.empty()) ApplyOpPrecisionMode(op_precision, c);
  c.allow_hf32 = Get(ge_options, "ge.exec.allow_hf32");
  const std::string keep = Get(ge_options, "keep_dtype");
  if (!keep.empty()) {
    std::istringstream in(ReadAll(keep));
    std::string line;
    while (std::getline(in, line)) {
      const std::string entry = Trim(line);
      if (entry.empty()) continue;
      if (entry.rfind("OpType::", 0) == 0) c.keep_types.insert(entry.substr(8));
      else c.keep_names.insert(entry);
    }
  }
  return c;
}

}  // namespace openatc::compiler::passes
