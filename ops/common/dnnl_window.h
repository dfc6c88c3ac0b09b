/**
 * @file ops/common/dnnl_window.h
 * Sliding-window geometry shared by Conv, ConvTranspose, MaxPool and AveragePool: resolves ONNX's
 * kernel_shape / strides / dilations / pads / auto_pad / ceil_mode attributes into per-axis
 * values and the output spatial size (ONNX Operators.md, Conv-11 and MaxPool-12 "auto_pad" and
 * output-shape formulas), in the form oneDNN wants (pads begin/end; dilations as d - 1 at the
 * call site).
 */
#ifndef OPENATC_OPS_COMMON_DNNL_WINDOW_H_
#define OPENATC_OPS_COMMON_DNNL_WINDOW_H_

#include <string>

#include "common/op_util.h"

namespace openatc_ops {

/// Per spatial axis (n = kernel.size()); all vectors have n entries.
struct Window {
  Dims kernel, strides, dilations, pads_begin, pads_end;
  Dims out;  ///< output spatial dims; -1 where the input dim is unknown
};

/// The raw ONNX attributes of a windowed op.
struct WindowAttrs {
  Dims kernel;           ///< kernel_shape (required for pools; Conv passes W's spatial dims)
  Dims strides;          ///< empty: all 1
  Dims dilations;        ///< empty: all 1
  Dims pads;             ///< empty: all 0; else 2n values [x1_begin, x2_begin, ..., x1_end, ...]
  std::string auto_pad;  ///< NOTSET (default), SAME_UPPER, SAME_LOWER or VALID
  bool ceil_mode = false;
};

/// Resolves `a` for input spatial dims `in` (entries may be -1). For ceil_mode (whose extra last
/// window is kept only when it starts before the end padding), pads_end is
/// widened so that out = (in + pb + pe - ext) / stride + 1 holds exactly (oneDNN's formula),
/// with pads_end_extra receiving the widening per axis (nullptr: not wanted).
/// Returns "" on success, else a message naming the bad attribute (wrong length, values < 1,
/// negative pads, unknown auto_pad, window larger than the padded input).
std::string ResolveWindow(const Dims &in, const WindowAttrs &a, Window *w, Dims *pads_end_extra = nullptr);

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_DNNL_WINDOW_H_
