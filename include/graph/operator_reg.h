/**
 * @file graph/operator_reg.h
 * The REG_OP family (metadef `external/graph/operator_reg.h`; behaviour per
 * docs/custom-op-lifecycle.md §4). Our own implementation of the same surface:
 *
 *   REG_OP(AddCustom)
 *       .INPUT(x1, TensorType({DT_FLOAT, DT_FLOAT16}))
 *       .INPUT(x2, TensorType({DT_FLOAT, DT_FLOAT16}))
 *       .OUTPUT(y, TensorType({DT_FLOAT, DT_FLOAT16}))
 *       .OP_END_FACTORY_REG(AddCustom);
 *
 * defines `class op::AddCustom : public ge::Operator` in the enclosing namespace and registers a
 * creator for type "AddCustom" with OperatorFactory. Items are recorded in the order written,
 * which is the IR index order. INPUT/OUTPUT type arguments are stringized (never evaluated);
 * DATATYPE's argument and ATTR defaults are evaluated, so write REG_OP inside `namespace ge`
 * (as GE's samples do) or qualify those names.
 *
 * How the chaining works: REG_OP opens a private member function and leaves an expression
 * `ge::OpenAtcIrChain()` open; each `.ITEM(...)` becomes `.Next();` + a call to the next
 * function, closes the function, declares the item's public members, and opens the next
 * private function. The constructors call the first function, so every instance records its IR.
 */
#ifndef OPENATC_GRAPH_OPERATOR_REG_H_
#define OPENATC_GRAPH_OPERATOR_REG_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "graph/operator.h"
#include "graph/operator_factory.h"
#include "graph/tensor.h"
#include "graph/types.h"

namespace ge {

/// The open expression REG_OP's chaining continues; `Next()` does nothing.
struct OpenAtcIrChain {
  OpenAtcIrChain &Next() { return *this; }
};

namespace openatc_detail {
/// Compile-time string equality (OP_END_FACTORY_REG's name check).
constexpr bool SameName(const char *a, const char *b) {
  return (*a == *b) && (*a == '\0' || SameName(a + 1, b + 1));
}
}  // namespace openatc_detail

}  // namespace ge

#ifndef FORCE_INLINE
#define FORCE_INLINE __attribute__((always_inline)) inline
#endif

#define OPENATC_REG_JOIN_IMPL(a, b) a##b
#define OPENATC_REG_JOIN(a, b) OPENATC_REG_JOIN_IMPL(a, b)

// ---- REG_OP(x): opens namespace op and class x.
#define REG_OP(x)                                                                         \
  namespace op {                                                                          \
  class x : public ::ge::Operator {                                                       \
    typedef x OpenAtcThisType;                                                            \
                                                                                          \
   public:                                                                                \
    static constexpr const char kOpenAtcRegName[] = #x;                                   \
    FORCE_INLINE explicit x(const char *name) : ::ge::Operator(name, #x) { OpenAtcIrBegin(); } \
    FORCE_INLINE explicit x(const ::ge::AscendString &name) : ::ge::Operator(name, #x) {  \
      OpenAtcIrBegin();                                                                   \
    }                                                                                     \
    [[deprecated("use the const char * constructor")]] FORCE_INLINE explicit x(const std::string &name) \
        : ::ge::Operator(name.c_str(), #x) {                                              \
      OpenAtcIrBegin();                                                                   \
    }                                                                                     \
    FORCE_INLINE x() : ::ge::Operator(#x, #x) { OpenAtcIrBegin(); }                       \
                                                                                          \
   private:                                                                               \
    void OpenAtcIrBegin() { ::ge::OpenAtcIrChain()

// Members shared by INPUT and OPTIONAL_INPUT.
#define OPENATC_INPUT_MEMBERS(x)                                                          \
  static const std::string name_in_##x() { return #x; }                                   \
  static void name_in_##x(::ge::AscendString &name) { name = ::ge::AscendString(#x); }    \
  OpenAtcThisType &set_input_##x(::ge::Operator &v, uint32_t srcIndex) {                  \
    ::ge::Operator::SetInput(#x, v, srcIndex);                                            \
    return *this;                                                                         \
  }                                                                                       \
  OpenAtcThisType &set_input_##x(::ge::Operator &v) {                                     \
    ::ge::Operator::SetInput(#x, v);                                                      \
    return *this;                                                                         \
  }                                                                                       \
  OpenAtcThisType &set_input_##x##_by_name(::ge::Operator &v, const char *srcName) {      \
    ::ge::Operator::SetInput(#x, v, srcName);                                             \
    return *this;                                                                         \
  }                                                                                       \
  [[deprecated("use set_input_" #x "_by_name")]] OpenAtcThisType &set_input_##x(         \
      ::ge::Operator &v, const std::string &srcName) {                                    \
    ::ge::Operator::SetInput(#x, v, srcName.c_str());                                     \
    return *this;                                                                         \
  }                                                                                       \
  ::ge::TensorDesc get_input_desc_##x() const { return ::ge::Operator::GetInputDescByName(#x); } \
  ::ge::graphStatus update_input_desc_##x(const ::ge::TensorDesc &tensorDesc) {           \
    return ::ge::Operator::UpdateInputDesc(#x, tensorDesc);                               \
  }

#define INPUT(x, t)                                                                       \
  Next();                                                                                 \
  OpenAtcIrIn_##x();                                                                      \
  }                                                                                       \
                                                                                          \
 public:                                                                                  \
  OPENATC_INPUT_MEMBERS(x)                                                                \
 private:                                                                                 \
  void OpenAtcIrIn_##x() {                                                                \
    ::ge::Operator::InputRegister(#x, #t);                                                \
    ::ge::OpenAtcIrChain()

#define OPTIONAL_INPUT(x, t)                                                              \
  Next();                                                                                 \
  OpenAtcIrIn_##x();                                                                      \
  }                                                                                       \
                                                                                          \
 public:                                                                                  \
  OPENATC_INPUT_MEMBERS(x)                                                                \
 private:                                                                                 \
  void OpenAtcIrIn_##x() {                                                                \
    ::ge::Operator::OptionalInputRegister(#x, #t);                                        \
    ::ge::OpenAtcIrChain()

#define DYNAMIC_INPUT(x, t)                                                               \
  Next();                                                                                 \
  OpenAtcIrIn_##x();                                                                      \
  }                                                                                       \
                                                                                          \
 public:                                                                                  \
  static const std::string name_in_##x() { return #x; }                                   \
  static void name_in_##x(::ge::AscendString &name) { name = ::ge::AscendString(#x); }    \
  OpenAtcThisType &create_dynamic_input_##x(uint32_t num, bool isPushBack = true) {       \
    ::ge::Operator::CreateDynamicInput(#x, num, isPushBack);                              \
    return *this;                                                                         \
  }                                                                                       \
  OpenAtcThisType &create_dynamic_input_byindex_##x(uint32_t num, size_t index) {         \
    ::ge::Operator::CreateDynamicInputByIndex(#x, num, index);                            \
    return *this;                                                                         \
  }                                                                                       \
  ::ge::TensorDesc get_dynamic_input_desc_##x(uint32_t index) const {                     \
    return ::ge::Operator::GetDynamicInputDesc(#x, index);                                \
  }                                                                                       \
  ::ge::graphStatus update_dynamic_input_desc_##x(uint32_t index, const ::ge::TensorDesc &tensorDesc) { \
    return ::ge::Operator::UpdateDynamicInputDesc(#x, index, tensorDesc);                 \
  }                                                                                       \
  OpenAtcThisType &set_dynamic_input_##x(uint32_t dstIndex, ::ge::Operator &v) {          \
    ::ge::Operator::SetInput(#x, dstIndex, v);                                            \
    return *this;                                                                         \
  }                                                                                       \
  OpenAtcThisType &set_dynamic_input_##x(uint32_t dstIndex, ::ge::Operator &v, const char *srcName) { \
    ::ge::Operator::SetInput(#x, dstIndex, v, srcName);                                   \
    return *this;                                                                         \
  }                                                                                       \
                                                                                          \
 private:                                                                                 \
  void OpenAtcIrIn_##x() {                                                                \
    ::ge::Operator::DynamicInputRegister(#x, #t);                                         \
    ::ge::OpenAtcIrChain()

#define OUTPUT(x, t)                                                                      \
  Next();                                                                                 \
  OpenAtcIrOut_##x();                                                                     \
  }                                                                                       \
                                                                                          \
 public:                                                                                  \
  static const std::string name_out_##x() { return #x; }                                  \
  static void name_out_##x(::ge::AscendString &name) { name = ::ge::AscendString(#x); }   \
  ::ge::TensorDesc get_output_desc_##x() const { return ::ge::Operator::GetOutputDescByName(#x); } \
  ::ge::graphStatus update_output_desc_##x(const ::ge::TensorDesc &tensorDesc) {          \
    return ::ge::Operator::UpdateOutputDesc(#x, tensorDesc);                              \
  }                                                                                       \
                                                                                          \
 private:                                                                                 \
  void OpenAtcIrOut_##x() {                                                               \
    ::ge::Operator::OutputRegister(#x, #t);                                               \
    ::ge::OpenAtcIrChain()

#define DYNAMIC_OUTPUT(x, t)                                                              \
  Next();                                                                                 \
  OpenAtcIrOut_##x();                                                                     \
  }                                                                                       \
                                                                                          \
 public:                                                                                  \
  static const std::string name_out_##x() { return #x; }                                  \
  static void name_out_##x(::ge::AscendString &name) { name = ::ge::AscendString(#x); }   \
  OpenAtcThisType &create_dynamic_output_##x(uint32_t num, bool isPushBack = true) {      \
    ::ge::Operator::CreateDynamicOutput(#x, num, isPushBack);                             \
    return *this;                                                                         \
  }                                                                                       \
  ::ge::TensorDesc get_dynamic_output_desc_##x(uint32_t index) const {                    \
    return ::ge::Operator::GetDynamicOutputDesc(#x, index);                               \
  }                                                                                       \
  ::ge::graphStatus update_dynamic_output_desc_##x(uint32_t index, const ::ge::TensorDesc &tensorDesc) { \
    return ::ge::Operator::UpdateDynamicOutputDesc(#x, index, tensorDesc);                \
  }                                                                                       \
                                                                                          \
 private:                                                                                 \
  void OpenAtcIrOut_##x() {                                                               \
    ::ge::Operator::DynamicOutputRegister(#x, #t);                                        \
    ::ge::OpenAtcIrChain()

// Extra accessors of string-typed attributes (GE gives String/ListString an AscendString form).
#define OPENATC_ATTR_EXTRA_String(x)                                                      \
  ::ge::graphStatus get_attr_##x(::ge::AscendString &v) const { return ::ge::Operator::GetAttr(#x, v); } \
  OpenAtcThisType &set_attr_##x(const char *v) {                                          \
    ::ge::Operator::SetAttr(#x, v);                                                       \
    return *this;                                                                         \
  }
#define OPENATC_ATTR_EXTRA_ListString(x)                                                  \
  ::ge::graphStatus get_attr_##x(std::vector<::ge::AscendString> &v) const {              \
    return ::ge::Operator::GetAttr(#x, v);                                                \
  }                                                                                       \
  OpenAtcThisType &set_attr_##x(const std::vector<::ge::AscendString> &v) {               \
    ::ge::Operator::SetAttr(#x, v);                                                       \
    return *this;                                                                         \
  }
#define OPENATC_ATTR_EXTRA_Int(x)
#define OPENATC_ATTR_EXTRA_Float(x)
#define OPENATC_ATTR_EXTRA_AscendString(x)
#define OPENATC_ATTR_EXTRA_Bool(x)
#define OPENATC_ATTR_EXTRA_Tensor(x)
#define OPENATC_ATTR_EXTRA_Type(x)
#define OPENATC_ATTR_EXTRA_NamedAttrs(x)
#define OPENATC_ATTR_EXTRA_ListInt(x)
#define OPENATC_ATTR_EXTRA_ListFloat(x)
#define OPENATC_ATTR_EXTRA_ListAscendString(x)
#define OPENATC_ATTR_EXTRA_ListBool(x)
#define OPENATC_ATTR_EXTRA_ListTensor(x)
#define OPENATC_ATTR_EXTRA_Bytes(x)
#define OPENATC_ATTR_EXTRA_ListListInt(x)
#define OPENATC_ATTR_EXTRA_ListType(x)
#define OPENATC_ATTR_EXTRA_ListNamedAttrs(x)

#define OPENATC_ATTR_MEMBERS(x, Type)                                                     \
  static const std::string name_attr_##x() { return #x; }                                 \
  static void name_attr_##x(::ge::AscendString &name) { name = ::ge::AscendString(#x); }  \
  Op##Type get_attr_##x() const {                                                         \
    Op##Type value{};                                                                     \
    (void)::ge::Operator::GetAttr(#x, value);                                             \
    return value;                                                                         \
  }                                                                                       \
  OpenAtcThisType &set_attr_##x(const Op##Type &v) {                                      \
    ::ge::Operator::SetAttr(#x, v);                                                       \
    return *this;                                                                         \
  }                                                                                       \
  OpenAtcThisType &set_attr_##x(const std::function<Op##Type()> &v) {                     \
    (void)v;                                                                              \
    return *this;                                                                         \
  }                                                                                       \
  OPENATC_ATTR_EXTRA_##Type(x)

/// Optional attribute with a default; `Type` is a token of docs/custom-op-lifecycle.md §4 (Int,
/// Float, String, ListInt, ...); the default may contain commas (`{1, 2}`).
#define ATTR(x, Type, ...)                                                                \
  Next();                                                                                 \
  OpenAtcIrAttr_##x();                                                                    \
  }                                                                                       \
                                                                                          \
 public:                                                                                  \
  OPENATC_ATTR_MEMBERS(x, Type)                                                           \
 private:                                                                                 \
  void OpenAtcIrAttr_##x() {                                                              \
    ::ge::Operator::SetAttr(#x, Op##Type(__VA_ARGS__));                                   \
    ::ge::Operator::AttrRegister(#x, #Type, false);                                       \
    ::ge::OpenAtcIrChain()

/// Mandatory attribute: no default value.
#define REQUIRED_ATTR(x, Type)                                                            \
  Next();                                                                                 \
  OpenAtcIrAttr_##x();                                                                    \
  }                                                                                       \
                                                                                          \
 public:                                                                                  \
  OPENATC_ATTR_MEMBERS(x, Type)                                                           \
 private:                                                                                 \
  void OpenAtcIrAttr_##x() {                                                              \
    ::ge::Operator::AttrRegister(#x, #Type, true);                                        \
    ::ge::OpenAtcIrChain()

/// Named dtype variable; `t` is a TensorType expression (evaluated).
#define DATATYPE(x, t)                                                                    \
  Next();                                                                                 \
  OpenAtcIrDt_##x();                                                                      \
  }                                                                                       \
                                                                                          \
 private:                                                                                 \
  void OpenAtcIrDt_##x() {                                                                \
    ::ge::Operator::DataTypeRegister(#x, t);                                              \
    ::ge::OpenAtcIrChain()

#define GRAPH(x)                                                                          \
  Next();                                                                                 \
  OpenAtcIrGraph_##x();                                                                   \
  }                                                                                       \
                                                                                          \
 public:                                                                                  \
  static const std::string name_graph_##x() { return #x; }                                \
  OpenAtcThisType &set_subgraph_builder_##x(const ::ge::SubgraphBuilder &v) {             \
    ::ge::Operator::SetSubgraphBuilder(#x, 0U, v);                                        \
    return *this;                                                                         \
  }                                                                                       \
  ::ge::SubgraphBuilder get_subgraph_builder_##x() const {                                \
    return ::ge::Operator::GetSubgraphBuilder(#x);                                        \
  }                                                                                       \
  ::ge::Graph get_subgraph_##x() const { return ::ge::Operator::GetSubgraph(#x); }        \
                                                                                          \
 private:                                                                                 \
  void OpenAtcIrGraph_##x() {                                                             \
    ::ge::Operator::SubgraphRegister(#x, false);                                          \
    ::ge::OpenAtcIrChain()

#define DYNAMIC_GRAPH(x)                                                                  \
  Next();                                                                                 \
  OpenAtcIrGraph_##x();                                                                   \
  }                                                                                       \
                                                                                          \
 public:                                                                                  \
  static const std::string name_graph_##x() { return #x; }                                \
  OpenAtcThisType &create_dynamic_subgraph_##x(uint32_t num) {                            \
    ::ge::Operator::CreateDynamicSubgraph(#x, num);                                       \
    return *this;                                                                         \
  }                                                                                       \
  OpenAtcThisType &set_dynamic_subgraph_builder_##x(uint32_t index, const ::ge::SubgraphBuilder &v) { \
    ::ge::Operator::SetSubgraphBuilder(#x, index, v);                                     \
    return *this;                                                                         \
  }                                                                                       \
  ::ge::SubgraphBuilder get_dynamic_subgraph_builder_##x(uint32_t index) const {          \
    return ::ge::Operator::GetDynamicSubgraphBuilder(#x, index);                          \
  }                                                                                       \
  ::ge::Graph get_dynamic_subgraph_##x(uint32_t index) const {                            \
    return ::ge::Operator::GetDynamicSubgraph(#x, index);                                 \
  }                                                                                       \
                                                                                          \
 private:                                                                                 \
  void OpenAtcIrGraph_##x() {                                                             \
    ::ge::Operator::SubgraphRegister(#x, true);                                           \
    ::ge::OpenAtcIrChain()

#ifdef DISABLE_COMPILE_V1
#define OPENATC_OP_FACTORY_REG(x, n) static_assert(true, "")
#else
#define OPENATC_OP_FACTORY_REG(x, n)                                                      \
  static const ::ge::OperatorCreatorRegister OPENATC_REG_JOIN(g_openatc_op_creator_, n)(  \
      #x, [](const ::ge::AscendString &name) { return ::ge::Operator(op::x(name)); })
#endif

/// Closes the class and `namespace op`, checks the name, registers the creator.
#define OP_END_FACTORY_REG(x)                                                             \
  Next();                                                                                 \
  }                                                                                       \
  static_assert(::ge::openatc_detail::SameName(kOpenAtcRegName, #x),                      \
                "OP_END_FACTORY_REG(" #x ") does not name the op its REG_OP declared");   \
  };                                                                                      \
  }                                                                                       \
  OPENATC_OP_FACTORY_REG(x, __COUNTER__)

#endif  // OPENATC_GRAPH_OPERATOR_REG_H_
