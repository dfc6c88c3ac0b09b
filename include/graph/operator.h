/**
 * @file graph/operator.h
 * ge::Operator, the node handle of GE's graph-building API (metadef `external/graph/operator.h`),
 * plus ge::TensorType (dtype sets used by REG_OP) and a minimal ge::NamedAttrs.
 *
 * An Operator is a shared handle: copies refer to the same node, so
 * `auto data = op::Data("data"); add.set_input_x1(data);` links the node `data` names.
 * REG_OP classes (graph/operator_reg.h) derive from Operator and call the protected
 * IR-registration methods below from their constructors.
 *
 * ABI: exported methods take `const char *`, AscendString, integers and std::vector/std::function
 * of ABI-neutral types only; the std::string overloads are inline and convert to `const char *`.
 * Failures are reported as GE does (graphStatus or an error log) and the message is also kept
 * as the calling thread's last SDK error (internal `openatc::reg::LastSdkError()`).
 */
#ifndef OPENATC_GRAPH_OPERATOR_H_
#define OPENATC_GRAPH_OPERATOR_H_

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "graph/ascend_string.h"
#include "graph/error_codes.h"
#include "graph/tensor.h"
#include "graph/types.h"

#ifndef OPENATC_SDK_API
#define OPENATC_SDK_API __attribute__((visibility("default")))
#endif

namespace ge {

class OperatorImpl;
class NamedAttrsImpl;
class Graph;

/// Builds a subgraph on demand (REG_OP GRAPH/DYNAMIC_GRAPH attributes).
using SubgraphBuilder = std::function<Graph()>;

/// A set of allowed dtypes (metadef `TensorType`). Header-only: a vector of DataType values.
/// REG_OP's INPUT/OUTPUT stringize their type argument; DATATYPE(sym, TensorType{...}) evaluates it.
struct TensorType {
  explicit TensorType(DataType dt) : types{dt} {}
  TensorType(const std::initializer_list<DataType> &initial_types) : types(initial_types) {}

  /// Every dtype an op prototype may name (GE's ALL set).
  static TensorType ALL() {
    return TensorType{DT_BOOL,   DT_COMPLEX128, DT_COMPLEX64, DT_DOUBLE, DT_FLOAT,  DT_FLOAT16,
                      DT_INT16,  DT_INT32,      DT_INT64,     DT_INT8,   DT_QINT16, DT_QINT32,
                      DT_QINT8,  DT_QUINT16,    DT_QUINT8,    DT_RESOURCE, DT_STRING, DT_UINT16,
                      DT_UINT32, DT_UINT64,     DT_UINT8,     DT_BF16,   DT_COMPLEX32};
  }
  static TensorType QuantifiedType() { return TensorType{DT_QINT16, DT_QINT32, DT_QINT8, DT_QUINT16, DT_QUINT8}; }
  static TensorType OrdinaryType() {
    return TensorType{DT_BOOL,  DT_COMPLEX128, DT_COMPLEX64, DT_DOUBLE, DT_FLOAT,  DT_FLOAT16, DT_INT16,
                      DT_INT32, DT_INT64,      DT_INT8,      DT_UINT16, DT_UINT32, DT_UINT64,  DT_UINT8, DT_BF16};
  }
  static TensorType BasicType() {
    return TensorType{DT_COMPLEX128, DT_COMPLEX64, DT_DOUBLE, DT_FLOAT,   DT_FLOAT16, DT_INT16,
                      DT_INT32,      DT_INT64,     DT_INT8,   DT_QINT16,  DT_QINT32,  DT_QINT8,
                      DT_QUINT16,    DT_QUINT8,    DT_UINT16, DT_UINT32,  DT_UINT64,  DT_UINT8, DT_BF16};
  }
  static TensorType NumberType() {
    return TensorType{DT_COMPLEX128, DT_COMPLEX64, DT_DOUBLE, DT_FLOAT,  DT_FLOAT16, DT_INT16,  DT_INT32,
                      DT_INT64,      DT_INT8,      DT_QINT32, DT_QINT8,  DT_QUINT8,  DT_UINT16, DT_UINT32,
                      DT_UINT64,     DT_UINT8,     DT_BF16};
  }
  static TensorType RealNumberType() {
    return TensorType{DT_DOUBLE, DT_FLOAT,  DT_FLOAT16, DT_INT16,  DT_INT32, DT_INT64,
                      DT_INT8,   DT_UINT16, DT_UINT32,  DT_UINT64, DT_UINT8, DT_BF16};
  }
  static TensorType ComplexDataType() { return TensorType{DT_COMPLEX128, DT_COMPLEX64}; }
  static TensorType IntegerDataType() {
    return TensorType{DT_INT16, DT_INT32, DT_INT64, DT_INT8, DT_UINT16, DT_UINT32, DT_UINT64, DT_UINT8};
  }
  static TensorType SignedDataType() { return TensorType{DT_INT16, DT_INT32, DT_INT64, DT_INT8}; }
  static TensorType UnsignedDataType() { return TensorType{DT_UINT16, DT_UINT32, DT_UINT64, DT_UINT8}; }
  static TensorType FloatingDataType() { return TensorType{DT_DOUBLE, DT_FLOAT, DT_FLOAT16}; }
  static TensorType IndexNumberType() { return TensorType{DT_INT32, DT_INT64}; }
  static TensorType UnaryDataType() {
    return TensorType{DT_COMPLEX128, DT_COMPLEX64, DT_DOUBLE, DT_FLOAT, DT_FLOAT16, DT_BF16};
  }
  static TensorType FLOAT() { return TensorType{DT_FLOAT, DT_FLOAT16, DT_BF16}; }

  std::vector<DataType> types;
};

/// A named bag of attributes (GE `NamedAttrs`, used by NamedAttrs/ListNamedAttrs attrs).
/// Minimal: a name plus integer, float and string attributes. Copies are deep.
class OPENATC_SDK_API NamedAttrs {
 public:
  NamedAttrs();
  ~NamedAttrs();
  NamedAttrs(const NamedAttrs &other);
  NamedAttrs &operator=(const NamedAttrs &other);
  void SetName(const char_t *name);
  AscendString GetName() const;
  graphStatus SetAttr(const char_t *name, int64_t value);
  graphStatus SetAttr(const char_t *name, float value);
  graphStatus SetAttr(const char_t *name, const AscendString &value);
  /// GRAPH_FAILED when the attribute is missing or holds another type.
  graphStatus GetAttr(const char_t *name, int64_t &value) const;
  graphStatus GetAttr(const char_t *name, float &value) const;
  graphStatus GetAttr(const char_t *name, AscendString &value) const;
  std::vector<AscendString> GetAttrNames() const;

 private:
  std::unique_ptr<NamedAttrsImpl> impl_;
};

/// A graph node handle. Default-constructed = empty (IsEmpty()); methods on an empty operator
/// fail with GRAPH_FAILED / return defaults.
class OPENATC_SDK_API Operator {
 public:
  // Value types of REG_OP ATTR(name, Type, default): `Op<Type>` (docs/custom-op-lifecycle.md §4).
  using OpInt = int64_t;
  using OpFloat = float;
  using OpString = std::string;
  using OpAscendString = AscendString;
  using OpBool = bool;
  using OpTensor = Tensor;
  using OpType = ge::DataType;
  using OpNamedAttrs = ge::NamedAttrs;
  using OpListInt = std::vector<int64_t>;
  using OpListFloat = std::vector<float>;
  using OpListString = std::vector<std::string>;
  using OpListAscendString = std::vector<AscendString>;
  using OpListBool = std::vector<bool>;
  using OpListTensor = std::vector<Tensor>;
  using OpBytes = std::vector<uint8_t>;
  using OpListListInt = std::vector<std::vector<int64_t>>;
  using OpListType = std::vector<ge::DataType>;
  using OpListNamedAttrs = std::vector<ge::NamedAttrs>;

  Operator() = default;
  /// A node of type `type` whose name is the type.
  explicit Operator(const char_t *type);
  Operator(const char_t *name, const char_t *type);
  Operator(const AscendString &name, const AscendString &type);
  [[deprecated("use Operator(const char_t *)")]] explicit Operator(const std::string &type)
      : Operator(type.c_str()) {}
  [[deprecated("use Operator(const char_t *, const char_t *)")]] Operator(const std::string &name,
                                                                          const std::string &type)
      : Operator(name.c_str(), type.c_str()) {}
  virtual ~Operator();
  Operator(const Operator &) = default;
  Operator(Operator &&) = default;
  Operator &operator=(const Operator &) = default;
  Operator &operator=(Operator &&) = default;

  bool IsEmpty() const;
  graphStatus GetName(AscendString &name) const;
  graphStatus GetOpType(AscendString &type) const;

  // ---- data edges (dst_name is the IR input name; dynamic instances are "<name><index>")
  /// Connects output 0 of `src_oprt` to input `dst_name`.
  Operator &SetInput(const char_t *dst_name, const Operator &src_oprt);
  /// Connects output `index` of `src_oprt` (flattened output index).
  Operator &SetInput(const char_t *dst_name, const Operator &src_oprt, uint32_t index);
  /// Connects the output named `name` of `src_oprt`.
  Operator &SetInput(const char_t *dst_name, const Operator &src_oprt, const char_t *name);
  /// Connects by flattened indices.
  Operator &SetInput(uint32_t dst_index, const Operator &src_oprt, uint32_t src_index);
  /// Dynamic input instance `dst_index` of `dst_name` from output 0 / output `name` of src.
  Operator &SetInput(const char_t *dst_name, uint32_t dst_index, const Operator &src_oprt);
  Operator &SetInput(const char_t *dst_name, uint32_t dst_index, const Operator &src_oprt,
                     const char_t *name);
  Operator &AddControlInput(const Operator &src_oprt);

  // ---- descriptors (unknown names give a default TensorDesc / GRAPH_FAILED)
  TensorDesc GetInputDescByName(const char_t *name) const;
  TensorDesc GetInputDesc(uint32_t index) const;
  graphStatus UpdateInputDesc(const char_t *name, const TensorDesc &tensor_desc);
  TensorDesc GetOutputDescByName(const char_t *name) const;
  TensorDesc GetOutputDesc(uint32_t index) const;
  graphStatus UpdateOutputDesc(const char_t *name, const TensorDesc &tensor_desc);
  TensorDesc GetDynamicInputDesc(const char_t *name, uint32_t index) const;
  graphStatus UpdateDynamicInputDesc(const char_t *name, uint32_t index, const TensorDesc &tensor_desc);
  TensorDesc GetDynamicOutputDesc(const char_t *name, uint32_t index) const;
  graphStatus UpdateDynamicOutputDesc(const char_t *name, uint32_t index, const TensorDesc &tensor_desc);
  /// Flattened counts (dynamic instances included).
  size_t GetInputsSize() const;
  size_t GetOutputsSize() const;

  // ---- attributes (SetAttr replaces any previous value of that name)
  Operator &SetAttr(const char_t *name, int64_t attr_value);
  Operator &SetAttr(const char_t *name, int32_t attr_value);
  Operator &SetAttr(const char_t *name, uint32_t attr_value);
  Operator &SetAttr(const char_t *name, const std::vector<int64_t> &attr_value);
  Operator &SetAttr(const char_t *name, const std::vector<int32_t> &attr_value);
  Operator &SetAttr(const char_t *name, const std::vector<uint32_t> &attr_value);
  Operator &SetAttr(const char_t *name, std::initializer_list<int64_t> &&attr_value);
  Operator &SetAttr(const char_t *name, float attr_value);
  Operator &SetAttr(const char_t *name, const std::vector<float> &attr_value);
  Operator &SetAttr(const char_t *name, bool attr_value);
  Operator &SetAttr(const char_t *name, const std::vector<bool> &attr_value);
  Operator &SetAttr(const char_t *name, const Tensor &attr_value);
  Operator &SetAttr(const char_t *name, const std::vector<Tensor> &attr_value);
  Operator &SetAttr(const char_t *name, const OpBytes &attr_value);
  Operator &SetAttr(const char_t *name, const std::vector<std::vector<int64_t>> &attr_value);
  Operator &SetAttr(const char_t *name, const ge::DataType &attr_value);
  Operator &SetAttr(const char_t *name, const std::vector<ge::DataType> &attr_value);
  Operator &SetAttr(const char_t *name, const char_t *attr_value);
  Operator &SetAttr(const char_t *name, const AscendString &attr_value);
  Operator &SetAttr(const char_t *name, const std::vector<AscendString> &attr_values);
  Operator &SetAttr(const char_t *name, const NamedAttrs &attr_value);
  Operator &SetAttr(const char_t *name, const std::vector<NamedAttrs> &attr_value);
  Operator &SetAttr(const char_t *name, const std::string &attr_value) {
    return SetAttr(name, AscendString(attr_value.c_str(), attr_value.size()));
  }
  Operator &SetAttr(const char_t *name, const std::vector<std::string> &attr_value) {
    std::vector<AscendString> converted;
    converted.reserve(attr_value.size());
    for (const auto &s : attr_value) converted.emplace_back(s.c_str(), s.size());
    return SetAttr(name, converted);
  }

  /// GRAPH_FAILED when the attribute is missing or holds a different type (int64/int32/uint32
  /// read any integer attribute that fits).
  graphStatus GetAttr(const char_t *name, int64_t &attr_value) const;
  graphStatus GetAttr(const char_t *name, int32_t &attr_value) const;
  graphStatus GetAttr(const char_t *name, uint32_t &attr_value) const;
  graphStatus GetAttr(const char_t *name, std::vector<int64_t> &attr_value) const;
  graphStatus GetAttr(const char_t *name, std::vector<int32_t> &attr_value) const;
  graphStatus GetAttr(const char_t *name, std::vector<uint32_t> &attr_value) const;
  graphStatus GetAttr(const char_t *name, float &attr_value) const;
  graphStatus GetAttr(const char_t *name, std::vector<float> &attr_value) const;
  graphStatus GetAttr(const char_t *name, bool &attr_value) const;
  graphStatus GetAttr(const char_t *name, std::vector<bool> &attr_value) const;
  graphStatus GetAttr(const char_t *name, Tensor &attr_value) const;
  graphStatus GetAttr(const char_t *name, std::vector<Tensor> &attr_value) const;
  graphStatus GetAttr(const char_t *name, OpBytes &attr_value) const;
  graphStatus GetAttr(const char_t *name, std::vector<std::vector<int64_t>> &attr_value) const;
  graphStatus GetAttr(const char_t *name, ge::DataType &attr_value) const;
  graphStatus GetAttr(const char_t *name, std::vector<ge::DataType> &attr_value) const;
  graphStatus GetAttr(const char_t *name, AscendString &attr_value) const;
  graphStatus GetAttr(const char_t *name, std::vector<AscendString> &attr_values) const;
  graphStatus GetAttr(const char_t *name, NamedAttrs &attr_value) const;
  graphStatus GetAttr(const char_t *name, std::vector<NamedAttrs> &attr_value) const;
  graphStatus GetAttr(const char_t *name, std::string &attr_value) const {
    AscendString value;
    const graphStatus ret = GetAttr(name, value);
    if (ret == GRAPH_SUCCESS) attr_value.assign(value.GetString(), value.GetLength());
    return ret;
  }
  graphStatus GetAttr(const char_t *name, std::vector<std::string> &attr_value) const {
    std::vector<AscendString> values;
    const graphStatus ret = GetAttr(name, values);
    if (ret == GRAPH_SUCCESS) {
      attr_value.clear();
      for (const auto &v : values) attr_value.emplace_back(v.GetString(), v.GetLength());
    }
    return ret;
  }
  bool HasAttr(const char_t *name) const;

  // ---- subgraphs (GRAPH / DYNAMIC_GRAPH)
  /// Builder of subgraph `name` (instance `index` for dynamic ones); empty when unset.
  SubgraphBuilder GetSubgraphBuilder(const char_t *name) const;
  SubgraphBuilder GetDynamicSubgraphBuilder(const char_t *name, uint32_t index) const;
  /// Runs the builder; a Graph with no name when unset.
  Graph GetSubgraph(const char_t *name) const;
  Graph GetDynamicSubgraph(const char_t *name, uint32_t index) const;
  size_t GetSubgraphNamesCount() const;

 protected:
  // IR registration, called by REG_OP-generated code in IR order (docs/custom-op-lifecycle.md §4).
  void InputRegister(const char_t *name, const char_t *type_expr);
  void OptionalInputRegister(const char_t *name, const char_t *type_expr);
  void DynamicInputRegister(const char_t *name, const char_t *type_expr);
  void OutputRegister(const char_t *name, const char_t *type_expr);
  void DynamicOutputRegister(const char_t *name, const char_t *type_expr);
  /// Records IR attribute `name` of REG_OP type token `type_token` ("Int", "ListString", ...);
  /// for an optional attribute the current value (set just before) becomes its default.
  void AttrRegister(const char_t *name, const char_t *type_token, bool required);
  void DataTypeRegister(const char_t *symbol, const TensorType &types);
  void SubgraphRegister(const char_t *name, bool dynamic);

  /// Adds `num` instances of dynamic input `name` at the end (is_push_back) or the front of its
  /// group; instances are named "<name><i>", numbered from 0 in group order.
  void CreateDynamicInput(const char_t *name, uint32_t num, bool is_push_back);
  /// Inserts `num` instances before instance `index` of the group.
  void CreateDynamicInputByIndex(const char_t *name, uint32_t num, size_t index);
  void CreateDynamicOutput(const char_t *name, uint32_t num, bool is_push_back);
  void CreateDynamicSubgraph(const char_t *name, uint32_t num);
  void SetSubgraphBuilder(const char_t *name, uint32_t index, const SubgraphBuilder &builder);

 private:
  friend class OperatorAccess;  // library-internal access to the node state
  std::shared_ptr<OperatorImpl> operator_impl_;
};

}  // namespace ge

#endif  // OPENATC_GRAPH_OPERATOR_H_
