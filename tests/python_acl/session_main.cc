// The C++-only host of session_driver.cc's graph (tests/python_acl/test_session.py): no Python in
// the process until GEInitialize loads the plugin, so the bridge starts the interpreter. Prints
// "z = v0 v1 ..." for 2 runs of 8 floats (x = 0..7, y = 1); exit 0 on success.
#include <cstdint>
#include <cstdio>
#include <vector>

extern "C" int openatc_test_run_py_session(const float *x, const float *y, int64_t n, int rounds, float *z, char *err,
                                           size_t err_len);

int main() {
  constexpr int64_t kN = 8;
  std::vector<float> x(kN), y(kN, 1.0f), z(2 * kN, -1.0f);
  for (int64_t i = 0; i < kN; ++i) x[i] = static_cast<float>(i);
  char err[8192] = {0};
  if (openatc_test_run_py_session(x.data(), y.data(), kN, 2, z.data(), err, sizeof err) != 0) {
    std::fprintf(stderr, "session_main: %s\n", err);
    return 1;
  }
  std::printf("z =");
  for (float v : z) std::printf(" %g", v);
  std::printf("\n");
  return 0;
}
