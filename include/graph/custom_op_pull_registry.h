/**
 * @file graph/custom_op_pull_registry.h
 * The per-deliverable creator list and the C "pull" ABI an OM loader reads from an embedded
 * deliverable (docs/custom-op-lifecycle.md §3). Implemented by libcustom_op_registry_static.a,
 * which is linked into every deliverable, so each .so keeps its own list.
 */
#ifndef OPENATC_GRAPH_CUSTOM_OP_PULL_REGISTRY_H_
#define OPENATC_GRAPH_CUSTOM_OP_PULL_REGISTRY_H_

#include <cstddef>
#include <cstdint>

namespace ge {
class BaseCustomOp;
using CustomOpCreateFunc = ge::BaseCustomOp *(*)();

constexpr uint32_t kCustomOpCreatorPullAbiVersion = 1U;

struct CustomOpTypeToCreator {
  uint32_t struct_size;
  const char *op_type;
  CustomOpCreateFunc creator;
};

/// Appends to this deliverable's list; a null/empty op_type or null creator is ignored.
void RegisterCustomOpLocalCreator(const char *const op_type, const CustomOpCreateFunc creator);
}  // namespace ge

extern "C" {
/// kCustomOpCreatorPullAbiVersion.
uint32_t GetRegisteredCustomOpCreatorAbiVersion();
size_t GetRegisteredCustomOpCreatorNum();
/// 0 on success; -1 when creator_num is smaller than the registered count, creators is null with
/// creator_num > 0, or creator_struct_size < sizeof(CustomOpTypeToCreator). Entries are written
/// creator_struct_size bytes apart, each with struct_size = sizeof(CustomOpTypeToCreator).
int32_t GetRegisteredCustomOpCreators(ge::CustomOpTypeToCreator *creators, const size_t creator_num,
                                      const size_t creator_struct_size);
/// OpenATC extension: the SDK version ("major.minor.patch") this deliverable was built against.
const char *OpenAtcDeliverableSdkVersion();
/// OpenATC extension, optional: nonzero when no op of this deliverable launches a kernel (each
/// Execute computes on the host itself). The runtime then registers no buffers for the
/// global-memory checks around its nodes (a launch from one would still be checked, and its every
/// access reported as outside any buffer).
int32_t OpenAtcDeliverableLaunchesNoKernels();
/// OpenATC extension, optional: nonzero when every op of this deliverable sizes its outputs in
/// Execute from its inputs and attributes alone (it passes shape and dtype to MallocOutputTensor
/// and reads no output descriptor). A run of a model with run-time shapes then calls no
/// InferDataType / InferShape before such a node's Execute (GE calls them there to fill the output
/// descriptors); an input those would refuse is refused by Execute instead.
int32_t OpenAtcDeliverableExecuteSizesOutputs();
/// OpenATC extension, optional: the op types of this deliverable (separated by spaces) whose
/// outputs are a function of their inputs (dtypes, shapes, values) and attributes alone: no state
/// kept between calls, no randomness, no effect beyond writing their outputs. A run of a model
/// with run-time shapes may reuse such a node's last outputs when it can tell its inputs are the
/// same (loader/runtime/src/shape_value_cache.h). A Shape or Size so listed is taken to read only its
/// input's shape, as ONNX's do.
const char *OpenAtcDeliverablePureOps();
/// OpenATC extension, optional: the kernel implementations the calling thread's op executions
/// used since its previous call, one text (e.g. "convolution jit_1x1:avx512_core, reorder
/// jit:blk"; "" when it reports none), valid until that thread's next call. The first call may
/// switch the record on (so that runs nobody watches pay nothing). `omrun --profile` calls it
/// before and after each node of this deliverable and shows the text as the node's "kernel".
const char *OpenAtcDeliverableKernelTrace();
}

#endif  // OPENATC_GRAPH_CUSTOM_OP_PULL_REGISTRY_H_
