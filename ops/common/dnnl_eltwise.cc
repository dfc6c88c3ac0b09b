// Unary float32 maps on oneDNN's eltwise primitive (see dnnl_eltwise.h).
#include "common/dnnl_eltwise.h"

namespace openatc_ops {

void EltwiseF32(dnnl::algorithm alg, const float *x, float *y, int64_t n) {
  if (n <= 0) return;
  // Shared by every op and node of the process; the cache locks itself.
  static dnnl_util::PrimitiveCache<dnnl::eltwise_forward> cache;
  const bool serial = dnnl_util::SerialMemoryBound(2 * static_cast<size_t>(n) * sizeof(float));
  dnnl_util::Key key;
  key.Add("alg", static_cast<int64_t>(alg)).Add("n", n).Add("t", dnnl_util::ThreadsFor(serial));
  const dnnl::memory::desc md = dnnl_util::PlainF32(Dims{n});
  auto prim = cache.Get(key, [&] {
    dnnl_util::SerialScope scope(serial);
    dnnl::eltwise_forward::desc d(dnnl::prop_kind::forward_inference, alg, md, 0.0f, 0.0f);
    return dnnl::eltwise_forward(dnnl::eltwise_forward::primitive_desc(d, dnnl_util::UserScratchpad(), dnnl_util::Engine()));
  });
  dnnl_util::Run(*prim, {{DNNL_ARG_SRC, dnnl_util::Wrap(md, x)}, {DNNL_ARG_DST, dnnl_util::Wrap(md, y)}}, serial);
}

ge::graphStatus EltwiseF32(gert::EagerOpExecutionContext *ctx, dnnl::algorithm alg, const gert::Tensor &x,
                           gert::Tensor &y) {
  try {
    EltwiseF32(alg, x.GetData<float>(), y.GetData<float>(), x.GetShapeSize());
  } catch (const dnnl::error &e) {
    return Fail(ctx, std::string("oneDNN eltwise failed: ") + e.what());
  }
  return ge::GRAPH_SUCCESS;
}

}  // namespace openatc_ops
