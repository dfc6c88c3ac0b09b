// Helpers of the AIPP tests: an Identity model with one image input, compiled by atc with an
// --insert_op_conf block and run by omrun on a raw image.
#ifndef OPENATC_TESTS_AIPP_AIPP_UTIL_H_
#define OPENATC_TESTS_AIPP_AIPP_UTIL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "e2e_util.h"

namespace aipp_test {

struct Model {
  std::vector<int64_t> dims;      ///< the model input's shape
  std::string dtype = "DT_FLOAT";
  std::string layout = "NCHW";
};

struct Run {
  int atc_exit = -1, omrun_exit = -1;
  std::string atc_err, omrun_err, omrun_out;
  std::vector<float> out;         ///< output 0 as floats (float32 or uint8 outputs)
  std::vector<int64_t> out_shape;
};

/// Compiles an Identity model of `m` with `config` as --insert_op_conf (`extra`: more atc
/// flags), then runs it on `image` (written as in0.bin) and reads output 0.
Run CompileAndRun(const Model &m, const std::string &config, const std::vector<uint8_t> &image,
                  const std::vector<std::string> &extra = {});

/// As CompileAndRun with several inputs (in0.bin, in1.bin, ... in model input order).
Run CompileAndRunInputs(const Model &m, const std::string &config, const std::vector<std::vector<uint8_t>> &inputs,
                        const std::vector<std::string> &extra = {});

/// floor(a / 256), the CSC's arithmetic shift, by plain division.
inline int64_t FloorDiv256(int64_t a) { return a >= 0 ? a / 256 : -((-a + 255) / 256); }
inline int64_t Clamp255(int64_t v) { return v < 0 ? 0 : (v > 255 ? 255 : v); }
/// The nearest fp16 value of `v` (min_chn and var_reci_chn are fp16 on the chip).
inline float Half(float v) { return static_cast<float>(static_cast<_Float16>(v)); }

}  // namespace aipp_test

#endif  // OPENATC_TESTS_AIPP_AIPP_UTIL_H_
