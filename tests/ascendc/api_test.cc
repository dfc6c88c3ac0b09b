// Semantics of single Ascend C calls on the host library (include/ascendc): reduction order,
// Cast rounding, Compare/Select bits, the repeat form's mask and strides, DataCopyPad bursts.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "kernel_operator.h"

namespace {

using AscendC::LocalTensor;

/** A UB tensor of `n` floats (or T) from a fresh TBuf of `pipe`. */
template <typename T>
LocalTensor<T> Scratch(AscendC::TPipe &pipe, AscendC::TBuf<> &buf, uint32_t n) {
  pipe.InitBuffer(buf, n * sizeof(T));
  return buf.Get<T>(n);
}

}  // namespace

TEST_CASE("ReduceSum adds pairwise inside a repeat, then repeats in order", "[ascendc]") {
  AscendC::TPipe pipe;
  AscendC::TBuf<> b1, b2, b3;
  LocalTensor<float> src = Scratch<float>(pipe, b1, 128), dst = Scratch<float>(pipe, b2, 8),
                     work = Scratch<float>(pipe, b3, 64);
  // Tree: (1e8 + 1) + (-1e8 + 1) = 1e8 - 1e8 = 0 in float; left to right would give 1.
  const float v[4] = {1e8f, 1.0f, -1e8f, 1.0f};
  for (int i = 0; i < 4; ++i) src.SetValue(i, v[i]);
  AscendC::ReduceSum(dst, src, work, 4);
  CHECK(dst.GetValue(0) == 0.0f);
  // Two repeats of 64: 1..64 sums to 2080, 65..100 to 2970.
  for (int i = 0; i < 100; ++i) src.SetValue(i, static_cast<float>(i + 1));
  AscendC::ReduceSum(dst, src, work, 100);
  CHECK(dst.GetValue(0) == 5050.0f);
  src.SetValue(70, 500.0f);
  src.SetValue(90, 500.0f);
  AscendC::ReduceMax(dst, src, work, 100, true);
  CHECK(dst.GetValue(0) == 500.0f);
  uint32_t index;
  memcpy(&index, dst.GetPhyAddr() + 1, 4);
  CHECK(index == 70);
  AscendC::ReduceMin(dst, src, work, 100);
  CHECK(dst.GetValue(0) == 1.0f);
}

#ifdef OPENATC_HOST_KERNEL_HAS_HALF
TEST_CASE("Cast float to half with every RoundMode", "[ascendc]") {
  using AscendC::RoundMode;
  AscendC::TPipe pipe;
  AscendC::TBuf<> b1, b2;
  LocalTensor<float> f = Scratch<float>(pipe, b1, 8);
  LocalTensor<half> h = Scratch<half>(pipe, b2, 16);
  // 1 + 2^-12 lies between the halves 1 and 1 + 2^-10 (nearer 1); 1 + 2^-11 is their midpoint.
  const float above = 1.0f + 1.0f / 4096, mid = 1.0f + 1.0f / 2048, up = 1.0f + 1.0f / 1024;
  struct Case {
    RoundMode mode;
    float in, out;
  } cases[] = {{RoundMode::CAST_NONE, above, 1.0f},   {RoundMode::CAST_RINT, mid, 1.0f},
               {RoundMode::CAST_FLOOR, above, 1.0f},  {RoundMode::CAST_CEIL, above, up},
               {RoundMode::CAST_ROUND, mid, up},      {RoundMode::CAST_ROUND, -mid, -up},
               {RoundMode::CAST_TRUNC, -above, -1.0f}, {RoundMode::CAST_ODD, above, up},
               {RoundMode::CAST_FLOOR, -above, -up},  {RoundMode::CAST_ODD, 1.0f, 1.0f}};
  for (const Case &c : cases) {
    f.SetValue(0, c.in);
    AscendC::Cast(h, f, c.mode, 1);
    CHECK(static_cast<float>(h.GetValue(0)) == c.out);
  }
}
#endif

TEST_CASE("Compare writes one bit per element and Select picks by it", "[ascendc]") {
  AscendC::TPipe pipe;
  AscendC::TBuf<> b1, b2, b3, b4;
  LocalTensor<float> a = Scratch<float>(pipe, b1, 64), b = Scratch<float>(pipe, b2, 64),
                     out = Scratch<float>(pipe, b4, 64);
  LocalTensor<uint8_t> bits = Scratch<uint8_t>(pipe, b3, 32);
  for (int i = 0; i < 64; ++i) {
    a.SetValue(i, static_cast<float>(i));
    b.SetValue(i, static_cast<float>(63 - i));
  }
  AscendC::Compare(bits, a, b, AscendC::CMPMODE::LT, 64);  // i < 63 - i for i <= 31
  for (int k = 0; k < 4; ++k) CHECK(bits.GetValue(k) == 0xff);
  for (int k = 4; k < 8; ++k) CHECK(bits.GetValue(k) == 0x00);
  AscendC::Select(out, bits, a, 100.0f, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);
  CHECK(out.GetValue(31) == 31.0f);
  CHECK(out.GetValue(32) == 100.0f);
  AscendC::Compares(bits, a, 5.0f, AscendC::CMPMODE::EQ, 64);
  CHECK(bits.GetValue(0) == 0x20);
  AscendC::TPipe other;
  AscendC::TBuf<> b5, b6;
  LocalTensor<float> c = Scratch<float>(other, b5, 16);
  LocalTensor<uint8_t> d = Scratch<uint8_t>(other, b6, 32);
  try {
    AscendC::Compare(d, c, c, AscendC::CMPMODE::EQ, 16);
    FAIL("Compare of 64 bytes was accepted");
  } catch (const openatc::ascendc::KernelError &e) {
    CHECK(std::string(e.what()) == "block 0: Compare: count 16 float elements = 64 bytes is not a multiple of 256 bytes");
  }
}

TEST_CASE("repeat form: leading-count and bitmap masks, strides, counter mode", "[ascendc]") {
  AscendC::TPipe pipe;
  AscendC::TBuf<> b1, b2;
  LocalTensor<float> x = Scratch<float>(pipe, b1, 256), z = Scratch<float>(pipe, b2, 256);
  for (int i = 0; i < 256; ++i) {
    x.SetValue(i, static_cast<float>(i));
    z.SetValue(i, -1.0f);
  }
  // 2 repeats, 3 leading elements each, dst repeat stride 2 blocks (16 floats), src 8 blocks.
  AscendC::Add(z, x, x, 3u, 2, AscendC::BinaryRepeatParams(1, 1, 1, 2, 8, 8));
  CHECK(z.GetValue(0) == 0.0f);
  CHECK(z.GetValue(2) == 4.0f);
  CHECK(z.GetValue(3) == -1.0f);
  CHECK(z.GetValue(16) == 128.0f);  // repeat 1 reads x[64]
  CHECK(z.GetValue(18) == 132.0f);
  const uint64_t bitmap[2] = {0x8000000000000001ull, 0};
  AscendC::Muls(z, x, 2.0f, 64u, 1, AscendC::UnaryRepeatParams());
  AscendC::Sub(z, x, x, bitmap, 1, AscendC::BinaryRepeatParams());
  CHECK(z.GetValue(0) == 0.0f);
  CHECK(z.GetValue(1) == 2.0f);
  CHECK(z.GetValue(63) == 0.0f);
  AscendC::SetMaskCount();
  AscendC::SetVectorMask<float, AscendC::MaskMode::COUNTER>(70);
  AscendC::Duplicate<float, false>(z, 7.0f, AscendC::MASK_PLACEHOLDER, 1, 1, 8);
  AscendC::SetMaskNorm();
  AscendC::ResetMask();
  CHECK(z.GetValue(69) == 7.0f);
  CHECK(z.GetValue(70) == -1.0f);
}

TEST_CASE("DataCopyPad moves byte-exact bursts and pads the UB side", "[ascendc]") {
  openatc_host_kernel_set_gm_checker(nullptr);
  std::vector<float> gm(20), back(20, -1.0f);
  for (int i = 0; i < 20; ++i) gm[i] = static_cast<float>(i + 1);
  AscendC::GlobalTensor<float> g, o;
  g.SetGlobalBuffer(gm.data(), 20);
  o.SetGlobalBuffer(back.data(), 20);
  AscendC::TPipe pipe;
  AscendC::TBuf<> b1;
  LocalTensor<float> t = Scratch<float>(pipe, b1, 32);
  // 2 bursts of 3 floats, 2 floats apart in GM; each lands in its own 8-float UB slot.
  AscendC::DataCopyPad(t, g, AscendC::DataCopyExtParams(2, 12, 8, 0, 0),
                       AscendC::DataCopyPadExtParams<float>(true, 1, 0, 9.0f));
  const float want[16] = {9, 1, 2, 3, 9, 9, 9, 9, 9, 6, 7, 8, 9, 9, 9, 9};
  for (int i = 0; i < 16; ++i) CHECK(t.GetValue(i) == want[i]);
  AscendC::DataCopyPad(o, t[8], AscendC::DataCopyExtParams(1, 20, 0, 0, 0));
  CHECK(back[0] == 9.0f);
  CHECK(back[3] == 8.0f);
  CHECK(back[4] == 9.0f);
  CHECK(back[5] == -1.0f);
  AscendC::DataCopy(t, g, AscendC::DataCopyParams(2, 1, 0, 1));  // 2 bursts of 8 floats, UB gap 1 block
  CHECK(t.GetValue(8) == 9.0f);
  CHECK(t.GetValue(16) == 9.0f);
  CHECK(t.GetValue(23) == 16.0f);
}

TEST_CASE("LocalMemAllocator, static-address tensors, GetTPipePtr, block_idx, SetPadValue", "[ascendc]") {
  openatc_host_kernel_set_gm_checker(nullptr);
  {
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    LocalTensor<float> a = ub.Alloc<float, 5>();  // 20 bytes, the next tensor 32 bytes on
    LocalTensor<half> b = ub.Alloc<AscendC::TPosition::VECIN, half>(16);
    CHECK(reinterpret_cast<uintptr_t>(b.GetPhyAddr()) - reinterpret_cast<uintptr_t>(a.GetPhyAddr()) == 32);
    CHECK(ub.GetCurAddr() == 64);
    LocalTensor<float> same(AscendC::TPosition::VECCALC, 0, 8);
    CHECK(same.GetPhyAddr() == a.GetPhyAddr());
    try {
      ub.Alloc<float>(49152);
      FAIL("an allocation past the UB was accepted");
    } catch (const openatc::ascendc::KernelError &e) {
      CHECK(std::string(e.what()) == "block 0: LocalMemAllocator::Alloc: 49152 float elements at UB offset 64 exceed "
                                     "the Unified Buffer of 196608 bytes");
    }
  }
  AscendC::TPipe pipe;
  CHECK(GetTPipePtr() == &pipe);
  openatc_host_kernel_set_block(5, 7);
  CHECK(block_idx * 2 == 10);
  CHECK(static_cast<int64_t>(block_num) == 7);
  openatc_host_kernel_set_block(0, 1);
  std::vector<int16_t> gm(6, 4);
  AscendC::GlobalTensor<int16_t> g;
  g.SetGlobalBuffer(gm.data(), 6);
  AscendC::TBuf<> buf;
  pipe.InitBuffer(buf, 64);
  LocalTensor<int16_t> t = buf.Get<int16_t>();
  AscendC::SetPadValue(static_cast<int16_t>(-3));
  AscendC::DataCopyPad(t, g, AscendC::DataCopyExtParams(1, 12, 0, 0, 0),
                       AscendC::DataCopyPadExtParams<int16_t>(false, 0, 10, 0));
  CHECK(t.GetValue(5) == 4);
  CHECK(t.GetValue(6) == -3);
  CHECK(t.GetValue(15) == -3);
}

TEST_CASE("Select with VSEL_CMPMASK_SPR reuses one repeat of mask bits; counter-mode Copy", "[ascendc]") {
  AscendC::TPipe pipe;
  AscendC::TBuf<> b1, b2, b3, b4;
  LocalTensor<float> a = Scratch<float>(pipe, b1, 128), b = Scratch<float>(pipe, b2, 128),
                     out = Scratch<float>(pipe, b4, 128);
  LocalTensor<uint8_t> bits = Scratch<uint8_t>(pipe, b3, 32);
  for (int i = 0; i < 128; ++i) {
    a.SetValue(i, 1.0f);
    b.SetValue(i, 2.0f);
  }
  for (int k = 0; k < 8; ++k) bits.SetValue(k, k == 0 ? 0x01 : 0x00);  // only element 0 of each repeat
  AscendC::Select(out, bits, a, b, AscendC::SELMODE::VSEL_CMPMASK_SPR, 128);
  CHECK(out.GetValue(0) == 1.0f);
  CHECK(out.GetValue(1) == 2.0f);
  CHECK(out.GetValue(64) == 1.0f);
  CHECK(out.GetValue(65) == 2.0f);
  // Counter mode: 16 elements as 2 DataBlocks, source blocks 4 apart (elements 0-7 and 32-39).
  for (int i = 0; i < 128; ++i) a.SetValue(i, static_cast<float>(i));
  AscendC::SetMaskCount();
  AscendC::SetVectorMask<float, AscendC::MaskMode::COUNTER>(16);
  AscendC::Copy<float, false>(out, a, AscendC::MASK_PLACEHOLDER, 1, AscendC::CopyRepeatParams(1, 4, 8, 8));
  AscendC::SetMaskNorm();
  CHECK(out.GetValue(7) == 7.0f);
  CHECK(out.GetValue(8) == 32.0f);
  CHECK(out.GetValue(15) == 39.0f);
}
