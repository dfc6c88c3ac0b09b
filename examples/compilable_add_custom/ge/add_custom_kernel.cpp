// Ascend C kernel of AddCustom (examples/compilable_add_custom): z = x + y over n float32
// elements. Each block takes kBlockLength elements; inside a block, tiles of kTileLength elements
// go GM -> UB -> GM through double-buffered queues (two buffers per queue, so the copy-in of one
// tile can overlap the compute of the previous one on the chip). The element count n is a kernel
// argument: the last block and its last tile stop at n, and every copy is byte-exact
// (DataCopyPad), so a [4,4] tensor (16 floats, 64 bytes) is read and written exactly, never past
// its end (README.md "Checked global memory").
#include "kernel_operator.h"

constexpr uint32_t kBlockLength = 1024;  // elements per block (Execute launches ceil(n / 1024) blocks)
constexpr uint32_t kTileLength = 256;    // elements per tile: 1 KiB of UB per buffer
constexpr int32_t kBufferNum = 2;        // buffers per queue: double buffering

class KernelAdd {
 public:
  __aicore__ inline KernelAdd() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n) {
    const uint32_t begin = kBlockLength * static_cast<uint32_t>(AscendC::GetBlockIdx());
    length_ = begin >= n ? 0 : (n - begin < kBlockLength ? n - begin : kBlockLength);
    xGm_.SetGlobalBuffer((__gm__ float *)x + begin, length_);
    yGm_.SetGlobalBuffer((__gm__ float *)y + begin, length_);
    zGm_.SetGlobalBuffer((__gm__ float *)z + begin, length_);
    pipe_.InitBuffer(inX_, kBufferNum, kTileLength * sizeof(float));
    pipe_.InitBuffer(inY_, kBufferNum, kTileLength * sizeof(float));
    pipe_.InitBuffer(outZ_, kBufferNum, kTileLength * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint32_t offset = 0; offset < length_; offset += kTileLength) {
      const uint32_t count = length_ - offset < kTileLength ? length_ - offset : kTileLength;
      CopyIn(offset, count);
      Compute(count);
      CopyOut(offset, count);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t offset, uint32_t count) {
    AscendC::LocalTensor<float> xLocal = inX_.AllocTensor<float>();
    AscendC::LocalTensor<float> yLocal = inY_.AllocTensor<float>();
    const AscendC::DataCopyExtParams params(1, count * sizeof(float), 0, 0);
    const AscendC::DataCopyPadExtParams<float> noPad(false, 0, 0, 0.0f);
    AscendC::DataCopyPad(xLocal, xGm_[offset], params, noPad);
    AscendC::DataCopyPad(yLocal, yGm_[offset], params, noPad);
    inX_.EnQue(xLocal);
    inY_.EnQue(yLocal);
  }
  __aicore__ inline void Compute(uint32_t count) {
    AscendC::LocalTensor<float> xLocal = inX_.DeQue<float>();
    AscendC::LocalTensor<float> yLocal = inY_.DeQue<float>();
    AscendC::LocalTensor<float> zLocal = outZ_.AllocTensor<float>();
    AscendC::Add(zLocal, xLocal, yLocal, count);
    outZ_.EnQue<float>(zLocal);
    inX_.FreeTensor(xLocal);
    inY_.FreeTensor(yLocal);
  }
  __aicore__ inline void CopyOut(uint32_t offset, uint32_t count) {
    AscendC::LocalTensor<float> zLocal = outZ_.DeQue<float>();
    AscendC::DataCopyPad(zGm_[offset], zLocal, AscendC::DataCopyExtParams(1, count * sizeof(float), 0, 0));
    outZ_.FreeTensor(zLocal);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, kBufferNum> inX_, inY_;
  AscendC::TQue<AscendC::TPosition::VECOUT, kBufferNum> outZ_;
  AscendC::GlobalTensor<float> xGm_, yGm_, zGm_;
  uint32_t length_ = 0;  // elements of this block
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  KernelAdd op;
  op.Init(x, y, z, n);
  op.Process();
}
