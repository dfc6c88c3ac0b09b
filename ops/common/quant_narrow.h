/**
 * @file ops/common/quant_narrow.h
 * The element types of QuantizeLinear's y and DequantizeLinear's x beyond the 8/16-bit integers
 * of ops/common/quant_util.h: the packed int4/uint4 (opset 21) and float4e2m1 (opset 23), and
 * float8 E4M3FN/E5M2 and their FNUZ variants (opset 19). One place reads any of these tensors'
 * elements as numbers and writes quantized values back (packed nibbles included).
 */
#ifndef OPENATC_OPS_COMMON_QUANT_NARROW_H_
#define OPENATC_OPS_COMMON_QUANT_NARROW_H_

#include <cstdint>
#include <vector>

#include "common/cast_convert.h"

namespace openatc_ops {

/// How Q/DQ treat a quantized dtype: an integer range [lo, hi] (uint8, int8, uint16, int16,
/// int32, int4 [-8, 7], uint4 [0, 15]) or a float type (float8 E4M3FN/E5M2/E4M3FNUZ/E5M2FNUZ,
/// float4e2m1). False for anything else.
struct QuantType {
  bool is_float = false;
  int64_t lo = 0, hi = 0;
};
bool QuantTypeOf(ge::DataType d, QuantType *q);

/// Every element of a tensor of a QuantTypeOf dtype as a double (exact).
std::vector<double> QuantValues(const gert::Tensor &t);

/// Reads the zero point `t` (nullptr: {0}), which must have dtype `want`; fails naming `what`.
bool ReadQuantZeroPoint(const gert::ExtendedKernelContext *ctx, const gert::Tensor *t, const char *what,
                        ge::DataType want, std::vector<double> *out);

/// Writes element `i` of y: an integer already in range (integer types) or a float value rounded
/// into the float type with `saturate` (include/openatc/minifloat.h). 4-bit outputs must be
/// zeroed first (ZeroPacked).
void StoreQuantized(gert::Tensor *y, int64_t i, double v, bool saturate);
/// Zeroes the bytes of a packed 4-bit tensor (so an odd count leaves the last high nibble 0);
/// other dtypes are left as they are.
void ZeroPacked(gert::Tensor *y);

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_QUANT_NARROW_H_
