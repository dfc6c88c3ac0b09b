// add_custom: the Ascend C add kernel of GE's ascendc_add_custom sample (its add_custom.asc),
// written as host C++ and compiled into the same libcust_opapi.so as the op, with its launcher.
//
// Structure kept from Ascend C: the elements are split evenly over the blocks; each block walks
// its share in TILE_NUM * BUFFER_NUM tiles, and each tile is copied in to local buffers
// ("CopyIn"), added ("Compute") and copied out ("CopyOut"). The local arrays stand in for the
// unified buffer; double buffering (BUFFER_NUM = 2) only changes the tile size here.
#include "add_custom_kernel.h"

#include "openatc/host_kernel.h"

#if !defined(OPENATC_HOST_KERNEL_HAS_HALF)
#error "this kernel needs the compiler's _Float16 (half) type"
#endif

namespace {
constexpr uint32_t kTileNum = 8;    // tiles per buffer per block
constexpr uint32_t kBufferNum = 2;  // double buffering
constexpr uint32_t kMaxTileLength = 1024;  // elements held per local buffer
}  // namespace

OPENATC_HOST_KERNEL(add_custom, GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total_length, uint32_t x_length,
                    uint32_t y_length) {
  const half *x_gm = reinterpret_cast<const half *>(x);
  const half *y_gm = reinterpret_cast<const half *>(y);
  half *z_gm = reinterpret_cast<half *>(z);
  const uint64_t num = static_cast<uint64_t>(GetBlockNum());
  const uint64_t block_length = (total_length + num - 1) / num;
  const uint64_t start = static_cast<uint64_t>(GetBlockIdx()) * block_length;
  if (start >= total_length) return;  // a block past the data does nothing
  const uint64_t end = start + block_length < total_length ? start + block_length : total_length;
  uint64_t tile_length = (block_length + kTileNum * kBufferNum - 1) / (kTileNum * kBufferNum);
  if (tile_length == 0) tile_length = 1;
  if (tile_length > kMaxTileLength) tile_length = kMaxTileLength;
  half x_local[kMaxTileLength];
  half y_local[kMaxTileLength];
  half z_local[kMaxTileLength];
  for (uint64_t offset = start; offset < end; offset += tile_length) {
    const uint64_t len = end - offset < tile_length ? end - offset : tile_length;
    for (uint64_t k = 0; k < len; ++k) {  // CopyIn
      x_local[k] = x_gm[(offset + k) % x_length];
      y_local[k] = y_gm[(offset + k) % y_length];
    }
    for (uint64_t k = 0; k < len; ++k) z_local[k] = static_cast<half>(x_local[k] + y_local[k]);  // Compute
    for (uint64_t k = 0; k < len; ++k) z_gm[offset + k] = z_local[k];                            // CopyOut
  }
}

int launch_add_custom(uint8_t *x, uint8_t *y, uint8_t *z, uint32_t total_length, uint32_t num_block, void *stream,
                      uint32_t x_length, uint32_t y_length) {
  if (x_length == 0) x_length = total_length;
  if (y_length == 0) y_length = total_length;
  return OPENATC_LAUNCH(add_custom, num_block, stream)(x, y, z, total_length, x_length, y_length);
}
