// Misuse of the Ascend C host library (include/ascendc) is a KernelError naming block, call and
// numbers; the process keeps running.
#include <catch2/catch.hpp>

#include <vector>

#include "test_kernels.h"

namespace {

using AscendC::LocalTensor;
using AscendC::TPosition;

/** what() of the KernelError `f` throws ("" when it throws nothing). */
template <typename F>
std::string ErrorOf(F &&f) {
  try {
    f();
  } catch (const openatc::ascendc::KernelError &e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a DataCopy of 3 floats in block 2 is refused with the 32-byte rule", "[ascendc]") {
  openatc_host_kernel_set_gm_checker(nullptr);
  std::vector<float> x(8, 1.0f), z(8, 0.0f);
  openatc_host_kernel_set_block(2, 4);
  const std::string what = ErrorOf([&] { tk_copy(reinterpret_cast<GM_ADDR>(x.data()), reinterpret_cast<GM_ADDR>(z.data()), 3); });
  openatc_host_kernel_set_block(0, 1);
  CHECK(what ==
        "block 2: DataCopy: DataCopy of 3 float elements = 12 bytes is not a multiple of 32 bytes; copy a multiple "
        "of 8 float elements or use DataCopyPad");
  CHECK(z == std::vector<float>(8, 0.0f));
}

TEST_CASE("queue misuse: EnQue over depth, DeQue of an empty queue, Alloc past the buffers, double free",
          "[ascendc]") {
  AscendC::TPipe pipe;
  AscendC::TQue<TPosition::VECIN, 1> que;
  pipe.InitBuffer(que, 2, 64);
  CHECK(ErrorOf([&] { que.DeQue<float>(); }) ==
        "block 0: TQue::DeQue: the queue is empty; EnQue a tensor before DeQue");
  LocalTensor<float> a = que.AllocTensor<float>();
  LocalTensor<float> b = que.AllocTensor<float>();
  CHECK(a.GetSize() == 16);
  CHECK(ErrorOf([&] { que.AllocTensor<float>(); }) ==
        "block 0: TQue::AllocTensor: all 2 buffers of the queue are in use; FreeTensor one before allocating");
  que.EnQue(a);
  CHECK(ErrorOf([&] { que.EnQue(b); }) == "block 0: TQue::EnQue: the queue is full (depth 1); DeQue a tensor first");
  CHECK(ErrorOf([&] { que.FreeTensor(a); }) ==
        "block 0: TQue::FreeTensor: buffer 0 is still in the queue (DeQue it first)");
  LocalTensor<float> got = que.DeQue<float>();
  CHECK(got.GetPhyAddr() == a.GetPhyAddr());
  que.FreeTensor(got);
  CHECK(ErrorOf([&] { que.FreeTensor(got); }) ==
        "block 0: TQue::FreeTensor: buffer 0 is free (already freed or never allocated)");
}

TEST_CASE("InitBuffer beyond the 196608-byte UB and beyond 64 buffers is refused", "[ascendc]") {
  AscendC::TPipe pipe;
  AscendC::TQue<TPosition::VECIN, 2> q1, q2;
  pipe.InitBuffer(q1, 1, 100000);
  CHECK(ErrorOf([&] { pipe.InitBuffer(q2, 1, 100000); }) ==
        "block 0: TPipe::InitBuffer: 1 x 100000 bytes at UB offset 100000 exceed the Unified Buffer of 196608 bytes");
  pipe.Reset();
  pipe.InitBuffer(q2, 1, 100000);  // after Reset the UB is free again
  AscendC::TPipe other;
  AscendC::TBuf<> bufs[65];
  for (int i = 0; i < 64; ++i) other.InitBuffer(bufs[i], 32);
  CHECK(ErrorOf([&] { other.InitBuffer(bufs[64], 32); }) ==
        "block 0: TPipe::InitBuffer: 65 buffers exceed the chip's 64");
}

TEST_CASE("operands: too small, not 32-byte aligned, indices outside the tensor", "[ascendc]") {
  AscendC::TPipe pipe;
  AscendC::TBuf<> buf;
  pipe.InitBuffer(buf, 40);  // rounded up to 64 bytes
  LocalTensor<float> t = buf.Get<float>();
  CHECK(t.GetSize() == 16);
  CHECK(ErrorOf([&] { AscendC::Add(t, t, t, 17); }) == "block 0: Add: dst needs 17 float elements, the tensor has 16");
  CHECK(ErrorOf([&] { AscendC::Adds(t[3], t[3], 1.0f, 8); }) ==
        "block 0: Adds: dst starts at UB offset 12, not a multiple of 32 bytes");
  CHECK(ErrorOf([&] { t.GetValue(16); }) ==
        "block 0: LocalTensor::GetValue: offset 16 is outside the tensor's 16 float elements");
  CHECK(ErrorOf([&] { buf.Get<float>(17); }) ==
        "block 0: TBuf::Get: 17 float elements at byte 0 do not fit the buffer's 64 bytes");
  LocalTensor<float> none;
  CHECK(ErrorOf([&] { AscendC::Duplicate(none, 1.0f, 0); }).empty());  // count 0 is a no-op
  CHECK(ErrorOf([&] { AscendC::Exp(t, t, 1u, 1, AscendC::UnaryRepeatParams(1, 1, 8, 8)); }).empty());
  CHECK(ErrorOf([&] { AscendC::Exp(t, t, 1u, 2, AscendC::UnaryRepeatParams(1, 1, 8, 8)); }) ==
        "block 0: Exp: src element 64 is outside the tensor's 16 float elements");
}

TEST_CASE("WaitFlag needs a matching SetFlag of the same event and id", "[ascendc]") {
  AscendC::TPipe pipe;  // a block's start: no flags pending
  AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID1);
  AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID1);
  AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
  CHECK(ErrorOf([] { AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID1); }) ==
        "block 0: WaitFlag: event 4 id 1 was not set by SetFlag; on the device this wait never returns");
  CHECK(ErrorOf([] { AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(8); }) == "block 0: SetFlag: event id 8 is outside 0..7");
  const AscendC::TEventID id = pipe.AllocEventID<AscendC::HardEvent::V_MTE3>();
  CHECK(id == 0);
  CHECK(pipe.FetchEventID(AscendC::HardEvent::V_MTE3) == 1);
  pipe.ReleaseEventID<AscendC::HardEvent::V_MTE3>(id);
  CHECK(pipe.FetchEventID<AscendC::HardEvent::V_MTE3>() == 0);
}

TEST_CASE("ascendc_assert ends the block with the condition and the message", "[ascendc]") {
  const int tiles = 0;
  const std::string what = ErrorOf([&] { ascendc_assert(tiles != 0, "tiles is %d", tiles); });
  const std::string want_end = ": tiles is 0";
  CHECK(what.rfind("block 0: ascendc_assert: assertion 'tiles != 0, \"tiles is %d\", tiles' failed at ", 0) == 0);
  CHECK(what.compare(what.size() - want_end.size(), want_end.size(), want_end) == 0);
  CHECK(ErrorOf([&] { ascendc_assert(tiles == 0); }).empty());
}
