// Helpers of the quantized ONNX ops (ops/common/quant_util.h).
#include "common/quant_util.h"

#include <string>

namespace openatc_ops {

bool ReadScale(const gert::ExtendedKernelContext *ctx, const gert::Tensor *t, const char *what,
               std::vector<float> *out) {
  if (t == nullptr) return Fail(ctx, std::string("input ") + what + " is missing"), false;
  if (t->GetDataType() != ge::DT_FLOAT && t->GetDataType() != ge::DT_FLOAT16)
    return Fail(ctx, std::string(what) + " must be float32 or float16, got " + DtypeName(t->GetDataType())), false;
  const int64_t n = t->GetShapeSize();
  if (n < 1) return Fail(ctx, std::string(what) + " is empty; give one scale or one per channel"), false;
  if (t->GetDataType() == ge::DT_FLOAT)
    out->assign(t->GetData<float>(), t->GetData<float>() + n);
  else
    out->assign(t->GetData<half>(), t->GetData<half>() + n);
  return true;
}

bool ReadZeroPoint(const gert::ExtendedKernelContext *ctx, const gert::Tensor *t, const char *what,
                   std::vector<int32_t> *out) {
  if (t == nullptr) return *out = {0}, true;
  const ge::DataType d = t->GetDataType();
  int64_t lo = 0, hi = 0;
  if (!QuantRange(d, &lo, &hi))
    return Fail(ctx, std::string(what) + " must be uint8, int8, uint16, int16 or int32, got " + DtypeName(d)), false;
  if (t->GetShapeSize() < 1) return Fail(ctx, std::string(what) + " is empty"), false;
  *out = ReadInt8Like(*t);
  return true;
}

bool ResolveParamMap(const gert::ExtendedKernelContext *ctx, const Dims &x, const gert::Tensor *t, const char *what,
                     int64_t axis, int64_t block, QuantParamMap *m) {
  *m = QuantParamMap{};
  if (t == nullptr || t->GetShapeSize() == 1) return true;
  const Dims p = TensorDims(*t);
  int64_t a = 0;
  if (!NormalizeAxis(axis, static_cast<int64_t>(x.size()), &a))
    return Fail(ctx, "axis " + std::to_string(axis) + " is out of range for x " + DimsToString(x)), false;
  if (block < 0) return Fail(ctx, "block_size " + std::to_string(block) + " must be >= 0"), false;
  const size_t ax = static_cast<size_t>(a);
  m->per_tensor = false;
  m->ch = x[ax];
  m->inner = Prod(x, ax + 1, x.size());
  m->block = block;
  if (block == 0) {
    if (p.size() == 1 && p[0] == x[ax]) return true;
    return Fail(ctx, std::string(what) + " has shape " + DimsToString(p) + "; give a scalar or a 1-D tensor of " +
                         std::to_string(x[ax]) + " values (one per element of x's axis " + std::to_string(a) + ")"),
           false;
  }
  m->blocks = (x[ax] + block - 1) / block;
  Dims want = x;
  want[ax] = m->blocks;
  if (p == want) return true;
  return Fail(ctx, std::string(what) + " has shape " + DimsToString(p) + "; blocked quantization (block_size " +
                       std::to_string(block) + " on axis " + std::to_string(a) + ") wants " + DimsToString(want)),
         false;
}

bool CheckParamCount(const gert::ExtendedKernelContext *ctx, const gert::Tensor *t, const char *what, int64_t n,
                     const char *of) {
  if (t == nullptr) return true;
  const Dims d = TensorDims(*t);
  const int64_t c = t->GetShapeSize();
  if (c == 1 && d.size() <= 1) return true;
  if (d.size() == 1 && c == n) return true;
  return Fail(ctx, std::string(what) + " has shape " + DimsToString(d) + "; give a scalar or a 1-D tensor of " +
                       std::to_string(n) + " values (" + of + ")"),
         false;
}

bool ResolveQuantMaps(gert::EagerOpExecutionContext *ctx, const gert::Tensor &x, const gert::Tensor *scale,
                      const char *scale_name, const gert::Tensor *zero_point, const char *zp_name, int64_t axis,
                      int64_t block, ge::DataType y_dtype, QuantMaps *m) {
  m->dims = TensorDims(x);
  if (!ResolveParamMap(ctx, m->dims, scale, scale_name, axis, block, &m->scale) ||
      !ResolveParamMap(ctx, m->dims, zero_point, zp_name, axis, block, &m->zero_point))
    return false;
  m->y = AllocChecked(ctx, 0, m->dims, y_dtype);
  return m->y != nullptr;
}

bool QuantRange(ge::DataType d, int64_t *lo, int64_t *hi) {
  switch (d) {
    case ge::DT_UINT8:
      *lo = 0;
      *hi = 255;
      return true;
    case ge::DT_INT8:
      *lo = -128;
      *hi = 127;
      return true;
    case ge::DT_UINT16:
      *lo = 0;
      *hi = 65535;
      return true;
    case ge::DT_INT16:
      *lo = -32768;
      *hi = 32767;
      return true;
    case ge::DT_INT32:
      *lo = INT32_MIN;
      *hi = INT32_MAX;
      return true;
    default: return false;
  }
}

std::vector<int32_t> ReadInt8Like(const gert::Tensor &t) {
  const int64_t n = t.GetShapeSize();
  std::vector<int32_t> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    switch (t.GetDataType()) {
      case ge::DT_UINT8: v[i] = t.GetData<uint8_t>()[i]; break;
      case ge::DT_INT8: v[i] = t.GetData<int8_t>()[i]; break;
      case ge::DT_UINT16: v[i] = t.GetData<uint16_t>()[i]; break;
      case ge::DT_INT16: v[i] = t.GetData<int16_t>()[i]; break;
      default: v[i] = t.GetData<int32_t>()[i]; break;
    }
  }
  return v;
}

void WriteQuantized(const std::vector<int64_t> &v, gert::Tensor *t) {
  for (size_t i = 0; i < v.size(); ++i) {
    switch (t->GetDataType()) {
      case ge::DT_UINT8: t->GetData<uint8_t>()[i] = static_cast<uint8_t>(v[i]); break;
      case ge::DT_INT8: t->GetData<int8_t>()[i] = static_cast<int8_t>(v[i]); break;
      case ge::DT_UINT16: t->GetData<uint16_t>()[i] = static_cast<uint16_t>(v[i]); break;
      case ge::DT_INT16: t->GetData<int16_t>()[i] = static_cast<int16_t>(v[i]); break;
      default: t->GetData<int32_t>()[i] = static_cast<int32_t>(v[i]); break;
    }
  }
}

void SubtractRowZeroPoint(std::vector<int32_t> *a, const Dims &ad, const std::vector<int32_t> &zp) {
  const int64_t k = ad.back(), m = ad.size() >= 2 ? ad[ad.size() - 2] : 1;
  for (size_t i = 0; i < a->size(); ++i)
    (*a)[i] -= zp.size() == 1 ? zp[0] : zp[static_cast<size_t>((static_cast<int64_t>(i) / k) % m)];
}

void SubtractColZeroPoint(std::vector<int32_t> *b, const Dims &bd, const std::vector<int32_t> &zp) {
  const int64_t n = bd.size() >= 2 ? bd.back() : 1;
  for (size_t i = 0; i < b->size(); ++i)
    (*b)[i] -= zp.size() == 1 ? zp[0] : zp[static_cast<size_t>(static_cast<int64_t>(i) % n)];
}

// Reads an 8-bit operand and shifts it by its zero point (per row for A, per column for B).
bool ShiftedMatMulOperand(const gert::ExtendedKernelContext *ctx, const gert::Tensor *x, const gert::Tensor *zt,
                          bool is_a, std::vector<int32_t> *v, Dims *d) {
  const char *name = is_a ? "A" : "B", *zname = is_a ? "a_zero_point" : "b_zero_point";
  if (x == nullptr) return Fail(ctx, std::string("input ") + name + " is missing"), false;
  const ge::DataType dt = x->GetDataType();
  if (dt != ge::DT_UINT8 && dt != ge::DT_INT8)
    return Fail(ctx, std::string(name) + " must be uint8 or int8, got " + DtypeName(dt)), false;
  std::vector<int32_t> zp;
  if (!ReadZeroPoint(ctx, zt, zname, &zp)) return false;
  if (zt != nullptr && zt->GetDataType() != dt)
    return Fail(ctx, std::string(zname) + "'s dtype differs from " + name + "'s"), false;
  *d = TensorDims(*x);
  if (d->empty()) return Fail(ctx, std::string(name) + " must have rank >= 1"), false;
  const int64_t n = is_a ? (d->size() >= 2 ? (*d)[d->size() - 2] : 1) : (d->size() >= 2 ? d->back() : 1);
  if (!CheckParamCount(ctx, zt, zname, n, is_a ? "one per row of A" : "one per column of B")) return false;
  *v = ReadInt8Like(*x);
  if (is_a)
    SubtractRowZeroPoint(v, *d, zp);
  else
    SubtractColZeroPoint(v, *d, zp);
  return true;
}

std::string IntMatMulDims(const Dims &ad0, const Dims &bd0, Dims *yd) {
  if (ad0.empty() || bd0.empty()) return "A and B must have rank >= 1";
  Dims ad = ad0, bd = bd0;
  if (ad.size() == 1) ad.insert(ad.begin(), 1);
  if (bd.size() == 1) bd.push_back(1);
  const int64_t k = ad.back();
  if (bd[bd.size() - 2] >= 0 && k >= 0 && bd[bd.size() - 2] != k)
    return "A " + DimsToString(ad0) + " and B " + DimsToString(bd0) + " do not agree on the inner dimension";
  if (!BroadcastDims(Dims(ad.begin(), ad.end() - 2), Dims(bd.begin(), bd.end() - 2), yd))
    return "batch dims of A " + DimsToString(ad0) + " and B " + DimsToString(bd0) + " do not broadcast";
  if (ad0.size() > 1) yd->push_back(ad[ad.size() - 2]);
  if (bd0.size() > 1) yd->push_back(bd.back());
  return "";
}

std::string IntMatMul(const std::vector<int32_t> &a, const Dims &ad0, const std::vector<int32_t> &b, const Dims &bd0,
                      std::vector<int32_t> *y, Dims *yd) {
  const std::string err = IntMatMulDims(ad0, bd0, yd);
  if (!err.empty()) return err;
  Dims ad = ad0, bd = bd0;
  if (ad.size() == 1) ad.insert(ad.begin(), 1);
  if (bd.size() == 1) bd.push_back(1);
  const int64_t m = ad[ad.size() - 2], k = ad.back(), n = bd.back();
  const Dims ab(ad.begin(), ad.end() - 2), bb(bd.begin(), bd.end() - 2);
  Dims batch;
  BroadcastDims(ab, bb, &batch);
  const std::vector<int64_t> as = BroadcastStrides(ab, batch), bs = BroadcastStrides(bb, batch);
  const int64_t nb = NumElements(batch);
  y->assign(static_cast<size_t>(nb * m * n), 0);
  for (int64_t bi = 0; bi < nb; ++bi) {
    int64_t ao = 0, bo = 0, rem = bi;
    for (size_t d = batch.size(); d-- > 0;) {
      const int64_t c = rem % batch[d];
      rem /= batch[d];
      ao += c * as[d];
      bo += c * bs[d];
    }
    const int32_t *pa = a.data() + ao * m * k, *pb = b.data() + bo * k * n;
    int32_t *py = y->data() + bi * m * n;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t kk = 0; kk < k; ++kk)
        for (int64_t j = 0; j < n; ++j)  // int32 sums wrap (two's complement) rather than overflow
          py[i * n + j] = static_cast<int32_t>(static_cast<uint32_t>(py[i * n + j]) +
                                               static_cast<uint32_t>(pa[i * k + kk] * pb[kk * n + j]));
  }
  return "";
}

std::string IntConvShape(const gert::ExtendedKernelContext *ctx, size_t base, const Dims &x, const Dims &w, Window *win,
                         int64_t *group, Dims *y) {
  if (x.size() < 3 || x.size() > 5) return "x must have rank 3, 4 or 5 (N, C, spatial...); got " + DimsToString(x);
  if (w.size() != x.size()) return "w " + DimsToString(w) + " must have the rank of x " + DimsToString(x);
  *group = AttrInt(ctx, base + 2, 1);
  if (*group < 1) return "group " + std::to_string(*group) + " must be >= 1";
  WindowAttrs a;
  a.kernel = AttrInts(ctx, base + 3);
  const Dims wk(w.begin() + 2, w.end());
  if (a.kernel.empty()) a.kernel = wk;
  if (a.kernel != wk)
    return "kernel_shape " + DimsToString(a.kernel) + " differs from w's spatial dims " + DimsToString(wk);
  a.auto_pad = AttrStr(ctx, base, "NOTSET");
  a.dilations = AttrInts(ctx, base + 1);
  a.pads = AttrInts(ctx, base + 4);
  a.strides = AttrInts(ctx, base + 5);
  if (w[0] >= 0 && w[0] % *group != 0)
    return "w's output channels " + std::to_string(w[0]) + " are not a multiple of group " + std::to_string(*group);
  if (x[1] >= 0 && w[1] >= 0 && x[1] != w[1] * *group)
    return "x has " + std::to_string(x[1]) + " channels but w " + DimsToString(w) + " with group " +
           std::to_string(*group) + " expects " + std::to_string(w[1] * *group);
  *y = {x[0], w[0]};
  const std::string err = ResolveWindow(Dims(x.begin() + 2, x.end()), a, win);
  if (!err.empty()) return err;
  y->insert(y->end(), win->out.begin(), win->out.end());
  return "";
}

namespace {
// Sum over one output element (n, m, spatial position `pos`) of the group's channels and the kernel.
int32_t ConvPoint(const std::vector<int32_t> &x, const Dims &xd, const std::vector<int32_t> &w, const Dims &wd,
                  const Window &win, int64_t n, int64_t m, int64_t cg, const Dims &pos) {
  const size_t s = pos.size();
  const int64_t c_in = wd[1], ksize = Prod(wd, 2, wd.size()), xsp = Prod(xd, 2, xd.size());
  uint32_t acc = 0;  // int32 sums wrap (two's complement) rather than overflow
  Dims kc(s);
  for (int64_t kf = 0; kf < ksize; ++kf) {
    int64_t rem = kf, xoff = 0;
    bool inside = true;
    for (size_t d = s; d-- > 0;) {
      kc[d] = rem % wd[2 + d];
      rem /= wd[2 + d];
    }
    for (size_t d = 0; d < s && inside; ++d) {
      const int64_t xi = pos[d] * win.strides[d] - win.pads_begin[d] + kc[d] * win.dilations[d];
      inside = xi >= 0 && xi < xd[2 + d];
      xoff = xoff * xd[2 + d] + xi;
    }
    if (!inside) continue;
    for (int64_t c = 0; c < c_in; ++c)
      acc += static_cast<uint32_t>(x[static_cast<size_t>((n * xd[1] + cg * c_in + c) * xsp + xoff)] *
                                   w[static_cast<size_t>((m * c_in + c) * ksize + kf)]);
  }
  return static_cast<int32_t>(acc);
}
}  // namespace

void IntConv(const std::vector<int32_t> &x, const Dims &xd, const std::vector<int32_t> &w, const Dims &wd,
             const Window &win, int64_t group, const Dims &yd, std::vector<int32_t> *y) {
  const int64_t osp = Prod(yd, 2, yd.size()), m_per_group = wd[0] / group;
  const size_t s = yd.size() - 2;
  y->assign(static_cast<size_t>(NumElements(yd)), 0);
  Dims pos(s);
  for (int64_t n = 0; n < yd[0]; ++n)
    for (int64_t m = 0; m < yd[1]; ++m)
      for (int64_t o = 0; o < osp; ++o) {
        int64_t rem = o;
        for (size_t d = s; d-- > 0;) {
          pos[d] = rem % yd[2 + d];
          rem /= yd[2 + d];
        }
        (*y)[static_cast<size_t>((n * yd[1] + m) * osp + o)] = ConvPoint(x, xd, w, wd, win, n, m, m / m_per_group, pos);
      }
}

}  // namespace openatc_ops

namespace openatc_ops {

bool ShiftedConv(const gert::ExtendedKernelContext *ctx, const gert::Tensor *x, const gert::Tensor *xzt,
                 const gert::Tensor *w, const gert::Tensor *wzt, std::vector<int32_t> *acc, Dims *yd) {
  if (x == nullptr || w == nullptr) return Fail(ctx, "inputs x and w are required"), false;
  for (const gert::Tensor *t : {x, w})
    if (t->GetDataType() != ge::DT_UINT8 && t->GetDataType() != ge::DT_INT8)
      return Fail(ctx, std::string(t == x ? "x" : "w") + " must be uint8 or int8, got " + DtypeName(t->GetDataType())),
             false;
  const Dims xd = TensorDims(*x), wd = TensorDims(*w);
  Window win;
  int64_t group = 1;
  const std::string err = IntConvShape(ctx, 0, xd, wd, &win, &group, yd);
  if (!err.empty()) return Fail(ctx, err), false;
  std::vector<int32_t> xz, wz;
  if (!ReadZeroPoint(ctx, xzt, "x_zero_point", &xz) || !ReadZeroPoint(ctx, wzt, "w_zero_point", &wz) ||
      !CheckParamCount(ctx, xzt, "x_zero_point", 1, "one for x") ||
      !CheckParamCount(ctx, wzt, "w_zero_point", wd[0], "one per output channel"))
    return false;
  std::vector<int32_t> xv = ReadInt8Like(*x), wv = ReadInt8Like(*w);
  for (int32_t &v : xv) v -= xz[0];
  const int64_t per_m = Prod(wd, 1, wd.size());
  for (size_t i = 0; i < wv.size(); ++i)
    wv[i] -= wz[wz.size() > 1 ? static_cast<size_t>(static_cast<int64_t>(i) / per_m) : 0];
  IntConv(xv, xd, wv, wd, win, group, *yd, acc);
  return true;
}

ge::graphStatus IntConvInferShape(gert::InferShapeContext *ctx, size_t x_index, size_t w_index) {
  const gert::Shape *x = ctx->GetInputShape(x_index), *w = ctx->GetInputShape(w_index);
  if (x == nullptr || w == nullptr) return Fail(ctx, "inputs x and w expected");
  const Dims xd = ToDims(*x), wd = ToDims(*w);
  Dims yd;
  if (xd.size() == 1 && xd[0] == -2) {  // unknown rank
    yd = xd;
  } else if (NumElements(Dims(wd.begin() + std::min<size_t>(2, wd.size()), wd.end())) < 0 || xd.size() < 3) {
    yd.assign(std::max<size_t>(xd.size(), 3), -1);
  } else {
    Window win;
    int64_t group = 1;
    const std::string err = IntConvShape(ctx, 0, xd, wd, &win, &group, &yd);
    if (!err.empty()) return Fail(ctx, err);
  }
  *ctx->GetOutputShape(0) = ToShape(yd);
  return ge::GRAPH_SUCCESS;
}

}  // namespace openatc_ops
