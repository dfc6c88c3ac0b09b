/**
 * @file ops/common/op_util.h
 * Helpers shared by the built-in operators (ops/<OnnxName>.cc). Built-in ops are ordinary GE custom ops
 * written against the public SDK (graph/custom_op.h): each is an EagerExecuteOp + ShapeInferOp
 * with ONNX's name and semantics, registered with REG_AUTO_MAPPING_OP and shipped in the
 * built-in OPP package (<build>/opp/built-in/op_graph/lib/linux/<arch>/libopenatc_builtin_ops.so).
 *
 * Conventions (the ONNX front end produces nodes this way):
 *  - inputs in ONNX order; an absent optional input is an unconnected anchor, which the op sees as
 *    GetOptionalInputTensor(ir_index) == nullptr (declare it OPTIONAL_INPUT in the REG_OP);
 *  - attributes keep their ONNX names; ints -> Int, floats -> Float, strings -> String, lists ->
 *    ListInt/ListFloat/ListString, tensors -> Tensor; every node also carries Int `onnx_opset`
 *    (declare `ATTR(onnx_opset, Int, 17)` where semantics changed between versions);
 *  - older opset forms where an attribute became an input (Slice, Split, Squeeze, Unsqueeze,
 *    Clip, Pad, ReduceSum) are rewritten by the front end into the newest form; the opset-18
 *    Reduce* (not ReduceSum) constant `axes` input goes back into the attribute the op reads.
 *  - shapes: InferShape writes -1 for dims it cannot know at compile time; Execute always
 *    computes the real output shape from the real inputs and allocates with MallocOutputTensor.
 */
#ifndef OPENATC_OPS_COMMON_OP_UTIL_H_
#define OPENATC_OPS_COMMON_OP_UTIL_H_

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "graph/custom_op.h"
#include "graph/operator_reg.h"

namespace openatc_ops {

using Dims = std::vector<int64_t>;
using half = _Float16;

/// Dims of a gert::Shape.
Dims ToDims(const gert::Shape &s);
/// A gert::Shape from dims.
gert::Shape ToShape(const Dims &d);
/// Element count (1 for a scalar); -1 when a dim is negative.
int64_t NumElements(const Dims &d);
/// "[2, 3]"
std::string DimsToString(const Dims &d);

/// Reports an op failure on stderr as "<op type> '<node>': <message>" and returns GRAPH_FAILED, so
/// Execute/InferShape can `return Fail(ctx, "...")`. OpenATC then names the node and callback.
ge::graphStatus Fail(const gert::ExtendedKernelContext *ctx, const std::string &message);

/// ONNX multidirectional broadcasting (ONNX "Broadcasting in ONNX"): false when incompatible.
/// Unknown dims (-1) broadcast to -1 unless the other side is a known dim > 1.
bool BroadcastDims(const Dims &a, const Dims &b, Dims *out);

/// Strides (in elements) of `in` read as if broadcast to `out` (0 on broadcast axes); `in` is
/// right-aligned to `out`.
std::vector<int64_t> BroadcastStrides(const Dims &in, const Dims &out);

/// Allocates output `index` with `dims`/`dtype` (format ND); nullptr and a message on failure.
gert::Tensor *AllocOutput(gert::EagerOpExecutionContext *ctx, size_t index, const Dims &dims, ge::DataType dtype);

/// Reads an integer tensor (int32 or int64) into int64 values; false for other dtypes or a null
/// address. Used for shape/axes/index inputs.
bool ReadInts(const gert::Tensor *t, std::vector<int64_t> *out);

/// Normalises a possibly negative axis for `rank`; false when out of [-rank, rank-1].
bool NormalizeAxis(int64_t axis, int64_t rank, int64_t *out);

/// Attribute helpers (nullptr-safe; return the default when the attribute is absent).
int64_t AttrInt(const gert::ExtendedKernelContext *ctx, size_t index, int64_t def);
float AttrFloat(const gert::ExtendedKernelContext *ctx, size_t index, float def);
std::string AttrStr(const gert::ExtendedKernelContext *ctx, size_t index, const std::string &def);
std::vector<int64_t> AttrInts(const gert::ExtendedKernelContext *ctx, size_t index);
std::vector<float> AttrFloats(const gert::ExtendedKernelContext *ctx, size_t index);
/// A ListString attribute as RuntimeAttrs holds it (the strings joined by NUL, an empty string
/// ending the list; sdk/gert/src/attr_table.cc); empty when absent.
std::vector<std::string> AttrStrings(const gert::ExtendedKernelContext *ctx, size_t index);

}  // namespace openatc_ops

/// `case` labels binding `T` to the C++ type of each ge::DataType of a family, then running the
/// statements given as the variadic argument (inside a switch on the dtype). Families: float
/// types (float, half, double), integer types (int8..int64, uint8..uint64), bool.
#define OPENATC_OPS_FLOAT_CASES(...)                                      \
  case ge::DT_FLOAT: { using T = float; __VA_ARGS__; break; }             \
  case ge::DT_FLOAT16: { using T = openatc_ops::half; __VA_ARGS__; break; } \
  case ge::DT_DOUBLE: { using T = double; __VA_ARGS__; break; }
#define OPENATC_OPS_INT_CASES(...)                                 \
  case ge::DT_INT8: { using T = int8_t; __VA_ARGS__; break; }      \
  case ge::DT_INT16: { using T = int16_t; __VA_ARGS__; break; }    \
  case ge::DT_INT32: { using T = int32_t; __VA_ARGS__; break; }    \
  case ge::DT_INT64: { using T = int64_t; __VA_ARGS__; break; }    \
  case ge::DT_UINT8: { using T = uint8_t; __VA_ARGS__; break; }    \
  case ge::DT_UINT16: { using T = uint16_t; __VA_ARGS__; break; }  \
  case ge::DT_UINT32: { using T = uint32_t; __VA_ARGS__; break; }  \
  case ge::DT_UINT64: { using T = uint64_t; __VA_ARGS__; break; }
#define OPENATC_OPS_BOOL_CASES(...) \
  case ge::DT_BOOL: { using T = bool; __VA_ARGS__; break; }

#endif  // OPENATC_OPS_COMMON_OP_UTIL_H_
