// Private to the atc driver: --insert_op_conf blocks turned into Aipp nodes (ops/Aipp.cc)
// behind the model inputs they name (docs/atc-deploy-flags.md §2).
#ifndef OPENATC_ATC_DRIVER_SRC_AIPP_INSERT_H_
#define OPENATC_ATC_DRIVER_SRC_AIPP_INSERT_H_

#include <string>
#include <vector>

#include "openatc/atc/aipp_config.h"
#include "openatc/compiler/compiler.h"
#include "openatc/ir/graph.h"

namespace openatc::atc {

/// Data attr `_data_related_aipp_mode` ("static_aipp") and the before/after strings
/// `_aipp_inputs` / `_aipp_outputs` ("FORMAT:DTYPE:name:size:dimnum:d0,d1,...") that the AIPP
/// queries of ACL read.
inline constexpr const char *kAippModeAttr = "_data_related_aipp_mode";
inline constexpr const char *kAippInputsAttr = "_aipp_inputs";
inline constexpr const char *kAippOutputsAttr = "_aipp_outputs";

/// For each static block: finds the Data of related_input_rank (or the Data named
/// related_input_name), checks the block against the model input (layout NCHW unless the Data
/// says NHWC, 4 known dims, channels, output H/W = crop or source size + padding, dtype
/// float32/float16/uint8), inserts `<data>_0_aipp` between the Data and all its consumers, and
/// turns the Data into the uint8 NHWC image ([N, H, W, C]; YUV420SP [N, H * 3 / 2, W, 1]).
/// For each dynamic block: the Data becomes uint8 [max_src_image_size] and a new last input
/// `ascend_dynamic_aipp_data` (uint8 [64 + 96 * N]) feeds the Aipp node the parameters per run.
/// An --input_shape entry for that Data (in `shapes`) gives the model dims and is rewritten to the
/// image dims. Errors name `file` (the config): E10052 for a rank or name that is not an input,
/// E10001 for a block that does not fit the input.
void InsertAippNodes(ir::Graph &graph, const std::vector<AippOp> &ops, std::vector<compiler::InputShape> &shapes,
                     const std::string &file);

}  // namespace openatc::atc

#endif  // OPENATC_ATC_DRIVER_SRC_AIPP_INSERT_H_
