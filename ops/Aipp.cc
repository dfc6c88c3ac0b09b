// Aipp: the image preprocessing atc inserts behind a model input for --insert_op_conf
// (atc/driver/src/aipp_insert.cc; docs/atc-deploy-flags.md §2). A built-in op of ops/ because it
// is an ordinary operator that runs where every other op runs; the driver only places it.
//
// Input `images`: uint8 NHWC [N, H, W, C] with C = 3 (RGB888_U8), 4 (XRGB8888_U8), 1 (YUV400_U8);
// YUV420SP_U8 is [N, H * 3 / 2, W, 1] (the Y plane, then the interleaved UV plane, U first).
// Per output pixel, in the chip's order: crop (a window of the source), R/B or U/V swap, CSC,
// data-type conversion (v - mean - min) * var_reci per channel with min and var_reci rounded to
// fp16, then padding with `padding_value` (written as is). CSC, with M the 3x3 matrix:
//   YUV input: out_i = (sum_j M_ij * (in_j - input_bias_j)) >> 8
//   RGB input: out_i = ((sum_j M_ij * in_j) >> 8) + output_bias_i
// (>> is an arithmetic shift, i.e. floor division by 256), then clamped to [0, 255]. A uint8
// output skips the conversion, as the chip does. The chroma of a YUV420SP pixel is the UV pair of
// its 2x2 luma block (replication).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "common/movement.h"

namespace ge {
REG_OP(Aipp)
    .INPUT(images, TensorType({DT_UINT8}))
    .OPTIONAL_INPUT(params, TensorType({DT_UINT8}))  // dynamic AIPP: the 64 + 96 * N byte parameter buffer
    .OUTPUT(features, TensorType({DT_FLOAT, DT_FLOAT16, DT_UINT8}))
    .REQUIRED_ATTR(input_format, Int)      // GE proto numbering: 1 YUV420SP, 2 XRGB, 3 RGB888, 4 YUV400
    .ATTR(crop, ListInt, {})                // [start_w, start_h, size_w, size_h]; empty: no crop
    .ATTR(padding, ListInt, {})             // [top, bottom, left, right]; empty: none
    .ATTR(padding_value, Float, 0.0f)
    .ATTR(csc_switch, Int, 0)
    .ATTR(rbuv_swap_switch, Int, 0)
    .ATTR(ax_swap_switch, Int, 0)
    .ATTR(matrix, ListInt, {})              // r0c0..r2c2
    .ATTR(output_bias, ListInt, {})
    .ATTR(input_bias, ListInt, {})
    .ATTR(mean_chn, ListInt, {})
    .ATTR(min_chn, ListFloat, {})
    .ATTR(var_reci_chn, ListFloat, {})
    .REQUIRED_ATTR(output_dtype, Int)       // ge::DataType of `features`
    .REQUIRED_ATTR(output_format, String)   // "NCHW" or "NHWC"
    .ATTR(output_dims, ListInt, {})         // dynamic AIPP: the model input's dims (what the buffer must give)
    .OP_END_FACTORY_REG(Aipp);
}  // namespace ge

namespace openatc_ops {
namespace {

enum Format { kYuv420sp = 1, kXrgb = 2, kRgb888 = 3, kYuv400 = 4 };

struct Params {
  int64_t format = 0;
  int64_t src_w = 0, src_h = 0, src_c = 0;
  int64_t crop_x = 0, crop_y = 0, crop_w = 0, crop_h = 0;
  int64_t top = 0, bottom = 0, left = 0, right = 0;
  float pad_value = 0.0f;
  bool csc = false, swap = false, ax = false;
  int64_t m[9] = {}, ob[3] = {}, ib[3] = {}, mean[4] = {};
  float min[4] = {}, var[4] = {1.0f, 1.0f, 1.0f, 1.0f};
  ge::DataType out_dtype = ge::DT_FLOAT;
  bool nchw = true;
  int64_t channels() const { return format == kYuv400 ? 1 : 3; }
  int64_t out_w() const { return crop_w + left + right; }
  int64_t out_h() const { return crop_h + top + bottom; }
};

bool Bad(const gert::ExtendedKernelContext *ctx, const std::string &what) {
  Fail(ctx, what);
  return false;
}

float Fp16(float v) { return static_cast<float>(static_cast<half>(v)); }

void Copy(const std::vector<int64_t> &v, int64_t *dst, size_t n) {
  for (size_t i = 0; i < n && i < v.size(); ++i) dst[i] = v[i];
}

// The attributes and the source size from the `images` dims; false with a message if invalid.
bool ReadParams(const gert::ExtendedKernelContext *ctx, const Dims &in, Params *p) {
  p->format = AttrInt(ctx, 0, 0);
  if (p->format < kYuv420sp || p->format > kYuv400)
    return Bad(ctx, "input_format " + std::to_string(p->format) + " is not supported (1..4)");
  const int64_t want_c = p->format == kXrgb ? 4 : (p->format == kRgb888 ? 3 : 1);
  if (in.size() != 4 || in[3] != want_c || in[1] <= 0 || in[2] <= 0)
    return Bad(ctx, "images must be uint8 [N, H, W, " + std::to_string(want_c) + "], not " + DimsToString(in));
  p->src_w = in[2];
  p->src_h = p->format == kYuv420sp ? in[1] * 2 / 3 : in[1];
  if (p->format == kYuv420sp && (in[1] % 3 != 0 || p->src_h % 2 != 0 || p->src_w % 2 != 0))
    return Bad(ctx, "a YUV420SP image needs even H and W (images [N, H * 3 / 2, W, 1]), not " + DimsToString(in));
  p->src_c = want_c;
  const std::vector<int64_t> crop = AttrInts(ctx, 1), pad = AttrInts(ctx, 2);
  p->crop_w = p->src_w, p->crop_h = p->src_h;
  if (crop.size() == 4) p->crop_x = crop[0], p->crop_y = crop[1], p->crop_w = crop[2], p->crop_h = crop[3];
  if (p->crop_x < 0 || p->crop_y < 0 || p->crop_w <= 0 || p->crop_h <= 0 || p->crop_x + p->crop_w > p->src_w ||
      p->crop_y + p->crop_h > p->src_h)
    return Bad(ctx, "the crop window lies outside the " + std::to_string(p->src_w) + "x" + std::to_string(p->src_h) +
                         " image");
  if (pad.size() == 4) p->top = pad[0], p->bottom = pad[1], p->left = pad[2], p->right = pad[3];
  p->pad_value = AttrFloat(ctx, 3, 0.0f);
  p->csc = AttrInt(ctx, 4, 0) != 0, p->swap = AttrInt(ctx, 5, 0) != 0, p->ax = AttrInt(ctx, 6, 0) != 0;
  Copy(AttrInts(ctx, 7), p->m, 9), Copy(AttrInts(ctx, 8), p->ob, 3), Copy(AttrInts(ctx, 9), p->ib, 3);
  Copy(AttrInts(ctx, 10), p->mean, 4);
  const std::vector<float> mn = AttrFloats(ctx, 11), vr = AttrFloats(ctx, 12);
  for (size_t c = 0; c < 4; ++c) {
    if (c < mn.size()) p->min[c] = Fp16(mn[c]);
    if (c < vr.size()) p->var[c] = Fp16(vr[c]);
  }
  p->out_dtype = static_cast<ge::DataType>(AttrInt(ctx, 13, ge::DT_FLOAT));
  p->nchw = AttrStr(ctx, 14, "NCHW") != "NHWC";
  return true;
}

// Channels of source pixel (x, y) of image `img` after the swap and CSC (values 0..255).
void SourcePixel(const Params &p, const uint8_t *img, int64_t x, int64_t y, int64_t out[3]) {
  int64_t v[3] = {0, 0, 0};
  if (p.format == kYuv420sp) {
    const uint8_t *uv = img + p.src_w * p.src_h + (y / 2) * p.src_w + (x / 2) * 2;
    v[0] = img[y * p.src_w + x], v[1] = uv[0], v[2] = uv[1];
  } else {
    const uint8_t *px = img + (y * p.src_w + x) * p.src_c;
    const int64_t skip = p.format == kXrgb && p.ax ? 1 : 0;  // ax_swap: the X byte comes first
    for (int64_t c = 0; c < p.channels(); ++c) v[c] = px[c + skip];
  }
  if (p.swap && p.format == kYuv420sp) std::swap(v[1], v[2]);
  if (p.swap && (p.format == kRgb888 || p.format == kXrgb)) std::swap(v[0], v[2]);
  for (int64_t c = 0; c < 3; ++c) out[c] = v[c];
  if (!p.csc || p.format == kYuv400) return;
  const bool yuv = p.format == kYuv420sp;
  for (int64_t i = 0; i < 3; ++i) {
    int64_t acc = 0;
    for (int64_t j = 0; j < 3; ++j) acc += p.m[i * 3 + j] * (yuv ? v[j] - p.ib[j] : v[j]);
    int64_t r = acc >> 8;  // arithmetic shift: floor(acc / 256)
    if (!yuv) r += p.ob[i];
    out[i] = std::clamp<int64_t>(r, 0, 255);
  }
}

template <typename T>
void RunImage(const Params &p, const uint8_t *img, T *base) {
  const int64_t oh = p.out_h(), ow = p.out_w(), oc = p.channels();
  const bool convert = p.out_dtype != ge::DT_UINT8;
  for (int64_t y = 0; y < oh; ++y) {
    for (int64_t x = 0; x < ow; ++x) {
      const bool pad = y < p.top || y >= p.top + p.crop_h || x < p.left || x >= p.left + p.crop_w;
      int64_t v[3] = {0, 0, 0};
      if (!pad) SourcePixel(p, img, p.crop_x + x - p.left, p.crop_y + y - p.top, v);
      for (int64_t c = 0; c < oc; ++c) {
        float value = pad ? p.pad_value : static_cast<float>(v[c]);
        if (!pad && convert) value = (static_cast<float>(v[c] - p.mean[c]) - p.min[c]) * p.var[c];
        const int64_t at = p.nchw ? (c * oh + y) * ow + x : (y * ow + x) * oc + c;
        base[at] = static_cast<T>(value);
      }
    }
  }
}

int64_t ImageBytes(const Params &p) {
  return p.format == kYuv420sp ? p.src_w * p.src_h * 3 / 2 : p.src_w * p.src_h * p.src_c;
}

// Image `n` of the batch with its parameters into its slice of the output.
void RunOne(const Params &p, const uint8_t *images, int64_t n, void *out) {
  const uint8_t *img = images + n * ImageBytes(p);
  const int64_t per = p.out_h() * p.out_w() * p.channels();
  switch (p.out_dtype) {
    case ge::DT_FLOAT: RunImage(p, img, static_cast<float *>(out) + n * per); break;
    case ge::DT_FLOAT16: RunImage(p, img, static_cast<half *>(out) + n * per); break;
    default: RunImage(p, img, static_cast<uint8_t *>(out) + n * per); break;
  }
}

// --- dynamic AIPP: the parameter buffer (64-byte head + 96 bytes per image, little-endian) ---
template <typename T>
T At(const uint8_t *b, size_t off) {
  T v;
  std::memcpy(&v, b + off, sizeof(T));
  return v;
}

float HalfBits(uint16_t bits) {
  half h;
  std::memcpy(&h, &bits, 2);
  return static_cast<float>(h);
}

// The input format from the buffer's CCE code (1 YUV420SP, 2 XRGB, 5 RGB888, 10 YUV400).
int64_t FormatFromCce(uint8_t code) {
  switch (code) {
    case 1: return kYuv420sp;
    case 2: return kXrgb;
    case 5: return kRgb888;
    case 10: return kYuv400;
    default: return 0;
  }
}

// One Params per image of the batch from `buf`, checked against the model dims `md` and the
// `image_bytes` the images input holds; false with a message if the buffer does not fit.
bool ReadDynamic(const gert::ExtendedKernelContext *ctx, const gert::Tensor &params, const Params &common,
                 const Dims &md, int64_t image_bytes, std::vector<Params> *out) {
  const int64_t n = md[0];
  const auto *b = static_cast<const uint8_t *>(params.GetAddr());
  const int64_t size = params.GetShapeSize();
  if (b == nullptr || size < 64 + 96 * n)
    return Bad(ctx, "the dynamic AIPP parameters hold " + std::to_string(size) + " bytes, a batch of " +
                        std::to_string(n) + " needs " + std::to_string(64 + 96 * n));
  Params head = common;
  head.format = FormatFromCce(b[0]);
  if (head.format == 0) return Bad(ctx, "dynamic AIPP input format code " + std::to_string(b[0]) + " is not supported");
  head.csc = b[1] != 0, head.swap = b[2] != 0, head.ax = b[3] != 0;
  if (static_cast<int8_t>(b[4]) != n)
    return Bad(ctx, "the dynamic AIPP parameters are for a batch of " + std::to_string(static_cast<int8_t>(b[4])) +
                        ", the model input has " + std::to_string(n));
  head.src_w = At<int32_t>(b, 8), head.src_h = At<int32_t>(b, 12);
  head.src_c = head.format == kXrgb ? 4 : (head.format == kRgb888 ? 3 : 1);
  for (size_t i = 0; i < 9; ++i) head.m[i] = At<int16_t>(b, 16 + 2 * i);
  for (size_t i = 0; i < 3; ++i) head.ob[i] = b[40 + i], head.ib[i] = b[43 + i];
  if (head.format == kYuv420sp && (head.src_w % 2 != 0 || head.src_h % 2 != 0))
    return Bad(ctx, "a dynamic AIPP YUV420SP source needs an even width and height, not " +
                        std::to_string(head.src_w) + "x" + std::to_string(head.src_h));
  if (head.src_w <= 0 || head.src_h <= 0 || ImageBytes(head) * n > image_bytes)
    return Bad(ctx, "dynamic AIPP source " + std::to_string(head.src_w) + "x" + std::to_string(head.src_h) + " x " +
                        std::to_string(n) + " does not fit the " + std::to_string(image_bytes) + "-byte image input");
  const int64_t mh = head.nchw ? md[2] : md[1], mw = head.nchw ? md[3] : md[2], mc = head.nchw ? md[1] : md[3];
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t *r = b + 64 + 96 * i;
    Params p = head;
    p.crop_x = 0, p.crop_y = 0, p.crop_w = p.src_w, p.crop_h = p.src_h;
    if (r[0] != 0) p.crop_x = At<int32_t>(r, 8), p.crop_y = At<int32_t>(r, 12), p.crop_w = At<int32_t>(r, 16),
                   p.crop_h = At<int32_t>(r, 20);
    p.top = p.bottom = p.left = p.right = 0;
    if (r[2] != 0) p.top = At<int32_t>(r, 40), p.bottom = At<int32_t>(r, 44), p.left = At<int32_t>(r, 48),
                   p.right = At<int32_t>(r, 52);
    for (size_t c = 0; c < 4; ++c) {
      p.mean[c] = At<int16_t>(r, 56 + 2 * c);
      p.min[c] = HalfBits(At<uint16_t>(r, 64 + 2 * c));
      p.var[c] = HalfBits(At<uint16_t>(r, 72 + 2 * c));
    }
    if (p.crop_x < 0 || p.crop_y < 0 || p.crop_w <= 0 || p.crop_h <= 0 || p.crop_x + p.crop_w > p.src_w ||
        p.crop_y + p.crop_h > p.src_h || p.top < 0 || p.bottom < 0 || p.left < 0 || p.right < 0)
      return Bad(ctx, "image " + std::to_string(i) + ": the dynamic AIPP crop or padding lies outside the image");
    if (p.out_h() != mh || p.out_w() != mw || p.channels() != mc)
      return Bad(ctx, "image " + std::to_string(i) + ": dynamic AIPP gives " + std::to_string(p.out_w()) + "x" +
                          std::to_string(p.out_h()) + "x" + std::to_string(p.channels()) + " (WxHxC), the model input is " +
                          std::to_string(mw) + "x" + std::to_string(mh) + "x" + std::to_string(mc));
    out->push_back(p);
  }
  return true;
}

}  // namespace

class Aipp : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const auto dt = static_cast<ge::DataType>(AttrInt(ctx, 13, ge::DT_FLOAT));
    if (dt != ge::DT_FLOAT && dt != ge::DT_FLOAT16 && dt != ge::DT_UINT8)
      return Fail(ctx, "output_dtype must be float32, float16 or uint8, not " + DtypeName(dt));
    return ctx->SetOutputDataType(0, dt);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "one input expected");
    const Dims model = AttrInts(ctx, 15);
    if (!model.empty()) {  // dynamic: the buffer must produce the model's dims
      *ctx->GetOutputShape(0) = ToShape(model);
      return ge::GRAPH_SUCCESS;
    }
    Params p;
    if (!ReadParams(ctx, ToDims(*x), &p)) return ge::GRAPH_FAILED;
    *ctx->GetOutputShape(0) = ToShape(OutDims(p, ToDims(*x)[0]));
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr || x->GetDataType() != ge::DT_UINT8) return Fail(ctx, "one uint8 input expected");
    const gert::Tensor *params = ctx->GetOptionalInputTensor(1);
    const auto *src = static_cast<const uint8_t *>(x->GetAddr());
    std::vector<Params> images;
    Dims out_dims;
    if (params != nullptr) {
      Params common;
      common.out_dtype = static_cast<ge::DataType>(AttrInt(ctx, 13, ge::DT_FLOAT));
      common.nchw = AttrStr(ctx, 14, "NCHW") != "NHWC";
      common.pad_value = AttrFloat(ctx, 3, 0.0f);
      out_dims = AttrInts(ctx, 15);
      if (out_dims.size() != 4) return Fail(ctx, "dynamic AIPP needs output_dims of 4 dims");
      if (!ReadDynamic(ctx, *params, common, out_dims, x->GetShapeSize(), &images))
        return ge::GRAPH_FAILED;
    } else {
      Params p;
      const Dims in = TensorDims(*x);
      if (!ReadParams(ctx, in, &p)) return ge::GRAPH_FAILED;
      images.assign(static_cast<size_t>(in[0]), p);
      out_dims = OutDims(p, in[0]);
    }
    gert::Tensor *y = AllocChecked(ctx, 0, out_dims, images.empty() ? ge::DT_FLOAT : images[0].out_dtype);
    if (y == nullptr) return ge::GRAPH_FAILED;
    for (size_t n = 0; n < images.size(); ++n) RunOne(images[n], src, static_cast<int64_t>(n), y->GetAddr());
    return ge::GRAPH_SUCCESS;
  }

 private:
  static Dims OutDims(const Params &p, int64_t n) {
    return p.nchw ? Dims{n, p.channels(), p.out_h(), p.out_w()} : Dims{n, p.out_h(), p.out_w(), p.channels()};
  }
};
REG_AUTO_MAPPING_OP(Aipp);

}  // namespace openatc_ops
