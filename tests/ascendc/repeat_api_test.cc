// The repeat form of Cast and the per-repeat reductions (ReduceRepeat / WholeReduce*) of the
// Ascend C host library (include/ascendc): masks, strides in each operand's DataBlocks, the
// tree order of sums, value-index pairs. Expected values are worked out by hand in the comments.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "kernel_operator.h"

namespace {

using AscendC::LocalTensor;
using AscendC::RoundMode;
using AscendC::UnaryRepeatParams;

template <typename T>
LocalTensor<T> Scratch(AscendC::TPipe &pipe, AscendC::TBuf<> &buf, uint32_t n, T fill) {
  pipe.InitBuffer(buf, n * sizeof(T));
  LocalTensor<T> t = buf.Get<T>(n);
  for (uint32_t i = 0; i < n; ++i) t.SetValue(i, fill);
  return t;
}

uint32_t IndexOf(const LocalTensor<float> &t, uint32_t at) {
  uint32_t bits;
  std::memcpy(&bits, t.GetPhyAddr() + at, 4);
  return bits;
}

}  // namespace

TEST_CASE("Cast repeat form: int16 -> float, 64 elements a repeat, strides in each operand's DataBlocks",
          "[ascendc]") {
  AscendC::TPipe pipe;
  AscendC::TBuf<> b1, b2;
  LocalTensor<int16_t> src = Scratch<int16_t>(pipe, b1, 256, 0);
  LocalTensor<float> dst = Scratch<float>(pipe, b2, 320, -7.0f);
  for (uint32_t j = 0; j < 256; ++j) src.SetValue(j, static_cast<int16_t>(static_cast<int>(j) - 100));
  // Contiguous: a repeat is 64 floats (8 blocks of 8) from 64 int16 (4 blocks of 16).
  AscendC::Cast(dst, src, RoundMode::CAST_NONE, 64, 2, UnaryRepeatParams(1, 1, 8, 4));
  CHECK(dst.GetValue(0) == -100.0f);
  CHECK(dst.GetValue(63) == -37.0f);
  CHECK(dst.GetValue(64) == -36.0f);
  CHECK(dst.GetValue(127) == 27.0f);
  CHECK(dst.GetValue(128) == -7.0f);  // two repeats only
  // 10 leading elements a repeat; dst repeats 16 blocks (128 floats) apart, src 4 blocks (64 int16).
  for (uint32_t j = 0; j < 320; ++j) dst.SetValue(j, -7.0f);
  AscendC::Cast(dst, src, RoundMode::CAST_NONE, 10, 2, UnaryRepeatParams(1, 1, 16, 4));
  CHECK(dst.GetValue(0) == -100.0f);
  CHECK(dst.GetValue(9) == -91.0f);
  CHECK(dst.GetValue(10) == -7.0f);
  CHECK(dst.GetValue(128) == -36.0f);  // src element 64
  CHECK(dst.GetValue(137) == -27.0f);
  CHECK(dst.GetValue(138) == -7.0f);
  // srcBlkStride 2: elements 16..31 of the repeat come from src blocks 2 and 3 skipping 1 -> src 32..47.
  for (uint32_t j = 0; j < 320; ++j) dst.SetValue(j, -7.0f);
  AscendC::Cast(dst, src, RoundMode::CAST_NONE, 32, 1, UnaryRepeatParams(1, 2, 8, 8));
  CHECK(dst.GetValue(15) == -85.0f);  // src 15
  CHECK(dst.GetValue(16) == -68.0f);  // src 32
  CHECK(dst.GetValue(31) == -53.0f);  // src 47
  CHECK(dst.GetValue(32) == -7.0f);
}

TEST_CASE("Cast repeat form: float -> int32 CAST_FLOOR under a bitmap mask", "[ascendc]") {
  AscendC::TPipe pipe;
  AscendC::TBuf<> b1, b2;
  LocalTensor<float> src = Scratch<float>(pipe, b1, 64, 0.0f);
  LocalTensor<int32_t> dst = Scratch<int32_t>(pipe, b2, 64, 99);
  const float v[4] = {0.5f, 1.5f, -2.5f, -3.5f};
  for (int i = 0; i < 4; ++i) src.SetValue(i, v[i]);
  const uint64_t mask[2] = {0b1010, 0};
  AscendC::Cast(dst, src, RoundMode::CAST_FLOOR, mask, 1, UnaryRepeatParams());
  CHECK(dst.GetValue(0) == 99);
  CHECK(dst.GetValue(1) == 1);
  CHECK(dst.GetValue(2) == 99);
  CHECK(dst.GetValue(3) == -4);
  CHECK(dst.GetValue(4) == 99);
}

TEST_CASE("WholeReduceSum / ReduceRepeat<SUM>: one sum a repeat, the pairwise tree, dst stride in results",
          "[ascendc]") {
  AscendC::TPipe pipe;
  AscendC::TBuf<> b1, b2;
  LocalTensor<float> src = Scratch<float>(pipe, b1, 128, 0.0f);
  LocalTensor<float> dst = Scratch<float>(pipe, b2, 8, -1.0f);
  for (uint32_t j = 0; j < 128; ++j) src.SetValue(j, static_cast<float>(j + 1));
  AscendC::WholeReduceSum(dst, src, 64, 2, 1, 1, 8);
  CHECK(dst.GetValue(0) == 2080.0f);  // 1 + ... + 64
  CHECK(dst.GetValue(1) == 6176.0f);  // 65 + ... + 128
  CHECK(dst.GetValue(2) == -1.0f);
  // 10 leading elements, results 2 apart: 1..10 = 55, 65..74 = 695.
  AscendC::ReduceRepeat<AscendC::ReduceType::SUM>(dst, src, 10, 2, 2, 1, 8);
  CHECK(dst.GetValue(0) == 55.0f);
  CHECK(dst.GetValue(1) == 6176.0f);  // untouched
  CHECK(dst.GetValue(2) == 695.0f);
  // Bitmap: elements 0 and 63 -> 1 + 64.
  const uint64_t mask[2] = {1ull | (1ull << 63), 0};
  AscendC::WholeReduceSum(dst, src, mask, 1, 1, 1, 8);
  CHECK(dst.GetValue(0) == 65.0f);
  // Tree order: (1e8 + 1) + (-1e8 + 1) rounds to 1e8 - 1e8 = 0; left to right would give 1.
  const float v[4] = {1e8f, 1.0f, -1e8f, 1.0f};
  for (int i = 0; i < 4; ++i) src.SetValue(i, v[i]);
  AscendC::WholeReduceSum(dst, src, 4, 1, 1, 1, 8);
  CHECK(dst.GetValue(0) == 0.0f);
  // A mask selecting nothing writes nothing.
  dst.SetValue(0, -1.0f);
  AscendC::WholeReduceSum(dst, src, 0, 1, 1, 1, 8);
  CHECK(dst.GetValue(0) == -1.0f);
}

TEST_CASE("WholeReduceMax / Min: value and position inside the repeat, in the ReduceOrder asked", "[ascendc]") {
  AscendC::TPipe pipe;
  AscendC::TBuf<> b1, b2;
  LocalTensor<float> src = Scratch<float>(pipe, b1, 128, 0.0f);
  LocalTensor<float> dst = Scratch<float>(pipe, b2, 8, -1.0f);
  for (uint32_t j = 0; j < 128; ++j) src.SetValue(j, static_cast<float>(j + 1));
  src.SetValue(5, 500.0f);
  src.SetValue(40, 500.0f);  // a tie: the first position wins
  AscendC::WholeReduceMax(dst, src, 64, 2, 1, 1, 8);
  CHECK(dst.GetValue(0) == 500.0f);
  CHECK(IndexOf(dst, 1) == 5u);
  CHECK(dst.GetValue(2) == 128.0f);  // repeat 1: 65..128, the last
  CHECK(IndexOf(dst, 3) == 63u);
  AscendC::WholeReduceMin(dst, src, 64, 2, 1, 1, 8, AscendC::ReduceOrder::ORDER_INDEX_VALUE);
  CHECK(IndexOf(dst, 0) == 0u);
  CHECK(dst.GetValue(1) == 1.0f);
  CHECK(IndexOf(dst, 2) == 0u);
  CHECK(dst.GetValue(3) == 65.0f);
  AscendC::ReduceRepeat<AscendC::ReduceType::MIN>(dst, src, 64, 2, 1, 1, 8, AscendC::ReduceOrder::ORDER_ONLY_VALUE);
  CHECK(dst.GetValue(0) == 1.0f);
  CHECK(dst.GetValue(1) == 65.0f);
  // srcBlkStride 2: elements 8..15 come from src 16..23; 999 at src 20 is element 12.
  src.SetValue(20, 999.0f);
  AscendC::WholeReduceMax(dst, src, 16, 1, 1, 2, 8, AscendC::ReduceOrder::ORDER_ONLY_INDEX);
  CHECK(IndexOf(dst, 0) == 12u);
}

TEST_CASE("per-repeat reductions refuse the counter mask mode and a dst too small", "[ascendc]") {
  AscendC::TPipe pipe;
  AscendC::TBuf<> b1, b2;
  LocalTensor<float> src = Scratch<float>(pipe, b1, 128, 1.0f);
  LocalTensor<float> dst = Scratch<float>(pipe, b2, 8, -1.0f);
  std::string what;
  AscendC::SetMaskCount();
  AscendC::SetVectorMask<float, AscendC::MaskMode::COUNTER>(100);
  try {
    AscendC::WholeReduceSum<float, false>(dst, src, AscendC::MASK_PLACEHOLDER, 1, 1, 1, 8);
  } catch (const openatc::ascendc::KernelError &e) {
    what = e.what();
  }
  AscendC::SetMaskNorm();
  AscendC::ResetMask();
  CHECK(what ==
        "block 0: ReduceRepeat: the counter mask mode (SetMaskCount) is not supported here on the host; use "
        "SetMaskNorm");
  what.clear();
  try {
    AscendC::WholeReduceSum(dst, src, 64, 2, 8, 1, 8);  // result 1 at dst[8]: past the 8 elements
  } catch (const openatc::ascendc::KernelError &e) {
    what = e.what();
  }
  CHECK(what == "block 0: ReduceRepeat: dst element 8 is outside the tensor's 8 float elements");
  CHECK(dst.GetValue(0) == 64.0f);  // repeat 0 was written before
}

TEST_CASE("ReduceSum repeat form: tree inside each repeat, then a tree over the repeats", "[ascendc]") {
  AscendC::TPipe pipe;
  AscendC::TBuf<> b1, b2, b3;
  LocalTensor<float> src = Scratch<float>(pipe, b1, 512, 0.0f);
  LocalTensor<float> dst = Scratch<float>(pipe, b2, 8, -1.0f);
  LocalTensor<float> work = Scratch<float>(pipe, b3, 64, 0.0f);
  for (uint32_t j = 0; j < 512; ++j) src.SetValue(j, static_cast<float>(j + 1));
  AscendC::ReduceSum(dst, src, work, 64, 3, 8);
  CHECK(dst.GetValue(0) == 18528.0f);  // 1 + ... + 192
  // 8 leading elements a repeat, repeats 16 blocks (128 floats) apart: 1..8, 129..136, 257..264.
  AscendC::ReduceSum(dst, src, work, 8, 3, 16);
  CHECK(dst.GetValue(0) == 36.0f + 1060.0f + 2084.0f);
  const uint64_t mask[2] = {(1ull << 1) | (1ull << 62), 0};  // elements 1 and 62: 2 + 63, 66 + 127
  AscendC::ReduceSum(dst, src, work, mask, 2, 8);
  CHECK(dst.GetValue(0) == 258.0f);
  // Repeat sums 1e8, 1, -1e8, 1 (one element each): the tree gives (1e8 + 1) + (-1e8 + 1) = 0 in
  // float; the count form adds repeats in order and gives 1.
  const float v[4] = {1e8f, 1.0f, -1e8f, 1.0f};
  for (int r = 0; r < 4; ++r) src.SetValue(static_cast<uint32_t>(r) * 64, v[r]);
  AscendC::ReduceSum(dst, src, work, 1, 4, 8);
  CHECK(dst.GetValue(0) == 0.0f);
  for (uint32_t j = 0; j < 256; ++j) {
    if (j % 64 != 0) src.SetValue(j, 0.0f);
  }
  AscendC::ReduceSum(dst, src, work, 256);
  CHECK(dst.GetValue(0) == 1.0f);
}
