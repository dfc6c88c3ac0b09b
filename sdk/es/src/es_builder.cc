// The ES builder's nodes: Data, Const and any op type with the IR its caller gives
// (ge/es_graph_builder_c.h).
#include <stdexcept>

#include "es_builder.h"
#include "graph/tensor.h"

using openatc::es::EsOp;
using openatc::es::Guarded;
using openatc::es::GuardedStatus;
using openatc::es::Node;

namespace openatc::es {
namespace {

thread_local std::string t_last_error;
thread_local std::vector<std::vector<AttrSetter>> t_scopes;

void Require(bool ok, const std::string &what) {
  if (!ok) throw std::invalid_argument(what);
}

std::vector<int64_t> Dims(const int64_t *dims, int64_t n) {
  Require(n >= 0 && (n == 0 || dims != nullptr), "dims is NULL or dim_num is negative");
  return std::vector<int64_t>(dims, dims + n);
}

std::string Text(const char *s, const char *what) {
  Require(s != nullptr, std::string(what) + " is NULL");
  return s;
}

}  // namespace

void SetLastError(const std::string &message) { t_last_error = message; }

int32_t GuardedStatus(const std::function<void()> &body) {
  return Guarded<int32_t>(-1, [&] {
    body();
    return int32_t{0};
  });
}

std::string UniqueName(EsGraphBuilder &b, const std::string &base) {
  for (;;) {
    const std::string name = base + "_" + std::to_string(b.name_counts[base]++);
    bool taken = false;
    for (const auto &n : b.nodes) {
      ge::AscendString have;
      n->op.GetName(have);
      taken = taken || name == have.GetString();
    }
    if (!taken) return name;
  }
}

void ApplyScopeAttrs(ge::Operator &op) {
  for (const auto &scope : t_scopes)
    for (const auto &set : scope) set(op);
}

EsTensorHolder *AddNode(EsGraphBuilder &b, std::unique_ptr<Node> node) {
  const size_t n = node->output_names.size();
  for (size_t i = 0; i < (n == 0 ? 1 : n); ++i) {
    auto h = std::make_unique<EsTensorHolder>();
    h->builder = &b;
    h->node = node.get();
    h->index = n == 0 ? -1 : static_cast<int64_t>(i);
    node->outputs.push_back(std::move(h));
  }
  b.nodes.push_back(std::move(node));
  return b.nodes.back()->outputs[0].get();
}

Node &CheckedNode(const EsTensorHolder *holder) {
  Require(holder != nullptr && holder->node != nullptr, "the tensor holder is NULL");
  return *holder->node;
}

void PushScopeAttr(AttrSetter set) {
  Require(!t_scopes.empty(), "no attr scope is open (call EsAttrScopePush first)");
  t_scopes.back().push_back(std::move(set));
}

}  // namespace openatc::es

using openatc::es::CheckedNode;
using openatc::es::Dims;
using openatc::es::Require;
using openatc::es::Text;

extern "C" {

const char *EsLastError(void) { return openatc::es::t_last_error.c_str(); }

EsGraphBuilder *EsCreateGraphBuilder(const char *name) {
  return Guarded<EsGraphBuilder *>(nullptr, [&] {
    auto *b = new EsGraphBuilder();
    b->name = Text(name, "the graph name");
    return b;
  });
}

void EsDestroyGraphBuilder(EsGraphBuilder *builder) { delete builder; }

EsTensorHolder *EsCreateGraphInput(EsGraphBuilder *builder, int64_t index, const char *name, int32_t dtype,
                                   int32_t format, const int64_t *dims, int64_t dim_num) {
  return Guarded<EsTensorHolder *>(nullptr, [&] {
    Require(builder != nullptr, "the graph builder is NULL");
    Require(index >= 0, "input index " + std::to_string(index) + " is negative");
    Require(builder->inputs.count(index) == 0, "input index " + std::to_string(index) + " is already used");
    const std::string node_name = name != nullptr ? name : "input_" + std::to_string(index);
    auto node = std::make_unique<Node>(node_name, "Data");
    node->op.InputRegister("x", "TensorType::ALL()");
    node->op.OutputRegister("y", "TensorType::ALL()");
    node->op.SetAttr("index", index);
    const ge::TensorDesc desc(ge::Shape(Dims(dims, dim_num)), static_cast<ge::Format>(format),
                              static_cast<ge::DataType>(dtype));
    node->op.UpdateInputDesc("x", desc);
    node->op.UpdateOutputDesc("y", desc);
    node->output_names = {"y"};
    EsTensorHolder *h = openatc::es::AddNode(*builder, std::move(node));
    builder->inputs[index] = h;
    return h;
  });
}

EsTensorHolder *EsCreateConstFloat(EsGraphBuilder *builder, const float *values, int64_t value_num,
                                   const int64_t *dims, int64_t dim_num) {
  return Guarded<EsTensorHolder *>(nullptr, [&] {
    Require(builder != nullptr, "the graph builder is NULL");
    const std::vector<int64_t> shape = Dims(dims, dim_num);
    int64_t count = 1;
    for (int64_t d : shape) {
      Require(d >= 0, "a constant's dims must be non-negative");
      count *= d;
    }
    Require(count == value_num && (value_num == 0 || values != nullptr),
            "the constant has " + std::to_string(value_num) + " values but its shape holds " + std::to_string(count));
    auto node = std::make_unique<Node>(openatc::es::UniqueName(*builder, "Const"), "Const");
    node->op.OutputRegister("y", "TensorType::ALL()");
    const ge::TensorDesc desc(ge::Shape(shape), ge::FORMAT_ND, ge::DT_FLOAT);
    node->op.SetAttr("value", ge::Tensor(desc, reinterpret_cast<const uint8_t *>(values),
                                         static_cast<size_t>(value_num) * sizeof(float)));
    node->op.UpdateOutputDesc("y", desc);
    node->output_names = {"y"};
    return openatc::es::AddNode(*builder, std::move(node));
  });
}

EsTensorHolder *EsCreateNode(EsGraphBuilder *builder, const char *op_type, int64_t ir_input_num,
                             const char *const *input_names, const int32_t *input_kinds, const int64_t *input_counts,
                             EsTensorHolder *const *inputs, int64_t output_num, const char *const *output_names) {
  return Guarded<EsTensorHolder *>(nullptr, [&] {
    Require(builder != nullptr, "the graph builder is NULL");
    const std::string type = Text(op_type, "op_type");
    Require(ir_input_num >= 0 && output_num >= 0, type + ": negative input or output count");
    auto node = std::make_unique<Node>(openatc::es::UniqueName(*builder, type), type);
    size_t next = 0;
    for (int64_t i = 0; i < ir_input_num; ++i) {
      const std::string in = Text(input_names[i], "an input name");
      const int64_t count = input_counts[i];
      const int32_t kind = input_kinds[i];
      Require(kind != ES_INPUT_REQUIRED || count == 1, type + ": required input '" + in + "' needs a tensor");
      Require(kind != ES_INPUT_OPTIONAL || count == 0 || count == 1, type + ": optional input '" + in + "' takes 0 or 1");
      Require(count >= 0, type + ": input '" + in + "' has a negative count");
      if (kind == ES_INPUT_DYNAMIC) {
        node->op.DynamicInputRegister(in.c_str(), "TensorType::ALL()");
        node->op.CreateDynamicInput(in.c_str(), static_cast<uint32_t>(count), true);
      } else if (kind == ES_INPUT_OPTIONAL) {
        node->op.OptionalInputRegister(in.c_str(), "TensorType::ALL()");
      } else {
        node->op.InputRegister(in.c_str(), "TensorType::ALL()");
      }
      for (int64_t k = 0; k < count; ++k, ++next) {
        EsTensorHolder *src = inputs[next];
        Require(src != nullptr && src->index >= 0, type + ": input '" + in + "' is NULL or has no tensor");
        Require(src->builder == builder, type + ": input '" + in + "' comes from another graph builder");
        const char *src_out = src->node->output_names[static_cast<size_t>(src->index)].c_str();
        if (kind == ES_INPUT_DYNAMIC)
          node->op.SetInput(in.c_str(), static_cast<uint32_t>(k), src->node->op, src_out);
        else
          node->op.SetInput(in.c_str(), src->node->op, src_out);
      }
    }
    for (int64_t o = 0; o < output_num; ++o) {
      const std::string out = Text(output_names[o], "an output name");
      node->op.OutputRegister(out.c_str(), "TensorType::ALL()");
      node->output_names.push_back(out);
    }
    openatc::es::ApplyScopeAttrs(node->op);
    return openatc::es::AddNode(*builder, std::move(node));
  });
}

EsTensorHolder *EsNodeOutput(EsTensorHolder *holder, int64_t index) {
  return Guarded<EsTensorHolder *>(nullptr, [&] {
    Node &node = CheckedNode(holder);
    Require(index >= 0 && static_cast<size_t>(index) < node.output_names.size(),
            "output index " + std::to_string(index) + " is out of range (the node has " +
                std::to_string(node.output_names.size()) + ")");
    return node.outputs[static_cast<size_t>(index)].get();
  });
}

void EsAttrScopePush(void) { openatc::es::t_scopes.emplace_back(); }

int32_t EsAttrScopePop(void) {
  return GuardedStatus([] {
    Require(!openatc::es::t_scopes.empty(), "no attr scope is open");
    openatc::es::t_scopes.pop_back();
  });
}

EsGraphBuilder *EsHolderBuilder(const EsTensorHolder *holder) { return holder != nullptr ? holder->builder : nullptr; }

}  // extern "C"
