// AttrTable: ir::AttrValue -> the flat representations RuntimeAttrs hands to operators.
#include <cstring>

#include "openatc/gert/frame.h"

namespace openatc::gert_impl {
namespace {
template <typename T>
std::unique_ptr<uint8_t[]> Scalar(const T &v) {
  std::unique_ptr<uint8_t[]> b(new uint8_t[sizeof(T)]);
  std::memcpy(b.get(), &v, sizeof(T));
  return b;
}

template <typename T, typename Src>
std::unique_ptr<uint8_t[]> Vector(const std::vector<Src> &values) {
  size_t total = 0;
  auto block = gert::ContinuousVector::Create<T>(values.size(), total);
  auto *v = reinterpret_cast<gert::TypedContinuousVector<T> *>(block.get());
  for (size_t i = 0; i < values.size(); ++i) v->MutableData()[i] = static_cast<T>(values[i]);
  v->SetSize(values.size());
  return block;
}

std::unique_ptr<uint8_t[]> VectorVector(const std::vector<std::vector<int64_t>> &lists) {
  // Layout: header + offsets, then each ContinuousVector<int64_t>, 8-byte aligned.
  size_t header = gert::ContinuousVectorVector::HeaderSize(lists.size());
  size_t total = (header + 7) / 8 * 8;
  std::vector<size_t> offsets;
  for (const auto &l : lists) {
    offsets.push_back(total);
    total += sizeof(gert::ContinuousVector) + l.size() * sizeof(int64_t);
  }
  std::unique_ptr<uint8_t[]> block(new uint8_t[total]());
  auto *vv = reinterpret_cast<gert::ContinuousVectorVector *>(block.get());
  vv->Init(lists.size());
  for (size_t i = 0; i < lists.size(); ++i) {
    size_t size = 0;
    auto one = gert::ContinuousVector::Create<int64_t>(lists[i].size(), size);
    auto *tv = reinterpret_cast<gert::TypedContinuousVector<int64_t> *>(one.get());
    for (size_t j = 0; j < lists[i].size(); ++j) tv->MutableData()[j] = lists[i][j];
    tv->SetSize(lists[i].size());
    std::memcpy(block.get() + offsets[i], one.get(), size);
    vv->Append(offsets[i]);
  }
  return block;
}

gert::Shape ToShape(const std::vector<int64_t> &dims) {
  gert::Shape s;
  for (int64_t d : dims) s.AppendDim(d);
  return s;
}
}  // namespace

AttrTable::AttrTable() { view_.table_ = this; }

void AttrTable::Append(const ir::AttrValue &value) {
  Slot slot;
  switch (value.kind) {
    case ir::AttrKind::kNone: break;
    // A subgraph is no kernel attribute: control-flow ops reach theirs through the executor, so
    // its slot stays empty, like kNone's.
    case ir::AttrKind::kGraph:
    case ir::AttrKind::kListGraph: break;
    case ir::AttrKind::kInt: slot.block = Scalar<int64_t>(value.i); break;
    case ir::AttrKind::kFloat: slot.block = Scalar<float>(value.f); break;
    case ir::AttrKind::kBool: slot.block = Scalar<bool>(value.b); break;
    case ir::AttrKind::kDataType: slot.block = Scalar<ge::DataType>(value.dt); break;
    case ir::AttrKind::kString:
    case ir::AttrKind::kBytes: {
      slot.block.reset(new uint8_t[value.s.size() + 1]);
      std::memcpy(slot.block.get(), value.s.data(), value.s.size());
      slot.block[value.s.size()] = 0;
      break;
    }
    case ir::AttrKind::kListInt: slot.block = Vector<int64_t>(value.list_i); break;
    case ir::AttrKind::kListDataType: slot.block = Vector<ge::DataType>(value.list_i); break;
    case ir::AttrKind::kListFloat: slot.block = Vector<float>(value.list_f); break;
    case ir::AttrKind::kListBool: slot.block = Vector<bool>(value.list_b); break;
    case ir::AttrKind::kListListInt: slot.block = VectorVector(value.list_list_i); break;
    case ir::AttrKind::kListString: {
      // Represented as the strings joined by NUL (GE hands list-of-string attrs the same way
      // only through other APIs; operators here rarely read them).
      std::string joined;
      for (const auto &s : value.list_s) joined += s + '\0';
      slot.block.reset(new uint8_t[joined.size() + 1]);
      std::memcpy(slot.block.get(), joined.data(), joined.size());
      slot.block[joined.size()] = 0;
      break;
    }
    case ir::AttrKind::kTensor: {
      if (value.t) {
        const ir::TensorDesc &d = value.t->desc;
        gert::StorageShape shape;
        shape.MutableOriginShape() = ToShape(d.origin_shape.empty() ? d.shape : d.origin_shape);
        shape.MutableStorageShape() = ToShape(d.shape);
        slot.tensor.reset(new gert::Tensor(shape, {d.origin_format, d.format, {}}, gert::kOnHost, d.dtype,
                                           const_cast<uint8_t *>(value.t->data.data)));
        slot.tensor->SetSize(value.t->data.size);
        slot.keep = value.t->data.owner;
      }
      break;
    }
  }
  slots_.push_back(std::move(slot));
}

const void *AttrTable::Get(size_t index) const {
  if (index >= slots_.size()) return nullptr;
  const Slot &s = slots_[index];
  if (s.tensor) return s.tensor.get();
  return s.block.get();
}

}  // namespace openatc::gert_impl

namespace gert {
const void *RuntimeAttrs::GetPointerByIndex(size_t index) const { return table_ ? table_->Get(index) : nullptr; }
size_t RuntimeAttrs::GetAttrNum() const { return table_ ? table_->size() : 0; }
}  // namespace gert
