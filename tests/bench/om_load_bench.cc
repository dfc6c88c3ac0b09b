// Benchmark (not a test): load time of an OM holding 100 MB of weights with om::ReadFile
// (mmap, every segment's XXH3 checked, weights as zero-copy views) against a plain read() of the
// same file into memory. Prints the median of each over the repeats and their ratio; the file is
// in the page cache for both (a warm-up read runs first). Usage: om_load_bench [MB] [repeats].
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "openatc/common/error.h"
#include "openatc/om/model.h"

using namespace openatc;
using Clock = std::chrono::steady_clock;

namespace {

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double Ms(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

// read() of the whole file into a fresh buffer; returns a byte so the work is not optimised away.
uint8_t PlainRead(const std::string &path, size_t size) {
  std::unique_ptr<uint8_t[]> buf(new uint8_t[size]);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) std::exit(1);
  size_t done = 0;
  while (done < size) {
    ssize_t r = ::read(fd, buf.get() + done, size - done);
    if (r <= 0) break;
    done += static_cast<size_t>(r);
  }
  ::close(fd);
  return buf[size - 1];
}

}  // namespace

int main(int argc, char **argv) {
  const size_t mb = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 100;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 9;
  const size_t elems = mb * 1000 * 1000 / 4;
  try {
    om::Model m;
    m.producer = "OpenATC bench";
    m.target = openatc::Target{openatc::TargetKind::kHost, "host", "x86_64"};
    m.graph.name = "bench";
    ir::Node w;
    w.name = "w";
    w.type = ir::kConst;
    auto t = std::make_shared<ir::ConstTensor>();
    t->desc.dtype = ge::DT_FLOAT;
    t->desc.shape = {static_cast<int64_t>(elems)};
    t->desc.origin_shape = t->desc.shape;
    std::vector<uint8_t> bytes(elems * 4);
    for (size_t k = 0; k < bytes.size(); ++k) bytes[k] = static_cast<uint8_t>(k * 2654435761u >> 24);
    t->data = ir::Bytes::FromVector(std::move(bytes));
    w.output_descs = {t->desc};
    ir::AttrValue v;
    v.kind = ir::AttrKind::kTensor;
    v.t = t;
    w.attrs["value"] = v;
    m.graph.nodes = {w};
    char tmpl[] = "/tmp/om_load_bench_XXXXXX";
    int fd = ::mkstemp(tmpl);
    if (fd < 0) return 1;
    ::close(fd);
    const std::string path = tmpl;
    om::WriteFile(path, m);
    const size_t file_size = om::Serialize(m).size();

    PlainRead(path, file_size);  // warm the page cache
    std::vector<double> om_ms, read_ms;
    volatile uint8_t sink = 0;
    for (int r = 0; r < repeats; ++r) {
      auto a = Clock::now();
      om::Model back = om::ReadFile(path);
      const ir::Bytes &d = back.graph.nodes[0].attrs.at("value").t->data;
      sink = sink ^ d.data[d.size - 1];
      auto b = Clock::now();
      sink = sink ^ PlainRead(path, file_size);
      auto c = Clock::now();
      om_ms.push_back(Ms(a, b));
      read_ms.push_back(Ms(b, c));
    }
    ::unlink(path.c_str());
    const double o = Median(om_ms), p = Median(read_ms);
    std::printf("OM file: %zu bytes (%zu MB of weights), median of %d runs, warm page cache\n",
                file_size, mb, repeats);
    std::printf("om::ReadFile (mmap + XXH3 of every segment, zero-copy weights): %.2f ms\n", o);
    std::printf("plain read() of the same bytes:                              %.2f ms\n", p);
    std::printf("ratio ReadFile / read(): %.2f\n", o / p);
    return 0;
  } catch (const Error &e) {
    std::fprintf(stderr, "%s\n", e.Format("om_load_bench").c_str());
    return 1;
  }
}
