// make_data: writes the inputs and expected outputs of the ascendc_add_custom example as .npy
// (float16): x.npy and y.npy [8, 2048], y_row.npy [1, 2048], z_expected.npy = x + y and
// z_broadcast_expected.npy = x + y_row (row r of z = row r of x + y_row). Every value is a
// multiple of 0.25 below 20 in magnitude, so inputs and sums are exact in fp16 and the expected
// values are computed in float, independently of the kernel. Usage: make_data OUT_DIR
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {
constexpr int64_t kRows = 8, kCols = 2048;

bool WriteNpy(const std::string &path, int64_t rows, const std::vector<float> &v) {
  std::string header = "{'descr': '<f2', 'fortran_order': False, 'shape': (" + std::to_string(rows) + ", " +
                       std::to_string(kCols) + "), }";
  const size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::vector<_Float16> h(v.begin(), v.end());  // exact: every value is representable
  std::FILE *f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return false;
  const unsigned char lead[8] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  const uint16_t len = static_cast<uint16_t>(header.size());
  const unsigned char len_le[2] = {static_cast<unsigned char>(len & 0xff), static_cast<unsigned char>(len >> 8)};
  bool ok = std::fwrite(lead, 1, 8, f) == 8 && std::fwrite(len_le, 1, 2, f) == 2 &&
            std::fwrite(header.data(), 1, header.size(), f) == header.size() &&
            std::fwrite(h.data(), sizeof(_Float16), h.size(), f) == h.size();  // little-endian hosts only
  return std::fclose(f) == 0 && ok;
}
}  // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT_DIR\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  const size_t n = static_cast<size_t>(kRows * kCols);
  std::vector<float> x(n), y(n), y_row(kCols), z(n), zb(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 64) * 0.5f - 16.0f;
    y[i] = static_cast<float>((i * 7) % 32) * 0.25f - 4.0f;
    z[i] = x[i] + y[i];
  }
  for (size_t c = 0; c < static_cast<size_t>(kCols); ++c) y_row[c] = static_cast<float>((c * 5) % 24) * 0.25f - 3.0f;
  for (size_t i = 0; i < n; ++i) zb[i] = x[i] + y_row[i % kCols];
  if (!WriteNpy(dir + "/x.npy", kRows, x) || !WriteNpy(dir + "/y.npy", kRows, y) ||
      !WriteNpy(dir + "/y_row.npy", 1, y_row) || !WriteNpy(dir + "/z_expected.npy", kRows, z) ||
      !WriteNpy(dir + "/z_broadcast_expected.npy", kRows, zb)) {
    std::fprintf(stderr, "make_data: cannot write into '%s'\n", dir.c_str());
    return 1;
  }
  std::printf("wrote x.npy, y.npy, y_row.npy, z_expected.npy, z_broadcast_expected.npy in %s\n", dir.c_str());
  return 0;
}
