// Pooling on oneDNN and the plain max-pool loop with indices (see dnnl_pool.h).
#include "common/dnnl_pool.h"

#include <limits>
#include <string>

namespace openatc_ops {
namespace {
Dims Pad3(const Dims &v, int64_t fill) {
  Dims r(3 - v.size(), fill);
  r.insert(r.end(), v.begin(), v.end());
  return r;
}

template <typename T>
void MaxPoolLoop(const T *x, T *y, int64_t *ind, int64_t nc, const Dims &in, const Dims &out, const Window &w3,
                 bool column_major) {
  const int64_t isz = in[0] * in[1] * in[2], osz = out[0] * out[1] * out[2];
  for (int64_t c = 0; c < nc; ++c) {
    const T *xc = x + c * isz;
    for (int64_t od = 0; od < out[0]; ++od)
      for (int64_t oh = 0; oh < out[1]; ++oh)
        for (int64_t ow = 0; ow < out[2]; ++ow) {
          T best = std::numeric_limits<T>::lowest();
          if constexpr (std::is_floating_point_v<T>) best = -std::numeric_limits<T>::infinity();
          int64_t arg = -1;
          for (int64_t kd = 0; kd < w3.kernel[0]; ++kd) {
            const int64_t d = od * w3.strides[0] - w3.pads_begin[0] + kd * w3.dilations[0];
            if (d < 0 || d >= in[0]) continue;
            for (int64_t kh = 0; kh < w3.kernel[1]; ++kh) {
              const int64_t h = oh * w3.strides[1] - w3.pads_begin[1] + kh * w3.dilations[1];
              if (h < 0 || h >= in[1]) continue;
              for (int64_t kw = 0; kw < w3.kernel[2]; ++kw) {
                const int64_t ww = ow * w3.strides[2] - w3.pads_begin[2] + kw * w3.dilations[2];
                if (ww < 0 || ww >= in[2]) continue;
                const T v = xc[(d * in[1] + h) * in[2] + ww];
                if (arg < 0 || v > best) {
                  best = v;
                  arg = column_major ? d + in[0] * (h + in[1] * ww) : (d * in[1] + h) * in[2] + ww;
                }
              }
            }
          }
          const int64_t o = c * osz + (od * out[1] + oh) * out[2] + ow;
          y[o] = best;
          if (ind) ind[o] = arg < 0 ? -1 : c * isz + arg;
        }
  }
}
// The pooling primitive descriptor of window `w` on `src` -> `dst`.
dnnl::pooling_v2_forward::primitive_desc PoolPd(const dnnl::memory::desc &src, const dnnl::memory::desc &dst,
                                               const Window &w, dnnl::algorithm alg) {
  Dims dil = w.dilations;
  for (auto &v : dil) v -= 1;  // oneDNN counts the gaps: 0 = dense
  dnnl::pooling_v2_forward::desc d(dnnl::prop_kind::forward_inference, alg, src, dst, dnnl_util::DnnlDims(w.strides),
                                   dnnl_util::DnnlDims(w.kernel), dnnl_util::DnnlDims(dil),
                                   dnnl_util::DnnlDims(w.pads_begin), dnnl_util::DnnlDims(w.pads_end));
  return dnnl::pooling_v2_forward::primitive_desc(d, dnnl_util::UserScratchpad(), dnnl_util::Engine());
}
}  // namespace

ge::graphStatus DnnlPool(gert::EagerOpExecutionContext *ctx, PoolCache &cache, const gert::Tensor &x, gert::Tensor &y,
                         const Window &w, dnnl::algorithm alg, int64_t chain_block) {
  const Dims xd = ToDims(x.GetStorageShape()), yd = ToDims(y.GetStorageShape());
  const bool chain = chain_block > 0;
  if (chain && (xd.size() != 4 || x.GetDataType() != ge::DT_FLOAT || xd[1] % chain_block != 0))
    return Fail(ctx, "openatc_chain_layout needs a 4-D float32 X whose channel count is a multiple of " +
                         std::to_string(chain_block) + "; X is " + DimsToString(xd));
  if (NumElements(yd) == 0) return ge::GRAPH_SUCCESS;
  try {
    const size_t bytes = static_cast<size_t>(NumElements(xd) + NumElements(yd)) * sizeof(float);
    const bool serial = dnnl_util::SerialMemoryBound(bytes);
    const int threads = dnnl_util::ThreadsFor(serial);
    dnnl_util::Key key;
    key.Add("x", xd).Add("y", yd).Add("k", w.kernel).Add("s", w.strides).Add("d", w.dilations)
        .Add("pb", w.pads_begin).Add("pe", w.pads_end).Add("a", static_cast<int64_t>(alg)).Add("t", threads)
        .Add("L", chain_block);
    auto entry = cache.Get(key, [&] {
      dnnl_util::SerialScope scope(serial);
      PoolEntry e;
      e.src = chain ? ChainF32(xd, chain_block) : dnnl_util::PlainF32(xd);
      e.dst = chain ? ChainF32(yd, chain_block) : dnnl_util::PlainF32(yd);
      auto pd = PoolPd(e.src, e.dst, w, alg);
      if (!chain && xd.size() == 4 && std::string(pd.impl_info_str()).rfind("jit", 0) != 0) {
        const int64_t b = ChainBlock(16);  // this CPU's widest (X's channels are padded to it in scratch)
        auto bpd = PoolPd(ChainF32(xd, b), ChainF32(yd, b), w, alg);
        if (std::string(bpd.impl_info_str()).rfind("jit", 0) == 0) {
          e.blocked = true;
          e.user_src = e.src;
          e.user_dst = e.dst;
          e.src = ChainF32(xd, b);
          e.dst = ChainF32(yd, b);
          dnnl_util::MakeReorder(e.user_src, e.src, &e.src_in);
          dnnl_util::MakeReorder(e.dst, e.user_dst, &e.dst_out);
          pd = bpd;
        }
      }
      e.prim = dnnl::pooling_v2_forward(pd);
      return e;
    });
    std::vector<float> sx, sy;
    const float *px = dnnl_util::AsF32(x, &sx);
    if (px == nullptr) return Fail(ctx, "X must be a float tensor with data");
    float *py = dnnl_util::OutF32(y, &sy);
    if (entry->blocked) {
      const dnnl::memory mx =
          dnnl_util::Wrap(entry->src, dnnl_util::Scratch(dnnl_util::ScratchSide::kSource, entry->src));
      const dnnl::memory my =
          dnnl_util::Wrap(entry->dst, dnnl_util::Scratch(dnnl_util::ScratchSide::kDestination, entry->dst));
      dnnl_util::Run(entry->src_in, {{DNNL_ARG_FROM, dnnl_util::Wrap(entry->user_src, px)}, {DNNL_ARG_TO, mx}}, serial);
      dnnl_util::Run(entry->prim, {{DNNL_ARG_SRC, mx}, {DNNL_ARG_DST, my}}, serial);
      dnnl_util::Run(entry->dst_out, {{DNNL_ARG_FROM, my}, {DNNL_ARG_TO, dnnl_util::Wrap(entry->user_dst, py)}}, serial);
    } else {
      dnnl_util::Run(entry->prim,
                     {{DNNL_ARG_SRC, dnnl_util::Wrap(entry->src, px)}, {DNNL_ARG_DST, dnnl_util::Wrap(entry->dst, py)}},
                     serial);
    }
    dnnl_util::StoreF32(sy, y);
  } catch (const dnnl::error &e) {
    return Fail(ctx, std::string("oneDNN pooling failed: ") + e.what());
  }
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus NaiveMaxPool(gert::EagerOpExecutionContext *ctx, const gert::Tensor &x, gert::Tensor &y,
                             const Window &w, bool column_major, gert::Tensor *indices) {
  const Dims xd = ToDims(x.GetStorageShape());
  if (xd.size() < 3 || xd.size() > 5) return Fail(ctx, "X must have rank 3, 4 or 5 for the max-pool loop");
  const Dims in = Pad3(Dims(xd.begin() + 2, xd.end()), 1), out = Pad3(w.out, 1);
  Window w3;
  w3.kernel = Pad3(w.kernel, 1);
  w3.strides = Pad3(w.strides, 1);
  w3.dilations = Pad3(w.dilations, 1);
  w3.pads_begin = Pad3(w.pads_begin, 0);
  int64_t *ind = indices ? indices->GetData<int64_t>() : nullptr;
  const int64_t nc = xd[0] * xd[1];
  switch (x.GetDataType()) {
    case ge::DT_FLOAT: MaxPoolLoop(x.GetData<float>(), y.GetData<float>(), ind, nc, in, out, w3, column_major); break;
    case ge::DT_DOUBLE: MaxPoolLoop(x.GetData<double>(), y.GetData<double>(), ind, nc, in, out, w3, column_major); break;
    case ge::DT_INT8: MaxPoolLoop(x.GetData<int8_t>(), y.GetData<int8_t>(), ind, nc, in, out, w3, column_major); break;
    case ge::DT_UINT8: MaxPoolLoop(x.GetData<uint8_t>(), y.GetData<uint8_t>(), ind, nc, in, out, w3, column_major); break;
    case ge::DT_FLOAT16: {
      std::vector<float> sx, sy;
      const float *px = dnnl_util::AsF32(x, &sx);
      float *py = dnnl_util::OutF32(y, &sy);
      MaxPoolLoop(px, py, ind, nc, in, out, w3, column_major);
      dnnl_util::StoreF32(sy, y);
      break;
    }
    default:
      return Fail(ctx, "X must be float32, float16, double, int8 or uint8");
  }
  return ge::GRAPH_SUCCESS;
}

}  // namespace openatc_ops
