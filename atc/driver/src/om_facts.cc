// Facts of a model shared by atc's inspection modes: model inputs/outputs, hashes, the GE OM
// header (docs/ge-om.md §2), bounded file reads and atomic text writes.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <xxhash.h>

#include "modes.h"
#include "openatc/common/atomic_file.h"
#include "openatc/common/error.h"

namespace openatc::atc {

std::string OmInfoPath(const std::string &json_path) {
  const std::string ext = ".json";
  if (json_path.size() > ext.size() &&
      json_path.compare(json_path.size() - ext.size(), ext.size(), ext) == 0)
    return json_path.substr(0, json_path.size() - ext.size()) + ".om_info.json";
  return json_path + ".om_info.json";
}

std::vector<ModelIo> ModelInputs(const ir::Graph &g) {
  std::vector<ModelIo> out;
  for (int32_t i : g.inputs) {
    if (i < 0 || i >= static_cast<int32_t>(g.nodes.size())) continue;
    const ir::Node &n = g.nodes[i];
    out.push_back({n.name, n.output_descs.empty() ? ir::TensorDesc{} : n.output_descs[0]});
  }
  return out;
}

std::vector<ModelIo> ModelOutputs(const ir::Graph &g) {
  std::vector<ModelIo> out;
  for (const auto &e : g.outputs) {
    if (e.node < 0 || e.node >= static_cast<int32_t>(g.nodes.size())) continue;
    const ir::Node &n = g.nodes[e.node];
    ModelIo io{n.name + ":" + std::to_string(e.index), {}};
    if (e.index >= 0 && static_cast<size_t>(e.index) < n.output_descs.size())
      io.desc = n.output_descs[e.index];
    out.push_back(std::move(io));
  }
  return out;
}

std::string Hex64(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

uint64_t HashBytes(const ir::Bytes &b) { return XXH3_64bits(b.data, b.size); }

namespace {
uint32_t U32(const std::vector<uint8_t> &h, size_t off) {
  return static_cast<uint32_t>(h[off]) | static_cast<uint32_t>(h[off + 1]) << 8 |
         static_cast<uint32_t>(h[off + 2]) << 16 | static_cast<uint32_t>(h[off + 3]) << 24;
}
std::string CStr(const std::vector<uint8_t> &h, size_t off, size_t len) {
  std::string s(reinterpret_cast<const char *>(h.data() + off), len);
  s.resize(std::strlen(s.c_str()));  // up to the first NUL (or all `len` bytes)
  for (char &c : s)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) c = '?';
  return s;
}
}  // namespace

GeOmHeader ParseGeOmHeader(const std::vector<uint8_t> &h, uint64_t file_size,
                           const std::string &path) {
  constexpr size_t kHeader = 256;
  if (h.size() < kHeader)
    throw Error(ErrorCategory::kNotOm, "OA2001",
                "the file starts with GE's OM magic IMOD but has only " +
                    std::to_string(file_size) + " bytes, fewer than GE's 256-byte model header",
                "Pass a complete OM file")
        .WithFile(path);
  GeOmHeader g;
  g.file_size = file_size;
  g.headsize = U32(h, 4);
  g.version = U32(h, 8);
  g.length = U32(h, 76);
  g.is_encrypt = h[80];
  g.is_checksum = h[81];
  g.modeltype = h[82];
  g.genmode = h[83];
  g.name = CStr(h, 84, 32);
  g.ops = U32(h, 116);
  g.om_ir_version = U32(h, 152);
  g.model_num = U32(h, 156);
  g.platform_version = CStr(h, 160, 20);
  g.platform_type = h[180];
  g.model_length = static_cast<uint64_t>(U32(h, 184)) | static_cast<uint64_t>(U32(h, 188)) << 32;
  g.need_check_os_cpu_info = h[192];
  g.is_unknow_model = h[193];
  return g;
}

std::vector<uint8_t> ReadHead(const std::string &path, size_t max, uint64_t *file_size) {
  auto fail = [&](const std::string &what) {
    return Error(ErrorCategory::kIo, "OA2021",
                 "cannot read the model: " + what + ": " + std::strerror(errno),
                 "Check the path given to --om and its permissions")
        .WithFile(path);
  };
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw fail("open failed");
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    Error e = fail("stat failed");
    ::close(fd);
    throw e;
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
    throw fail("not a regular file");
  }
  *file_size = static_cast<uint64_t>(st.st_size);
  std::vector<uint8_t> head(std::min<uint64_t>(max, *file_size));
  size_t done = 0;
  while (done < head.size()) {
    ssize_t r = ::read(fd, head.data() + done, head.size() - done);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    done += static_cast<size_t>(r);
  }
  ::close(fd);
  head.resize(done);
  return head;
}

void WriteTextAtomic(const std::string &path, const std::string &text) {
  const size_t slash = path.rfind('/');
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  auto fail = [&](const std::string &what, int err) {
    return Error(ErrorCategory::kIo, "E13001",
                 "cannot write the JSON file: " + what + ": " + std::strerror(err),
                 "Check that the folder of --json exists and is writable")
        .WithFile(path);
  };
  if (base.empty()) throw fail("the path names a folder", EISDIR);
  const auto failure = WriteFileAtomic(path, text.data(), text.size());
  if (!failure) return;
  switch (failure->step) {
    case AtomicWriteStep::kCreate: throw fail("cannot create '" + failure->tmp + "'", failure->err);
    case AtomicWriteStep::kWrite: throw fail("write failed", failure->err);
    case AtomicWriteStep::kSync: throw fail("fsync failed", failure->err);
    case AtomicWriteStep::kClose: throw fail("close failed", failure->err);
    case AtomicWriteStep::kRename: break;
  }
  throw fail("rename failed", failure->err);
}

}  // namespace openatc::atc
