// The aclmdl AIPP calls (acl/acl_mdl_aipp.h) on an OM compiled with a dynamic AIPP block: the
// parameter set built with aclmdlSetAIPP* drives the same per-image crop, padding and
// normalisation as the byte-by-byte buffer of aipp_dynamic_test.cc; expected values by plain
// arithmetic. Also aclmdlGetAippType on static and dynamic models, and the calls' errors.
#include <catch2/catch.hpp>

#include <cstring>

#include "acl/acl.h"
#include "e2e_util.h"

using namespace openatc::testing;

namespace {

uint8_t Rgb(int64_t x, int64_t y, int64_t c, int64_t n) { return static_cast<uint8_t>(16 * y + 4 * x + 50 * c + 1 + 5 * n); }

const std::string kGraph =
    "{ \"name\": \"g\", \"graph\": [ { \"name\": \"g\", \"output\": [\"op:0\"], \"op\": [ { \"name\": \"img\", "
    "\"type\": \"Data\", \"input\": [\"\"], \"attr\": { \"index\": { \"i\": \"0\" } }, \"inputDesc\": [{ \"dtype\": "
    "\"DT_FLOAT\", \"shape\": { \"dim\": [2, 3, 4, 4] }, \"layout\": \"NCHW\" }], \"outputDesc\": [{ \"dtype\": "
    "\"DT_FLOAT\", \"shape\": { \"dim\": [2, 3, 4, 4] }, \"layout\": \"NCHW\" }] }, { \"name\": \"op\", \"type\": "
    "\"Identity\", \"input\": [\"img:0\"] } ] } ] }";

// Compiles the graph with `config` as --insert_op_conf into `dir`/m.om and loads it.
uint32_t LoadWith(const std::string &dir, const std::string &config) {
  WriteBytes(dir + "/g.json", kGraph);
  WriteBytes(dir + "/aipp.cfg", config);
  const auto r = RunAtc({"--model", dir + "/g.json", "--framework", "1", "--soc_version", "host", "--output",
                         dir + "/m", "--insert_op_conf", dir + "/aipp.cfg"},
                        "");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  uint32_t id = 0;
  REQUIRE(aclmdlLoadFromFile((dir + "/m.om").c_str(), &id) == ACL_SUCCESS);
  return id;
}

aclDataBuffer *Buffer(size_t bytes, const void *init) {
  void *p = nullptr;
  REQUIRE(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
  if (init != nullptr) REQUIRE(aclrtMemcpy(p, bytes, init, bytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
  else REQUIRE(aclrtMemset(p, bytes, 0, bytes) == ACL_SUCCESS);
  return aclCreateDataBuffer(p, bytes);
}

void Free(aclmdlDataset *d) {
  for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(d); ++i) {
    aclDataBuffer *b = aclmdlGetDatasetBuffer(d, i);
    aclrtFree(aclGetDataBufferAddr(b));
    aclDestroyDataBuffer(b);
  }
  aclmdlDestroyDataset(d);
}

}  // namespace

TEST_CASE("aclmdl AIPP: a parameter set drives dynamic AIPP per image", "[aipp][acl]") {
  const std::string dir = MakeTempDir();
  const uint32_t id = LoadWith(dir, "aipp_op {\n aipp_mode: dynamic\n max_src_image_size: 180\n}\n");
  aclmdlInputAippType type;
  size_t attached = 0;
  REQUIRE(aclmdlGetAippType(id, 0, &type, &attached) == ACL_SUCCESS);
  CHECK(type == ACL_DATA_WITH_DYNAMIC_AIPP);
  CHECK(attached == 1);
  REQUIRE(aclmdlGetAippType(id, 1, &type, &attached) == ACL_SUCCESS);
  CHECK(type == ACL_DYNAMIC_AIPP_NODE);
  CHECK(attached == ACL_INVALID_NODE_INDEX);
  CHECK(aclmdlGetAippType(id, 2, &type, &attached) == ACL_ERROR_INVALID_PARAM);
  size_t size = 0;
  REQUIRE(aclmdlGetAippDataSize(2, &size) == ACL_SUCCESS);
  CHECK(size == 256);

  aclmdlAIPP *set = aclmdlCreateAIPP(2);
  REQUIRE(set != nullptr);
  CHECK(aclmdlSetAIPPInputFormat(set, ACL_RGB888_U8) == ACL_SUCCESS);
  CHECK(aclmdlSetAIPPSrcImageSize(set, 6, 5) == ACL_SUCCESS);
  CHECK(aclmdlSetAIPPRbuvSwapSwitch(set, 1) == ACL_SUCCESS);
  CHECK(aclmdlSetAIPPCropParams(set, 1, 1, 1, 4, 4, 0) == ACL_SUCCESS);
  CHECK(aclmdlSetAIPPDtcPixelMean(set, 10, 20, 30, 40, 0) == ACL_SUCCESS);
  CHECK(aclmdlSetAIPPDtcPixelMin(set, 0.5f, 0.5f, 0.5f, 0.5f, 0) == ACL_SUCCESS);
  CHECK(aclmdlSetAIPPPixelVarReci(set, 0.25f, 0.25f, 0.25f, 0.25f, 0) == ACL_SUCCESS);
  CHECK(aclmdlSetAIPPCropParams(set, 1, 2, 0, 3, 4, 1) == ACL_SUCCESS);
  CHECK(aclmdlSetAIPPPaddingParams(set, 1, 0, 0, 1, 0, 1) == ACL_SUCCESS);
  // Out of range: a batch index past the set, resize, a padding of 33, a mean of 256.
  CHECK(aclmdlSetAIPPCropParams(set, 1, 0, 0, 4, 4, 2) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclmdlSetAIPPScfParams(set, 1, 6, 5, 4, 4, 0) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclmdlSetAIPPPaddingParams(set, 1, 33, 0, 0, 0, 0) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclmdlSetAIPPDtcPixelMean(set, 256, 0, 0, 0, 0) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclmdlSetAIPPInputFormat(set, ACL_YUYV_U8) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclmdlCreateAIPP(0) == nullptr);

  std::vector<uint8_t> images;
  for (int64_t n = 0; n < 2; ++n)
    for (int64_t y = 0; y < 5; ++y)
      for (int64_t x = 0; x < 6; ++x)
        for (int64_t c = 0; c < 3; ++c) images.push_back(Rgb(x, y, c, n));
  aclmdlDataset *in = aclmdlCreateDataset();
  REQUIRE(aclmdlAddDatasetBuffer(in, Buffer(images.size(), images.data())) == ACL_SUCCESS);
  REQUIRE(aclmdlAddDatasetBuffer(in, Buffer(256, nullptr)) == ACL_SUCCESS);
  aclmdlDataset *out = aclmdlCreateDataset();
  REQUIRE(aclmdlAddDatasetBuffer(out, Buffer(96 * 4, nullptr)) == ACL_SUCCESS);
  CHECK(aclmdlSetInputAIPP(id, in, 0, set) == ACL_ERROR_INVALID_PARAM);  // the image, not the parameters
  REQUIRE(aclmdlSetInputAIPP(id, in, 1, set) == ACL_SUCCESS);
  REQUIRE(aclmdlExecute(id, in, out) == ACL_SUCCESS);
  std::vector<float> y(96);
  REQUIRE(aclrtMemcpy(y.data(), 96 * 4, aclGetDataBufferAddr(aclmdlGetDatasetBuffer(out, 0)), 96 * 4,
                      ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
  for (int64_t c = 0; c < 3; ++c)
    for (int64_t h = 0; h < 4; ++h)
      for (int64_t w = 0; w < 4; ++w) {
        const size_t at = static_cast<size_t>((c * 4 + h) * 4 + w);
        CHECK(y[at] == (static_cast<float>(Rgb(w + 1, h + 1, 2 - c, 0) - 10 * (c + 1)) - 0.5f) * 0.25f);
        CHECK(y[48 + at] == (w == 0 ? 0.0f : static_cast<float>(Rgb(w + 1, h, 2 - c, 1))));
      }
  aclmdlAIPP *one = aclmdlCreateAIPP(1);
  REQUIRE(aclmdlSetAIPPInputFormat(one, ACL_RGB888_U8) == ACL_SUCCESS);
  CHECK(aclmdlSetInputAIPP(id, in, 1, one) == ACL_ERROR_INVALID_PARAM);  // a batch of 1 for a model of 2
  CHECK(aclmdlDestroyAIPP(one) == ACL_SUCCESS);
  CHECK(aclmdlDestroyAIPP(set) == ACL_SUCCESS);
  CHECK(aclmdlDestroyAIPP(set) == ACL_ERROR_INVALID_PARAM);
  Free(in);
  Free(out);
  CHECK(aclmdlUnload(id) == ACL_SUCCESS);
  RemoveTree(dir);
}

TEST_CASE("aclmdl AIPP: aclmdlGetAippType and aclmdlGetFirstAippInfo of a static AIPP input", "[aipp][acl]") {
  const std::string dir = MakeTempDir();
  const uint32_t id = LoadWith(dir, "aipp_op {\n aipp_mode: static\n input_format: RGB888_U8\n src_image_size_w: 6\n"
                                    " src_image_size_h: 5\n crop: true\n load_start_pos_w: 1\n load_start_pos_h: 1\n"
                                    " crop_size_w: 3\n crop_size_h: 4\n padding: true\n left_padding_size: 1\n"
                                    " csc_switch: true\n mean_chn_0: 10\n mean_chn_2: 30\n min_chn_0: 0.1\n"
                                    " var_reci_chn_1: 0.5\n}\n");
  aclmdlInputAippType type = ACL_DYNAMIC_AIPP_NODE;
  size_t attached = 0;
  REQUIRE(aclmdlGetAippType(id, 0, &type, &attached) == ACL_SUCCESS);
  CHECK(type == ACL_DATA_WITH_STATIC_AIPP);
  CHECK(attached == ACL_INVALID_NODE_INDEX);
  aclAippInfo info;
  REQUIRE(aclmdlGetFirstAippInfo(id, 0, &info) == ACL_SUCCESS);
  CHECK(info.inputFormat == ACL_RGB888_U8);
  CHECK(info.srcImageSizeW == 6);
  CHECK(info.srcImageSizeH == 5);
  CHECK(info.cropSwitch == 1);
  CHECK(info.loadStartPosW == 1);
  CHECK(info.loadStartPosH == 1);
  CHECK(info.cropSizeW == 3);
  CHECK(info.cropSizeH == 4);
  CHECK(info.paddingSwitch == 1);
  CHECK(info.leftPaddingSize == 1);
  CHECK(info.rightPaddingSize == 0);
  CHECK(info.cscSwitch == 1);
  CHECK(info.matrixR0C0 == 66);  // GE's default RGB -> YUV matrix and output biases
  CHECK(info.matrixR2C2 == -18);
  CHECK(info.outputBias0 == 16);
  CHECK(info.outputBias2 == 128);
  CHECK(info.meanChn0 == 10);
  CHECK(info.meanChn1 == 0);
  CHECK(info.meanChn2 == 30);
  CHECK(info.minChn0 == static_cast<float>(static_cast<_Float16>(0.1f)));
  CHECK(info.varReciChn0 == 1.0f);
  CHECK(info.varReciChn1 == 0.5f);
  CHECK(info.srcFormat == ACL_FORMAT_NCHW);
  CHECK(info.srcDatatype == ACL_FLOAT);
  CHECK(info.srcDimNum == 4);
  CHECK(info.shapeCount == 1);
  CHECK(info.outDims[0].srcSize == 2 * 3 * 4 * 4 * 4);
  CHECK(info.outDims[0].aippOutdims.dimCount == 4);
  CHECK(info.outDims[0].aippOutdims.dims[1] == 3);
  CHECK(info.aippExtend == nullptr);
  aclmdlDesc *desc = aclmdlCreateDesc();
  REQUIRE(aclmdlGetDesc(desc, id) == ACL_SUCCESS);
  CHECK(aclmdlGetInputDataType(desc, 0) == ACL_UINT8);  // the image: [2, 5, 6, 3] uint8
  CHECK(aclmdlGetInputSizeByIndex(desc, 0) == 2 * 5 * 6 * 3);
  aclmdlDestroyDesc(desc);
  CHECK(aclmdlGetFirstAippInfo(id, 1, &info) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclmdlUnload(id) == ACL_SUCCESS);
  RemoveTree(dir);
}

TEST_CASE("aclmdl AIPP: an input without AIPP", "[aipp][acl]") {
  const std::string dir = MakeTempDir();
  const uint32_t id = LoadWith(dir, "");  // an empty config: no block
  aclmdlInputAippType type = ACL_DYNAMIC_AIPP_NODE;
  size_t attached = 0;
  REQUIRE(aclmdlGetAippType(id, 0, &type, &attached) == ACL_SUCCESS);
  CHECK(type == ACL_DATA_WITHOUT_AIPP);
  aclAippInfo info;
  CHECK(aclmdlGetFirstAippInfo(id, 0, &info) == 145015);
  CHECK(aclmdlUnload(id) == ACL_SUCCESS);
  RemoveTree(dir);
}
