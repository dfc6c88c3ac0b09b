/**
 * @file openatc/chain_block.h
 * The block size of the chain layout at run time (header-only: the built-in ops, the dump and the
 * profile trace read it, and they must agree byte for byte).
 *
 * atc's LayoutPlanningPass (atc/compiler/src/passes/layout_plan.cc) keeps tensors between
 * layout-aware nodes in oneDNN's channel-blocked layout (ops/common/conv_layout.h) and gives every
 * node of a connected chain the attribute `openatc_chain_block`: the widest block all the chain's
 * tensors allow, 16 when every channel count is a multiple of 16, else absent (8). The OM does
 * not depend on the CPU it was compiled on: the run time takes 16 (nChw16c, the AVX-512
 * kernels' block) when the chain allows it and this CPU runs oneDNN's AVX-512 kernels, else 8
 * (nChw8c, the AVX2 kernels' block). Every node of a chain reads the same attribute on the same
 * CPU, so the nodes of a chain agree.
 *
 * "Runs AVX-512": the CPU has avx512f and oneDNN's ISA limit (ONEDNN_MAX_CPU_ISA, else
 * DNNL_MAX_CPU_ISA, as oneDNN reads them) is unset, ALL or an AVX512_* level. Setting it to
 * AVX2 gives the 8-wide chain layout on an AVX-512 machine.
 */
#ifndef OPENATC_CHAIN_BLOCK_H_
#define OPENATC_CHAIN_BLOCK_H_

#include <cstdint>
#include <cstdlib>

namespace openatc {

/// The attribute that carries a chain's widest block (absent: 8).
inline constexpr const char *kChainBlockAttr = "openatc_chain_block";

/// oneDNN's ISA limit as oneDNN reads it: ONEDNN_MAX_CPU_ISA, else DNNL_MAX_CPU_ISA; "" when unset.
inline const char *OneDnnMaxCpuIsa() {
  const char *cap = std::getenv("ONEDNN_MAX_CPU_ISA");
  if (cap == nullptr) cap = std::getenv("DNNL_MAX_CPU_ISA");
  return cap == nullptr ? "" : cap;
}

/// True when OneDnnMaxCpuIsa() starts with `prefix` (upper case), in any case.
inline bool OneDnnMaxCpuIsaStartsWith(const char *prefix) {
  const char *cap = OneDnnMaxCpuIsa();
  for (size_t i = 0; prefix[i] != '\0'; ++i) {
    char c = cap[i];
    if (c == '\0') return false;
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (c != prefix[i]) return false;
  }
  return true;
}

/// True when oneDNN runs its AVX-512 kernels here (see the file comment); read once.
inline bool CpuRunsChainBlock16() {
  static const bool yes = [] {
#if defined(__x86_64__) || defined(__i386__)
    if (!__builtin_cpu_supports("avx512f")) return false;
#else
    return false;
#endif
    const char *cap = OneDnnMaxCpuIsa();
    return *cap == '\0' || (OneDnnMaxCpuIsaStartsWith("ALL") && cap[3] == '\0') ||
           OneDnnMaxCpuIsaStartsWith("AVX512");
  }();
  return yes;
}

/// The block a chain whose attribute is `widest` (8 or 16) computes in on this CPU.
inline int64_t RunChainBlock(int64_t widest) { return widest >= 16 && CpuRunsChainBlock16() ? 16 : 8; }

}  // namespace openatc

#endif  // OPENATC_CHAIN_BLOCK_H_
