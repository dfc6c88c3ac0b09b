// atc --check_portable: the PortableOp round-trip check (internal to the atc driver).
#ifndef OPENATC_ATC_DRIVER_CHECK_PORTABLE_H_
#define OPENATC_ATC_DRIVER_CHECK_PORTABLE_H_

#include "openatc/om/model.h"

namespace openatc::atc {

/// For every op type with a Serialize artifact in `model` (compiled in this process):
///  1. Serialize -> Deserialize into a fresh object -> Serialize again must give the artifact's
///     bytes; a mismatch names the op type and the first differing byte offset (OA1701).
///  2. The graph, run on seeded random inputs through the compiling objects and through the
///     deserialized ones (a normal OM load), must give identical outputs (OA1702 names the output
///     and the first differing element). Skipped with a warning for dynamic-shape inputs.
/// Throws openatc::Error (kCustomOp) on a mismatch.
void CheckPortable(const om::Model &model, const std::string &model_path);

}  // namespace openatc::atc

#endif  // OPENATC_ATC_DRIVER_CHECK_PORTABLE_H_
