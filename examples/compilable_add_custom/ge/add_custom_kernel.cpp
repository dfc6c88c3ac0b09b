// Host kernel of AddCustom (the host port of the sample's Ascend C add_custom): z = x + y over
// TOTAL_LENGTH float32 elements, 1024 elements per block like the sample's BLOCK_LENGTH.
// TOTAL_LENGTH is passed in by Compile (-DTOTAL_LENGTH=<n>), because the host kernel must not
// read past the tensors (the sample's device kernel uses a fixed 8 x 1024).
#include "openatc/host_kernel.h"

#ifndef TOTAL_LENGTH
#error "Compile passes -DTOTAL_LENGTH=<element count>"
#endif

constexpr int64_t kBlockLength = 1024;

OPENATC_HOST_KERNEL(add_custom, GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  const float *a = reinterpret_cast<const float *>(x);
  const float *b = reinterpret_cast<const float *>(y);
  float *c = reinterpret_cast<float *>(z);
  const int64_t begin = GetBlockIdx() * kBlockLength;
  const int64_t end = begin + kBlockLength < TOTAL_LENGTH ? begin + kBlockLength : TOTAL_LENGTH;
  for (int64_t i = begin; i < end; ++i) c[i] = a[i] + b[i];
}
