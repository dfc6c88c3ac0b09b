// oneDNN engine/stream singletons, thread count, descriptors and float conversion for the heavy
// built-in ops (see dnnl_util.h).
#include "common/dnnl_util.h"

#include <cstring>

#include "acl/acl_rt.h"

// The OpenMP runtime API (OpenMP 5.x, section 3.2) from libgomp, declared here rather than via
// <omp.h>, which clang ships only with libomp-dev.
extern "C" {
int omp_get_max_threads(void);
void omp_set_num_threads(int num_threads);
}

namespace openatc_ops::dnnl_util {
namespace {
std::mutex &StreamMutex() {
  static std::mutex *mu = new std::mutex();
  return *mu;
}
dnnl::stream &Stream() {
  static dnnl::stream *s = new dnnl::stream(Engine());
  return *s;
}
}  // namespace

dnnl::engine &Engine() {
  // Never destroyed: ops may run from static destructors of other libraries' objects.
  static dnnl::engine *e = new dnnl::engine(dnnl::engine::kind::cpu, 0);
  return *e;
}

int ApplyThreadCount() {
  int64_t n = 0;
  if (aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &n) != ACL_SUCCESS || n < 1) n = 1;
  if (n > 4096) n = 4096;
  const int threads = static_cast<int>(n);
  if (omp_get_max_threads() != threads) omp_set_num_threads(threads);
  return threads;
}

void Run(const dnnl::primitive &p, const std::unordered_map<int, dnnl::memory> &args) {
  std::lock_guard<std::mutex> lock(StreamMutex());
  ApplyThreadCount();
  dnnl::stream &s = Stream();
  p.execute(s, args);
  s.wait();
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

Key &Key::Add(const char *name, const Dims &d) {
  s_ += name;
  s_ += '=';
  for (int64_t v : d) s_ += std::to_string(v) + ',';
  s_ += ';';
  return *this;
}

Key &Key::Add(const char *name, int64_t v) {
  s_ += name;
  s_ += '=' + std::to_string(v) + ';';
  return *this;
}

Key &Key::Add(const char *name, const std::string &v) {
  s_ += name;
  s_ += '=' + v + ';';
  return *this;
}

}  // namespace openatc_ops::dnnl_util
