// om_run_maps MODEL.om [--dlopen-python | --fill]: runs the OM through the loader (no inputs, or
// with --fill every float32 input i filled with i+1), prints every float32 output value (with
// --fill: "<value> x<count>" per run of equal values), then reports whether libpython is mapped
// into this process (/proc/self/maps). --dlopen-python maps libpython first, so the scan itself
// is tested.
#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "openatc/common/error.h"
#include "openatc/runtime/model.h"

namespace {

std::vector<openatc::HostTensor> Filled(const std::vector<openatc::runtime::IoDesc> &descs) {
  std::vector<openatc::HostTensor> inputs;
  for (size_t i = 0; i < descs.size(); ++i) {
    openatc::HostTensor t;
    t.dtype = descs[i].dtype;
    t.shape = descs[i].shape;
    t.data.resize(descs[i].bytes);
    const float v = static_cast<float>(i + 1);
    for (size_t k = 0; k + 4 <= t.data.size(); k += 4) std::memcpy(t.data.data() + k, &v, 4);
    inputs.push_back(std::move(t));
  }
  return inputs;
}

void PrintFloats(const std::vector<uint8_t> &data, bool runs) {
  size_t count = 0;
  float last = 0;
  for (size_t k = 0; k + 4 <= data.size(); k += 4) {
    float v;
    std::memcpy(&v, data.data() + k, 4);
    if (!runs) {
      std::printf(" %g", v);
    } else if (count > 0 && v != last) {
      std::printf(" %g x%zu", last, count);
      count = 0;
    }
    last = v;
    ++count;
  }
  if (runs && count > 0) std::printf(" %g x%zu", last, count);
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: om_run_maps MODEL.om [--dlopen-python]\n");
    return 2;
  }
  if (argc > 2 && std::strcmp(argv[2], "--dlopen-python") == 0 &&
      dlopen("libpython3.11.so.1.0", RTLD_NOW | RTLD_GLOBAL) == nullptr) {
    std::fprintf(stderr, "cannot dlopen libpython: %s\n", dlerror());
    return 2;
  }
  const bool fill = argc > 2 && std::strcmp(argv[2], "--fill") == 0;
  try {
    auto model = openatc::runtime::LoadModelFile(argv[1]);
    std::vector<openatc::HostTensor> inputs;
    if (fill) inputs = Filled(model->inputs());
    auto outputs = model->Run(inputs);
    for (size_t i = 0; i < outputs.size(); ++i) {
      std::printf("output %zu:", i);
      if (outputs[i].dtype == ge::DT_FLOAT) PrintFloats(outputs[i].data, fill);
      std::printf("\n");
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "om_run_maps: %s\n", e.what());
    return 1;
  }
  std::ifstream maps("/proc/self/maps");
  std::string line;
  bool python = false;
  while (std::getline(maps, line))
    if (line.find("libpython") != std::string::npos || line.find("libopenatc_py_bridge") != std::string::npos)
      python = true;
  std::printf("libpython mapped: %s\n", python ? "yes" : "no");
  return 0;
}
