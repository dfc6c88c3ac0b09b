// Where libdnnl's OpenMP calls go (see omp_binding.h).
#include "common/omp_binding.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include <cstring>

namespace openatc_ops::omp_team {
namespace {

#if defined(__x86_64__)
constexpr uint32_t kJumpSlot = R_X86_64_JUMP_SLOT;
#elif defined(__aarch64__)
constexpr uint32_t kJumpSlot = R_AARCH64_JUMP_SLOT;
#else
#error "omp_binding.cc: the PLT relocation type of this architecture"
#endif

struct Lookup {
  const char *symbol;
  void *bound = nullptr;
};

// An address from a dynamic-section entry: absolute once the dynamic linker adjusted it, else
// relative to the object's base.
template <typename T>
const T *At(const dl_phdr_info *info, ElfW(Addr) p) {
  return reinterpret_cast<const T *>(p < info->dlpi_addr ? p + info->dlpi_addr : p);
}

// dl_iterate_phdr callback: in libdnnl, the value of the PLT slot of `symbol`.
int FindSlot(dl_phdr_info *info, size_t, void *data) {
  auto *look = static_cast<Lookup *>(data);
  if (info->dlpi_name == nullptr || std::strstr(info->dlpi_name, "/libdnnl.so") == nullptr) return 0;
  const ElfW(Dyn) *dyn = nullptr;
  for (int i = 0; i < info->dlpi_phnum; ++i)
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
      dyn = reinterpret_cast<const ElfW(Dyn) *>(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
  if (dyn == nullptr) return 1;
  const ElfW(Sym) *symtab = nullptr;
  const char *strtab = nullptr;
  const ElfW(Rela) *rel = nullptr;
  size_t rel_bytes = 0;
  bool rela = true;
  for (; dyn->d_tag != DT_NULL; ++dyn) {
    if (dyn->d_tag == DT_SYMTAB) symtab = At<ElfW(Sym)>(info, dyn->d_un.d_ptr);
    if (dyn->d_tag == DT_STRTAB) strtab = At<char>(info, dyn->d_un.d_ptr);
    if (dyn->d_tag == DT_JMPREL) rel = At<ElfW(Rela)>(info, dyn->d_un.d_ptr);
    if (dyn->d_tag == DT_PLTRELSZ) rel_bytes = dyn->d_un.d_val;
    if (dyn->d_tag == DT_PLTREL) rela = dyn->d_un.d_val == DT_RELA;
  }
  if (symtab == nullptr || strtab == nullptr || rel == nullptr || !rela) return 1;
  for (size_t k = 0; k < rel_bytes / sizeof(ElfW(Rela)); ++k) {
    if (ELF64_R_TYPE(rel[k].r_info) != kJumpSlot) continue;
    if (std::strcmp(strtab + symtab[ELF64_R_SYM(rel[k].r_info)].st_name, look->symbol) != 0) continue;
    look->bound = *reinterpret_cast<void *const *>(info->dlpi_addr + rel[k].r_offset);
    break;
  }
  return 1;
}

template <typename F>
bool Load(void *lib, const char *name, F *out) {
  *out = reinterpret_cast<F>(dlsym(lib, name));
  return *out != nullptr;
}

const ForeignOpenMp *Decide() {
  Lookup look{"GOMP_parallel"};
  dl_iterate_phdr(FindSlot, &look);
  Dl_info bound{}, self{};
  if (look.bound == nullptr || dladdr(look.bound, &bound) == 0 ||
      dladdr(reinterpret_cast<const void *>(&Foreign), &self) == 0 || bound.dli_fbase == self.dli_fbase)
    return nullptr;
  void *lib = dlopen(bound.dli_fname, RTLD_NOW | RTLD_NOLOAD);
  if (lib == nullptr) return nullptr;
  static ForeignOpenMp f;
  const bool all = Load(lib, "GOMP_parallel", &f.parallel) && Load(lib, "GOMP_barrier", &f.barrier) &&
                   Load(lib, "omp_get_thread_num", &f.thread_num) && Load(lib, "omp_get_num_threads", &f.num_threads) &&
                   Load(lib, "omp_get_max_threads", &f.max_threads) &&
                   Load(lib, "omp_set_num_threads", &f.set_num_threads) && Load(lib, "omp_in_parallel", &f.in_parallel);
  Load(lib, "OpenAtcOmpTeamAwake", &f.team_awake);  // optional: null where that runtime is libgomp
  return all ? &f : nullptr;  // the handle stays open: libdnnl keeps that object loaded anyway
}

}  // namespace

const ForeignOpenMp *Foreign() {
  static const ForeignOpenMp *foreign = Decide();
  return foreign;
}

}  // namespace openatc_ops::omp_team
