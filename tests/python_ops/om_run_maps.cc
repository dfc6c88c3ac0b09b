// om_run_maps MODEL.om [--dlopen-python]: runs the OM (no inputs) through the loader, prints
// every float32 output value, then reports whether libpython is mapped into this process
// (/proc/self/maps). --dlopen-python maps libpython first, so the scan itself is tested.
#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "openatc/common/error.h"
#include "openatc/runtime/model.h"

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
  try {
    auto model = openatc::runtime::LoadModelFile(argv[1]);
    auto outputs = model->Run({});
    for (size_t i = 0; i < outputs.size(); ++i) {
      std::printf("output %zu:", i);
      if (outputs[i].dtype == ge::DT_FLOAT) {
        for (size_t k = 0; k + 4 <= outputs[i].data.size(); k += 4) {
          float v;
          std::memcpy(&v, outputs[i].data.data() + k, 4);
          std::printf(" %g", v);
        }
      }
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
