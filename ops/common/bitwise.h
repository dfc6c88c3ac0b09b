/**
 * @file ops/common/bitwise.h
 * The ONNX-18 bitwise family (BitwiseAnd, BitwiseOr, BitwiseXor: ops/Bitwise*.cc): one base that
 * applies a bit operation to every integer dtype (int8..int64, uint8..uint64) with
 * multidirectional broadcasting. Signed values are operated on as their two's complement bits.
 */
#ifndef OPENATC_OPS_COMMON_BITWISE_H_
#define OPENATC_OPS_COMMON_BITWISE_H_

#include "common/math_util.h"

namespace openatc_ops {

/// Derived provides `template <typename T> static T Apply(T a, T b)`.
template <typename Derived>
class BitwiseBinaryOp : public BinaryElementwiseOp<Derived> {
 public:
  static bool Accepts(ge::DataType d) { return IsInt(d); }
  static ge::DataType OutType(ge::DataType d) { return d; }
  static ge::graphStatus Compute(const gert::Tensor &a, const gert::Tensor &b, gert::Tensor &c) {
    switch (a.GetDataType()) {
      OPENATC_OPS_INT_CASES(BinaryBroadcastMixed<T, T, T>(a, b, c, [](T x, T y) { return Derived::Apply(x, y); }))
      default:
        return ge::GRAPH_FAILED;
    }
    return ge::GRAPH_SUCCESS;
  }
};

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_BITWISE_H_
