// RunNativeOp: If, Loop, Scan (8 and 9+), SequenceMap, the sequence operators and the optional
// operators, by the ONNX operator specs of each op and opset.
#include "native_ops.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "openatc/common/dtype.h"
#include "openatc/common/error.h"
#include "openatc/ir/attr_get.h"
#include "openatc/ir/control_flow.h"
#include "tensor_pieces.h"

namespace openatc::runtime {
namespace {

using ir::ValueKind;

[[noreturn]] void Fail(const ir::Node &n, const std::string &what) {
  throw Error(ErrorCategory::kInvalidInput, "OA2210", what, "Feed values that fit the operator (ONNX operator spec)")
      .WithNode(n.name, n.type);
}

RtValue TensorValue(HostTensor t) {
  RtValue v;
  v.tensor = std::move(t);
  return v;
}
RtValue SequenceValue(std::vector<HostTensor> seq) {
  RtValue v;
  v.kind = ValueKind::kSequence;
  v.seq = std::move(seq);
  return v;
}

bool Given(const std::vector<RtValue> &in, size_t k) { return k < in.size() && in[k].present; }

const HostTensor &TensorOf(const ir::Node &n, const std::vector<RtValue> &in, size_t k) {
  if (k >= in.size() || !in[k].present) Fail(n, "input " + std::to_string(k) + " is absent");
  if (in[k].kind != ValueKind::kTensor && in[k].kind != ValueKind::kOptionalTensor)
    Fail(n, "input " + std::to_string(k) + " is a sequence where a tensor is expected");
  return in[k].tensor;
}
const std::vector<HostTensor> &SeqOf(const ir::Node &n, const std::vector<RtValue> &in, size_t k) {
  if (k >= in.size() || !in[k].present) Fail(n, "input " + std::to_string(k) + " is absent");
  if (in[k].kind != ValueKind::kSequence && in[k].kind != ValueKind::kOptionalSequence)
    Fail(n, "input " + std::to_string(k) + " is a tensor where a sequence is expected");
  return in[k].seq;
}

// The single element of an integer or bool tensor, as int64.
int64_t Scalar(const ir::Node &n, const HostTensor &t, const char *what) {
  if (ShapeElementCount(t.shape) != 1) Fail(n, std::string(what) + " must have one element, it has shape " + ShapeToString(t.shape));
  const uint8_t *p = t.data.data();
  switch (t.dtype) {
    case ge::DT_INT64: { int64_t v; std::memcpy(&v, p, 8); return v; }
    case ge::DT_INT32: { int32_t v; std::memcpy(&v, p, 4); return v; }
    case ge::DT_BOOL:
    case ge::DT_UINT8: return p[0];
    default: Fail(n, std::string(what) + " has dtype " + DataTypeShortName(t.dtype) + ", expected int32, int64 or bool");
  }
}

HostTensor MakeScalar(ge::DataType dt, int64_t v) {
  HostTensor t;
  t.dtype = dt;
  t.data.resize(DataTypeSize(dt));
  if (dt == ge::DT_BOOL) t.data[0] = v ? 1 : 0;
  else std::memcpy(t.data.data(), &v, t.data.size());  // little-endian int64
  return t;
}

using ir::IntAttrOr;
using ir::IntsAttrOr;
int64_t At(const std::vector<int64_t> &v, size_t k, int64_t dflt) { return k < v.size() ? v[k] : dflt; }

// The node's captured values (openatc/ir/control_flow.h): its last inputs.
std::vector<RtValue> Captures(const ir::Node &n, const std::vector<RtValue> &in) {
  const size_t c = ir::CapturedInputs(n);
  return {in.end() - static_cast<std::ptrdiff_t>(std::min(c, in.size())), in.end()};
}
size_t ExplicitInputs(const ir::Node &n, const std::vector<RtValue> &in) {
  return in.size() - std::min(ir::CapturedInputs(n), in.size());
}

std::vector<RtValue> Append(std::vector<RtValue> a, const std::vector<RtValue> &b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// Stacks per-iteration scan outputs along `axis` (a new axis); an empty list gives shape [0].
HostTensor Stack(const std::vector<HostTensor> &parts, int64_t axis, ge::DataType dt) {
  if (parts.empty()) {
    HostTensor t;
    t.dtype = dt;
    t.shape = {0};
    return t;
  }
  return JoinAxis(parts, NormalizeAxis(axis, parts.front().shape.size(), 1, "scan output axis"), true);
}

std::vector<RtValue> RunIf(const ir::Node &n, const std::vector<RtValue> &in, const SubgraphRunner &run) {
  const bool cond = Scalar(n, TensorOf(n, in, 0), "cond") != 0;
  return run(cond ? "then_branch" : "else_branch", Captures(n, in));
}

std::vector<RtValue> RunLoop(const ir::Node &n, const std::vector<RtValue> &in, const SubgraphRunner &run) {
  const size_t explicit_in = ExplicitInputs(n, in);
  if (explicit_in < 2 || explicit_in - 2 > n.output_descs.size()) Fail(n, "the node's inputs and outputs do not fit a Loop");
  int64_t trips = std::numeric_limits<int64_t>::max();
  if (Given(in, 0) && in[0].tensor.dtype != ge::DT_UNDEFINED) trips = Scalar(n, TensorOf(n, in, 0), "M");
  bool cond = true;
  if (Given(in, 1) && in[1].tensor.dtype != ge::DT_UNDEFINED) cond = Scalar(n, TensorOf(n, in, 1), "cond") != 0;
  std::vector<RtValue> state(in.begin() + 2, in.begin() + static_cast<std::ptrdiff_t>(explicit_in));
  const std::vector<RtValue> captures = Captures(n, in);
  std::vector<std::vector<HostTensor>> scans;
  std::vector<ge::DataType> scan_dtypes;
  for (int64_t i = 0; i < trips && cond; ++i) {
    std::vector<RtValue> body_in = {TensorValue(MakeScalar(ge::DT_INT64, i)), TensorValue(MakeScalar(ge::DT_BOOL, cond))};
    body_in = Append(Append(std::move(body_in), state), captures);
    std::vector<RtValue> out = run("body", body_in);
    if (out.size() < 1 + state.size()) Fail(n, "the body returned fewer values than 1 + the loop-carried values");
    cond = Scalar(n, out[0].tensor, "the body's cond output") != 0;
    for (size_t k = 0; k < state.size(); ++k) state[k] = std::move(out[1 + k]);
    const size_t k_scans = out.size() - 1 - state.size();
    scans.resize(k_scans);
    for (size_t k = 0; k < k_scans; ++k) scans[k].push_back(std::move(out[1 + state.size() + k].tensor));
  }
  std::vector<RtValue> result = std::move(state);
  // Zero iterations: scan outputs are empty tensors of the dtype the compiler inferred.
  const size_t k_scans = n.output_descs.size() - result.size();
  scans.resize(k_scans);
  for (size_t k = 0; k < k_scans; ++k)
    result.push_back(TensorValue(Stack(scans[k], 0, n.output_descs[result.size()].dtype)));
  return result;
}

// Scan-9+ over inputs `in` = N states, M scan inputs (no captures), returning N states, K outputs.
std::vector<RtValue> ScanOnce(const ir::Node &n, std::vector<RtValue> state, const std::vector<HostTensor> &scan_in,
                              const std::vector<RtValue> &captures, const std::vector<int64_t> &in_axes,
                              const std::vector<int64_t> &in_dirs, const std::vector<int64_t> &out_axes,
                              const std::vector<int64_t> &out_dirs, size_t k_outs, const SubgraphRunner &run) {
  int64_t len = -1;
  std::vector<size_t> axes;
  for (size_t j = 0; j < scan_in.size(); ++j) {
    axes.push_back(NormalizeAxis(At(in_axes, j, 0), scan_in[j].shape.size(), 0, "scan_input_axes entry"));
    const int64_t l = scan_in[j].shape[axes[j]];
    if (len >= 0 && l != len) Fail(n, "the scan inputs have different sequence lengths " + std::to_string(len) + " and " + std::to_string(l));
    len = l;
  }
  std::vector<std::vector<HostTensor>> outs(k_outs);
  for (int64_t t = 0; t < len; ++t) {
    std::vector<RtValue> body_in = state;
    for (size_t j = 0; j < scan_in.size(); ++j) {
      const int64_t at = At(in_dirs, j, 0) ? len - 1 - t : t;
      body_in.push_back(TensorValue(SliceAxis(scan_in[j], axes[j], at, 1, false)));
    }
    std::vector<RtValue> out = run("body", Append(std::move(body_in), captures));
    if (out.size() != state.size() + k_outs) Fail(n, "the body returned " + std::to_string(out.size()) + " values");
    for (size_t k = 0; k < state.size(); ++k) state[k] = std::move(out[k]);
    for (size_t k = 0; k < k_outs; ++k) outs[k].push_back(std::move(out[state.size() + k].tensor));
  }
  std::vector<RtValue> result = std::move(state);
  for (size_t k = 0; k < k_outs; ++k) {
    if (At(out_dirs, k, 0)) std::reverse(outs[k].begin(), outs[k].end());
    result.push_back(TensorValue(Stack(outs[k], At(out_axes, k, 0), n.output_descs[result.size()].dtype)));
  }
  return result;
}

std::vector<RtValue> RunScan(const ir::Node &n, const std::vector<RtValue> &in, const SubgraphRunner &run) {
  const bool v8 = IntAttrOr(n, "onnx_opset", 9) < 9;
  const size_t first = v8 ? 1 : 0;
  const size_t explicit_in = ExplicitInputs(n, in);
  const size_t m = static_cast<size_t>(IntAttrOr(n, "num_scan_inputs", 0));
  if (m + first > explicit_in) Fail(n, "num_scan_inputs is larger than the number of inputs");
  const size_t n_states = explicit_in - first - m;
  if (n_states > n.output_descs.size()) Fail(n, "the node has fewer outputs than state variables");
  const size_t k_outs = n.output_descs.size() - n_states;
  const std::vector<RtValue> captures = Captures(n, in);
  if (!v8) {
    std::vector<RtValue> state(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(n_states));
    std::vector<HostTensor> scan_in;
    for (size_t j = 0; j < m; ++j) scan_in.push_back(TensorOf(n, in, n_states + j));
    return ScanOnce(n, state, scan_in, captures, IntsAttrOr(n, "scan_input_axes"), IntsAttrOr(n, "scan_input_directions"),
                    IntsAttrOr(n, "scan_output_axes"), IntsAttrOr(n, "scan_output_directions"), k_outs, run);
  }
  // Scan-8: batch dim 0 on every state and scan input; scan axis 1; `directions` per scan input.
  const HostTensor &probe = TensorOf(n, in, first + (m ? n_states : 0));
  if (probe.shape.empty()) Fail(n, "Scan-8 inputs need a batch dimension");
  const int64_t batch = probe.shape[0];
  if (Given(in, 0) && in[0].tensor.dtype != ge::DT_UNDEFINED) {
    const HostTensor &lens = in[0].tensor;
    if (ShapeElementCount(lens.shape) != batch || (lens.dtype != ge::DT_INT32 && lens.dtype != ge::DT_INT64))
      Fail(n, "sequence_lens must hold one int32/int64 value per batch entry");
    for (int64_t b = 0; b < batch && m > 0; ++b) {
      int64_t l = 0;
      if (lens.dtype == ge::DT_INT32) { int32_t v; std::memcpy(&v, lens.data.data() + 4 * b, 4); l = v; }
      else std::memcpy(&l, lens.data.data() + 8 * b, 8);
      if (l != TensorOf(n, in, first + n_states).shape.at(1))
        Fail(n, "sequence_lens shorter than the scanned sequence are not supported");
    }
  }
  std::vector<std::vector<HostTensor>> per_out(n_states + k_outs);
  for (int64_t b = 0; b < batch; ++b) {
    std::vector<RtValue> state;
    for (size_t k = 0; k < n_states; ++k) state.push_back(TensorValue(SliceAxis(TensorOf(n, in, first + k), 0, b, 1, false)));
    std::vector<HostTensor> scan_in;
    for (size_t j = 0; j < m; ++j) scan_in.push_back(SliceAxis(TensorOf(n, in, first + n_states + j), 0, b, 1, false));
    auto out = ScanOnce(n, state, scan_in, captures, {}, IntsAttrOr(n, "directions"), {}, {}, k_outs, run);
    for (size_t k = 0; k < out.size(); ++k) per_out[k].push_back(std::move(out[k].tensor));
  }
  std::vector<RtValue> result;
  for (size_t k = 0; k < per_out.size(); ++k) result.push_back(TensorValue(Stack(per_out[k], 0, n.output_descs[k].dtype)));
  return result;
}

std::vector<RtValue> RunSequenceMap(const ir::Node &n, const std::vector<RtValue> &in, const SubgraphRunner &run) {
  const size_t explicit_in = ExplicitInputs(n, in);
  const std::vector<RtValue> captures = Captures(n, in);
  const size_t len = SeqOf(n, in, 0).size();
  for (size_t k = 1; k < explicit_in; ++k)
    if (in[k].kind == ValueKind::kSequence && in[k].seq.size() != len)
      Fail(n, "input " + std::to_string(k) + " has " + std::to_string(in[k].seq.size()) + " elements; input 0 has " + std::to_string(len));
  std::vector<RtValue> result(n.output_descs.size(), SequenceValue({}));
  for (size_t i = 0; i < len; ++i) {
    std::vector<RtValue> body_in;
    for (size_t k = 0; k < explicit_in; ++k)
      body_in.push_back(in[k].kind == ValueKind::kSequence ? TensorValue(in[k].seq[i]) : in[k]);
    std::vector<RtValue> out = run("body", Append(std::move(body_in), captures));
    if (out.size() != result.size()) Fail(n, "the body returned " + std::to_string(out.size()) + " values");
    for (size_t k = 0; k < out.size(); ++k) result[k].seq.push_back(std::move(out[k].tensor));
  }
  return result;
}

// A sequence position: in [-size, size) (or [-size, size] with `end_ok`, for insertion).
size_t Position(const ir::Node &n, const HostTensor &t, size_t size, bool end_ok) {
  const int64_t p = Scalar(n, t, "position");
  const int64_t s = static_cast<int64_t>(size);
  if (p < -s || p > s || (p == s && !end_ok))
    Fail(n, "position " + std::to_string(p) + " is outside the sequence of " + std::to_string(size) + " tensors");
  return static_cast<size_t>(p < 0 ? p + s : p);
}

std::vector<RtValue> RunSplitToSequence(const ir::Node &n, const std::vector<RtValue> &in) {
  const HostTensor &x = TensorOf(n, in, 0);
  const size_t axis = NormalizeAxis(IntAttrOr(n, "axis", 0), x.shape.size(), 0, "axis");
  const int64_t dim = x.shape[axis];
  std::vector<int64_t> sizes;
  bool squeeze = false;
  if (!Given(in, 1) || in[1].tensor.dtype == ge::DT_UNDEFINED) {
    sizes.assign(static_cast<size_t>(dim), 1);
    squeeze = IntAttrOr(n, "keepdims", 1) == 0;
  } else {
    const HostTensor &split = in[1].tensor;
    if (split.dtype != ge::DT_INT32 && split.dtype != ge::DT_INT64) Fail(n, "split must be int32 or int64");
    const size_t count = static_cast<size_t>(ShapeElementCount(split.shape));
    std::vector<int64_t> vals(count);
    for (size_t k = 0; k < count; ++k) {
      if (split.dtype == ge::DT_INT32) { int32_t v; std::memcpy(&v, split.data.data() + 4 * k, 4); vals[k] = v; }
      else std::memcpy(&vals[k], split.data.data() + 8 * k, 8);
    }
    if (split.shape.empty()) {  // a scalar: chunks of that size, the last one smaller
      if (vals[0] <= 0) Fail(n, "split must be positive");
      for (int64_t at = 0; at < dim; at += vals[0]) sizes.push_back(std::min(vals[0], dim - at));
    } else {
      sizes = vals;
      int64_t total = 0;
      for (int64_t s : sizes) {
        if (s < 0) Fail(n, "split sizes must not be negative");
        total += s;
      }
      if (total != dim) Fail(n, "split sums to " + std::to_string(total) + " but the axis has " + std::to_string(dim));
    }
  }
  std::vector<HostTensor> seq;
  int64_t at = 0;
  for (int64_t s : sizes) {
    seq.push_back(SliceAxis(x, axis, at, s, !squeeze));
    at += s;
  }
  return {SequenceValue(std::move(seq))};
}

std::vector<RtValue> RunSequenceOp(const ir::Node &n, const std::vector<RtValue> &in) {
  const std::string &t = n.type;
  if (t == "SequenceConstruct") {
    std::vector<HostTensor> seq;
    for (size_t k = 0; k < in.size(); ++k) seq.push_back(TensorOf(n, in, k));
    return {SequenceValue(std::move(seq))};
  }
  if (t == "SequenceEmpty") return {SequenceValue({})};
  if (t == "SequenceLength") return {TensorValue(MakeScalar(ge::DT_INT64, static_cast<int64_t>(SeqOf(n, in, 0).size())))};
  if (t == "SequenceAt") {
    const auto &seq = SeqOf(n, in, 0);
    return {TensorValue(seq[Position(n, TensorOf(n, in, 1), seq.size(), false)])};
  }
  if (t == "SequenceInsert") {
    std::vector<HostTensor> seq = SeqOf(n, in, 0);
    const size_t at = Given(in, 2) && in[2].tensor.dtype != ge::DT_UNDEFINED ? Position(n, in[2].tensor, seq.size(), true) : seq.size();
    seq.insert(seq.begin() + static_cast<std::ptrdiff_t>(at), TensorOf(n, in, 1));
    return {SequenceValue(std::move(seq))};
  }
  if (t == "SequenceErase") {
    std::vector<HostTensor> seq = SeqOf(n, in, 0);
    if (seq.empty()) Fail(n, "the sequence is empty");
    const size_t at = Given(in, 1) && in[1].tensor.dtype != ge::DT_UNDEFINED ? Position(n, in[1].tensor, seq.size(), false) : seq.size() - 1;
    seq.erase(seq.begin() + static_cast<std::ptrdiff_t>(at));
    return {SequenceValue(std::move(seq))};
  }
  if (t == "SplitToSequence") return RunSplitToSequence(n, in);
  // ConcatFromSequence
  const auto &seq = SeqOf(n, in, 0);
  if (seq.empty()) Fail(n, "the sequence is empty");
  const bool new_axis = IntAttrOr(n, "new_axis", 0) != 0;
  const size_t axis = NormalizeAxis(IntAttrOr(n, "axis", 0), seq.front().shape.size(), new_axis ? 1 : 0, "axis");
  return {TensorValue(JoinAxis(seq, axis, new_axis))};
}

std::vector<RtValue> RunOptionalOp(const ir::Node &n, const std::vector<RtValue> &in) {
  const std::string &t = n.type;
  const bool given = Given(in, 0) && !(in[0].kind == ValueKind::kTensor && in[0].tensor.dtype == ge::DT_UNDEFINED);
  if (t == "Optional") {
    RtValue v;
    const ValueKind kind = n.output_descs.empty() ? ValueKind::kOptionalTensor : n.output_descs[0].value_kind;
    if (given) v = in[0];
    v.kind = kind == ValueKind::kOptionalSequence ? ValueKind::kOptionalSequence : ValueKind::kOptionalTensor;
    v.present = given;
    return {v};
  }
  if (t == "OptionalHasElement") return {TensorValue(MakeScalar(ge::DT_BOOL, given ? 1 : 0))};
  // OptionalGetElement
  if (!given) Fail(n, "the optional input holds no value");
  RtValue v = in[0];
  v.kind = v.kind == ValueKind::kOptionalSequence || v.kind == ValueKind::kSequence ? ValueKind::kSequence : ValueKind::kTensor;
  return {v};
}

}  // namespace

std::vector<RtValue> RunNativeOp(const ir::Node &node, const std::vector<RtValue> &inputs, const SubgraphRunner &run) {
  const std::string &t = node.type;
  if (t == "If") return RunIf(node, inputs, run);
  if (t == "Loop") return RunLoop(node, inputs, run);
  if (t == "Scan") return RunScan(node, inputs, run);
  if (t == "SequenceMap") return RunSequenceMap(node, inputs, run);
  if (t.rfind("Optional", 0) == 0) return RunOptionalOp(node, inputs);
  return RunSequenceOp(node, inputs);
}

}  // namespace openatc::runtime
