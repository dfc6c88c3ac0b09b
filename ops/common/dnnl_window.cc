// ResolveWindow: ONNX window attributes -> per-axis geometry (see dnnl_window.h).
#include "common/dnnl_window.h"

namespace openatc_ops {
namespace {
std::string CheckLen(const char *name, const Dims &v, size_t n, bool positive) {
  if (!v.empty() && v.size() != n)
    return std::string(name) + " has " + std::to_string(v.size()) + " values; the input has " + std::to_string(n) +
           " spatial axes";
  for (int64_t x : v)
    if (positive ? x < 1 : x < 0) return std::string(name) + " " + DimsToString(v) + (positive ? " must be >= 1" : " must be >= 0");
  return "";
}
}  // namespace

std::string ResolveWindow(const Dims &in, const WindowAttrs &a, Window *w, Dims *pads_end_extra) {
  const size_t n = in.size();
  if (a.kernel.size() != n)
    return "kernel_shape " + DimsToString(a.kernel) + " has " + std::to_string(a.kernel.size()) +
           " values; the input has " + std::to_string(n) + " spatial axes";
  std::string err = CheckLen("kernel_shape", a.kernel, n, true);
  if (err.empty()) err = CheckLen("strides", a.strides, n, true);
  if (err.empty()) err = CheckLen("dilations", a.dilations, n, true);
  if (err.empty()) err = CheckLen("pads", a.pads, 2 * n, false);
  if (!err.empty()) return err;
  const std::string &ap = a.auto_pad;
  if (!ap.empty() && ap != "NOTSET" && ap != "SAME_UPPER" && ap != "SAME_LOWER" && ap != "VALID")
    return "auto_pad '" + ap + "' is not NOTSET, SAME_UPPER, SAME_LOWER or VALID";
  w->kernel = a.kernel;
  w->strides.assign(n, 1);
  w->dilations.assign(n, 1);
  for (size_t i = 0; i < a.strides.size(); ++i) w->strides[i] = a.strides[i];
  for (size_t i = 0; i < a.dilations.size(); ++i) w->dilations[i] = a.dilations[i];
  w->pads_begin.assign(n, 0);
  w->pads_end.assign(n, 0);
  w->out.assign(n, -1);
  if (pads_end_extra) pads_end_extra->assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const int64_t ext = (w->kernel[i] - 1) * w->dilations[i] + 1;
    const int64_t s = w->strides[i];
    const int64_t x = in[i];
    if (ap == "SAME_UPPER" || ap == "SAME_LOWER") {
      if (x < 0) continue;  // pads depend on the run-time size
      const int64_t out = (x + s - 1) / s;
      int64_t total = (out - 1) * s + ext - x;
      if (total < 0) total = 0;
      w->pads_begin[i] = ap == "SAME_UPPER" ? total / 2 : total - total / 2;
      w->pads_end[i] = total - w->pads_begin[i];
      w->out[i] = out;
      continue;
    }
    if (ap != "VALID" && !a.pads.empty()) {
      w->pads_begin[i] = a.pads[i];
      w->pads_end[i] = a.pads[i + n];
    }
    if (x < 0) continue;
    const int64_t span = x + w->pads_begin[i] + w->pads_end[i] - ext;
    if (span < 0)
      return "the window (kernel " + std::to_string(w->kernel[i]) + ", dilation " + std::to_string(w->dilations[i]) +
             ") is larger than spatial axis " + std::to_string(i) + " of the padded input (" +
             std::to_string(x + w->pads_begin[i] + w->pads_end[i]) + ")";
    int64_t out = span / s + 1;
    // ceil_mode adds a last window only if it starts inside the input or its begin padding (ONNX
    // MaxPool/AveragePool-19+, as PyTorch): one starting in the end padding is dropped.
    if (a.ceil_mode && span % s != 0 && (span / s + 1) * s < x + w->pads_begin[i]) {
      out = span / s + 2;
      const int64_t extra = (out - 1) * s + ext - (x + w->pads_begin[i] + w->pads_end[i]);
      w->pads_end[i] += extra;
      if (pads_end_extra) (*pads_end_extra)[i] = extra;
    }
    w->out[i] = out;
  }
  return "";
}

}  // namespace openatc_ops
