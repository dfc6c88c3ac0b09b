// Internal state behind ge/es_graph_builder_c.h: a builder owns its nodes and their output
// holders; every C entry point runs inside Guarded, so no exception crosses the C boundary.
#ifndef OPENATC_SDK_ES_BUILDER_H_
#define OPENATC_SDK_ES_BUILDER_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ge/es_graph_builder_c.h"
#include "graph/graph.h"
#include "graph/operator.h"

namespace openatc::es {

/// An Operator whose IR is registered at run time (REG_OP does the same at compile time).
class EsOp : public ge::Operator {
 public:
  EsOp(const std::string &name, const std::string &type) : ge::Operator(name.c_str(), type.c_str()) {}
  using ge::Operator::AttrRegister;
  using ge::Operator::CreateDynamicInput;
  using ge::Operator::DynamicInputRegister;
  using ge::Operator::InputRegister;
  using ge::Operator::OptionalInputRegister;
  using ge::Operator::OutputRegister;
};

struct Node;

}  // namespace openatc::es

struct EsTensorHolder {
  EsGraphBuilder *builder = nullptr;
  openatc::es::Node *node = nullptr;
  int64_t index = 0;  ///< output index; -1 for the attribute-only holder of a node without outputs
};

namespace openatc::es {

struct Node {
  EsOp op;
  std::vector<std::string> output_names;
  std::vector<std::unique_ptr<EsTensorHolder>> outputs;
  Node(const std::string &name, const std::string &type) : op(name, type) {}
};

/// The attributes a node gets; a scope value is applied with the matching Operator::SetAttr.
using AttrSetter = std::function<void(ge::Operator &)>;

}  // namespace openatc::es

struct EsGraphBuilder {
  std::string name;
  std::vector<std::unique_ptr<openatc::es::Node>> nodes;
  std::map<std::string, int> name_counts;
  std::map<int64_t, EsTensorHolder *> inputs;   ///< model-input index -> Data output
  std::map<int64_t, EsTensorHolder *> outputs;  ///< graph-output index -> tensor
};

struct EsGraph {
  ge::Graph graph;
  std::string name;
};

namespace openatc::es {

/// Records `message` as EsLastError and returns it; Guarded clears it on success.
void SetLastError(const std::string &message);
/// Runs body; on an exception records its text and returns `failed`.
template <typename T>
T Guarded(T failed, const std::function<T()> &body);
int32_t GuardedStatus(const std::function<void()> &body);

/// A unique node name "<base>_<n>" in the builder.
std::string UniqueName(EsGraphBuilder &b, const std::string &base);
/// The attributes of every open scope, outermost first.
void ApplyScopeAttrs(ge::Operator &op);
EsTensorHolder *AddNode(EsGraphBuilder &b, std::unique_ptr<Node> node);
Node &CheckedNode(const EsTensorHolder *holder);
/// Adds an attribute to the innermost open scope (throws when none is open).
void PushScopeAttr(AttrSetter set);
/// The holder's output description, updated by `change`.
void UpdateDesc(EsTensorHolder *holder, const std::function<void(ge::TensorDesc &)> &change);

}  // namespace openatc::es

#include "es_guard.inl"

#endif  // OPENATC_SDK_ES_BUILDER_H_
