/**
 * @file openatc/runtime/model.h
 * A loaded OM ready to run on the host (design.md "Data flow", runtime half). Loading pulls the
 * op creators from the OM's embedded deliverables into a per-model registry (no environment
 * needed), creates one op object per op type and calls Deserialize with its artifact, as GE does
 * for an offline model (custom-op-api.md §10). Run executes the graph in the OM's topological
 * order, calling EagerExecuteOp::Execute per node on the model's stream.
 *
 * Threading: one Run at a time per LoadedModel (the op objects are shared by their nodes, and
 * GE samples' ops are not thread-safe); different models may run concurrently.
 */
#ifndef OPENATC_RUNTIME_MODEL_H_
#define OPENATC_RUNTIME_MODEL_H_

#include <memory>
#include <string>
#include <vector>

#include "openatc/om/model.h"
#include "openatc/tensor_io/tensor_io.h"

namespace openatc::gert_impl {
class CustomOpRegistry;
}

namespace openatc::runtime {

/// A model input or output: name (Data node name / producing node "name:index"), dtype, shape
/// (-1 for a dim known only at run time) and byte size (0 when the shape is not static).
struct IoDesc {
  std::string name;
  ge::DataType dtype = ge::DT_UNDEFINED;
  ge::Format format = ge::FORMAT_ND;
  std::vector<int64_t> shape;
  size_t bytes = 0;
};

class LoadedModel {
 public:
  /// Loads `model` (as read by om::ReadFile). `path` names the file in errors. Errors:
  /// kNotOm for an OM built for another target (naming both), kCorruptOm for an unusable embedded
  /// deliverable or a missing artifact, kCustomOp when Deserialize fails.
  static std::unique_ptr<LoadedModel> Load(om::Model model, const std::string &path);
  /// Loads `model` with the op objects of `registry` instead of the OM's embedded deliverables,
  /// and without calling Deserialize: used by `atc --check_portable` to run the graph through the
  /// objects that compiled it. `registry` must outlive the model.
  static std::unique_ptr<LoadedModel> LoadWithRegistry(om::Model model, const std::string &path,
                                                       gert_impl::CustomOpRegistry &registry);
  ~LoadedModel();

  const std::vector<IoDesc> &inputs() const;
  const std::vector<IoDesc> &outputs() const;
  const om::Model &model() const;
  /// Bytes of the static memory plan's arena (0 when the model has no plan: run-time shapes).
  size_t arena_bytes() const;

  /// Runs once. `inputs` in model input order; each is checked against the input's dtype and
  /// shape (kInvalidInput naming the input). Returns the outputs in model output order with the
  /// shapes the ops produced.
  std::vector<tensor_io::HostTensor> Run(const std::vector<tensor_io::HostTensor> &inputs);

  struct Impl;  ///< opaque state (loader/runtime/src/model_impl.h)

 private:
  LoadedModel();
  static std::unique_ptr<LoadedModel> LoadImpl(om::Model model, const std::string &path,
                                               gert_impl::CustomOpRegistry *external);
  std::unique_ptr<Impl> impl_;
};

/// Reads, verifies and loads an OM file.
std::unique_ptr<LoadedModel> LoadModelFile(const std::string &path);

}  // namespace openatc::runtime

#endif  // OPENATC_RUNTIME_MODEL_H_
