// The OM preamble: encoding, and the first verification steps of a reader (size, magic,
// preamble checksum, version, bounds of the envelope and segment area). Also small shared
// helpers (hash, little-endian loads, GE OM detection, names).
#include <cstdio>
#include <cstring>

#include <xxhash.h>

#include "internal.h"

namespace openatc::om {

bool LooksLikeGeOm(const uint8_t *data, size_t size) {
  return data != nullptr && size >= 4 && std::memcmp(data, "IMOD", 4) == 0;
}

const char *SegmentCodecName(SegmentCodec codec) {
  switch (codec) {
    case SegmentCodec::kNone: return "none";
    case SegmentCodec::kZstd: return "zstd";
  }
  return "unknown";
}

const char *SegmentKindName(SegmentKind kind) {
  switch (kind) {
    case SegmentKind::kWeight: return "weight";
    case SegmentKind::kArtifact: return "artifact";
    case SegmentKind::kDeliverable: return "deliverable";
    case SegmentKind::kKernel: return "kernel";
  }
  return "unknown";
}

namespace detail {

// Byte offsets of the preamble fields (FORMAT.md).
namespace off {
constexpr size_t kMagic = 0, kSize = 4, kMajor = 8, kMinor = 10, kFlags = 12, kEnvOffset = 16,
                 kEnvSize = 24, kSegOffset = 32, kSegSize = 40, kEnvHash = 48;
}  // namespace off

uint64_t Hash64(const void *data, size_t size) { return XXH3_64bits(data, size); }

uint64_t LoadLE64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
uint32_t LoadLE32(const uint8_t *p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
         static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}
uint16_t LoadLE16(const uint8_t *p) {
  return static_cast<uint16_t>(p[0] | (p[1] << 8));
}

static void StoreLE(uint8_t *p, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

Error Corrupt(const char *code, const std::string &message) {
  return Error(ErrorCategory::kCorruptOm, code, message,
               "The file is damaged or truncated; rebuild it with atc");
}

void EncodePreamble(const Preamble &p, uint8_t *out) {
  std::memset(out, 0, kPreambleSize);
  std::memcpy(out + off::kMagic, kMagic, 4);
  StoreLE(out + off::kSize, kPreambleSize, 4);
  StoreLE(out + off::kMajor, p.major, 2);
  StoreLE(out + off::kMinor, p.minor, 2);
  StoreLE(out + off::kFlags, p.flags, 4);
  StoreLE(out + off::kEnvOffset, p.envelope_offset, 8);
  StoreLE(out + off::kEnvSize, p.envelope_size, 8);
  StoreLE(out + off::kSegOffset, p.segment_area_offset, 8);
  StoreLE(out + off::kSegSize, p.segment_area_size, 8);
  StoreLE(out + off::kEnvHash, p.envelope_hash, 8);
  StoreLE(out + kPreambleSize - 8, Hash64(out, kPreambleSize - 8), 8);
}

static std::string Num(uint64_t v) { return std::to_string(v); }

namespace {

// What the first bytes say: empty, a GE OM, not an OM, or too short for a preamble.
void CheckMagic(const uint8_t *data, size_t size) {
  if (size == 0)
    throw Error(ErrorCategory::kNotOm, kErrNotOm, "not an OM file: the file is empty",
                "Pass an OM built by OpenATC's atc");
  if (LooksLikeGeOm(data, size))
    throw Error(ErrorCategory::kNotOm, kErrGeOm,
                "this is a GE OM (magic IMOD) made by CANN's ATC; this runtime executes only "
                "OpenATC OMs",
                "Rebuild it with OpenATC's atc");
  if (size < 4 || std::memcmp(data, kMagic, 4) != 0)
    throw Error(ErrorCategory::kNotOm, kErrNotOm, "not an OM file (no OAOM magic)",
                "Pass an OM built by OpenATC's atc");
  if (size < kPreambleSize)
    throw Corrupt(kErrPreamble, "preamble: the file has " + Num(size) +
                                    " bytes, fewer than the " + Num(kPreambleSize) +
                                    "-byte preamble")
        .WithOffset(size);
}

// The preamble's own size field and checksum.
void CheckPreambleSize(const uint8_t *data, size_t size, Preamble &p) {
  p.preamble_size = LoadLE32(data + off::kSize);
  if (p.preamble_size < kPreambleSize || p.preamble_size > kMaxPreambleSize ||
      p.preamble_size % 8 != 0)
    throw Corrupt(kErrPreamble, "preamble: its size field says " + Num(p.preamble_size) +
                                    " bytes; expected a multiple of 8 from " +
                                    Num(kPreambleSize) + " to " + Num(kMaxPreambleSize))
        .WithOffset(off::kSize);
  if (p.preamble_size > size)
    throw Corrupt(kErrPreamble, "preamble: its size field says " + Num(p.preamble_size) +
                                    " bytes but the file has only " + Num(size))
        .WithOffset(off::kSize);
  const uint64_t stored = LoadLE64(data + p.preamble_size - 8);
  if (Hash64(data, p.preamble_size - 8) != stored)
    throw Corrupt(kErrPreamble, "preamble: checksum mismatch").WithOffset(p.preamble_size - 8);
}

// Format version (0.x refused, newer major refused) and flags (none defined).
void CheckVersion(const uint8_t *data, Preamble &p) {
  p.major = LoadLE16(data + off::kMajor);
  p.minor = LoadLE16(data + off::kMinor);
  if (p.major == 0)
    throw Error(ErrorCategory::kNotOm, kErrPreRelease,
                "this OM (format 0." + Num(p.minor) +
                    ") was written by an unstable pre-release format 0.x; rebuild it with atc",
                "This reader reads format " + Num(kFormatMajor) + ".x OMs only")
        .WithOffset(off::kMajor);
  if (p.major > kFormatMajor)
    throw Error(ErrorCategory::kNotOm, kErrVersion,
                "OM format version " + Num(p.major) + "." + Num(p.minor) +
                    " is newer than this reader's " + Num(kFormatMajor) + "." +
                    Num(kFormatMinor),
                "Use the OpenATC release that built it, or rebuild the OM with this atc")
        .WithOffset(off::kMajor);
  p.flags = LoadLE32(data + off::kFlags);
  if (p.flags != 0)
    throw Error(ErrorCategory::kNotOm, kErrVersion,
                "OM format flags 0x" + [&] {
                  char buf[16];
                  std::snprintf(buf, sizeof buf, "%x", p.flags);
                  return std::string(buf);
                }() + " are unknown to this reader (format " + Num(kFormatMajor) + "." +
                    Num(kFormatMinor) + ")",
                "Use the OpenATC release that built it, or rebuild the OM with this atc")
        .WithOffset(off::kFlags);
}

// Envelope and segment-area bounds, each with subtraction only so no sum can overflow, and the
// zero padding between them.
void CheckBounds(const uint8_t *data, size_t size, const Preamble &p) {
  if (p.envelope_offset < p.preamble_size || p.envelope_offset % 8 != 0 ||
      p.envelope_offset > size)
    throw Corrupt(kErrBounds, "preamble: envelope offset " + Num(p.envelope_offset) +
                                  " is not an 8-aligned offset between the preamble end (" +
                                  Num(p.preamble_size) + ") and the file size (" + Num(size) +
                                  ")")
        .WithOffset(off::kEnvOffset);
  if (p.envelope_size > size - p.envelope_offset)
    throw Corrupt(kErrBounds, "preamble: envelope (" + Num(p.envelope_size) + " bytes at " +
                                  Num(p.envelope_offset) + ") extends past the end of the " +
                                  Num(size) + "-byte file")
        .WithOffset(off::kEnvSize);
  const uint64_t envelope_end = p.envelope_offset + p.envelope_size;
  if (p.segment_area_offset < envelope_end || p.segment_area_offset % kSegmentAlign != 0 ||
      p.segment_area_offset > size)
    throw Corrupt(kErrBounds, "preamble: segment area offset " + Num(p.segment_area_offset) +
                                  " is not a 64-aligned offset between the envelope end (" +
                                  Num(envelope_end) + ") and the file size (" + Num(size) + ")")
        .WithOffset(off::kSegOffset);
  if (p.segment_area_size > size - p.segment_area_offset)
    throw Corrupt(kErrBounds, "preamble: segment area (" + Num(p.segment_area_size) +
                                  " bytes at " + Num(p.segment_area_offset) +
                                  ") extends past the end of the " + Num(size) + "-byte file")
        .WithOffset(off::kSegSize);
  if (p.segment_area_size != size - p.segment_area_offset)
    throw Corrupt(kErrBounds, "preamble: the file has " +
                                  Num(size - p.segment_area_offset - p.segment_area_size) +
                                  " unexpected bytes after the segment area")
        .WithOffset(p.segment_area_offset + p.segment_area_size);
  for (uint64_t i = envelope_end; i < p.segment_area_offset; ++i)
    if (data[i] != 0)
      throw Corrupt(kErrBounds, "padding after the envelope is not zero").WithOffset(i);
}

}  // namespace

Preamble ParsePreamble(const uint8_t *data, size_t size) {
  CheckMagic(data, size);
  Preamble p;
  CheckPreambleSize(data, size, p);
  CheckVersion(data, p);
  p.envelope_offset = LoadLE64(data + off::kEnvOffset);
  p.envelope_size = LoadLE64(data + off::kEnvSize);
  p.segment_area_offset = LoadLE64(data + off::kSegOffset);
  p.segment_area_size = LoadLE64(data + off::kSegSize);
  p.envelope_hash = LoadLE64(data + off::kEnvHash);
  CheckBounds(data, size, p);
  return p;
}

}  // namespace detail
}  // namespace openatc::om
