// OM reader: verifies an image in the documented order (preamble, envelope checksum, FlatBuffers
// verifier, semantic checks, segment table, per-segment checksum before use, bounded
// decompression) and builds an om::Model whose bulk bytes are views into the image when
// possible. Also ReadFile (mmap), ReadBytes and InspectFile.
#include <cerrno>
#include <cstring>
#include <new>
#include <optional>
#include <utility>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "decode_envelope.h"
#include "deliverable_memo.h"
#include "external_weights.h"
#include "internal.h"

namespace openatc::om {
namespace detail {
namespace {

std::string N(uint64_t v) { return std::to_string(v); }

std::string SegName(size_t k, const fb::Segment *s) {
  std::string kind = static_cast<uint8_t>(s->kind()) <= static_cast<uint8_t>(fb::SegmentKind::MAX)
                         ? SegmentKindName(static_cast<SegmentKind>(s->kind()))
                         : "unknown kind";
  return "segment #" + N(k) + " (" + kind + ")";
}


using Segments = flatbuffers::Vector<flatbuffers::Offset<fb::Segment>>;

// Step 2 of the reading order: envelope checksum, size, alignment, identifier, FlatBuffers
// verifier, minimum reader version. `aligned` receives a copy when the envelope is unaligned.
const fb::Model &VerifyEnvelope(const uint8_t *data, const Preamble &p, std::vector<uint64_t> *aligned_copy) {
  const uint8_t *env = data + p.envelope_offset;

  if (Hash64(env, p.envelope_size) != p.envelope_hash)
    throw Corrupt(kErrEnvelopeHash, "envelope: checksum mismatch").WithOffset(p.envelope_offset);
  // FlatBuffers 2.0.8 asserts on buffers of 2 GiB or more: bound first.
  if (p.envelope_size >= FLATBUFFERS_MAX_BUFFER_SIZE)
    throw Corrupt(kErrEnvelope, "envelope: " + N(p.envelope_size) +
                                    " bytes is over the 2 GiB FlatBuffers limit")
        .WithOffset(p.envelope_offset);
  if (p.envelope_size < 8)
    throw Corrupt(kErrEnvelope, "envelope: " + N(p.envelope_size) +
                                    " bytes is too small for a FlatBuffer")
        .WithOffset(p.envelope_offset);
  // The verifier checks alignment relative to the buffer start; FlatBuffers reads scalars in
  // place, so a buffer at an unaligned address is copied to aligned storage first.
  std::vector<uint64_t> &aligned = *aligned_copy;
  if (reinterpret_cast<uintptr_t>(env) % 8 != 0) {
    aligned.resize((p.envelope_size + 7) / 8);
    std::memcpy(aligned.data(), env, p.envelope_size);
    env = reinterpret_cast<const uint8_t *>(aligned.data());
  }
  if (!flatbuffers::BufferHasIdentifier(env, fb::ModelIdentifier()))
    throw Corrupt(kErrEnvelope, "envelope: FlatBuffers file identifier is not OAOM")
        .WithOffset(p.envelope_offset + 4);
  flatbuffers::Verifier::Options vopts;
  // Subgraphs (1.3) nest tables: about 6 levels per subgraph level (ir::kMaxSubgraphDepth).
  vopts.max_depth = 160;
  vopts.max_tables = static_cast<flatbuffers::uoffset_t>(
      std::min<uint64_t>(1000000u, p.envelope_size / 8 + 64));
  flatbuffers::Verifier verifier(env, p.envelope_size, vopts);
  if (!fb::VerifyModelBuffer(verifier))
    throw Corrupt(kErrEnvelope, "envelope: FlatBuffers verification failed (schema om.fbs)")
        .WithOffset(p.envelope_offset);
  const fb::Model &root = *fb::GetModel(env);
  // A newer minor may add meaning an older reader would silently ignore; the writer says so.
  if (root.min_reader_major() > kFormatMajor ||
      (root.min_reader_major() == kFormatMajor && root.min_reader_minor() > kFormatMinor))
    throw Error(ErrorCategory::kNotOm, kErrVersion,
                "OM format version " + N(p.major) + "." + N(p.minor) + " needs a reader of format " +
                    N(root.min_reader_major()) + "." + N(root.min_reader_minor()) +
                    " or newer; this reader's is " + N(kFormatMajor) + "." + N(kFormatMinor),
                "Use the OpenATC release that built it, or rebuild the OM with this atc")
        .WithOffset(p.envelope_offset);
  return root;
}

// Step 4a for a segment in a weight file (1.3): an uncompressed Weight of a plain relative path,
// offset 0 in the area, its range in the file not overflowing. The file itself is read in step 5.
void CheckExternalSegment(const std::string &name, const fb::Segment &s) {
  const std::string file = s.external_file()->str();
  if (file.empty()) throw Corrupt(kErrSegmentTable, name + ": the external weight file name is empty");
  const std::string problem = ExternalPathProblem(file);
  std::string shown = file.substr(0, 256);  // untrusted bytes: control characters shown as '?'
  for (char &c : shown)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  if (!problem.empty())
    throw Corrupt(kErrSegmentTable, name + ": the external weight file path '" + shown + "' " +
                                        problem + "; only a relative path inside the OM's folder is allowed");
  if (s.kind() != fb::SegmentKind::Weight || s.codec() != fb::Codec::None)
    throw Corrupt(kErrSegmentTable, name + ": only uncompressed weights may live in an external file");
  if (s.offset() != 0 || s.stored_size() == 0 || s.raw_size() != s.stored_size() ||
      s.stored_size() > kMaxRawSize || s.external_offset() > UINT64_MAX - s.stored_size())
    throw Corrupt(kErrSegmentTable, name + ": " + N(s.stored_size()) + " bytes (raw " + N(s.raw_size()) +
                                        ") at offset " + N(s.external_offset()) + " of '" + shown +
                                        "' with area offset " + N(s.offset()) + " is not a valid external range");
}

// Step 4a: known codec and kind, 64-aligned, ascending, non-overlapping, zero gaps, plausible
// raw size, and the area ending with the last segment.
void CheckSegmentTable(const Segments *segs, const Preamble &p, const uint8_t *data) {
  const size_t nseg = segs ? segs->size() : 0;
  const uint8_t *area = data + p.segment_area_offset;
  uint64_t prev_end = 0;
  for (size_t k = 0; k < nseg; ++k) {
    const fb::Segment *s = segs->Get(static_cast<flatbuffers::uoffset_t>(k));
    const std::string name = SegName(k, s);
    const uint64_t at = p.segment_area_offset;  // for error offsets
    if (static_cast<uint8_t>(s->kind()) > static_cast<uint8_t>(fb::SegmentKind::MAX))
      throw Corrupt(kErrSegmentTable, name + ": unknown kind " +
                                          N(static_cast<uint8_t>(s->kind())));
    if (s->external_file() != nullptr) {
      CheckExternalSegment(name, *s);
      continue;
    }
    if (static_cast<uint8_t>(s->codec()) > 1)
      throw Corrupt(kErrSegmentTable, name + ": unknown codec " +
                                          N(static_cast<uint8_t>(s->codec())));
    if (s->offset() % kSegmentAlign != 0 || s->offset() < prev_end ||
        s->offset() > p.segment_area_size)
      throw Corrupt(kErrSegmentTable,
                    name + ": offset " + N(s->offset()) +
                        " is not 64-aligned, overlaps the previous segment, or is outside the " +
                        N(p.segment_area_size) + "-byte segment area")
          .WithOffset(at);
    if (s->stored_size() == 0 || s->stored_size() > p.segment_area_size - s->offset())
      throw Corrupt(kErrSegmentTable, name + ": " + N(s->stored_size()) + " bytes at offset " +
                                          N(s->offset()) + " do not fit the " +
                                          N(p.segment_area_size) + "-byte segment area")
          .WithOffset(at + s->offset());
    if (s->codec() == fb::Codec::None && s->raw_size() != s->stored_size())
      throw Corrupt(kErrSegmentTable, name + ": uncompressed but raw size " + N(s->raw_size()) +
                                          " differs from stored size " + N(s->stored_size()));
    if (s->codec() == fb::Codec::Zstd &&
        (s->raw_size() == 0 || s->raw_size() > kMaxRawSize ||
         (s->raw_size() - 1) / kMaxExpansion + 1 > s->stored_size()))
      throw Corrupt(kErrSegmentTable, name + ": raw size " + N(s->raw_size()) +
                                          " is not plausible for " + N(s->stored_size()) +
                                          " compressed bytes (limits: x1024, 64 GiB)");
    for (uint64_t i = prev_end; i < s->offset(); ++i)
      if (area[i] != 0)
        throw Corrupt(kErrSegmentTable, "padding before " + name + " is not zero")
            .WithOffset(at + i);
    prev_end = s->offset() + s->stored_size();
  }
  if (prev_end != p.segment_area_size)
    throw Corrupt(kErrSegmentTable, "segment area: " + N(p.segment_area_size - prev_end) +
                                        " bytes after the last segment belong to no segment")
        .WithOffset(p.segment_area_offset + prev_end);
}

// Step 4b: each segment has exactly one user, of the segment's kind; returns the user of each.
// A Const of a gear graph (1.2, SegmentUse::shared) may use a Weight segment already used: it
// goes to `extra` and gets the bytes of the segment's first user after FillSegments.
std::vector<const SegmentUse *> MatchUsers(const Segments *segs, const std::vector<SegmentUse> &uses,
                                           std::vector<std::pair<size_t, const SegmentUse *>> *extra) {
  const size_t nseg = segs ? segs->size() : 0;
  std::vector<const SegmentUse *> user(nseg, nullptr);
  for (const SegmentUse &u : uses) {
    auto fail = [&](const std::string &msg) {
      Error e = Corrupt(kErrSegmentTable, msg);
      if (!u.node.empty()) e.WithNode(u.node, u.op_type);
      return e;
    };
    if (u.segment < 0 || static_cast<size_t>(u.segment) >= nseg)
      throw fail(u.part + " refers to segment #" + std::to_string(u.segment) + "; there are " +
                 N(nseg));
    const fb::Segment *s = segs->Get(static_cast<flatbuffers::uoffset_t>(u.segment));
    if (static_cast<uint8_t>(s->kind()) != static_cast<uint8_t>(u.kind))
      throw fail(u.part + " refers to " + SegName(static_cast<size_t>(u.segment), s) +
                 ", which holds another kind of data");
    if (user[static_cast<size_t>(u.segment)] && u.shared) {
      extra->emplace_back(static_cast<size_t>(u.segment), &u);
      continue;
    }
    if (user[static_cast<size_t>(u.segment)])
      throw fail(u.part + " refers to segment #" + std::to_string(u.segment) +
                 ", which is already used by " + user[static_cast<size_t>(u.segment)]->part);
    user[static_cast<size_t>(u.segment)] = &u;
  }
  for (size_t k = 0; k < nseg; ++k)
    if (!user[k])
      throw Corrupt(kErrSegmentTable,
                    SegName(k, segs->Get(static_cast<flatbuffers::uoffset_t>(k))) +
                        " is not referenced by the envelope");
  return user;
}

// A buffer of `size` bytes for a segment's decoded bytes. A large one (the embedded operator
// library: ~5 MB) is mapped with its pages populated in one call: on the 2-core VM, faulting them
// in one by one while zstd wrote made the decode of the built-in ops library take 19 ms instead of
// ~11 (omrun load of ultraface-rfb-320). Throws std::bad_alloc.
std::shared_ptr<uint8_t[]> DecodeBuffer(size_t size) {
  constexpr size_t kPopulateFrom = size_t{1} << 20;
  if (size < kPopulateFrom) return std::shared_ptr<uint8_t[]>(new uint8_t[size]);
  void *m = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (m == MAP_FAILED) throw std::bad_alloc();
  return std::shared_ptr<uint8_t[]>(static_cast<uint8_t *>(m), [size](uint8_t *p) { ::munmap(p, size); });
}

// Step 5: per segment, its checksum first, then a view (or a copy without owner), or bounded
// decompression into exactly the raw size, delivered to its user.
void FillSegments(const Segments *segs, const std::vector<const SegmentUse *> &user, const Preamble &p,
                  const uint8_t *data, const std::shared_ptr<const void> &owner, WeightFileSource &weights) {
  const size_t nseg = segs ? segs->size() : 0;
  const uint8_t *area = data + p.segment_area_offset;
  for (size_t k = 0; k < nseg; ++k) {
    const fb::Segment *s = segs->Get(static_cast<flatbuffers::uoffset_t>(k));
    const uint8_t *stored = area + s->offset();
    const uint64_t file_off = p.segment_area_offset + s->offset();
    const SegmentUse &u = *user[k];
    auto fail = [&](const char *code, const std::string &msg) {
      Error e = Corrupt(code, SegName(k, s) + " of " + u.part + ": " + msg);
      e.WithOffset(file_off);
      if (!u.node.empty()) e.WithNode(u.node, u.op_type);
      return e;
    };
    if (s->external_file() != nullptr) {  // 1.3: bytes in a weight file, checked there
      try {
        *u.dest = weights.Fetch(s->external_file()->str(), s->external_offset(), s->stored_size(), s->hash(),
                                SegName(k, s) + " of " + u.part);
      } catch (Error &e) {
        if (!u.node.empty()) e.WithNode(u.node, u.op_type);
        throw;
      }
      continue;
    }
    if (Hash64(stored, s->stored_size()) != s->hash()) throw fail(kErrSegmentHash, "checksum mismatch");
    if (s->codec() == fb::Codec::None) {
      if (owner) {
        u.dest->data = stored;
        u.dest->size = s->stored_size();
        u.dest->owner = owner;
      } else {
        *u.dest = ir::Bytes::Copy(stored, s->stored_size());
      }
      continue;
    }
    const bool memo = s->kind() == fb::SegmentKind::Deliverable && s->raw_size() >= kDeliverableMemoMinBytes;
    FrameKey key;
    if (memo) {  // the same library as an OM written or read before in this process
      key = KeyOfFrame(stored, s->stored_size());
      std::optional<ir::Bytes> seen = MemoRaw(key);
      if (seen && seen->size == s->raw_size()) {
        *u.dest = std::move(*seen);
        continue;
      }
    }
    std::shared_ptr<uint8_t[]> raw;  // not zero-filled: the decoder writes every byte it reports
    try {
      raw = DecodeBuffer(s->raw_size());
    } catch (const std::bad_alloc &) {
      throw Error(ErrorCategory::kInternal, kErrMemory,
                  "out of memory: cannot allocate " + N(s->raw_size()) +
                      " bytes to decompress " + SegName(k, s),
                  "Free memory or rebuild the OM without compression");
    }
    size_t r = ZSTD_decompress(raw.get(), s->raw_size(), stored, s->stored_size());
    if (ZSTD_isError(r))
      throw fail(kErrDecompress, std::string("zstd decompression failed: ") +
                                     ZSTD_getErrorName(r));
    if (r != s->raw_size())
      throw fail(kErrDecompress, "decompressed to " + N(r) + " bytes; the segment table says " +
                                     N(s->raw_size()));
    ir::Bytes out;
    out.data = raw.get();
    out.size = r;
    out.owner = std::move(raw);
    if (memo) MemoRememberRead(out, key);
    *u.dest = std::move(out);
  }
}

void FillInfo(const Segments *segs, const Preamble &p, size_t size, ContainerInfo *info) {
  const size_t nseg = segs ? segs->size() : 0;
  info->magic = std::string(kMagic, 4);
  info->version_major = p.major;
  info->version_minor = p.minor;
  info->preamble_size = p.preamble_size;
  info->flags = p.flags;
  info->envelope_offset = p.envelope_offset;
  info->envelope_size = p.envelope_size;
  info->envelope_hash = p.envelope_hash;
  info->segment_area_offset = p.segment_area_offset;
  info->segment_area_size = p.segment_area_size;
  info->file_size = size;
  info->segments.clear();
  for (size_t k = 0; k < nseg; ++k) {
    const fb::Segment *s = segs->Get(static_cast<flatbuffers::uoffset_t>(k));
    SegmentInfo si;
    si.offset = s->offset();
    si.file_offset = p.segment_area_offset + s->offset();
    si.stored_size = s->stored_size();
    si.raw_size = s->raw_size();
    si.codec = static_cast<SegmentCodec>(s->codec());
    si.kind = static_cast<SegmentKind>(s->kind());
    si.hash = s->hash();
    if (s->external_file() != nullptr) {
      si.external_file = s->external_file()->str();
      si.external_offset = s->external_offset();
      si.file_offset = 0;
    }
    info->segments.push_back(si);
  }
}

// Last, once the file is known sound: its target record (soc_version, arch) as a target, the
// kind following from them (openatc/common/target.h). A missing table reads as the empty name.
openatc::Target ReadTarget(const fb::Model &root) {
  const fb::Target *recorded = root.target();
  const std::string soc_version = recorded && recorded->soc_version() ? recorded->soc_version()->str() : "";
  const std::string arch = recorded && recorded->arch() ? recorded->arch()->str() : "";
  std::optional<openatc::Target> target = openatc::TargetFromRecord(soc_version, arch);
  if (!target) {
    throw Error(ErrorCategory::kNotOm, kErrTarget,
                "the OM records the target '" + soc_version + "'" + (arch.empty() ? "" : " (" + arch + ")") +
                    ", which is neither host nor an Ascend soc_version this OpenATC knows",
                "Rebuild it with this OpenATC's atc");
  }
  return std::move(*target);
}

}  // namespace

// The reading order of om_format/FORMAT.md, one named step each.
Model ParseImage(const uint8_t *data, size_t size, std::shared_ptr<const void> owner,
                 ContainerInfo *info, const ReadOptions &options, const std::string &om_path) {
  const Preamble p = ParsePreamble(data, size);
  std::vector<uint64_t> aligned;
  const fb::Model &root = VerifyEnvelope(data, p, &aligned);

  Model model;
  model.format_major = p.major;
  model.format_minor = p.minor;
  model.min_reader_major = root.min_reader_major();
  model.min_reader_minor = root.min_reader_minor();
  model.build_time = root.build_time();
  std::vector<SegmentUse> uses;
  DecodeEnvelope(root, p.envelope_size, &model, &uses);

  const Segments *segs = root.segments();
  CheckSegmentTable(segs, p, data);
  std::vector<std::pair<size_t, const SegmentUse *>> shared;
  const std::vector<const SegmentUse *> users = MatchUsers(segs, uses, &shared);
  WeightFileSource weights(options, om_path);
  FillSegments(segs, users, p, data, owner, weights);
  for (const auto &[segment, use] : shared) *use->dest = *users[segment]->dest;  // one copy of the bytes

  if (model.format_major == 1 && model.format_minor == 0) LiftLegacyPlan(model);
  CheckModel(model, ErrorCategory::kCorruptOm, /*reading=*/true);
  model.target = ReadTarget(root);
  if (info) FillInfo(segs, p, size, info);
  return model;
}

}  // namespace detail

namespace {

Error ReadError(const std::string &path, const std::string &what, int err) {
  return Error(ErrorCategory::kIo, detail::kErrRead,
               "cannot read the OM: " + what + ": " + std::strerror(err),
               "Check the path and its permissions")
      .WithFile(path);
}

Model ReadPath(const std::string &path, ContainerInfo *info, const ReadOptions &options) {
  int err = 0;
  const char *step = "";
  std::shared_ptr<const detail::MappedFile> map = detail::MapFile(path, &err, &step);
  if (!map) throw ReadError(path, step, err);
  try {
    return detail::ParseImage(map->data, map->size, map, info, options, path);
  } catch (Error &e) {
    e.WithFile(path);
    throw;
  }
}

}  // namespace

Model ReadFile(const std::string &path, const ReadOptions &options) { return ReadPath(path, nullptr, options); }

Model ReadBytes(const uint8_t *data, size_t size, std::shared_ptr<const void> owner, const ReadOptions &options) {
  static const uint8_t kEmpty = 0;
  return detail::ParseImage(data ? data : &kEmpty, data ? size : 0, std::move(owner), nullptr, options);
}

ContainerInfo InspectFile(const std::string &path) {
  ContainerInfo info;
  ReadPath(path, &info, {});
  return info;
}

ContainerInfo InspectBytes(const uint8_t *data, size_t size) {
  ContainerInfo info;
  static const uint8_t kEmpty = 0;
  detail::ParseImage(data ? data : &kEmpty, data ? size : 0, nullptr, &info);
  return info;
}

}  // namespace openatc::om
