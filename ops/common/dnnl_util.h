/**
 * @file ops/common/dnnl_util.h
 * oneDNN plumbing shared by the heavy built-in ops (Conv, ConvTranspose, MatMul, Gemm, pooling,
 * BatchNormalization): one CPU engine for the process, one stream per calling thread, plain
 * (row-major) memory descriptors from ONNX dims, float conversion for dtypes oneDNN does not
 * compute here, and a per-op primitive cache keyed by a hashed list of integers (Key).
 *
 * Threading: Debian's libdnnl2 (oneDNN 2.6.3) is built with DNNL_CPU_RUNTIME=OMP (GNU libgomp's
 * ABI); the OpenMP entry points it calls are this library's own team (common/omp_team.h). Every Run sets the OpenMP thread count of the calling thread to the host runtime's thread count
 * (aclrtGetDeviceInfo(ACL_DEV_ATTR_AICPU_CORE_NUM): `omrun --threads N` exactly, also under
 * OPENATC_EMULATION, where the AI Core count is the emulated chip's) and the count is part of
 * every cache key, because oneDNN sizes some kernels for the thread count seen at primitive
 * creation. There is no process-wide lock: a dnnl::stream is not thread-safe, so each thread
 * executes on its own stream, while a primitive's execute is (oneDNN's documentation), so one
 * cached primitive serves every thread. Two models run from two threads get two OpenMP teams.
 * A team spins briefly between regions unless its core is shared, then sleeps (omp_team.h;
 * docs/architecture.md, Threads).
 *
 * Dtypes: oneDNN 2.6 computes f32 on every x86-64 CPU; f16 convolution/matmul needs AVX512-FP16,
 * which the CPUs we target lack, so float16 and double tensors are converted to f32, computed,
 * and rounded once on store (ONNX allows either; the tolerance of ONNX's tests covers it).
 *
 * oneDNN reports failures as dnnl::error exceptions; callers catch them and Fail() with the text.
 */
#ifndef OPENATC_OPS_COMMON_DNNL_UTIL_H_
#define OPENATC_OPS_COMMON_DNNL_UTIL_H_

#include <dnnl.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/op_util.h"

namespace openatc_ops::dnnl_util {

/// The process-wide CPU engine (created on first use).
dnnl::engine &Engine();

/// Primitive attributes with oneDNN's scratchpad left to the caller (scratchpad_mode::user), to
/// which the caller adds its own (post-ops, scales). Every primitive of these ops is made with
/// them, and Run hands each execution the calling thread's scratchpad: one buffer per thread,
/// grown to the largest need. Left to oneDNN, each primitive keeps a buffer of its own for its
/// lifetime (Debian's libdnnl2 is built for concurrent execution): heaptrack counted 95 MB in the
/// 43 Convs of light_densenet121 that need one, where the largest need is a few MB. One buffer
/// also stays in cache from node to node.
dnnl::primitive_attr UserScratchpad();

/// Sets the calling thread's OpenMP thread count to the host runtime's and returns it (>= 1).
int ApplyThreadCount();

/// Executes `p` on the calling thread's stream with `args` and waits. Takes no lock.
/// Throws dnnl::error.
void Run(const dnnl::primitive &p, const std::unordered_map<int, dnnl::memory> &args);

/// A memory-bound primitive (pooling, ...) whose source and destination hold at most this many
/// bytes is created and run in a SerialScope when the team sleeps: waking the OpenMP team
/// (libgomp's passive one, when measured) cost more than the second thread saves. oneDNN's jit
/// kernels fix their thread count when the primitive is created, so it is the creation that must
/// be serial. Measured on the 2-core CI-class machine (omrun --profile, --threads 1 vs 2): a
/// GlobalAveragePool of ppocr-mobile-v2-cls took 7 us on one thread and ~100 us on two; one of
/// ppocr-v4-det (~0.5 MiB) 39 us and 153 us.
inline constexpr size_t kSerialMemoryBoundBytes = size_t{1} << 20;

/// From this many bytes up to kSerialMemoryBoundBytes, a memory-bound primitive runs on the team
/// after all when the team is awake (omp_team::TeamAwake: its workers still spin after the last
/// region, so no futex wake): on one thread it would read the half of its source that the other
/// core's share of the previous node wrote, from that core's cache at ~40 GB/s against ~100-200
/// from its own (2-core VM, a streaming AVX-512 read). inception_v2 at 2 threads (omrun
/// --profile): its four 576x14x14 AveragePools (0.9 MiB) took 71 us each on the calling thread,
/// 35 at 1 thread, ~40 on the awake team (ONNX Runtime ~40); all its pools 1.03 -> 0.64 ms.
inline constexpr size_t kAwakeTeamMinBytes = size_t{64} << 10;

/// Whether a memory-bound primitive touching `bytes` is created and run serially: more than one
/// thread configured, at most kSerialMemoryBoundBytes, and under kAwakeTeamMinBytes or a team
/// that sleeps.
bool SerialMemoryBound(size_t bytes);

/// The thread count a primitive is created for (part of its cache key): 1 when `serial`, else
/// ApplyThreadCount().
int ThreadsFor(bool serial);

/// While alive (and `active`), the calling thread's OpenMP thread count is 1 (restored to the
/// host runtime's on destruction): oneDNN then creates and runs primitives on the calling thread
/// alone, for work so small that waking the team costs more than it saves.
class SerialScope {
 public:
  explicit SerialScope(bool active = true);
  ~SerialScope();
  SerialScope(const SerialScope &) = delete;
  SerialScope &operator=(const SerialScope &) = delete;

 private:
  int threads_;
};

/// Executes `p` inside a SerialScope (a primitive created in one, or a reorder). Throws dnnl::error.
void RunSerial(const dnnl::primitive &p, const std::unordered_map<int, dnnl::memory> &args);

/// RunSerial when `serial` (a primitive created in a SerialScope(serial)), else Run.
void Run(const dnnl::primitive &p, const std::unordered_map<int, dnnl::memory> &args, bool serial);

/// Executes each serial primitive of `prims` (created in a SerialScope) with the same entry of
/// `args`, those runs spread over an OpenMP team of args.size() threads, each on its own stream;
/// returns when all are done. A thread takes the next run that nobody has started, so when a peer
/// is late (its core busy with another process) the others run its share. Inside another
/// parallel region the runs are made one after another on the calling thread. The primitives
/// must be distinct objects: two runs of one primitive object at once were measured 20-45 %
/// slower (oneDNN 2.6's Winograd convolutions). Throws the first dnnl::error of any run.
void RunEach(const std::vector<const dnnl::primitive *> &prims,
             const std::vector<std::unordered_map<int, dnnl::memory>> &args);

/// Calls part(k) for every k < `parts`, spread over an OpenMP team of min(parts, thread count)
/// threads (one thread, the caller, for one part or inside another parallel region); a thread
/// takes the next part nobody has started, as RunEach does. Returns when all are done; rethrows
/// the first exception of any part.
void RunParts(size_t parts, const std::function<void(size_t)> &part);

/// OpenAtcDeliverableKernelTrace (deliverable_traits.cc): switches on, for the whole process, the
/// record Run and RunSerial keep of the primitives each thread executes, and returns the calling
/// thread's record since its previous call ("<primitive kind> <oneDNN implementation> (<threads>)"
/// with <threads> "1 thread", "N threads" or, for RunEach, "slices on N threads"; distinct entries
/// joined by ", "; "" when none ran), valid until that thread's next call.
const char *TakeKernelTrace();

/// oneDNN dims from ONNX dims.
dnnl::memory::dims DnnlDims(const Dims &d);

/// A dense row-major f32 descriptor of `d` (rank 1..12; a rank-0 shape is treated as [1]).
dnnl::memory::desc PlainF32(const Dims &d);

/// A f32 descriptor of `d` with explicit element `strides` (for transposed or permuted views).
dnnl::memory::desc StridedF32(const Dims &d, const Dims &strides);

/// A memory object over caller-owned storage (no copy; the storage must outlive its use).
dnnl::memory Wrap(const dnnl::memory::desc &md, const float *data);

/// A reorder from `from` to `to` in `*r`, and whether one is needed at all (false when the two
/// descriptors are equal; `*r` is then left as it is). Throws dnnl::error.
bool MakeReorder(const dnnl::memory::desc &from, const dnnl::memory::desc &to, dnnl::reorder *r);

/// The calling thread's scratch sides for tensors in a layout other than the caller's: a primitive
/// (a blocked Conv, a pool run in the chain layout) reorders its operands into them.
enum class ScratchSide { kSource = 0, kDestination = 1, kAddend = 2, kWeights = 3 };

/// A per-thread buffer that holds one tensor of `md` on `side`, valid until the next call for that
/// side on this thread (it grows, never shrinks).
float *Scratch(ScratchSide side, const dnnl::memory::desc &md);

/// True for the dtypes the heavy float ops accept: float32, float16, double.
bool IsFloatDtype(ge::DataType d);

/// Float view of a float32/float16/double tensor: the tensor's own data for float32, else its
/// values converted into `scratch`. nullptr for other dtypes or a null address.
const float *AsF32(const gert::Tensor &t, std::vector<float> *scratch);

/// Output buffer in f32: the tensor's data for float32, else `scratch` resized to its element
/// count (then StoreF32 converts it back).
float *OutF32(gert::Tensor &t, std::vector<float> *scratch);

/// Copies `scratch` into `t` (float16/double, rounding once) when OutF32 handed out scratch.
void StoreF32(const std::vector<float> &scratch, gert::Tensor &t);

/// A primitive cache key: the names and values added, as a list of integers with a running hash
/// (FNV-1a over the words). Equal keys have equal words; names, the kind of each entry and list
/// lengths are part of the words, so ("a", {1,2}) and ("a", {1}), ("b", {2}) differ, and so do
/// ("x", 0) and ("x", {}). Building one allocates at most once.
class Key {
 public:
  Key() { words_.reserve(48); }
  Key &Add(const char *name, const Dims &d);
  Key &Add(const char *name, int64_t v);
  Key &Add(const char *name, const std::string &v);
  size_t Hash() const { return static_cast<size_t>(hash_); }
  bool operator==(const Key &o) const { return hash_ == o.hash_ && words_ == o.words_; }
  const std::vector<int64_t> &Words() const { return words_; }

 private:
  void Push(int64_t w);
  void PushName(const char *name, int kind);
  std::vector<int64_t> words_;
  uint64_t hash_ = 14695981039346656037ull;  // FNV-1a offset basis
};

struct KeyHash {
  size_t operator()(const Key &k) const { return k.Hash(); }
};

/// A thread-safe map from Key to a cached oneDNN primitive (and whatever the op stores with it),
/// one per op instance (its mutex is the op's, never shared between ops). Entries live as long
/// as the op object; the cache is cleared past `kMaxEntries` entries so a model fed
/// ever-changing shapes cannot grow it without bound.
template <typename Entry>
class PrimitiveCache {
 public:
  static constexpr size_t kMaxEntries = 1024;  // blocked Convs hold one entry per node (weights_id)
  /// The entry of `key`, built with `make()` (which may throw dnnl::error) on a miss. The pointer
  /// stays valid until the cache is cleared; callers use it while holding no other cache lock.
  template <typename Make>
  std::shared_ptr<Entry> Get(const Key &key, const Make &make) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = map_.find(key);
      if (it != map_.end()) return it->second;
    }
    auto e = std::make_shared<Entry>(make());
    std::lock_guard<std::mutex> lock(mu_);
    if (map_.size() >= kMaxEntries) map_.clear();
    return map_.emplace(key, std::move(e)).first->second;
  }
  size_t Size() {
    std::lock_guard<std::mutex> lock(mu_);
    return map_.size();
  }

 private:
  std::mutex mu_;
  std::unordered_map<Key, std::shared_ptr<Entry>, KeyHash> map_;
};

}  // namespace openatc_ops::dnnl_util

#endif  // OPENATC_OPS_COMMON_DNNL_UTIL_H_
