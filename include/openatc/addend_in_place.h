/**
 * @file openatc/addend_in_place.h
 * A fused residual Add computed in place (header-only: atc's memory plan,
 * atc/compiler/src/memory_plan.cc, writes the attribute; the built-in Conv,
 * ops/common/conv_blocked.cc, reads it).
 *
 * A Conv with a fused binary_add (atc/compiler/src/passes/conv_post_ops.cc) reads its addend
 * (input 3) and writes Y, both in the chain layout, as a separate pass over each: three streams of
 * Y's size. When the addend's last reader is that Conv, the memory plan gives Y the addend's bytes
 * and sets kAddendInPlaceAttr = 1 on the Conv, which then uses oneDNN's sum post-op instead of its
 * binary_add: the kernel adds the value already in its destination, so Y's bytes are read and
 * written once and the addend is not streamed separately (what ONNX Runtime's NCHWc Conv does
 * with its fused Sum input).
 * oneDNN's binary_add must never read the buffer it writes: a kernel that splits the reduction
 * stores partial sums in its destination and reads the operand only at the last step. So a Conv
 * run whose addend and Y share bytes without a sum primitive copies the addend first, and a sum
 * primitive whose destination does not hold the addend gets it copied (or reordered) there first;
 * either way the result does not depend on the plan.
 */
#ifndef OPENATC_ADDEND_IN_PLACE_H_
#define OPENATC_ADDEND_IN_PLACE_H_

namespace openatc {

/// Int attribute of a built-in Conv: 1 when its output Y shares its addend's bytes.
inline constexpr const char *kAddendInPlaceAttr = "openatc_addend_in_place";

}  // namespace openatc

#endif  // OPENATC_ADDEND_IN_PLACE_H_
