// Shared helpers of the OM tests: a model that uses every part of the format, a field-by-field
// equality check, and byte-level helpers that patch an image and re-sign its checksums the way
// the format documents them (offsets written here by hand, independently of the library).
#ifndef OPENATC_TESTS_OM_OM_TEST_UTIL_H_
#define OPENATC_TESTS_OM_OM_TEST_UTIL_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "openatc/om/model.h"

namespace omtest {

/// Graph Data -> AddCustom(x, Const w) -> NetOutput; AddCustom carries one attr of every
/// AttrKind; artifacts "AddCustom" (payload of `artifact_bytes` pseudo-random bytes) and
/// "SubCustom" (PortableOp with an empty payload); one deliverable of `deliverable_bytes`
/// compressible bytes; two build options. `w_elems` floats of weight (value k % 4).
openatc::om::Model MakeModel(size_t artifact_bytes = 100 * 1024, size_t deliverable_bytes = 64 * 1024,
                             size_t w_elems = 256);
/// A small version (a few KB) for exhaustive truncation and bit-flip sweeps.
inline openatc::om::Model MakeSmallModel() { return MakeModel(40, 300, 16); }

/// Field-by-field equality with Catch2 CHECKs (bytes compared by content, floats by bits).
void CheckModelsEqual(const openatc::om::Model &a, const openatc::om::Model &b);

uint64_t Le64(const std::vector<uint8_t> &img, size_t off);
void PutLe64(std::vector<uint8_t> &img, size_t off, uint64_t v);
/// Recomputes the envelope XXH3 (preamble byte 48) and the preamble XXH3 (byte 56).
void Resign(std::vector<uint8_t> &img);
/// Byte offset in `img` of `p`, a pointer into the envelope of `img`.
size_t OffsetOf(const std::vector<uint8_t> &img, const void *p);

/// Runs ReadBytes and returns the error's what() (fails the test when nothing is thrown).
std::string ReadError(const std::vector<uint8_t> &img, int *category = nullptr);

std::string TempDir();  ///< a fresh empty directory under /tmp

}  // namespace omtest

#endif  // OPENATC_TESTS_OM_OM_TEST_UTIL_H_
