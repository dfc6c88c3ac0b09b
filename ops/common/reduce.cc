// Axis resolution and output shapes for ops/common/reduce.h.
#include "common/reduce.h"

namespace openatc_ops {
namespace {

// Marks the reduced axes; empty axes mean all. False on an out-of-range or repeated axis.
bool ResolveAxes(size_t rank, const std::vector<int64_t> &axes, std::vector<bool> *reduced, std::string *error) {
  reduced->assign(rank, axes.empty());
  for (int64_t a : axes) {
    int64_t n = 0;
    if (!NormalizeAxis(a, static_cast<int64_t>(rank), &n)) {
      *error = "axis " + std::to_string(a) + " is out of range for rank " + std::to_string(rank) + " (valid: [" +
               std::to_string(-static_cast<int64_t>(rank)) + ", " + std::to_string(static_cast<int64_t>(rank) - 1) +
               "])";
      return false;
    }
    if ((*reduced)[static_cast<size_t>(n)]) {
      *error = "axis " + std::to_string(a) + " is given more than once";
      return false;
    }
    (*reduced)[static_cast<size_t>(n)] = true;
  }
  return true;
}

}  // namespace

bool MakeReducePlan(const Dims &in, const std::vector<int64_t> &axes, bool keepdims, bool noop_with_empty_axes,
                    ReducePlan *plan, std::string *error) {
  plan->in = in;
  plan->out.clear();
  plan->count = 1;
  plan->noop = axes.empty() && noop_with_empty_axes;
  if (plan->noop) {
    plan->out = in;
    plan->out_strides.clear();
    return true;
  }
  std::vector<bool> reduced;
  if (!ResolveAxes(in.size(), axes, &reduced, error)) return false;
  // Output strides over the keepdims layout (dropping size-1 axes does not change linear order).
  plan->out_strides.assign(in.size(), 0);
  int64_t stride = 1;
  for (size_t k = in.size(); k-- > 0;) {
    if (reduced[k]) {
      plan->count *= in[k];
    } else {
      plan->out_strides[k] = stride;
      stride *= in[k];
    }
  }
  for (size_t k = 0; k < in.size(); ++k) {
    if (!reduced[k])
      plan->out.push_back(in[k]);
    else if (keepdims)
      plan->out.push_back(1);
  }
  return true;
}

bool InferReduceDims(const Dims &in, bool axes_known, const std::vector<int64_t> &axes, int64_t axes_count,
                     bool keepdims, bool noop_with_empty_axes, Dims *out, std::string *error) {
  if (axes_known) {
    ReducePlan plan;
    if (!MakeReducePlan(in, axes, keepdims, noop_with_empty_axes, &plan, error)) return false;
    *out = plan.out;
    return true;
  }
  if (axes_count == 0) return InferReduceDims(in, true, {}, 0, keepdims, noop_with_empty_axes, out, error);
  if (keepdims) {
    out->assign(in.size(), -1);
  } else if (axes_count > 0 && axes_count <= static_cast<int64_t>(in.size())) {
    out->assign(in.size() - static_cast<size_t>(axes_count), -1);
  } else {
    out->assign(1, -2);  // unknown rank
  }
  return true;
}

bool InnermostReduce(const ReducePlan &plan) {
  if (plan.noop || plan.out_strides.size() != plan.in.size()) return false;
  size_t kept = plan.in.size();
  while (kept > 0 && (plan.out_strides[kept - 1] == 0 || plan.in[kept - 1] == 1)) --kept;
  for (size_t a = 0; a < kept; ++a)
    if (plan.out_strides[a] == 0 && plan.in[a] != 1) return false;
  return true;
}

}  // namespace openatc_ops
