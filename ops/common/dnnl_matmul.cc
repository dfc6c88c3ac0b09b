// ResolveMatMul: ONNX MatMul (numpy.matmul) shape rules, see dnnl_matmul.h.
#include "common/dnnl_matmul.h"

namespace openatc_ops {

std::string ResolveMatMul(const Dims &a, const Dims &b, MatMulShape *s) {
  if (a.empty() || b.empty()) return "MatMul operands must have rank >= 1; got " + DimsToString(a) + " and " + DimsToString(b);
  Dims a2 = a, b2 = b;
  if (a.size() == 1) a2 = {1, a[0]};
  if (b.size() == 1) b2 = {b[0], 1};
  const size_t r = a2.size() > b2.size() ? a2.size() : b2.size();
  a2.insert(a2.begin(), r - a2.size(), 1);
  b2.insert(b2.begin(), r - b2.size(), 1);
  const int64_t ka = a2[r - 1], kb = b2[r - 2];
  if (ka >= 0 && kb >= 0 && ka != kb)
    return "inner dimensions differ: A " + DimsToString(a) + " has K = " + std::to_string(ka) + ", B " + DimsToString(b) +
           " has K = " + std::to_string(kb);
  Dims batch;
  if (!BroadcastDims(Dims(a2.begin(), a2.end() - 2), Dims(b2.begin(), b2.end() - 2), &batch))
    return "batch dimensions of A " + DimsToString(a) + " and B " + DimsToString(b) + " do not broadcast";
  s->a = a2;
  s->b = b2;
  s->dst = batch;
  s->dst.push_back(a2[r - 2]);
  s->dst.push_back(b2[r - 1]);
  s->out = batch;
  if (a.size() != 1) s->out.push_back(a2[r - 2]);
  if (b.size() != 1) s->out.push_back(b2[r - 1]);
  return "";
}

}  // namespace openatc_ops
