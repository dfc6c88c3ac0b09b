// A stand-in kernel .so for the Serialize layout test (serialize_layout_test.cc): exports the
// kernel ABI's `call` (z = x + y over 4 floats) and nothing the test depends on besides.
extern "C" void call(void *x, void *y, void *z, void * /*stream*/) {
  const float *a = static_cast<const float *>(x);
  const float *b = static_cast<const float *>(y);
  float *c = static_cast<float *>(z);
  for (int i = 0; i < 4; ++i) c[i] = a[i] + b[i];
}
