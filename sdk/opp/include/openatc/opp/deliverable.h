/**
 * @file openatc/opp/deliverable.h
 * Loading custom-op deliverables (.so files).
 *
 * For compilation (`atc`): every deliverable of the OPP roots is dlopen'ed (RTLD_NOW | RTLD_LOCAL)
 * in GE's order; their REG_AUTO_MAPPING_OP constructors fill the process-wide registry (first
 * registration of a type wins) and each .so's own creator list tells which types it provides.
 * A file whose ELF header does not fit this process is refused before dlopen, saying what it is;
 * a .so that registers no op type is a warning naming it.
 *
 * For execution (`omrun`, aclmdlLoad*): a deliverable embedded in an OM is loaded from memory
 * (memfd, no file written) under the offline-loading guard, and its creators are pulled through
 * the C pull ABI into a per-model registry; nothing reaches the process-wide registry. Each
 * distinct image (by content) is loaded once per process and shared by every model that embeds it.
 */
#ifndef OPENATC_OPP_DELIVERABLE_H_
#define OPENATC_OPP_DELIVERABLE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "openatc/gert/custom_op_registry.h"
#include "openatc/ir/graph.h"

namespace openatc::opp {

struct Deliverable {
  std::string path;                     ///< file path, or "<om>:<file name>" for an embedded one
  std::string file_name;                ///< base name
  std::string sdk_version;              ///< from OpenAtcDeliverableSdkVersion(); "" when absent
  std::vector<std::string> op_types;    ///< types in its own creator list, in registration order
  void *handle = nullptr;               ///< dlopen handle (never closed: op objects may outlive use)
  /// OpenAtcDeliverableLaunchesNoKernels() returned nonzero (false when absent).
  bool launches_no_kernels = false;
  /// OpenAtcDeliverableExecuteSizesOutputs() returned nonzero (false when absent).
  bool execute_sizes_outputs = false;
  /// The op types OpenAtcDeliverablePureOps() lists (empty when absent).
  std::vector<std::string> pure_ops;
  /// OpenAtcDeliverableKernelTrace (null when absent).
  const char *(*kernel_trace)() = nullptr;
  /// The file's bytes as they were when it was loaded: what atc embeds in every OM that uses the
  /// deliverable (read once per load, so a process compiling many graphs reads it once, and a file
  /// replaced after loading cannot put other code into the OM than the code that compiled it).
  ir::Bytes image;
};

/// The set of deliverables found for compilation and which one provides each op type.
class CompileOppSet {
 public:
  /// Loads the deliverables of `roots` (then `builtin_root` if not empty) in GE's order. A .so that
  /// fails to dlopen is an error (kGraph, code OA1201) naming the file and dlerror(), as GE aborts;
  /// one of another architecture or not an ELF file is OA1201 saying so (ElfMismatch).
  void Load(const std::vector<std::string> &roots, const std::string &builtin_root);

  /// Every root searched, the built-in root last (when there is one).
  const std::vector<std::string> &roots() const { return roots_; }
  /// The built-in operators' root ("" when none).
  const std::string &builtin_root() const { return builtin_root_; }
  const std::vector<std::string> &searched() const { return searched_; }
  const std::vector<Deliverable> &deliverables() const { return deliverables_; }
  /// Index of the deliverable that provides `op_type` (the first that registered it), or -1.
  int Provider(const std::string &op_type) const;

 private:
  std::vector<std::string> roots_;
  std::string builtin_root_;
  std::vector<std::string> searched_;
  std::vector<Deliverable> deliverables_;
  std::map<std::string, int> provider_;
};

/// Loads an embedded deliverable image into `registry` (a per-model registry): the creators are
/// registered anew for each call, the object is dlopen'ed only the first time this process sees
/// these bytes (so its static state is shared, as GE's OPP libraries are per process). Errors (kNotOm for
/// an SDK-version mismatch naming both versions; kCorruptOm when the bytes do not load):
/// openatc::Error naming `name_for_errors`.
Deliverable LoadEmbedded(const ir::Bytes &image, const std::string &name_for_errors,
                         gert_impl::CustomOpRegistry &registry);

/// This SDK's version ("major.minor.patch") and whether a deliverable built against `version`
/// may be loaded (same major; for 0.x also the same minor).
std::string SdkVersion();
bool SdkVersionCompatible(const std::string &version);

/// Why the file whose first `size` bytes (up to 64: an ELF64 header) are `head` cannot be
/// dlopen'ed by this process, in words: not an ELF file (empty, text, other bytes), another ELF
/// class, another machine (e.g. "AArch64 (183)" vs "x86-64 (62)"), another byte order, or not a
/// shared library. "" when the header fits this process (dlopen may still fail for other reasons).
std::string ElfMismatch(const uint8_t *head, size_t size);
/// This process's ELF machine and class in words, e.g. "x86-64 (62), 64-bit".
std::string HostElfText();

/// Reads a whole file (kIo error naming it on failure).
std::vector<uint8_t> ReadFileBytes(const std::string &path);

}  // namespace openatc::opp

#endif  // OPENATC_OPP_DELIVERABLE_H_
