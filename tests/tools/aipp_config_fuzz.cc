// libFuzzer target of the --insert_op_conf parser (openatc/atc/aipp_config.h): any bytes either
// parse into blocks that keep the promised ranges, or throw an openatc::Error with E10001 or
// E10052 naming the file; never crash or throw anything else.
// Built only with clang and -DOPENATC_BUILD_FUZZERS=ON; seeds tests/tools/fuzz_seeds/aipp_config,
// dictionary tests/tools/aipp_config_fuzz.dict. Run: make fuzz-smoke FUZZERS=aipp_config_fuzz.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "openatc/atc/aipp_config.h"
#include "openatc/common/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string text(reinterpret_cast<const char *>(data), size);
  try {
    for (const openatc::atc::AippOp &op : openatc::atc::ParseAippConfig(text, "fuzz.cfg")) {
      if (op.aipp_mode != 1 && op.aipp_mode != 2) std::abort();
      if (op.aipp_mode == 1 && op.input_format == 0) std::abort();
      for (int c = 0; c < 4; ++c)
        if (op.mean_chn[c] < 0 || op.mean_chn[c] > 255) std::abort();
      if (op.crop && op.load_start_pos_w + op.crop_size_w > op.src_image_size_w) std::abort();
    }
  } catch (const openatc::Error &e) {
    if (std::string(e.code()) != "E10001" && std::string(e.code()) != "E10052") std::abort();
  }
  return 0;
}
