// Our own Ascend C kernels that synchronise with SyncAll, shared by the RTC test (as source text)
// and the in-process `<<<>>>` test (compiled into the test). OPENATC_SYNCALL_KERNELS expands to
// the kernel definitions; syncall_inprocess.cc pastes them, syncall_test.cc stringifies them.
#ifndef OPENATC_TESTS_RT_SYNCALL_KERNELS_H_
#define OPENATC_TESTS_RT_SYNCALL_KERNELS_H_

// exchange: block b writes 8 ints b*1000+i, waits for every block, then reads block (b+1)%N's part;
// out[2b] = that part's sum, out[2b+1] = GetBlockIdx() after the barrier.
// exchange_ub: the same, keeping a value and a TPipe in UB across two barriers; out[b] = UB value
// + the sum of block (b+2)%N's second-phase value.
// skip_one: block `skipper` returns before SyncAll. fail_one: block `failer` fails (WaitFlag with
// no SetFlag) before SyncAll.
#define OPENATC_SYNCALL_KERNELS                                                                      \
  extern "C" __global__ __aicore__ void exchange(GM_ADDR buf, GM_ADDR out) {                        \
    const int64_t b = AscendC::GetBlockIdx(), n = AscendC::GetBlockNum();                           \
    AscendC::GlobalTensor<int32_t> g, o;                                                            \
    g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(buf), n * 8);                              \
    o.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(out), n * 2);                              \
    for (int32_t i = 0; i < 8; ++i) g.SetValue(b * 8 + i, static_cast<int32_t>(b * 1000 + i));      \
    AscendC::SyncAll();                                                                             \
    const int64_t src = (b + 1) % n;                                                                \
    int32_t sum = 0;                                                                                \
    for (int32_t i = 0; i < 8; ++i) sum += g.GetValue(src * 8 + i);                                 \
    o.SetValue(b * 2, sum);                                                                         \
    o.SetValue(b * 2 + 1, static_cast<int32_t>(AscendC::GetBlockIdx()));                           \
  }                                                                                                 \
  extern "C" __global__ __aicore__ void exchange_ub(GM_ADDR buf, GM_ADDR out) {                     \
    const int64_t b = AscendC::GetBlockIdx(), n = AscendC::GetBlockNum();                           \
    AscendC::TPipe pipe;                                                                            \
    AscendC::TBuf<AscendC::TPosition::VECCALC> keep;                                                \
    pipe.InitBuffer(keep, 32);                                                                      \
    AscendC::LocalTensor<int32_t> t = keep.Get<int32_t>();                                          \
    t.SetValue(0, static_cast<int32_t>(b * 7 + 1));                                                 \
    AscendC::GlobalTensor<int32_t> g, o;                                                            \
    g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(buf), n);                                  \
    o.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(out), n);                                  \
    AscendC::SyncAll();                                                                             \
    g.SetValue(b, static_cast<int32_t>(b * b));                                                     \
    AscendC::SyncAll<false>();                                                                      \
    o.SetValue(b, t.GetValue(0) * 100000 + g.GetValue((b + 2) % n));                                \
  }                                                                                                 \
  extern "C" __global__ __aicore__ void skip_one(GM_ADDR out, uint32_t skipper) {                   \
    if (AscendC::GetBlockIdx() == skipper) return;                                                  \
    AscendC::SyncAll();                                                                             \
    reinterpret_cast<__gm__ int32_t *>(out)[AscendC::GetBlockIdx()] = 1;                            \
  }                                                                                                 \
  extern "C" __global__ __aicore__ void fail_one(GM_ADDR out, uint32_t failer) {                    \
    if (AscendC::GetBlockIdx() == failer) AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID2);    \
    AscendC::SyncAll();                                                                             \
    reinterpret_cast<__gm__ int32_t *>(out)[AscendC::GetBlockIdx()] = 1;                            \
  }

#endif  // OPENATC_TESTS_RT_SYNCALL_KERNELS_H_
