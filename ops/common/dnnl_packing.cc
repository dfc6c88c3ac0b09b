// The ISA name and layout text of weights pre-packed into the OM (dnnl_packing.h).
#include "common/dnnl_packing.h"

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace openatc_ops::dnnl_util {
namespace {
std::string IsaName(dnnl::cpu_isa isa) {
  using I = dnnl::cpu_isa;
  switch (isa) {
    case I::all: return "all";
    case I::sse41: return "sse41";
    case I::avx: return "avx";
    case I::avx2: return "avx2";
    case I::avx2_vnni: return "avx2_vnni";
    case I::avx512_mic: return "avx512_mic";
    case I::avx512_mic_4ops: return "avx512_mic_4ops";
    case I::avx512_core: return "avx512_core";
    case I::avx512_core_vnni: return "avx512_core_vnni";
    case I::avx512_core_bf16: return "avx512_core_bf16";
    case I::avx512_core_amx: return "avx512_core_amx";
    default: break;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "isa_0x%x", static_cast<unsigned>(isa));
  return buf;
}

void Append(std::string &out, const char *name, const dnnl_dim_t *v, int n) {
  out += name;
  for (int i = 0; i < n; ++i) out += (i ? "," : "") + std::to_string(v[i]);
  out += ';';
}
}  // namespace

const std::string &CpuIsaName() {
  static const std::string name = IsaName(dnnl::get_effective_cpu_isa());
  return name;
}

std::string PackingEnvironment() {
  const dnnl_version_t *v = dnnl_version();
  return "onednn " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch) + " " +
         (v->hash != nullptr ? v->hash : "") + "; isa " + CpuIsaName() + "; threads " +
         std::to_string(ApplyThreadCount());
}

std::string LayoutText(const dnnl::memory::desc &md) {
  const dnnl_memory_desc_t &d = md.data;
  if (d.format_kind != dnnl_blocked || d.ndims <= 0 || d.ndims > DNNL_MAX_NDIMS) return "";
  const dnnl_blocking_desc_t &b = d.format_desc.blocking;
  if (b.inner_nblks < 0 || b.inner_nblks > DNNL_MAX_NDIMS) return "";
  std::string out = "dt=" + std::to_string(static_cast<int>(d.data_type)) + ';';
  Append(out, "dims=", d.dims, d.ndims);
  Append(out, "pdims=", d.padded_dims, d.ndims);
  Append(out, "poffs=", d.padded_offsets, d.ndims);
  out += "off0=" + std::to_string(d.offset0) + ';';
  Append(out, "strides=", b.strides, d.ndims);
  Append(out, "blks=", b.inner_blks, b.inner_nblks);
  Append(out, "idxs=", b.inner_idxs, b.inner_nblks);
  out += "extra=" + std::to_string(d.extra.flags) + ';';
  out += "size=" + std::to_string(md.get_size());
  return out;
}

dnnl::memory OmPackedCopy(const dnnl::memory::desc &md, const openatc::PackedWeightView *om) {
  if (om == nullptr || om->data == nullptr || om->size != md.get_size() || std::strcmp(om->isa, CpuIsaName().c_str()) != 0)
    return dnnl::memory();
  const std::string layout = LayoutText(md);
  if (layout.empty() || layout != om->layout) return dnnl::memory();
  if (reinterpret_cast<uintptr_t>(om->data) % 64 == 0)
    return dnnl::memory(md, Engine(), const_cast<uint8_t *>(om->data));  // read only
  dnnl::memory m(md, Engine());
  std::memcpy(m.get_data_handle(), om->data, om->size);
  return m;
}

}  // namespace openatc_ops::dnnl_util
