/**
 * @file exe_graph/runtime/compute_node_info.h
 * What an operator callback can learn about its node: compile-time tensor descriptors, the map
 * from IR input/output index to flattened instances, and ComputeNodeInfo (GE metadef
 * `exe_graph/runtime/compute_node_info.h`).
 *
 * Flattened vs IR index: REG_OP declares IR inputs in order; a DYNAMIC_INPUT has 0..n instances
 * and an absent OPTIONAL_INPUT has 0, so flattened index i (GetInputTensor(i)) and IR index
 * (GetRequiredInputTensor(ir)) differ once a dynamic or absent optional input appears.
 */
#ifndef OPENATC_EXE_GRAPH_RUNTIME_COMPUTE_NODE_INFO_H_
#define OPENATC_EXE_GRAPH_RUNTIME_COMPUTE_NODE_INFO_H_

#include <cstddef>

#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/storage_format.h"
#include "graph/types.h"

namespace openatc::gert_impl {
struct NodeInfo;
}

namespace gert {
class CompileTimeTensorDesc {
 public:
  ge::DataType GetDataType() const { return data_type_; }
  const StorageFormat &GetFormat() const { return storage_format_; }
  ge::Format GetOriginFormat() const { return storage_format_.GetOriginFormat(); }
  ge::Format GetStorageFormat() const { return storage_format_.GetStorageFormat(); }
  ExpandDimsType GetExpandDimsType() const { return storage_format_.GetExpandDimsType(); }
  bool IsExist() const { return exist_; }
  void SetDataType(const ge::DataType data_type) { data_type_ = data_type; }
  void SetOriginFormat(const ge::Format format) { storage_format_.SetOriginFormat(format); }
  void SetStorageFormat(const ge::Format format) { storage_format_.SetStorageFormat(format); }
  void SetExpandDimsType(const ExpandDimsType &type) { storage_format_.SetExpandDimsType(type); }
  void SetIsExist(bool exist) { exist_ = exist; }

 private:
  ge::DataType data_type_ = ge::DT_UNDEFINED;
  StorageFormat storage_format_;
  bool exist_ = true;
};

class AnchorInstanceInfo {
 public:
  AnchorInstanceInfo() = default;
  AnchorInstanceInfo(const size_t instance_start, const size_t instance_num)
      : instance_start_(instance_start), instance_num_(instance_num) {}
  size_t GetInstanceNum() const { return instance_num_; }
  size_t GetInstanceStart() const { return instance_start_; }
  void SetInstanceStart(const size_t start) { instance_start_ = start; }
  void SetInstantNum(const size_t num) { instance_num_ = num; }

 private:
  size_t instance_start_ = 0;
  size_t instance_num_ = 0;
};

/// A read-only view of one node, owned by the runtime; valid during the callback.
class ComputeNodeInfo {
 public:
  const ge::char_t *GetNodeType() const;
  const ge::char_t *GetNodeName() const;
  size_t GetIrInputsNum() const;
  size_t GetIrOutputsNum() const;
  size_t GetInputsNum() const;   ///< flattened
  size_t GetOutputsNum() const;  ///< flattened
  const AnchorInstanceInfo *GetInputInstanceInfo(const size_t ir_index) const;
  const AnchorInstanceInfo *GetOutputInstanceInfo(const size_t ir_index) const;
  const CompileTimeTensorDesc *GetInputTdInfo(const size_t index) const;
  const CompileTimeTensorDesc *GetOutputTdInfo(const size_t index) const;
  const RuntimeAttrs *GetAttrs() const;

  ComputeNodeInfo(const ComputeNodeInfo &) = delete;
  ComputeNodeInfo &operator=(const ComputeNodeInfo &) = delete;

 private:
  friend struct openatc::gert_impl::NodeInfo;
  ComputeNodeInfo() = default;
  const openatc::gert_impl::NodeInfo *node_ = nullptr;
};
}  // namespace gert

#endif  // OPENATC_EXE_GRAPH_RUNTIME_COMPUTE_NODE_INFO_H_
