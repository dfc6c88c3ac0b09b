// MatMul / Gemm nodes prepared at load (matmul_prepared.h).
#include "common/matmul_prepared.h"

#include "common/dnnl_packing.h"

namespace openatc_ops {
namespace {
bool DimsEqual(const gert::Shape &s, const Dims &d) {
  if (s.GetDimNum() != d.size()) return false;
  for (size_t i = 0; i < d.size(); ++i)
    if (s.GetDim(i) != d[i]) return false;
  return true;
}
}  // namespace

bool SerialMatMul(int64_t macs, int64_t bytes) {
  return macs < kSerialMatMulMacs && dnnl_util::SerialMemoryBound(static_cast<size_t>(bytes));
}

dnnl::matmul::primitive_desc MatMulPd(const dnnl::memory::desc &ad, const dnnl::memory::desc &bd,
                                      const dnnl::memory::desc &cd, const dnnl::memory::desc &yd,
                                      const dnnl::primitive_attr &attr, bool pack_b) {
  if (pack_b) {
    const dnnl::memory::desc any(bd.dims(), dnnl::memory::data_type::f32, dnnl::memory::format_tag::any);
    try {
      return dnnl::matmul::primitive_desc(dnnl::matmul::desc(ad, any, cd, yd), attr, dnnl_util::Engine());
    } catch (const dnnl::error &e) {
      if (e.status != dnnl_unimplemented) throw;
    }
  }
  return dnnl::matmul::primitive_desc(dnnl::matmul::desc(ad, bd, cd, yd), attr, dnnl_util::Engine());
}

dnnl::memory PackB(const dnnl::matmul::primitive_desc &pd, const dnnl::memory::desc &plain, const float *b,
                   const openatc::PackedWeightView *om, bool serial, bool *from_om) {
  *from_om = false;
  const dnnl::memory::desc packed = pd.weights_desc();
  if (b == nullptr || packed == plain) return dnnl::memory();
  if (dnnl::memory m = dnnl_util::OmPackedCopy(packed, om)) {
    *from_om = true;
    return m;
  }
  dnnl::memory m(packed, dnnl_util::Engine());
  const dnnl::memory from = dnnl_util::Wrap(plain, b);
  dnnl_util::Run(dnnl::reorder(from, m, dnnl_util::UserScratchpad()), {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, m}}, serial);
  return m;
}

void AddPackedB(const MatMulPrepared &s, int32_t input, openatc::PackedWeightSink &sink) {
  if (!s.packed_b) return;
  const dnnl::memory::desc md = s.packed_b.get_desc();
  const std::string layout = dnnl_util::LayoutText(md);
  if (layout.empty()) return;  // not a blocked format: no text that pins it down, packed at load only
  sink.Add(input, dnnl_util::CpuIsaName().c_str(), layout.c_str(), s.packed_b.get_data_handle(), md.get_size());
}

const openatc::PackedWeightView *PackedInput(const openatc::PackedWeightView *packed, size_t count, int32_t input) {
  for (size_t k = 0; k < count; ++k)
    if (packed[k].input == input) return &packed[k];
  return nullptr;
}

bool PreparedMatches(const MatMulPrepared &s, const gert::Tensor &a, const gert::Tensor &b, const gert::Tensor *c) {
  return a.GetDataType() == s.dtype && b.GetDataType() == s.dtype && (c != nullptr) == s.has_c &&
         DimsEqual(a.GetStorageShape(), s.a) && DimsEqual(b.GetStorageShape(), s.b) &&
         dnnl_util::ApplyThreadCount() == s.threads;
}

}  // namespace openatc_ops
