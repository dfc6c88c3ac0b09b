// Convolution nodes prepared at load and weights packed at compile time (conv_prepared.h).
#include "common/conv_prepared.h"

#include <cstring>

#include "common/conv_nan.h"
#include "common/dnnl_packing.h"
#include "common/omp_team.h"

namespace openatc_ops {
namespace {

bool DimsEqual(const gert::Shape &s, const Dims &d) {
  if (s.GetDimNum() != d.size()) return false;
  for (size_t i = 0; i < d.size(); ++i)
    if (s.GetDim(i) != d[i]) return false;
  return true;
}

// The entry for `p` as RunConvolution would make it for float32 tensors.
ConvEntry MakeF32Entry(const ConvProblem &p, bool has_bias, int *threads) {
  const bool blockable = ConvBlockable(p, true);
  bool serial = false;
  *threads = ConvThreads(p, blockable, &serial);
  return MakeConvEntry(p, has_bias, blockable, serial);
}

// True when `e` reads its weights through a reorder that can be done once (conv_layout.h).
bool Packable(const ConvEntry &e, const ConvProblem &p) {
  return e.blocked && e.sides.wei_reorder && p.layout.weights_id != 0;
}

}  // namespace

bool PackConvWeights(const ConvProblem &p, bool has_bias, const float *w, std::string *isa, std::string *layout,
                     std::vector<uint8_t> *bytes) {
  if (!ConvBlockable(p, true) || !CheckConvLayout(p, true).empty()) return false;
  // For the direct algorithm: Winograd's weights have no blocked layout to record, and are made at
  // load where the run time chooses it (UseWinograd).
  ConvProblem direct = p;
  direct.layout.winograd = false;
  int threads = 1;
  const ConvEntry e = MakeF32Entry(direct, has_bias, &threads);
  if (!Packable(e, direct)) return false;
  *layout = dnnl_util::LayoutText(e.wei);
  if (layout->empty()) return false;
  *isa = dnnl_util::CpuIsaName();
  // On the calling thread only: a one-time reorder gains nothing from starting an OpenMP team in
  // the compiler process.
  PackSlices(e, w, /*serial=*/true);
  const size_t size = e.wei.get_size();
  bytes->resize(size);
  std::memcpy(bytes->data(), e.sides.packed->mem.get_data_handle(), size);
  return true;
}

std::shared_ptr<ConvPrepared> PrepareConv(const ConvProblem &p, bool has_bias, ge::DataType dtype, const float *w,
                                          const float *b, const openatc::PackedWeightView *packed) {
  const bool blockable = ConvBlockable(p, dtype == ge::DT_FLOAT);
  if (!CheckConvLayout(p, blockable).empty()) return nullptr;
  auto s = std::make_shared<ConvPrepared>();
  s->p = p;
  s->has_bias = has_bias;
  s->dtype = dtype;
  s->add_index = dnnl_util::BinaryAddIndex(p.post_ops);
  s->host_threads = dnnl_util::ApplyThreadCount();
  bool serial = false;
  ConvThreads(p, blockable, &serial);
  s->entry = MakeConvEntry(p, has_bias, blockable, serial);
  BindArgs(&s->entry);
  if (w != nullptr && (b != nullptr || !has_bias))  // the entry is this node's alone: its scan holds for every run
    ScanConsts(p, w, b, s->entry.wb_scan.get());
  if (serial) {
    s->team = std::make_unique<ConvEntry>(MakeConvEntry(p, has_bias, blockable, /*serial=*/false));
    BindArgs(s->team.get());
    s->team->wb_scan = s->entry.wb_scan;
  }
  if (!Packable(s->entry, p) || w == nullptr) return s;
  PackedWeights &pk = *s->entry.sides.packed;
  const ConvEntry &e = s->entry;
  // The OM's copy only when it was made for exactly this primitive's layout on this ISA.
  pk.mem = e.parts == 1 ? dnnl_util::OmPackedCopy(e.wei, packed) : dnnl::memory();
  s->from_om = static_cast<bool>(pk.mem);
  if (!s->from_om) PackSlices(e, w, /*serial=*/false);
  pk.ready.store(true, std::memory_order_release);
  if (s->team && Packable(*s->team, p)) {
    ConvEntry &t = *s->team;
    if (t.parts == e.parts && t.wei == e.wei) {
      t.sides.packed = e.sides.packed;
    } else {
      PackSlices(t, w, /*serial=*/false);
      t.sides.packed->ready.store(true, std::memory_order_release);
    }
  }
  return s;
}

const ConvEntry &EntryNow(const ConvPrepared &s) {
  return s.team && omp_team::TeamAwake(s.host_threads) ? *s.team : s.entry;
}

bool PreparedMatches(const ConvPrepared &s, const gert::Tensor &x, const gert::Tensor &w, const gert::Tensor *b) {
  return x.GetDataType() == s.dtype && w.GetDataType() == s.dtype && (b != nullptr) == s.has_bias &&
         DimsEqual(x.GetStorageShape(), s.p.x) && DimsEqual(w.GetStorageShape(), s.p.w) &&
         dnnl_util::ApplyThreadCount() == s.host_threads;
}

}  // namespace openatc_ops
