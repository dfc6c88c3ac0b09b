/* gear_acl_run: runs one batch gear of a geared OM (one float input, one output) through the
 * aclmdl* C API, as an ACL application would (tests/gears/gears_test.cc drives it).
 *   gear_acl_run MODEL.om BATCH INPUT.bin OUTPUT.bin
 * INPUT.bin holds the gear's input (raw float32); OUTPUT.bin receives the gear's output bytes
 * (aclmdlGetCurOutputDims). Prints the model's batch gears and the output dims. Exit 0 on
 * success; 1 with "acl error <code> in <call>: <message>" on the first failing call. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

static int Fail(const char *call, aclError code) {
  printf("acl error %d in %s: %s\n", (int)code, call, aclGetRecentErrMsg());
  return 1;
}

#define CHECK(call)                          \
  do {                                       \
    aclError rc_ = (call);                   \
    if (rc_ != ACL_SUCCESS) return Fail(#call, rc_); \
  } while (0)

static void *ReadAll(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  void *data;
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  data = malloc(*size ? *size : 1);
  if (fread(data, 1, *size, f) != *size) *size = 0;
  fclose(f);
  return data;
}

int main(int argc, char **argv) {
  uint32_t model_id = 0;
  size_t shape_index = 0, in_size = 0, i = 0, count = 1;
  aclmdlDesc *desc;
  aclmdlDataset *in, *out;
  aclmdlBatch batch;
  aclmdlIODims dims;
  void *bufs[3];
  size_t sizes[3];
  void *input;
  FILE *f;
  if (argc != 5) {
    fprintf(stderr, "usage: gear_acl_run MODEL.om BATCH INPUT.bin OUTPUT.bin\n");
    return 2;
  }
  input = ReadAll(argv[3], &in_size);
  if (!input) return Fail("reading INPUT.bin", -1);
  CHECK(aclInit(NULL));
  CHECK(aclrtSetDevice(0));
  CHECK(aclmdlLoadFromFile(argv[1], &model_id));
  desc = aclmdlCreateDesc();
  CHECK(aclmdlGetDesc(desc, model_id));
  CHECK(aclmdlGetDynamicBatch(desc, &batch));
  printf("gears:");
  for (i = 0; i < batch.batchCount; ++i) printf(" %llu", (unsigned long long)batch.batch[i]);
  printf("\n");
  CHECK(aclmdlGetInputIndexByName(desc, ACL_DYNAMIC_TENSOR_NAME, &shape_index));
  printf("shape input: %zu of %zu\n", shape_index, aclmdlGetNumInputs(desc));
  in = aclmdlCreateDataset();
  out = aclmdlCreateDataset();
  for (i = 0; i < 2; ++i) {
    sizes[i] = aclmdlGetInputSizeByIndex(desc, i);
    CHECK(aclrtMalloc(&bufs[i], sizes[i], ACL_MEM_MALLOC_HUGE_FIRST));
    memset(bufs[i], 0, sizes[i]);
    CHECK(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(bufs[i], sizes[i])));
  }
  if (in_size > sizes[0]) return Fail("INPUT.bin is larger than the model input", -1);
  memcpy(bufs[0], input, in_size);
  sizes[2] = aclmdlGetOutputSizeByIndex(desc, 0);
  CHECK(aclrtMalloc(&bufs[2], sizes[2], ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(bufs[2], sizes[2])));
  CHECK(aclmdlSetDynamicBatchSize(model_id, in, shape_index, strtoull(argv[2], NULL, 10)));
  CHECK(aclmdlExecute(model_id, in, out));
  CHECK(aclmdlGetCurOutputDims(desc, 0, &dims));
  printf("output dims:");
  for (i = 0; i < dims.dimCount; ++i) {
    printf(" %lld", (long long)dims.dims[i]);
    count *= (size_t)dims.dims[i];
  }
  printf("\n");
  f = fopen(argv[4], "wb");
  if (!f || fwrite(bufs[2], sizeof(float), count, f) != count) return Fail("writing OUTPUT.bin", -1);
  fclose(f);
  for (i = 0; i < 2; ++i) aclDestroyDataBuffer(aclmdlGetDatasetBuffer(in, i));
  aclDestroyDataBuffer(aclmdlGetDatasetBuffer(out, 0));
  for (i = 0; i < 3; ++i) aclrtFree(bufs[i]);
  aclmdlDestroyDataset(in);
  aclmdlDestroyDataset(out);
  aclmdlDestroyDesc(desc);
  CHECK(aclmdlUnload(model_id));
  free(input);
  return 0;
}
