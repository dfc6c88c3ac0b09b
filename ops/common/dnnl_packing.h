/**
 * @file ops/common/dnnl_packing.h
 * Tags of weights pre-packed into the OM (openatc/weight_packing.h): the CPU ISA oneDNN runs on
 * and a complete text description of a packed memory descriptor. oneDNN 2.6 has no API that
 * serializes a memory descriptor, so the layout is our own text: every field of the blocked
 * dnnl_memory_desc_t that decides where each element lies (data type, dims, padded dims and
 * offsets, offset0, outer strides, inner blocks with their dims, extra flags). Two descriptors
 * with equal text place every element at the same byte, so a blob made for one is valid for the
 * other. The text is compared at load, never parsed.
 */
#ifndef OPENATC_OPS_COMMON_DNNL_PACKING_H_
#define OPENATC_OPS_COMMON_DNNL_PACKING_H_

#include <string>

#include "common/dnnl_util.h"
#include "openatc/weight_packing.h"

namespace openatc_ops::dnnl_util {

/// oneDNN's effective ISA on this CPU as a name ("avx2", "avx512_core", ...; unknown values as
/// "isa_0x<hex>").
const std::string &CpuIsaName();

/// What packed copies made in this process depend on besides the problem and our library
/// (WeightPackingOp::PackingEnvironment): oneDNN's version and commit, CpuIsaName(), and the
/// thread count (it decides whether a small Conv's primitive is made for one thread).
std::string PackingEnvironment();

/// The layout text of `md`; "" for a descriptor that is not in a blocked format (not packable).
std::string LayoutText(const dnnl::memory::desc &md);

/// The OM's packed copy `om` as a memory of `md`, when it was made for exactly `md` on this CPU
/// (ISA name, layout text and size equal; `md` in a blocked format); else an empty memory (the
/// caller repacks). In place
/// (read only) when 64-byte aligned, as oneDNN allocates and a mapped OM segment is; else copied.
dnnl::memory OmPackedCopy(const dnnl::memory::desc &md, const openatc::PackedWeightView *om);

}  // namespace openatc_ops::dnnl_util

#endif  // OPENATC_OPS_COMMON_DNNL_PACKING_H_
