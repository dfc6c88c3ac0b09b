// Private: conversion of a verified FlatBuffers envelope (om.fbs) into an om::Model, with the
// checks that need the FlatBuffers view (enum ranges, duplicate names, an allocation budget).
// Bulk bytes are not touched here: the users of segments are returned for the reader to fill.
#ifndef OPENATC_OM_SRC_DECODE_ENVELOPE_H_
#define OPENATC_OM_SRC_DECODE_ENVELOPE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "openatc/om/container_info.h"
#include "openatc/om/model.h"
#include "openatc/schemas/om_generated.h"

namespace openatc::om::detail {

/// One user of a segment: `dest` (inside the Model being built; stable) receives the bytes.
struct SegmentUse {
  int32_t segment = -1;
  SegmentKind kind = SegmentKind::kWeight;
  ir::Bytes *dest = nullptr;
  std::string part;  ///< "node 'w' tensor 'value'", "artifact of op type 'X'", ...
  std::string node, op_type;  ///< for Error::WithNode, when a node uses it
  /// A Const of a gear graph (1.2): its Weight segment may also be used by other Consts.
  bool shared = false;
};

/// Fills `model` (which must be empty and outlive `uses`) from `root`, which must have passed
/// flatbuffers::Verifier. `envelope_size` bounds what decoding may allocate. Throws kCorruptOm.
void DecodeEnvelope(const fb::Model &root, uint64_t envelope_size, Model *model,
                    std::vector<SegmentUse> *uses);

}  // namespace openatc::om::detail

#endif  // OPENATC_OM_SRC_DECODE_ENVELOPE_H_
