// A process-wide memo of compressed deliverables (internal to om_format). Every OM that atc
// writes embeds the built-in ops library (5.8 MB in a release build, 47 MB under the sanitizers)
// as a zstd Deliverable segment, so a process that writes or reads many OMs (a build pipeline in
// one process, an application that loads several models, the test binaries) would compress and
// decompress the same bytes again each time. The memo keeps the last few such libraries: the
// writer takes the frame of raw bytes it compressed before (serialize.cc; found by size and
// memcmp of the raw bytes), the reader the raw bytes of a frame it wrote or decoded before
// (reader.cc; found by the frame's size and XXH3-128, as the runtime finds a loaded library:
// sdk/opp/src/deliverable.cc). A hit gives what the codec would have given.
#ifndef OPENATC_OM_DELIVERABLE_MEMO_H_
#define OPENATC_OM_DELIVERABLE_MEMO_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <xxhash.h>

#include "openatc/ir/graph.h"

namespace openatc::om::detail {

/// Deliverables of fewer raw bytes than this are not remembered: their codec time is small.
inline constexpr size_t kDeliverableMemoMinBytes = size_t{1} << 20;
/// Libraries remembered at once (least recently used first out).
inline constexpr size_t kDeliverableMemoEntries = 4;

/// The zstd frame this process wrote for `raw` at `level` (MemoRememberWritten), or nullopt.
std::optional<std::shared_ptr<const std::vector<uint8_t>>> MemoFrame(const uint8_t *raw, size_t raw_size, int level);

/// What the reader finds a frame by: its size and XXH3-128, computed once per segment.
struct FrameKey {
  XXH128_hash_t hash{};
  size_t size = 0;
};
FrameKey KeyOfFrame(const uint8_t *frame, size_t frame_size);

/// The raw bytes of the zstd frame with key `key` as this process wrote or decoded it before, or
/// nullopt.
std::optional<ir::Bytes> MemoRaw(const FrameKey &key);

/// Remembers that `frame`, written at `level`, is the zstd frame of `raw` (shared, not copied).
/// Below kDeliverableMemoMinBytes it does nothing.
void MemoRememberWritten(const ir::Bytes &raw, std::shared_ptr<const std::vector<uint8_t>> frame, int level);

/// Remembers that the frame with key `key` (the frame itself is not kept) decodes to `raw`
/// (shared, not copied). Below kDeliverableMemoMinBytes it does nothing.
void MemoRememberRead(const ir::Bytes &raw, const FrameKey &key);

}  // namespace openatc::om::detail

#endif  // OPENATC_OM_DELIVERABLE_MEMO_H_
