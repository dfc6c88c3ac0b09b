// Our own Ascend C kernels exercised by the ascendc tests (declared in test_kernels.h).
#include "test_kernels.h"

namespace {

constexpr uint32_t kTile = 256;  // floats per tile of tk_add_double_buffer
constexpr int32_t kDepth = 2;    // double buffering

class AddDoubleBuffer {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total) {
    const uint32_t per_block = total / AscendC::GetBlockNum();
    tiles_ = per_block / kTile;
    const uint64_t start = per_block * AscendC::GetBlockIdx();
    x_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + start, per_block);
    y_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y) + start, per_block);
    z_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z) + start, per_block);
    pipe_.InitBuffer(in_x_, kDepth, kTile * sizeof(float));
    pipe_.InitBuffer(in_y_, kDepth, kTile * sizeof(float));
    pipe_.InitBuffer(out_z_, kDepth, kTile * sizeof(float));
  }
  __aicore__ inline void Process() {
    // Two tiles in flight: load tile t+1 before computing tile t.
    if (tiles_ > 0) CopyIn(0);
    for (uint32_t t = 0; t < tiles_; ++t) {
      if (t + 1 < tiles_) CopyIn(t + 1);
      Compute();
      CopyOut(t);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t t) {
    AscendC::LocalTensor<float> xl = in_x_.AllocTensor<float>();
    AscendC::LocalTensor<float> yl = in_y_.AllocTensor<float>();
    AscendC::DataCopy(xl, x_[t * kTile], kTile);
    AscendC::DataCopy(yl, y_[t * kTile], kTile);
    in_x_.EnQue(xl);
    in_y_.EnQue(yl);
  }
  __aicore__ inline void Compute() {
    AscendC::LocalTensor<float> xl = in_x_.DeQue<float>();
    AscendC::LocalTensor<float> yl = in_y_.DeQue<float>();
    AscendC::LocalTensor<float> zl = out_z_.AllocTensor<float>();
    AscendC::Add(zl, xl, yl, kTile);
    out_z_.EnQue<float>(zl);
    in_x_.FreeTensor(xl);
    in_y_.FreeTensor(yl);
  }
  __aicore__ inline void CopyOut(uint32_t t) {
    AscendC::LocalTensor<float> zl = out_z_.DeQue<float>();
    AscendC::DataCopy(z_[t * kTile], zl, kTile);
    out_z_.FreeTensor(zl);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, kDepth> in_x_, in_y_;
  AscendC::TQue<AscendC::TPosition::VECOUT, kDepth> out_z_;
  AscendC::GlobalTensor<float> x_, y_, z_;
  uint32_t tiles_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void tk_add_double_buffer(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  AddDoubleBuffer op;
  op.Init(x, y, z, total);
  op.Process();
}

extern "C" __global__ __aicore__ void tk_row_sum(GM_ADDR x, GM_ADDR out, uint32_t cols) {
  constexpr uint32_t kRowTile = 200;
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> tile_buf, work_buf, part_buf;
  pipe.InitBuffer(tile_buf, kRowTile * sizeof(float));
  pipe.InitBuffer(work_buf, kRowTile * sizeof(float));
  pipe.InitBuffer(part_buf, 8 * sizeof(float));
  AscendC::GlobalTensor<float> row, dst;
  row.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + cols * AscendC::GetBlockIdx(), cols);
  dst.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(out) + 8 * AscendC::GetBlockIdx(), 8);
  AscendC::LocalTensor<float> tile = tile_buf.Get<float>();
  AscendC::LocalTensor<float> work = work_buf.Get<float>();
  AscendC::LocalTensor<float> part = part_buf.Get<float>();
  float sum = 0.0f;
  for (uint32_t at = 0; at < cols; at += kRowTile) {
    AscendC::DataCopy(tile, row[at], kRowTile);
    AscendC::ReduceSum(part, tile, work, kRowTile);
    sum += part.GetValue(0);
  }
  AscendC::Duplicate(part, sum, 8);
  AscendC::DataCopy(dst, part, 8);
}

extern "C" __global__ __aicore__ void tk_cast_muls(GM_ADDR x, GM_ADDR out_round, GM_ADDR out_rint,
                                                   GM_ADDR out_floor) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> fbuf, ibuf;
  pipe.InitBuffer(fbuf, 8 * sizeof(float));
  pipe.InitBuffer(ibuf, 8 * sizeof(int32_t));
  AscendC::GlobalTensor<float> xg;
  AscendC::GlobalTensor<int32_t> outs[3];
  const uint64_t start = 8 * AscendC::GetBlockIdx();
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + start, 8);
  outs[0].SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(out_round) + start, 8);
  outs[1].SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(out_rint) + start, 8);
  outs[2].SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(out_floor) + start, 8);
  AscendC::LocalTensor<float> f = fbuf.Get<float>();
  AscendC::LocalTensor<int32_t> n = ibuf.Get<int32_t>();
  AscendC::DataCopy(f, xg, 8);
  AscendC::Muls(f, f, 0.5f, 8);
  const AscendC::RoundMode modes[3] = {AscendC::RoundMode::CAST_ROUND, AscendC::RoundMode::CAST_RINT,
                                       AscendC::RoundMode::CAST_FLOOR};
  for (int k = 0; k < 3; ++k) {
    AscendC::Cast(n, f, modes[k], 8);
    AscendC::DataCopy(outs[k], n, 8);
  }
}

extern "C" __global__ __aicore__ void tk_copy(GM_ADDR x, GM_ADDR z, uint32_t count) {
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> que;
  pipe.InitBuffer(que, 1, count * sizeof(float));
  AscendC::GlobalTensor<float> xg, zg;
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), count);
  zg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), count);
  AscendC::LocalTensor<float> t = que.AllocTensor<float>();
  AscendC::DataCopy(t, xg, count);
  que.EnQue(t);
  t = que.DeQue<float>();
  AscendC::DataCopy(zg, t, count);
  que.FreeTensor(t);
}

extern "C" __global__ __aicore__ void tk_atomic_add(GM_ADDR acc, uint32_t repeats) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECOUT> buf;
  pipe.InitBuffer(buf, 8 * sizeof(float));
  AscendC::LocalTensor<float> t = buf.Get<float>();
  AscendC::Duplicate(t, static_cast<float>(AscendC::GetBlockIdx() + 1), 8);
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(acc), 8);
  AscendC::SetAtomicAdd<float>();
  for (uint32_t r = 0; r < repeats; ++r) AscendC::DataCopy(g, t, 8);
  AscendC::DisableDmaAtomic();
}
