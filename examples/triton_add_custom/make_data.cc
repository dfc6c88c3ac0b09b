// make_data: writes the inputs and the expected output of the triton_add_custom example as .npy
// files: x.npy, y.npy (float32 [8, 2048], deterministic values in [-2, 2], like the sample's
// uniform(-2, 2) inputs) and z_expected.npy = x + y computed in double and rounded once to float
// (independent of the kernel). Usage: make_data OUT_DIR
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {
constexpr int64_t kRows = 8, kCols = 2048;

bool WriteNpy(const std::string &path, const std::vector<float> &v) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(kRows) + ", " +
                       std::to_string(kCols) + "), }";
  const size_t unpadded = 10 + header.size() + 1;  // magic+version+length, dict, newline
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::FILE *f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return false;
  const unsigned char lead[8] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  const uint16_t len = static_cast<uint16_t>(header.size());
  const unsigned char len_le[2] = {static_cast<unsigned char>(len & 0xff), static_cast<unsigned char>(len >> 8)};
  bool ok = std::fwrite(lead, 1, 8, f) == 8 && std::fwrite(len_le, 1, 2, f) == 2 &&
            std::fwrite(header.data(), 1, header.size(), f) == header.size() &&
            std::fwrite(v.data(), sizeof(float), v.size(), f) == v.size();  // little-endian hosts only
  return std::fclose(f) == 0 && ok;
}
}  // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT_DIR\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  std::vector<float> x(kRows * kCols), y(x.size()), z(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<float>(static_cast<int64_t>((i * 37) % 401) - 200) / 100.0f;
    y[i] = static_cast<float>(static_cast<int64_t>((i * 91) % 321) - 160) / 80.0f;
    z[i] = static_cast<float>(static_cast<double>(x[i]) + static_cast<double>(y[i]));
  }
  if (!WriteNpy(dir + "/x.npy", x) || !WriteNpy(dir + "/y.npy", y) || !WriteNpy(dir + "/z_expected.npy", z)) {
    std::fprintf(stderr, "make_data: cannot write into '%s'\n", dir.c_str());
    return 1;
  }
  std::printf("wrote %s/x.npy, %s/y.npy, %s/z_expected.npy\n", dir.c_str(), dir.c_str(), dir.c_str());
  return 0;
}
