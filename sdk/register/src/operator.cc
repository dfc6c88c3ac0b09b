// ge::Operator (graph/operator.h): construction, IR registration called by REG_OP code,
// dynamic instances, data/control edges, tensor descriptors and subgraph builders.
// Attributes live in operator_attr.cc.
#include "operator_impl.h"

#include <algorithm>

namespace ge {
namespace {
using openatc::reg::IrInputKind;
using openatc::reg::IrOutputKind;
using openatc::reg::SetSdkError;

std::string Str(const char_t *s) { return s != nullptr ? std::string(s) : std::string(); }

// Index of the slot named `name`, or -1.
long FindSlot(const std::vector<IoSlot> &slots, const std::string &name) {
  for (size_t i = 0; i < slots.size(); ++i) {
    if (slots[i].name == name) return static_cast<long>(i);
  }
  return -1;
}

long FindIr(const std::vector<IrIo> &irs, const std::string &name) {
  for (size_t i = 0; i < irs.size(); ++i) {
    if (irs[i].name == name) return static_cast<long>(i);
  }
  return -1;
}

// Renames the instances of dynamic IR entry `ir` to "<name>0", "<name>1", ... in slot order.
void RenumberGroup(std::vector<IoSlot> &slots, const IrIo &ir, size_t ir_index) {
  size_t n = 0;
  for (auto &s : slots) {
    if (s.ir_index == ir_index) s.name = ir.name + std::to_string(n++);
  }
}

// Adds `num` instances of dynamic IR entry `ir_name`; `pos_in_group` = where inside the group
// (SIZE_MAX = at the end). Returns false (error set) when the entry is not dynamic.
bool AddDynamicSlots(OperatorImpl &impl, bool is_input, const std::string &ir_name, uint32_t num,
                     size_t pos_in_group, const char *what) {
  std::vector<IrIo> &irs = is_input ? impl.ir_inputs : impl.ir_outputs;
  std::vector<IoSlot> &slots = is_input ? impl.inputs : impl.outputs;
  const long ir = FindIr(irs, ir_name);
  if (ir < 0 || !irs[ir].dynamic) {
    SetSdkError(std::string(what) + ": '" + ir_name + "' is not a dynamic " + (is_input ? "input" : "output") +
                " of " + impl.Where() + "; declare it with DYNAMIC_" + (is_input ? "INPUT" : "OUTPUT"));
    return false;
  }
  const size_t ir_index = static_cast<size_t>(ir);
  // Group range [first, end) in slot order; empty groups sit after every lower IR index.
  size_t first = 0;
  while (first < slots.size() && slots[first].ir_index < ir_index) ++first;
  size_t end = first;
  while (end < slots.size() && slots[end].ir_index == ir_index) ++end;
  const size_t group_size = end - first;
  if (pos_in_group != SIZE_MAX && pos_in_group > group_size) {
    SetSdkError(std::string(what) + ": index " + std::to_string(pos_in_group) + " is past the " +
                std::to_string(group_size) + " existing instances of '" + ir_name + "' of " + impl.Where());
    return false;
  }
  const size_t at = first + (pos_in_group == SIZE_MAX ? group_size : pos_in_group);
  IoSlot slot;
  slot.ir_index = ir_index;
  slots.insert(slots.begin() + static_cast<long>(at), num, slot);
  RenumberGroup(slots, irs[ir_index], ir_index);
  return true;
}

void RegisterIo(OperatorImpl *impl, bool is_input, const char_t *name, const char_t *type_expr, int kind,
                bool dynamic) {
  if (impl == nullptr) return;
  IrIo ir;
  ir.name = Str(name);
  ir.type_expr = Str(type_expr);
  ir.kind = kind;
  ir.dynamic = dynamic;
  std::vector<IrIo> &irs = is_input ? impl->ir_inputs : impl->ir_outputs;
  if (FindIr(irs, ir.name) >= 0) {
    SetSdkError("REG_OP(" + impl->type + "): " + (is_input ? "input" : "output") + " '" + ir.name +
                "' is declared twice; give every input/output a distinct name");
    return;
  }
  irs.push_back(ir);
  if (!dynamic) {
    IoSlot slot;
    slot.name = ir.name;
    slot.ir_index = irs.size() - 1;
    (is_input ? impl->inputs : impl->outputs).push_back(slot);
  }
}

bool CheckImpl(const std::shared_ptr<OperatorImpl> &impl, const char *what) {
  if (impl) return true;
  SetSdkError(std::string(what) + ": the operator is empty (default-constructed or failed to create); "
              "construct it with a name and type or via OperatorFactory::CreateOperator");
  return false;
}

long InputSlotByName(OperatorImpl &impl, const char_t *dst_name, const char *what) {
  const long i = FindSlot(impl.inputs, Str(dst_name));
  if (i < 0) {
    SetSdkError(std::string(what) + ": " + impl.Where() + " has no input named '" + Str(dst_name) +
                "'; use an input name from its REG_OP (dynamic instances are '<name><index>' and must be created first)");
  }
  return i;
}

void Connect(OperatorImpl &dst, long dst_slot, const std::shared_ptr<OperatorImpl> &src, long src_slot,
             const char *what) {
  if (src_slot < 0 || static_cast<size_t>(src_slot) >= src->outputs.size()) {
    SetSdkError(std::string(what) + ": " + src->Where() + " has " + std::to_string(src->outputs.size()) +
                " outputs, so output " + std::to_string(src_slot) + " cannot feed input '" +
                dst.inputs[dst_slot].name + "' of " + dst.Where());
    return;
  }
  if (src.get() == &dst) {
    SetSdkError(std::string(what) + ": " + dst.Where() + " cannot take its own output as input '" +
                dst.inputs[dst_slot].name + "'");
    return;
  }
  dst.inputs[dst_slot].src = src;
  dst.inputs[dst_slot].src_index = static_cast<uint32_t>(src_slot);
}
}  // namespace

// ---------------------------------------------------------------- construction
Operator::Operator(const char_t *type) : Operator(type, type) {}

Operator::Operator(const char_t *name, const char_t *type) : operator_impl_(std::make_shared<OperatorImpl>()) {
  operator_impl_->name = Str(name);
  operator_impl_->type = Str(type);
}

Operator::Operator(const AscendString &name, const AscendString &type)
    : Operator(name.GetString(), type.GetString()) {}

Operator::~Operator() = default;

bool Operator::IsEmpty() const { return !operator_impl_; }

graphStatus Operator::GetName(AscendString &name) const {
  if (!CheckImpl(operator_impl_, "Operator::GetName")) return GRAPH_FAILED;
  name = AscendString(operator_impl_->name.c_str(), operator_impl_->name.size());
  return GRAPH_SUCCESS;
}

graphStatus Operator::GetOpType(AscendString &type) const {
  if (!CheckImpl(operator_impl_, "Operator::GetOpType")) return GRAPH_FAILED;
  type = AscendString(operator_impl_->type.c_str(), operator_impl_->type.size());
  return GRAPH_SUCCESS;
}

// ---------------------------------------------------------------- IR registration
void Operator::InputRegister(const char_t *name, const char_t *type_expr) {
  RegisterIo(operator_impl_.get(), true, name, type_expr, static_cast<int>(IrInputKind::kRequired), false);
}
void Operator::OptionalInputRegister(const char_t *name, const char_t *type_expr) {
  RegisterIo(operator_impl_.get(), true, name, type_expr, static_cast<int>(IrInputKind::kOptional), false);
}
void Operator::DynamicInputRegister(const char_t *name, const char_t *type_expr) {
  RegisterIo(operator_impl_.get(), true, name, type_expr, static_cast<int>(IrInputKind::kDynamic), true);
}
void Operator::OutputRegister(const char_t *name, const char_t *type_expr) {
  RegisterIo(operator_impl_.get(), false, name, type_expr, static_cast<int>(IrOutputKind::kRequired), false);
}
void Operator::DynamicOutputRegister(const char_t *name, const char_t *type_expr) {
  RegisterIo(operator_impl_.get(), false, name, type_expr, static_cast<int>(IrOutputKind::kDynamic), true);
}

void Operator::DataTypeRegister(const char_t *symbol, const TensorType &types) {
  if (!operator_impl_) return;
  operator_impl_->datatype_syms[Str(symbol)] = types.types;
}

void Operator::SubgraphRegister(const char_t *name, bool dynamic) {
  if (!operator_impl_) return;
  SubgraphSlot slot;
  slot.name = Str(name);
  slot.dynamic = dynamic;
  if (!dynamic) slot.builders.resize(1);
  operator_impl_->subgraphs.push_back(slot);
}

void Operator::CreateDynamicInput(const char_t *name, uint32_t num, bool is_push_back) {
  if (!CheckImpl(operator_impl_, "create_dynamic_input")) return;
  AddDynamicSlots(*operator_impl_, true, Str(name), num, is_push_back ? SIZE_MAX : 0U, "create_dynamic_input");
}
void Operator::CreateDynamicInputByIndex(const char_t *name, uint32_t num, size_t index) {
  if (!CheckImpl(operator_impl_, "create_dynamic_input_byindex")) return;
  AddDynamicSlots(*operator_impl_, true, Str(name), num, index, "create_dynamic_input_byindex");
}
void Operator::CreateDynamicOutput(const char_t *name, uint32_t num, bool is_push_back) {
  if (!CheckImpl(operator_impl_, "create_dynamic_output")) return;
  AddDynamicSlots(*operator_impl_, false, Str(name), num, is_push_back ? SIZE_MAX : 0U, "create_dynamic_output");
}

// ---------------------------------------------------------------- edges
Operator &Operator::SetInput(const char_t *dst_name, const Operator &src_oprt) {
  return SetInput(dst_name, src_oprt, 0U);
}

Operator &Operator::SetInput(const char_t *dst_name, const Operator &src_oprt, uint32_t index) {
  if (!CheckImpl(operator_impl_, "Operator::SetInput") || !CheckImpl(src_oprt.operator_impl_, "Operator::SetInput (source)"))
    return *this;
  const long dst = InputSlotByName(*operator_impl_, dst_name, "Operator::SetInput");
  if (dst >= 0) Connect(*operator_impl_, dst, src_oprt.operator_impl_, static_cast<long>(index), "Operator::SetInput");
  return *this;
}

Operator &Operator::SetInput(const char_t *dst_name, const Operator &src_oprt, const char_t *name) {
  if (!CheckImpl(operator_impl_, "Operator::SetInput") || !CheckImpl(src_oprt.operator_impl_, "Operator::SetInput (source)"))
    return *this;
  const long dst = InputSlotByName(*operator_impl_, dst_name, "Operator::SetInput");
  if (dst < 0) return *this;
  const long src = FindSlot(src_oprt.operator_impl_->outputs, Str(name));
  if (src < 0) {
    SetSdkError("Operator::SetInput: " + src_oprt.operator_impl_->Where() + " has no output named '" + Str(name) +
                "'; use an output name from its REG_OP");
    return *this;
  }
  Connect(*operator_impl_, dst, src_oprt.operator_impl_, src, "Operator::SetInput");
  return *this;
}

Operator &Operator::SetInput(uint32_t dst_index, const Operator &src_oprt, uint32_t src_index) {
  if (!CheckImpl(operator_impl_, "Operator::SetInput") || !CheckImpl(src_oprt.operator_impl_, "Operator::SetInput (source)"))
    return *this;
  if (dst_index >= operator_impl_->inputs.size()) {
    SetSdkError("Operator::SetInput: input index " + std::to_string(dst_index) + " is out of range; " +
                operator_impl_->Where() + " has " + std::to_string(operator_impl_->inputs.size()) + " inputs");
    return *this;
  }
  Connect(*operator_impl_, static_cast<long>(dst_index), src_oprt.operator_impl_, static_cast<long>(src_index),
          "Operator::SetInput");
  return *this;
}

Operator &Operator::SetInput(const char_t *dst_name, uint32_t dst_index, const Operator &src_oprt) {
  const std::string inst = Str(dst_name) + std::to_string(dst_index);
  return SetInput(inst.c_str(), src_oprt, 0U);
}

Operator &Operator::SetInput(const char_t *dst_name, uint32_t dst_index, const Operator &src_oprt,
                             const char_t *name) {
  const std::string inst = Str(dst_name) + std::to_string(dst_index);
  return SetInput(inst.c_str(), src_oprt, name);
}

Operator &Operator::AddControlInput(const Operator &src_oprt) {
  if (!CheckImpl(operator_impl_, "Operator::AddControlInput") ||
      !CheckImpl(src_oprt.operator_impl_, "Operator::AddControlInput (source)"))
    return *this;
  operator_impl_->control_inputs.push_back(src_oprt.operator_impl_);
  return *this;
}

// ---------------------------------------------------------------- descriptors
namespace {
TensorDesc GetDesc(const std::shared_ptr<OperatorImpl> &impl, bool is_input, const std::string &name,
                   const char *what) {
  if (!CheckImpl(impl, what)) return TensorDesc();
  const auto &slots = is_input ? impl->inputs : impl->outputs;
  const long i = FindSlot(slots, name);
  if (i < 0) {
    SetSdkError(std::string(what) + ": " + impl->Where() + " has no " + (is_input ? "input" : "output") +
                " named '" + name + "'");
    return TensorDesc();
  }
  return slots[i].desc;
}

graphStatus SetDesc(const std::shared_ptr<OperatorImpl> &impl, bool is_input, const std::string &name,
                    const TensorDesc &desc, const char *what) {
  if (!CheckImpl(impl, what)) return GRAPH_FAILED;
  auto &slots = is_input ? impl->inputs : impl->outputs;
  const long i = FindSlot(slots, name);
  if (i < 0) {
    SetSdkError(std::string(what) + ": " + impl->Where() + " has no " + (is_input ? "input" : "output") +
                " named '" + name + "'");
    return GRAPH_FAILED;
  }
  slots[i].desc = desc;
  slots[i].desc_set = true;
  return GRAPH_SUCCESS;
}

TensorDesc GetDescByIndex(const std::shared_ptr<OperatorImpl> &impl, bool is_input, uint32_t index,
                          const char *what) {
  if (!CheckImpl(impl, what)) return TensorDesc();
  const auto &slots = is_input ? impl->inputs : impl->outputs;
  if (index >= slots.size()) {
    SetSdkError(std::string(what) + ": index " + std::to_string(index) + " is out of range; " + impl->Where() +
                " has " + std::to_string(slots.size()) + (is_input ? " inputs" : " outputs"));
    return TensorDesc();
  }
  return slots[index].desc;
}
}  // namespace

TensorDesc Operator::GetInputDescByName(const char_t *name) const {
  return GetDesc(operator_impl_, true, Str(name), "Operator::GetInputDescByName");
}
TensorDesc Operator::GetInputDesc(uint32_t index) const {
  return GetDescByIndex(operator_impl_, true, index, "Operator::GetInputDesc");
}
graphStatus Operator::UpdateInputDesc(const char_t *name, const TensorDesc &tensor_desc) {
  return SetDesc(operator_impl_, true, Str(name), tensor_desc, "Operator::UpdateInputDesc");
}
TensorDesc Operator::GetOutputDescByName(const char_t *name) const {
  return GetDesc(operator_impl_, false, Str(name), "Operator::GetOutputDescByName");
}
TensorDesc Operator::GetOutputDesc(uint32_t index) const {
  return GetDescByIndex(operator_impl_, false, index, "Operator::GetOutputDesc");
}
graphStatus Operator::UpdateOutputDesc(const char_t *name, const TensorDesc &tensor_desc) {
  return SetDesc(operator_impl_, false, Str(name), tensor_desc, "Operator::UpdateOutputDesc");
}
TensorDesc Operator::GetDynamicInputDesc(const char_t *name, uint32_t index) const {
  return GetDesc(operator_impl_, true, Str(name) + std::to_string(index), "Operator::GetDynamicInputDesc");
}
graphStatus Operator::UpdateDynamicInputDesc(const char_t *name, uint32_t index, const TensorDesc &tensor_desc) {
  return SetDesc(operator_impl_, true, Str(name) + std::to_string(index), tensor_desc,
                 "Operator::UpdateDynamicInputDesc");
}
TensorDesc Operator::GetDynamicOutputDesc(const char_t *name, uint32_t index) const {
  return GetDesc(operator_impl_, false, Str(name) + std::to_string(index), "Operator::GetDynamicOutputDesc");
}
graphStatus Operator::UpdateDynamicOutputDesc(const char_t *name, uint32_t index, const TensorDesc &tensor_desc) {
  return SetDesc(operator_impl_, false, Str(name) + std::to_string(index), tensor_desc,
                 "Operator::UpdateDynamicOutputDesc");
}
size_t Operator::GetInputsSize() const { return operator_impl_ ? operator_impl_->inputs.size() : 0U; }
size_t Operator::GetOutputsSize() const { return operator_impl_ ? operator_impl_->outputs.size() : 0U; }

// ---------------------------------------------------------------- subgraphs
namespace {
SubgraphSlot *FindSubgraph(OperatorImpl &impl, const std::string &name, const char *what) {
  for (auto &s : impl.subgraphs) {
    if (s.name == name) return &s;
  }
  SetSdkError(std::string(what) + ": " + impl.Where() + " declares no subgraph '" + name +
              "'; declare it with GRAPH or DYNAMIC_GRAPH in its REG_OP");
  return nullptr;
}
}  // namespace

void Operator::CreateDynamicSubgraph(const char_t *name, uint32_t num) {
  if (!CheckImpl(operator_impl_, "create_dynamic_subgraph")) return;
  SubgraphSlot *s = FindSubgraph(*operator_impl_, Str(name), "create_dynamic_subgraph");
  if (s != nullptr) s->builders.resize(s->builders.size() + num);
}

void Operator::SetSubgraphBuilder(const char_t *name, uint32_t index, const SubgraphBuilder &builder) {
  if (!CheckImpl(operator_impl_, "set_subgraph_builder")) return;
  SubgraphSlot *s = FindSubgraph(*operator_impl_, Str(name), "set_subgraph_builder");
  if (s == nullptr) return;
  if (index >= s->builders.size()) {
    SetSdkError("set_subgraph_builder: subgraph '" + s->name + "' of " + operator_impl_->Where() + " has " +
                std::to_string(s->builders.size()) + " instances, so index " + std::to_string(index) +
                " is out of range; call create_dynamic_subgraph first");
    return;
  }
  s->builders[index] = builder;
}

SubgraphBuilder Operator::GetSubgraphBuilder(const char_t *name) const { return GetDynamicSubgraphBuilder(name, 0U); }

SubgraphBuilder Operator::GetDynamicSubgraphBuilder(const char_t *name, uint32_t index) const {
  if (!CheckImpl(operator_impl_, "Operator::GetSubgraphBuilder")) return SubgraphBuilder();
  SubgraphSlot *s = FindSubgraph(*operator_impl_, Str(name), "Operator::GetSubgraphBuilder");
  if (s == nullptr || index >= s->builders.size()) return SubgraphBuilder();
  return s->builders[index];
}

Graph Operator::GetSubgraph(const char_t *name) const { return GetDynamicSubgraph(name, 0U); }

Graph Operator::GetDynamicSubgraph(const char_t *name, uint32_t index) const {
  const SubgraphBuilder builder = GetDynamicSubgraphBuilder(name, index);
  if (!builder) return Graph();
  try {
    return builder();
  } catch (...) {
    SetSdkError("Operator::GetSubgraph: the builder of subgraph '" + Str(name) + "' threw an exception");
    return Graph();
  }
}

size_t Operator::GetSubgraphNamesCount() const { return operator_impl_ ? operator_impl_->subgraphs.size() : 0U; }

}  // namespace ge
