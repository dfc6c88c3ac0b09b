// The kernel the compiled_add test plugin declares: z = x + y over 1024 floats per block, on the
// host kernel ABI (include/openatc/host_kernel.h). The plugin passes this .so's bytes as
// AnnotatedKernelLaunchInfo.kernel_bin, as a Python compile would pass its compiled kernel.
#include "openatc/host_kernel.h"

OPENATC_HOST_KERNEL(add_custom, GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  const int64_t first = GetBlockIdx() * 1024;
  const float *a = reinterpret_cast<const float *>(x) + first;
  const float *b = reinterpret_cast<const float *>(y) + first;
  float *c = reinterpret_cast<float *>(z) + first;
  for (int i = 0; i < 1024; ++i) c[i] = a[i] + b[i];
}
