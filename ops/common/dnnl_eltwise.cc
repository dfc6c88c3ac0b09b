// Unary float32 maps on oneDNN's eltwise primitive (see dnnl_eltwise.h).
#include "common/dnnl_eltwise.h"

#include <optional>

namespace openatc_ops {

void EltwiseF32(dnnl::algorithm alg, const float *x, float *y, int64_t n) {
  if (n <= 0) return;
  // Shared by every op and node of the process; the cache locks itself.
  static dnnl_util::PrimitiveCache<dnnl::eltwise_forward> cache;
  const bool serial = dnnl_util::ApplyThreadCount() > 1 &&
                      2 * static_cast<size_t>(n) * sizeof(float) <= dnnl_util::kSerialMemoryBoundBytes;
  const int threads = serial ? 1 : dnnl_util::ApplyThreadCount();
  dnnl_util::Key key;
  key.Add("alg", static_cast<int64_t>(alg)).Add("n", n).Add("t", threads);
  const dnnl::memory::desc md = dnnl_util::PlainF32(Dims{n});
  auto prim = cache.Get(key, [&] {
    std::optional<dnnl_util::SerialScope> scope;
    if (serial) scope.emplace();
    dnnl::eltwise_forward::desc d(dnnl::prop_kind::forward_inference, alg, md, 0.0f, 0.0f);
    return dnnl::eltwise_forward(dnnl::eltwise_forward::primitive_desc(d, dnnl_util::Engine()));
  });
  const std::unordered_map<int, dnnl::memory> args = {{DNNL_ARG_SRC, dnnl_util::Wrap(md, x)},
                                                      {DNNL_ARG_DST, dnnl_util::Wrap(md, y)}};
  if (serial)
    dnnl_util::RunSerial(*prim, args);
  else
    dnnl_util::Run(*prim, args);
}

}  // namespace openatc_ops
