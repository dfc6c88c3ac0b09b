// add_kernel: the Triton vector-add kernel of GE's triton_add_custom sample, written as host C++
// in Triton's style and built into its own kernel binary, add_kernel.npubin (the host stand-in
// for the .npubin Triton-Ascend produces), which AddCustom::Execute loads at run time.
//
// Triton model: one "program" per launch block; program_id(axis) is the block's coordinate in
// the (grid_x, grid_y, grid_z) grid; each program handles BLOCK_SIZE consecutive elements starting
// at program_id(0) * BLOCK_SIZE, masked by n_elements.
//
// Parameters follow the Triton-Ascend host-args layout: two runtime slots (sync_block_lock,
// workspace_addr), the kernel's own arguments (x_ptr, y_ptr, output_ptr, n_elements), then the
// grid. BLOCK_SIZE is a compile-time constant (tl.constexpr), as in the sample.
#include "openatc/host_kernel.h"

namespace {
constexpr int64_t kBlockSize = 1024;  // BLOCK_SIZE: elements per program

// tl.program_id(axis) for a block index in a row-major (x fastest) grid.
int64_t ProgramId(int axis, int32_t grid_x, int32_t grid_y) {
  const int64_t idx = GetBlockIdx();
  const int64_t gx = grid_x > 0 ? grid_x : 1, gy = grid_y > 0 ? grid_y : 1;
  if (axis == 0) return idx % gx;
  if (axis == 1) return (idx / gx) % gy;
  return idx / (gx * gy);
}
}  // namespace

OPENATC_HOST_KERNEL(add_kernel, void *sync_block_lock, void *workspace_addr, const float *x_ptr, const float *y_ptr,
                    float *output_ptr, int32_t n_elements, int32_t grid_x, int32_t grid_y, int32_t grid_z) {
  (void)sync_block_lock;
  (void)workspace_addr;
  (void)grid_z;
  const int64_t pid = ProgramId(0, grid_x, grid_y);
  const int64_t block_start = pid * kBlockSize;
  for (int64_t k = 0; k < kBlockSize; ++k) {
    const int64_t offset = block_start + k;
    if (offset >= n_elements) break;  // the mask: offsets < n_elements
    output_ptr[offset] = x_ptr[offset] + y_ptr[offset];
  }
}
