/**
 * @file openatc/atc/gear_spec.h
 * The gears of --dynamic_batch_size, --dynamic_image_size or --dynamic_dims as numbers, for the
 * driver to compile one static variant per gear (openatc/compiler/gears.h).
 */
#ifndef OPENATC_ATC_GEAR_SPEC_H_
#define OPENATC_ATC_GEAR_SPEC_H_

#include <cstdint>
#include <string>
#include <vector>

#include "openatc/atc/options.h"

namespace openatc {
namespace atc {

struct GearSpec {
  std::string flag;                         ///< "dynamic_batch_size", ...; empty: no gears
  std::vector<std::vector<int64_t>> gears;  ///< in the flag's order
};

/// The gear flag given and its gears (empty GearSpec when none). Runs the checks of
/// CheckGearFlags first, so a bad value is the same error (kUsage, ATC's code) here.
GearSpec GearSpecOf(const Options &o);

}  // namespace atc
}  // namespace openatc

#endif  // OPENATC_ATC_GEAR_SPEC_H_
