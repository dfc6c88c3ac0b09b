/**
 * @file openatc/compiler/gears.h
 * Dynamic gears (atc --dynamic_batch_size, --dynamic_image_size, --dynamic_dims): one static
 * variant of the graph per gear in one om::Model (om_format/FORMAT.md, format 1.2). Each gear is
 * compiled by CompileGraph with the -1 dims of --input_shape replaced by the gear's values, so
 * shapes are inferred and memory planned per gear; equal Const weights are written once.
 */
#ifndef OPENATC_COMPILER_GEARS_H_
#define OPENATC_COMPILER_GEARS_H_

#include <cstdint>
#include <vector>

#include "openatc/compiler/compiler.h"
#include "openatc/om/model.h"

namespace openatc::compiler {

/// `shapes` (from --input_shape) with the -1 dims filled from `gear`: kBatch and kImageSize fill
/// each input's -1 dims from the start of the gear, kDims takes the values in order across all
/// inputs. The gear must hold the values the flag check (atc/cli/src/gear_flags.cc) requires.
std::vector<InputShape> GearShapes(const std::vector<InputShape> &shapes, om::GearKind kind,
                                   const std::vector<int64_t> &gear);

/// Compiles `graph` once per gear (options.input_shapes holds the -1 dims) and assembles one
/// geared model: `graph` = the largest gear (most input elements) plus the last input
/// om::kGearShapeInput (int32 [values per gear]) and om::kGearOriginDimsAttr on the user Data
/// nodes, `gears` = every gear in the given order.
om::Model CompileGears(const ir::Graph &graph, const CompileOptions &options, const opp::CompileOppSet &opp,
                       om::GearKind kind, const std::vector<std::vector<int64_t>> &gears);

}  // namespace openatc::compiler

#endif  // OPENATC_COMPILER_GEARS_H_
