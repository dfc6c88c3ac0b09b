// ApplyPrecision (precision.h): per-node dtype decisions and the rewrite that reproduces them.
#include "precision.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <utility>

#include "openatc/common/error.h"
#include "openatc/common/log.h"
#include "openatc/common/reduced_float.h"
#include "pass_util.h"
#include "passes.h"

namespace openatc::compiler::passes {
namespace {

using R = ReducedFloat;

struct Decision {
  R in = R::kNone;   ///< the type its float32 inputs hold
  R out = R::kNone;  ///< the type its float32 outputs are stored in
};

// What a mode does: reduced type, and which ops it reduces.
struct ModeRule {
  enum Scope { kNothing, kAll, kCube, kCubeInputsOnly, kMixed } scope = kNothing;
  R type = R::kNone;
};

ModeRule RuleOf(const std::string &mode) {
  if (mode == "must_keep_origin_dtype") return {ModeRule::kNothing, R::kNone};
  if (mode == "force_fp16") return {ModeRule::kAll, R::kFloat16};
  if (mode == "force_fp32" || mode == "cube_fp16in_fp32out") return {ModeRule::kCubeInputsOnly, R::kFloat16};
  if (mode == "allow_fp32_to_fp16") return {ModeRule::kCube, R::kFloat16};
  if (mode == "allow_fp32_to_bf16") return {ModeRule::kCube, R::kBfloat16};
  if (mode == "allow_mix_precision" || mode == "allow_mix_precision_fp16") return {ModeRule::kMixed, R::kFloat16};
  if (mode == "allow_mix_precision_bf16") return {ModeRule::kMixed, R::kBfloat16};
  throw Error(ErrorCategory::kUsage, "E10001", "precision mode '" + mode + "' is not one the host reproduces",
              "Use force_fp16, force_fp32, allow_fp32_to_fp16, allow_mix_precision(_fp16/_bf16), allow_fp32_to_bf16 "
              "or must_keep_origin_dtype");
}

bool IsFloat(ge::DataType d) { return d == ge::DT_FLOAT || d == ge::DT_FLOAT16 || d == ge::DT_BF16; }

bool FloatNode(const ir::Node &n) {
  for (const auto &d : n.input_descs)
    if (d.valid && IsFloat(d.dtype)) return true;
  for (const auto &d : n.output_descs)
    if (IsFloat(d.dtype)) return true;
  return false;
}

// The execution type --op_precision_mode / --allow_hf32 give a node (precision.h); kNone = none.
enum class Exec { kNone, kFloat32, kHfloat32 };

Exec ExecFromMode(const std::string &mode) {
  return mode == "enable_float_32_execution" ? Exec::kFloat32 : Exec::kHfloat32;
}

// ATC's precedence: --op_precision_mode [ByNodeName], then --allow_hf32, then [ByOpType]. The
// second member says whether the choice beats the precision mode (the per-op entries do).
std::pair<Exec, bool> ExecOf(const ir::Node &n, const PrecisionConfig &c) {
  std::vector<std::string> names = FusedNames(n);
  names.push_back(n.name);
  for (const auto &name : names) {
    auto it = c.exec_by_name.find(name);
    if (it != c.exec_by_name.end()) return {ExecFromMode(it->second), true};
  }
  if (!c.allow_hf32.empty() && Hf32OpTypes().count(n.type))
    return {c.allow_hf32 == "true" ? Exec::kHfloat32 : Exec::kNone, false};
  auto it = c.exec_by_type.find(n.type);
  if (it != c.exec_by_type.end()) return {ExecFromMode(it->second), true};
  return {Exec::kNone, false};
}

bool Kept(const ir::Node &n, const PrecisionConfig &c) {
  if (c.keep_types.count(n.type)) return true;
  for (const auto &name : FusedNames(n))
    if (c.keep_names.count(name)) return true;
  return c.keep_names.count(n.name) != 0;
}

// The type the value at `e` holds: a reduced producer's stored type, or its descriptor's.
R Holds(const ir::Graph &g, const std::vector<Decision> &d, const ir::Endpoint &e) {
  const ir::TensorDesc &desc = g.nodes[static_cast<size_t>(e.node)].output_descs[static_cast<size_t>(e.index)];
  if (desc.dtype == ge::DT_FLOAT16) return R::kFloat16;
  if (desc.dtype == ge::DT_BF16) return R::kBfloat16;
  return desc.dtype == ge::DT_FLOAT ? d[static_cast<size_t>(e.node)].out : R::kNone;
}

Decision ByMode(const PassGraph &pg, const ir::Node &n, const ModeRule &rule, const PrecisionConfig &c,
                const std::vector<Decision> &done) {
  if (Kept(n, c)) return {};
  const bool cube = DefaultWhiteList().count(n.type) != 0;
  switch (rule.scope) {
    case ModeRule::kAll: return {rule.type, rule.type};
    case ModeRule::kCube: return cube ? Decision{rule.type, rule.type} : Decision{};
    case ModeRule::kCubeInputsOnly: return cube ? Decision{rule.type, R::kNone} : Decision{};
    case ModeRule::kMixed:
      if (c.white.count(n.type)) return {rule.type, rule.type};
      if (c.black.count(n.type)) return {};
      for (const auto &e : n.inputs)  // gray: as its producers decided
        if (e.connected() && Holds(pg.g, done, e) == rule.type) return {rule.type, rule.type};
      return {};
    default: return {};
  }
}

Decision Decide(const PassGraph &pg, int32_t i, const ModeRule &rule, const PrecisionConfig &c,
                const std::vector<Decision> &done) {
  const ir::Node &n = pg.g.nodes[static_cast<size_t>(i)];
  const bool op = n.type != ir::kData && n.type != ir::kConst && n.type != ir::kConstant && n.type != ir::kNetOutput;
  if (!op || pg.builtin.count(n.type) == 0 || !FloatNode(n) || n.attrs.count(kExactCopyAttr) != 0) return {};
  const auto [exec, beats_mode] = ExecOf(n, c);
  const Decision hf32{R::kHfloat32, R::kNone};
  if (beats_mode) return exec == Exec::kHfloat32 ? hf32 : Decision{};
  const Decision d = ByMode(pg, n, rule, c, done);
  // --allow_hf32 acts only on an op the precision mode left in float32.
  if (exec == Exec::kHfloat32 && d.in == R::kNone && d.out == R::kNone) return hf32;
  return d;
}

ir::TensorDesc WithDtype(ir::TensorDesc d, ge::DataType t) {
  d.dtype = t;
  return d;
}

class Rewriter {
 public:
  Rewriter(PassGraph &pg, std::vector<Decision> &d) : pg_(pg), d_(d) {}

  // Input `a` of node `i` gets its value rounded to `to`.
  void Round(int32_t i, size_t a, R to) {
    const ir::Endpoint e = pg_.g.nodes[static_cast<size_t>(i)].inputs[a];
    const auto key = std::make_pair(std::make_pair(e.node, e.index), to);
    auto it = cache_.find(key);
    if (it == cache_.end()) it = cache_.emplace(key, Make(e, to)).first;
    pg_.SetInput(i, a, it->second);
  }

 private:
  ir::Endpoint Make(const ir::Endpoint &e, R to) {
    std::vector<double> v;
    std::vector<int64_t> shape;
    const std::string base = pg_.g.nodes[static_cast<size_t>(e.node)].name + "/" + ReducedFloatName(to);
    if (ConstF32(pg_.g, e, &v, &shape)) {  // rounded once, here
      for (double &x : v) {
        const float f = static_cast<float>(x);
        x = to == R::kFloat16 ? RoundToFloat16(f) : to == R::kBfloat16 ? RoundToBfloat16(f) : RoundToHfloat32(f);
      }
      const int32_t c = pg_.AddConst(base, shape, v);
      Grow();
      return {c, 0};
    }
    const ir::TensorDesc src = pg_.g.nodes[static_cast<size_t>(e.node)].output_descs[static_cast<size_t>(e.index)];
    if (to == R::kHfloat32) return {Rounding(base, e, src), 0};  // no tensor type holds HF32
    const ge::DataType mid = to == R::kFloat16 ? ge::DT_FLOAT16 : ge::DT_BF16;
    const int32_t down = Cast(base + "_to", e, src, WithDtype(src, mid), to == R::kFloat16 ? 10 : 16);
    const int32_t up = Cast(base + "_from", {down, 0}, WithDtype(src, mid), src, 1);
    return {up, 0};
  }

  int32_t Cast(const std::string &name, const ir::Endpoint &in, const ir::TensorDesc &from, const ir::TensorDesc &to,
               int64_t onnx_to) {
    ir::Node n;
    n.type = "Cast";
    n.attrs["to"].kind = ir::AttrKind::kInt;
    n.attrs["to"].i = onnx_to;
    return AddRoundingNode(std::move(n), name, in, from, to);
  }

  // An Identity whose float32 output the runtime rounds to HF32 (openatc_output_dtype).
  int32_t Rounding(const std::string &name, const ir::Endpoint &in, const ir::TensorDesc &desc) {
    ir::Node n;
    n.type = "Identity";
    n.attrs["openatc_output_dtype"].kind = ir::AttrKind::kString;
    n.attrs["openatc_output_dtype"].s = ReducedFloatName(R::kHfloat32);
    return AddRoundingNode(std::move(n), name, in, desc, desc);
  }

  // Adds `n` (type and own attrs set) reading `in` as one of the pass's nodes (openatc_precision_cast).
  int32_t AddRoundingNode(ir::Node n, const std::string &name, const ir::Endpoint &in, const ir::TensorDesc &from,
                          const ir::TensorDesc &to) {
    n.name = name;
    n.inputs = {in};
    n.input_descs = {from};
    n.output_descs = {to};
    n.attrs["openatc_precision_cast"].kind = ir::AttrKind::kBool;
    n.attrs["openatc_precision_cast"].b = true;
    const int32_t i = pg_.AddNode(std::move(n));
    Grow();
    return i;
  }

  void Grow() { d_.resize(pg_.g.nodes.size()); }

  PassGraph &pg_;
  std::vector<Decision> &d_;
  std::map<std::pair<std::pair<int32_t, int32_t>, R>, ir::Endpoint> cache_;
};

void Mark(ir::Node &n, const Decision &d) {
  if (d.in != R::kNone) {
    n.attrs["openatc_compute_dtype"].kind = ir::AttrKind::kString;
    n.attrs["openatc_compute_dtype"].s = ReducedFloatName(d.in);
  }
  if (d.out != R::kNone) {
    n.attrs["openatc_output_dtype"].kind = ir::AttrKind::kString;
    n.attrs["openatc_output_dtype"].s = ReducedFloatName(d.out);
  }
}

}  // namespace

size_t ApplyPrecision(ir::Graph &graph, const PrecisionConfig &config, const std::set<std::string> &builtin) {
  const ModeRule rule = RuleOf(config.mode);
  const bool per_op = !config.allow_hf32.empty() || !config.exec_by_name.empty() || !config.exec_by_type.empty();
  if (rule.scope == ModeRule::kNothing && !per_op) return 0;
  PassGraph pg(graph, builtin);
  const size_t original = graph.nodes.size();
  std::vector<Decision> d(original);
  for (size_t i = 0; i < original; ++i) d[i] = Decide(pg, static_cast<int32_t>(i), rule, config, d);
  Rewriter rw(pg, d);
  size_t reduced = 0;
  for (size_t i = 0; i < original; ++i) {
    const Decision dec = d[i];
    if (dec.in == R::kNone && dec.out == R::kNone) continue;
    ++reduced;
    const size_t inputs = graph.nodes[i].inputs.size();
    // HF32 is how the cube reads its two matrix operands; a bias or fused addend stays float32.
    const size_t rounded = dec.in == R::kHfloat32 ? std::min<size_t>(inputs, 2) : inputs;
    for (size_t a = 0; a < rounded; ++a) {
      const ir::Endpoint e = graph.nodes[i].inputs[a];
      if (!e.connected() || graph.nodes[i].input_descs[a].dtype != ge::DT_FLOAT) continue;
      const R holds = Holds(graph, d, e);
      // float16 and bfloat16 values are exact in HF32.
      if (holds != dec.in && !(dec.in == R::kHfloat32 && holds != R::kNone)) rw.Round(static_cast<int32_t>(i), a, dec.in);
    }
    Mark(graph.nodes[i], dec);
  }
  // Consts that only reduced nodes read now feed nothing.
  for (size_t i = 0; i < original; ++i) {
    const ir::Node &n = graph.nodes[i];
    if ((n.type == ir::kConst || n.type == ir::kConstant) && pg.Consumers(static_cast<int32_t>(i), 0) == 0 &&
        !pg.GraphOutput(static_cast<int32_t>(i)) && !pg.Pinned(static_cast<int32_t>(i)))
      pg.erased[i] = true;
  }
  pg.Finish();
  LogInfo("precision mode " + config.mode + ": " + std::to_string(reduced) + " node(s) run in reduced precision");
  return reduced;
}

}  // namespace openatc::compiler::passes
