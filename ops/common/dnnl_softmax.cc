// Softmax rows on oneDNN (see dnnl_softmax.h).
#include "common/dnnl_softmax.h"

namespace openatc_ops {

void SoftmaxRowsF32(const float *x, float *y, int64_t rows, int64_t n) {
  if (rows <= 0 || n <= 0) return;
  static dnnl_util::PrimitiveCache<dnnl::softmax_v2_forward> cache;  // every op and node's; locks itself
  const bool serial = dnnl_util::SerialMemoryBound(2 * static_cast<size_t>(rows * n) * sizeof(float));
  dnnl_util::Key key;
  key.Add("rows", rows).Add("n", n).Add("t", dnnl_util::ThreadsFor(serial));
  const dnnl::memory::desc md = dnnl_util::PlainF32(Dims{rows, n});
  auto prim = cache.Get(key, [&] {
    dnnl_util::SerialScope scope(serial);
    dnnl::softmax_v2_forward::desc d(dnnl::prop_kind::forward_inference, dnnl::algorithm::softmax_accurate, md, md, 1);
    return dnnl::softmax_v2_forward(dnnl::softmax_v2_forward::primitive_desc(d, dnnl_util::UserScratchpad(), dnnl_util::Engine()));
  });
  dnnl_util::Run(*prim, {{DNNL_ARG_SRC, dnnl_util::Wrap(md, x)}, {DNNL_ARG_DST, dnnl_util::Wrap(md, y)}}, serial);
}

}  // namespace openatc_ops
