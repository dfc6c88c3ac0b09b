// The opset-18+ cases of the spatial and signal ops (Col2Im-18, BitwiseAnd/Or/Xor/Not-18,
// GridSample-20, DFT-20) for newer_cases; expected values by plain loops written here, independent
// of ops/.
#include <onnx/defs/attr_proto_util.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "newer_model.h"

namespace openatc::newer {
namespace {

std::vector<float> Wave(size_t n, float scale) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = scale * static_cast<float>(std::sin(0.7 * static_cast<double>(i) + 0.3));
  return v;
}

// Col2Im of x [1, C * kh * kw, L] onto an h x w image (pads symmetric p, stride s, dilation 1).
std::vector<float> Col2Im2d(const std::vector<float> &x, int c_n, int h, int w, int kh, int kw, int p, int s) {
  const int ph = (h + 2 * p - kh) / s + 1, pw = (w + 2 * p - kw) / s + 1;
  std::vector<double> y(static_cast<size_t>(c_n * h * w), 0.0);
  for (int c = 0; c < c_n; ++c)
    for (int i = 0; i < kh; ++i)
      for (int j = 0; j < kw; ++j)
        for (int a = 0; a < ph; ++a)
          for (int b = 0; b < pw; ++b) {
            const int r = a * s - p + i, q = b * s - p + j;
            if (r < 0 || r >= h || q < 0 || q >= w) continue;
            y[static_cast<size_t>((c * h + r) * w + q)] +=
                x[static_cast<size_t>(((c * kh + i) * kw + j) * ph * pw + a * pw + b)];
          }
  return std::vector<float>(y.begin(), y.end());
}

void Col2ImCases(const std::string &root) {
  Case c("test_col2im_pads_strides_opset18", 18, 9);  // 2 channels, 3x3 blocks on a 4x5 image
  const int cn = 2, h = 4, w = 5, k = 3, p = 1, s = 2, l = ((h + 2 - k) / s + 1) * ((w + 2 - k) / s + 1);
  const std::vector<float> x = Wave(static_cast<size_t>(cn * k * k * l), 1.0f);
  c.Input("x", {1, cn * k * k, l}, x);
  c.IntInit("image_shape", {2}, {h, w});
  c.IntInit("block_shape", {2}, {k, k});
  c.AddNode("Col2Im", {"x", "image_shape", "block_shape"}, {"y"},
            {onnx::MakeAttribute("pads", std::vector<int64_t>{p, p, p, p}),
             onnx::MakeAttribute("strides", std::vector<int64_t>{s, s})});
  c.Output("y", {1, cn, h, w}, Col2Im2d(x, cn, h, w, k, k, p, s));
  c.Write(root);
}

// Bitwise ops on integers given as exact floats: Cast to int32, the op, Cast back.
void BitwiseCases(const std::string &root) {
  const std::vector<float> a = {12, -1, 255, -128, 7, 0}, b = {10, 7, 15, 127, -8, -1};
  struct Op {
    const char *name, *op;
    int32_t (*f)(int32_t, int32_t);
  };
  const Op ops[] = {{"test_bitwise_and_int32_opset18", "BitwiseAnd", [](int32_t x, int32_t y) { return x & y; }},
                    {"test_bitwise_or_int32_opset18", "BitwiseOr", [](int32_t x, int32_t y) { return x | y; }},
                    {"test_bitwise_xor_int32_opset18", "BitwiseXor", [](int32_t x, int32_t y) { return x ^ y; }}};
  const auto to_int = onnx::MakeAttribute("to", int64_t{onnx::TensorProto::INT32});
  const auto to_float = onnx::MakeAttribute("to", int64_t{onnx::TensorProto::FLOAT});
  for (const Op &o : ops) {
    Case c(o.name, 18, 9);
    c.Input("a", {2, 3}, a);
    c.Input("b", {2, 3}, b);
    c.AddNode("Cast", {"a"}, {"ai"}, {to_int});
    c.AddNode("Cast", {"b"}, {"bi"}, {to_int});
    c.AddNode(o.op, {"ai", "bi"}, {"yi"});
    c.AddNode("Cast", {"yi"}, {"y"}, {to_float});
    std::vector<float> y(a.size());
    for (size_t i = 0; i < a.size(); ++i)
      y[i] = static_cast<float>(o.f(static_cast<int32_t>(a[i]), static_cast<int32_t>(b[i])));
    c.Output("y", {2, 3}, y);
    c.Write(root);
  }
  Case n("test_bitwise_not_int32_opset18", 18, 9);
  n.Input("a", {2, 3}, a);
  n.AddNode("Cast", {"a"}, {"ai"}, {to_int});
  n.AddNode("BitwiseNot", {"ai"}, {"yi"});
  n.AddNode("Cast", {"yi"}, {"y"}, {to_float});
  std::vector<float> y(a.size());
  for (size_t i = 0; i < a.size(); ++i) y[i] = static_cast<float>(~static_cast<int32_t>(a[i]));
  n.Output("y", {2, 3}, y);
  n.Write(root);
}

// Bilinear GridSample of one [h, w] plane at unnormalised (x, y): align_corners 0 with border
// padding (clamp the location, then the neighbours) or align_corners 1 with zeros.
double Bilinear(const float *p, int h, int w, double x, double y, bool border) {
  if (border) x = std::fmin(std::fmax(x, 0.0), w - 1.0), y = std::fmin(std::fmax(y, 0.0), h - 1.0);
  const int x0 = static_cast<int>(std::floor(x)), y0 = static_cast<int>(std::floor(y));
  double acc = 0;
  for (int dy = 0; dy < 2; ++dy)
    for (int dx = 0; dx < 2; ++dx) {
      int r = y0 + dy, q = x0 + dx;
      const double wgt = (dy ? y - y0 : 1 - (y - y0)) * (dx ? x - x0 : 1 - (x - x0));
      if (border) r = r < 0 ? 0 : (r >= h ? h - 1 : r), q = q < 0 ? 0 : (q >= w ? w - 1 : q);
      if (r < 0 || r >= h || q < 0 || q >= w) continue;
      acc += wgt * p[r * w + q];
    }
  return acc;
}

void GridSampleCases(const std::string &root) {
  const int n = 1, c_n = 2, h = 3, w = 4, oh = 2, ow = 3;
  const std::vector<float> x = Wave(static_cast<size_t>(n * c_n * h * w), 2.0f);
  const std::vector<float> g = {-1.2f, -0.9f, -0.4f, 0.1f, 0.3f, 0.8f, 0.95f, -0.2f, 1.1f, 1.0f, 0.0f, -0.6f};
  for (int align = 0; align < 2; ++align) {
    const bool border = align == 0;
    Case c(border ? "test_gridsample_linear_border_opset20" : "test_gridsample_linear_align_corners_opset20", 20, 9);
    c.Input("x", {n, c_n, h, w}, x);
    c.Input("grid", {n, oh, ow, 2}, g);
    c.AddNode("GridSample", {"x", "grid"}, {"y"},
              {onnx::MakeAttribute("mode", std::string("linear")),
               onnx::MakeAttribute("padding_mode", std::string(border ? "border" : "zeros")),
               onnx::MakeAttribute("align_corners", int64_t{align})});
    std::vector<float> y;
    for (int ch = 0; ch < c_n; ++ch)
      for (int o = 0; o < oh * ow; ++o) {
        const double gx = g[static_cast<size_t>(o * 2)], gy = g[static_cast<size_t>(o * 2 + 1)];
        const double ux = align ? (gx + 1) / 2 * (w - 1) : ((gx + 1) * w - 1) / 2;
        const double uy = align ? (gy + 1) / 2 * (h - 1) : ((gy + 1) * h - 1) / 2;
        y.push_back(static_cast<float>(Bilinear(&x[static_cast<size_t>(ch * h * w)], h, w, ux, uy, border)));
      }
    c.Output("y", {n, c_n, oh, ow}, y);
    c.Write(root);
  }
  // 5-D trilinear, align_corners 1, zeros: X [1, 1, 2, 2, 2] = 4z + 2y + x is linear, so every
  // location inside the volume reads 4z + 2y + x at its unnormalised coordinates.
  Case v("test_gridsample_trilinear_opset20", 20, 9);
  v.Input("x", {1, 1, 2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
  const std::vector<float> g3 = {0.0f, 0.0f, 0.0f, 0.5f, -0.5f, 1.0f, -1.0f, 1.0f, -0.25f};
  v.Input("grid", {1, 1, 1, 3, 3}, g3);
  v.AddNode("GridSample", {"x", "grid"}, {"y"}, {onnx::MakeAttribute("align_corners", int64_t{1})});
  std::vector<float> y3;
  for (int o = 0; o < 3; ++o) {
    const double ux = (g3[o * 3] + 1) / 2, uy = (g3[o * 3 + 1] + 1) / 2, uz = (g3[o * 3 + 2] + 1) / 2;
    y3.push_back(static_cast<float>(4 * uz + 2 * uy + ux));
  }
  v.Output("y", {1, 1, 1, 1, 3}, y3);
  v.Write(root);
}

// DFT-20 with the axis as an input: x [2, 5, 1] along axis 1 (given as -2), forward and
// onesided; inverse of a complex [1, 4, 2] along axis 1 with dft_length 6 (zero-padded).
void DftCases(const std::string &root) {
  const std::vector<float> x = Wave(10, 1.5f);
  Case c("test_dft_axis_input_onesided_opset20", 20, 9);
  c.Input("x", {2, 5, 1}, x);
  c.IntInit("axis", {}, {-2});
  c.AddNode("DFT", {"x", "", "axis"}, {"y"}, {onnx::MakeAttribute("onesided", int64_t{1})});
  std::vector<float> y;
  for (int b = 0; b < 2; ++b)
    for (int k = 0; k < 3; ++k) {
      double re = 0, im = 0;
      for (int t = 0; t < 5; ++t) {
        const double a = -2 * M_PI * k * t / 5;
        re += x[static_cast<size_t>(b * 5 + t)] * std::cos(a);
        im += x[static_cast<size_t>(b * 5 + t)] * std::sin(a);
      }
      y.push_back(static_cast<float>(re)), y.push_back(static_cast<float>(im));
    }
  c.Output("y", {2, 3, 2}, y);
  c.Write(root);

  const std::vector<float> z = Wave(8, 1.0f);
  Case inv("test_dft_inverse_length_opset20", 20, 9);
  inv.Input("x", {1, 4, 2}, z);
  inv.IntInit("dft_length", {}, {6});
  inv.IntInit("axis", {}, {1});
  inv.AddNode("DFT", {"x", "dft_length", "axis"}, {"y"}, {onnx::MakeAttribute("inverse", int64_t{1})});
  std::vector<float> yi;
  for (int t = 0; t < 6; ++t) {
    double re = 0, im = 0;
    for (int k = 0; k < 4; ++k) {
      const double a = 2 * M_PI * k * t / 6, xr = z[static_cast<size_t>(k * 2)], xi = z[static_cast<size_t>(k * 2 + 1)];
      re += xr * std::cos(a) - xi * std::sin(a);
      im += xr * std::sin(a) + xi * std::cos(a);
    }
    yi.push_back(static_cast<float>(re / 6)), yi.push_back(static_cast<float>(im / 6));
  }
  inv.Output("y", {1, 6, 2}, yi);
  inv.Write(root);
}

}  // namespace

void SpatialSignalCases(const std::string &root) {
  Col2ImCases(root);
  BitwiseCases(root);
  GridSampleCases(root);
  DftCases(root);
}

}  // namespace openatc::newer
