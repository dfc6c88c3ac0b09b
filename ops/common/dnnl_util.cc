// oneDNN engine singleton, per-thread streams, thread count, descriptors, float conversion and
// the primitive cache key for the heavy built-in ops (see dnnl_util.h).
#include "common/dnnl_util.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>

#include "acl/acl_rt.h"
#include "common/omp_team.h"
#include "oneapi/dnnl/dnnl_debug.h"

// The OpenMP entry points this library defines for itself and oneDNN (common/omp_team.h), declared
// here rather than via <omp.h>, which clang ships only with libomp-dev.
extern "C" {
int omp_get_max_threads(void);
void omp_set_num_threads(int num_threads);
// The entry behind `#pragma omp parallel num_threads(n)` (libgomp's ABI since GCC 4.9): runs
// fn(data) on a team of n threads, the caller included, and joins them.
void GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags);
}

namespace openatc_ops::dnnl_util {
namespace {
// The calling thread's stream. A plain (trivially destructible) thread_local pointer is set by
// the holder and cleared by its destructor at thread exit; an op that runs later on that thread
// (from another object's destructor) gets a stream for that one call instead.
thread_local dnnl::stream *t_stream = nullptr;
thread_local bool t_stream_gone = false;

struct StreamHolder {
  dnnl::stream stream{Engine()};
  StreamHolder() { t_stream = &stream; }
  ~StreamHolder() {
    t_stream = nullptr;
    t_stream_gone = true;
  }
};

dnnl::stream *ThreadStream() {
  if (t_stream == nullptr && !t_stream_gone) {
    thread_local StreamHolder holder;
  }
  return t_stream;
}

// The kernel trace (TakeKernelTrace): off until the first call, so that runs not profiled pay one
// relaxed load per primitive. Plain (trivially destructible) thread_local buffers, as t_stream:
// an op may run on a thread after its thread_local objects are gone.
std::atomic<bool> g_trace_on{false};
constexpr size_t kTraceBytes = 512;
thread_local char t_trace[kTraceBytes];
thread_local char t_taken[kTraceBytes];

// `how`: the threads it ran on ("1 thread", "2 threads", "slices on 2 threads").
void NoteKernel(const dnnl::primitive &p, const char *how) {
  const_dnnl_primitive_desc_t pd = p.get_primitive_desc();
  const char *impl = nullptr;
  dnnl_primitive_kind_t kind = dnnl_undefined_primitive;
  if (dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl) != dnnl_success || impl == nullptr) return;
  if (dnnl_primitive_desc_query(pd, dnnl_query_primitive_kind, 0, &kind) != dnnl_success) return;
  char entry[160];
  std::snprintf(entry, sizeof entry, "%s %s (%s)", dnnl_prim_kind2str(kind), impl, how);
  // Distinct entries only (a node may run one primitive per batch item or chain part).
  const size_t n = std::strlen(entry), used = std::strlen(t_trace);
  for (const char *at = t_trace; (at = std::strstr(at, entry)) != nullptr; at += n)
    if ((at == t_trace || at[-1] == ' ') && (at[n] == '\0' || at[n] == ',')) return;
  std::snprintf(t_trace + used, kTraceBytes - used, "%s%s", used == 0 ? "" : ", ", entry);
}

// The calling thread's scratchpad for primitives made with UserScratchpad, as t_stream: a plain
// pointer and size set by the holder, which frees the buffer at thread exit.
thread_local void *t_scratchpad = nullptr;
thread_local size_t t_scratchpad_bytes = 0;
thread_local bool t_scratchpad_gone = false;

// The memory objects that hand the thread's scratchpad to primitives, one per distinct scratchpad
// descriptor (oneDNN describes a scratchpad by its size alone), made once and pointed at the
// buffer on each call: creating one per execution cost a memory object and an allocation a run.
struct ScratchpadMemory {
  dnnl_memory_desc_t md;
  dnnl_memory_t mem;
};
constexpr size_t kScratchpadMemories = 8;
thread_local ScratchpadMemory t_scratchpad_memories[kScratchpadMemories];
thread_local size_t t_scratchpad_memory_count = 0;

struct ScratchpadHolder {
  ~ScratchpadHolder() {
    for (size_t i = 0; i < t_scratchpad_memory_count; ++i) dnnl_memory_destroy(t_scratchpad_memories[i].mem);
    t_scratchpad_memory_count = 0;
    std::free(t_scratchpad);
    t_scratchpad = nullptr;
    t_scratchpad_bytes = 0;
    t_scratchpad_gone = true;
  }
};

// Page-aligned storage for `bytes`: the calling thread's buffer (grown when smaller), or, on a
// thread whose holder is gone, a buffer in `*late` for this call alone. nullptr when out of memory.
void *ThreadScratchpad(size_t bytes, std::unique_ptr<void, void (*)(void *)> *late) {
  constexpr size_t kAlign = 4096;
  const size_t rounded = (bytes + kAlign - 1) / kAlign * kAlign;
  if (t_scratchpad_gone) {
    late->reset(std::aligned_alloc(kAlign, rounded));
    return late->get();
  }
  thread_local ScratchpadHolder holder;
  if (t_scratchpad_bytes < rounded) {
    std::free(t_scratchpad);
    t_scratchpad = std::aligned_alloc(kAlign, rounded);
    t_scratchpad_bytes = t_scratchpad ? rounded : 0;
  }
  return t_scratchpad;
}

// The memory object for a scratchpad described by `md` at `buffer` (the thread's buffer, or a
// late one): one of the thread's kept objects, pointed at `buffer`, or `*late` made for this call
// (on a thread whose holder is gone, or when the thread keeps kScratchpadMemories already).
dnnl_memory_t ScratchpadMemoryFor(const dnnl_memory_desc_t &md, void *buffer, dnnl::memory *late) {
  if (!t_scratchpad_gone) {
    for (size_t i = 0; i < t_scratchpad_memory_count; ++i) {
      ScratchpadMemory &m = t_scratchpad_memories[i];
      if (dnnl_memory_desc_equal(&m.md, &md) == 0) continue;
      dnnl::error::wrap_c_api(dnnl_memory_set_data_handle(m.mem, buffer), "could not set a scratchpad's handle");
      return m.mem;
    }
    if (t_scratchpad_memory_count < kScratchpadMemories) {
      dnnl_memory_t mem = nullptr;
      dnnl::error::wrap_c_api(dnnl_memory_create(&mem, &md, Engine().get(), buffer), "could not make a scratchpad");
      t_scratchpad_memories[t_scratchpad_memory_count++] = {md, mem};
      return mem;
    }
  }
  *late = dnnl::memory(dnnl::memory::desc(md), Engine(), buffer);
  return late->get();
}

// Executes `p` on the calling thread's stream (one made for this call when the thread's is gone),
// with the thread's scratchpad when `p` needs one; `note`: into the calling thread's kernel record.
void Execute(const dnnl::primitive &p, const std::unordered_map<int, dnnl::memory> &args, bool note = true) {
  dnnl::stream *s = ThreadStream();
  dnnl::stream late = s ? dnnl::stream() : dnnl::stream(Engine());
  dnnl::stream &use = s ? *s : late;
  const dnnl_memory_desc_t *smd = dnnl_primitive_desc_query_md(p.get_primitive_desc(), dnnl_query_scratchpad_md, 0);
  const size_t sbytes = smd ? dnnl_memory_desc_get_size(smd) : 0;
  if (sbytes == 0) {
    p.execute(use, args);
  } else {
    std::unique_ptr<void, void (*)(void *)> late_buffer(nullptr, std::free);
    void *buffer = ThreadScratchpad(sbytes, &late_buffer);
    if (buffer == nullptr) throw dnnl::error(dnnl_out_of_memory, "no memory for a primitive's scratchpad");
    dnnl::memory late_memory;
    const dnnl_memory_t scratchpad = ScratchpadMemoryFor(*smd, buffer, &late_memory);
    // What primitive::execute does with a map, plus the scratchpad (no copy of the map); on the
    // stack for the few arguments a primitive takes.
    constexpr size_t kOnStack = 16;
    dnnl_exec_arg_t on_stack[kOnStack];
    std::vector<dnnl_exec_arg_t> on_heap;
    dnnl_exec_arg_t *c_args = on_stack;
    if (args.size() + 1 > kOnStack) {
      on_heap.resize(args.size() + 1);
      c_args = on_heap.data();
    }
    size_t n = 0;
    for (const auto &a : args) c_args[n++] = {a.first, a.second.get(true)};
    c_args[n++] = {DNNL_ARG_SCRATCHPAD, scratchpad};
    dnnl::error::wrap_c_api(dnnl_primitive_execute(p.get(), use.get(), static_cast<int>(n), c_args),
                            "could not execute a primitive");
  }
  use.wait();
  if (note && g_trace_on.load(std::memory_order_relaxed)) {
    char how[32];
    const int threads = omp_get_max_threads();
    std::snprintf(how, sizeof how, "%d thread%s", threads, threads == 1 ? "" : "s");
    NoteKernel(p, how);
  }
}
}  // namespace

dnnl::engine &Engine() {
  // Never destroyed: ops may run from static destructors of other libraries' objects.
  static dnnl::engine *e = new dnnl::engine(dnnl::engine::kind::cpu, 0);
  return *e;
}

dnnl::primitive_attr UserScratchpad() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

const char *TakeKernelTrace() {
  g_trace_on.store(true, std::memory_order_relaxed);
  std::memcpy(t_taken, t_trace, kTraceBytes);
  t_trace[0] = '\0';
  return t_taken;
}

int ApplyThreadCount() {
  int64_t n = 0;
  // The AI CPU count is the host's thread count also under emulation (acl_rt's aclrtGetDeviceInfo).
  if (aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICPU_CORE_NUM, &n) != ACL_SUCCESS || n < 1) n = 1;
  if (n > 4096) n = 4096;
  const int threads = static_cast<int>(n);
  if (omp_get_max_threads() != threads) omp_set_num_threads(threads);
  return threads;
}

void Run(const dnnl::primitive &p, const std::unordered_map<int, dnnl::memory> &args) {
  ApplyThreadCount();
  Execute(p, args);
}

bool SerialMemoryBound(size_t bytes) {
  const int threads = ApplyThreadCount();
  return threads > 1 && bytes <= kSerialMemoryBoundBytes && (bytes < kAwakeTeamMinBytes || !omp_team::TeamAwake(threads));
}

int ThreadsFor(bool serial) { return serial ? 1 : ApplyThreadCount(); }

SerialScope::SerialScope(bool active) : threads_(active ? ApplyThreadCount() : 0) {
  if (threads_ > 1) omp_set_num_threads(1);
}

SerialScope::~SerialScope() {
  if (threads_ > 1) omp_set_num_threads(threads_);
}

void RunSerial(const dnnl::primitive &p, const std::unordered_map<int, dnnl::memory> &args) {
  SerialScope serial;
  Execute(p, args);
}

namespace {
struct PartsJob {
  const std::function<void(size_t)> *part;
  size_t parts;
  std::atomic<size_t> next{0};
  std::mutex mu;
  std::exception_ptr error;
};

// One team thread's loop: runs parts not yet started until none is left (inside the team,
// oneDNN runs a primitive on this thread alone).
void PartsBody(void *data) {
  auto *job = static_cast<PartsJob *>(data);
  for (size_t k; (k = job->next.fetch_add(1, std::memory_order_relaxed)) < job->parts;) {
    try {
      (*job->part)(k);
    } catch (...) {
      std::lock_guard<std::mutex> lock(job->mu);
      if (!job->error) job->error = std::current_exception();
    }
  }
}

// The team RunParts spreads `parts` over: min(parts, thread count).
size_t PartsThreads(size_t parts) { return std::min(parts, static_cast<size_t>(std::max(ApplyThreadCount(), 1))); }
}  // namespace

void RunParts(size_t parts, const std::function<void(size_t)> &part) {
  PartsJob job;
  job.part = &part;
  job.parts = parts;
  const size_t threads = PartsThreads(parts);
  if (threads > 1)
    GOMP_parallel(PartsBody, &job, static_cast<unsigned>(threads), 0);
  else
    PartsBody(&job);
  if (job.error) std::rethrow_exception(job.error);
}

void RunEach(const std::vector<const dnnl::primitive *> &prims,
             const std::vector<std::unordered_map<int, dnnl::memory>> &args) {
  RunParts(args.size(), [&](size_t k) { Execute(*prims[k], args[k], /*note=*/false); });  // noted below
  // The node's record is the calling thread's, whichever thread ran a slice.
  if (g_trace_on.load(std::memory_order_relaxed)) {
    char how[32];
    std::snprintf(how, sizeof how, "slices on %zu threads", PartsThreads(args.size()));
    for (const dnnl::primitive *p : prims) NoteKernel(*p, how);
  }
}

void Run(const dnnl::primitive &p, const std::unordered_map<int, dnnl::memory> &args, bool serial) {
  if (serial)
    RunSerial(p, args);
  else
    Run(p, args);
}

dnnl::memory::dims DnnlDims(const Dims &d) {
  if (d.empty()) return {1};
  return dnnl::memory::dims(d.begin(), d.end());
}

dnnl::memory::desc PlainF32(const Dims &d) {
  const dnnl::memory::dims dims = DnnlDims(d);
  dnnl::memory::dims strides(dims.size(), 1);
  for (size_t i = dims.size() - 1; i-- > 0;) strides[i] = strides[i + 1] * dims[i + 1];
  return dnnl::memory::desc(dims, dnnl::memory::data_type::f32, strides);
}

dnnl::memory::desc StridedF32(const Dims &d, const Dims &strides) {
  return dnnl::memory::desc(DnnlDims(d), dnnl::memory::data_type::f32, DnnlDims(strides));
}

dnnl::memory Wrap(const dnnl::memory::desc &md, const float *data) {
  // oneDNN takes a non-const handle; sources are only read.
  return dnnl::memory(md, Engine(), const_cast<float *>(data));
}

bool MakeReorder(const dnnl::memory::desc &from, const dnnl::memory::desc &to, dnnl::reorder *r) {
  if (from == to) return false;
  *r = dnnl::reorder(dnnl::reorder::primitive_desc(Engine(), from, Engine(), to, UserScratchpad()));
  return true;
}

float *Scratch(ScratchSide side, const dnnl::memory::desc &md) {
  thread_local std::vector<float> buffers[4];
  std::vector<float> &v = buffers[static_cast<int>(side)];
  const size_t n = md.get_size() / sizeof(float) + 1;
  if (v.size() < n) v.resize(n);
  return v.data();
}

bool IsFloatDtype(ge::DataType d) { return d == ge::DT_FLOAT || d == ge::DT_FLOAT16 || d == ge::DT_DOUBLE; }

const float *AsF32(const gert::Tensor &t, std::vector<float> *scratch) {
  if (t.GetAddr() == nullptr) return nullptr;
  const int64_t n = t.GetShapeSize();
  switch (t.GetDataType()) {
    case ge::DT_FLOAT:
      return t.GetData<float>();
    case ge::DT_FLOAT16: {
      const half *p = t.GetData<half>();
      scratch->resize(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) (*scratch)[i] = static_cast<float>(p[i]);
      return scratch->data();
    }
    case ge::DT_DOUBLE: {
      const double *p = t.GetData<double>();
      scratch->resize(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) (*scratch)[i] = static_cast<float>(p[i]);
      return scratch->data();
    }
    default:
      return nullptr;
  }
}

float *OutF32(gert::Tensor &t, std::vector<float> *scratch) {
  if (t.GetDataType() == ge::DT_FLOAT) return t.GetData<float>();
  scratch->assign(static_cast<size_t>(t.GetShapeSize()), 0.0f);
  return scratch->data();
}

void StoreF32(const std::vector<float> &scratch, gert::Tensor &t) {
  const int64_t n = t.GetShapeSize();
  if (t.GetDataType() == ge::DT_FLOAT16) {
    half *q = t.GetData<half>();
    for (int64_t i = 0; i < n; ++i) q[i] = static_cast<half>(scratch[i]);
  } else if (t.GetDataType() == ge::DT_DOUBLE) {
    double *q = t.GetData<double>();
    for (int64_t i = 0; i < n; ++i) q[i] = scratch[i];
  }
}

void Key::Push(int64_t w) {
  words_.push_back(w);
  uint64_t u = static_cast<uint64_t>(w);
  for (int i = 0; i < 8; ++i, u >>= 8) hash_ = (hash_ ^ (u & 0xff)) * 1099511628211ull;  // FNV-1a prime
}

void Key::PushName(const char *name, int kind) {
  // Names are short literals: packed into words 7 characters at a time, the first word's top
  // byte 0x80 | kind << 5 | length (kind 0 integer, 1 list, 2 string), so an entry never reads
  // as another kind of entry with the same name, nor as a count or value of the one before.
  const size_t len = std::strlen(name);
  uint64_t w = uint64_t{0x80u | (static_cast<unsigned>(kind) << 5) | (len & 0x1f)} << 56;
  for (size_t i = 0; i < len; ++i) {
    if (i > 0 && i % 7 == 0) {
      Push(static_cast<int64_t>(w));
      w = 0;
    }
    w |= uint64_t{static_cast<unsigned char>(name[i])} << (8 * (i % 7));
  }
  Push(static_cast<int64_t>(w));
}

Key &Key::Add(const char *name, const Dims &d) {
  PushName(name, 1);
  Push(static_cast<int64_t>(d.size()));
  for (int64_t v : d) Push(v);
  return *this;
}

Key &Key::Add(const char *name, int64_t v) {
  PushName(name, 0);
  Push(v);
  return *this;
}

Key &Key::Add(const char *name, const std::string &v) {
  PushName(name, 2);
  Push(static_cast<int64_t>(v.size()));
  for (size_t i = 0; i < v.size(); i += 8) {
    uint64_t w = 0;
    for (size_t j = 0; j < 8 && i + j < v.size(); ++j) w |= uint64_t{static_cast<unsigned char>(v[i + j])} << (8 * j);
    Push(static_cast<int64_t>(w));
  }
  return *this;
}

}  // namespace openatc_ops::dnnl_util
