// InsertAippNodes: static AIPP blocks placed as Aipp nodes behind model inputs (aipp_insert.h).
#include "aipp_insert.h"

#include "openatc/common/error.h"

namespace openatc::atc {
namespace {

// Every reader of Data `idx` (graph outputs included) reads `node` instead; `node` (whose input is
// the Data) is appended to the graph.
void ReadThrough(ir::Graph &g, int32_t idx, ir::Node node) {
  const int32_t at = static_cast<int32_t>(g.nodes.size());
  for (auto &n : g.nodes)
    for (auto &in : n.inputs)
      if (in == ir::Endpoint{idx, 0}) in = {at, 0};
  for (auto &out : g.outputs)
    if (out == ir::Endpoint{idx, 0}) out = {at, 0};
  g.nodes.push_back(std::move(node));
}

const char *const kHint = "Fix the aipp_op block of --insert_op_conf";

struct ModelInput {
  int32_t node = -1;
  bool nchw = true;
  int64_t n = 0, c = 0, h = 0, w = 0;
  ir::TensorDesc desc;  ///< what the model's consumers expect (the Aipp node's output)
};

[[noreturn]] void Bad(const std::string &code, const std::string &what, const ir::Node *data, const std::string &file,
                      const std::string &hint = kHint) {
  Error e(ErrorCategory::kUsage, code, what, hint);
  if (data != nullptr) e.WithNode(data->name, data->type);
  throw e.WithFile(file);
}

std::string Num(int64_t v) { return std::to_string(v); }

std::string ShapeText(const std::vector<int64_t> &d) {
  std::string t = "[";
  for (size_t i = 0; i < d.size(); ++i) t += (i ? ", " : "") + Num(d[i]);
  return t + "]";
}

int32_t FindData(const ir::Graph &g, const AippOp &op, const std::string &file) {
  for (int32_t i : g.inputs) {
    const ir::Node &n = g.nodes[static_cast<size_t>(i)];
    auto it = n.attrs.find("index");
    const int64_t index = it != n.attrs.end() ? it->second.i : -1;
    if (op.name_given ? n.name == op.related_input_name : index == static_cast<int64_t>(op.related_input_rank))
      return i;
  }
  const std::string which = op.name_given ? "related_input_name '" + op.related_input_name + "'"
                                          : "related_input_rank " + Num(op.related_input_rank);
  Bad("E10052", "aipp_op block at line " + Num(op.line) + ": " + which + " is not an input of the model (it has " +
                    Num(static_cast<int64_t>(g.inputs.size())) + " input(s))",
      nullptr, file, "Name a model input: related_input_rank counts the inputs from 0");
}

ModelInput ReadModelInput(const ir::Graph &g, int32_t idx, const std::vector<compiler::InputShape> &shapes,
                          const std::string &file) {
  const ir::Node &data = g.nodes[static_cast<size_t>(idx)];
  ModelInput m;
  m.node = idx;
  if (!data.output_descs.empty()) m.desc = data.output_descs[0];
  if (m.desc.dtype == ge::DT_UNDEFINED && !data.input_descs.empty()) m.desc = data.input_descs[0];
  for (const auto &s : shapes)
    if (s.name == data.name) m.desc.shape = m.desc.origin_shape = s.dims;
  const auto &d = m.desc.shape;
  bool known = d.size() == 4;
  for (int64_t v : d) known = known && v > 0;
  if (!known)
    Bad("E10001", "static AIPP needs a 4-dim input of known dims, the input has shape " + ShapeText(d), &data, file,
        "Give the input's shape with --input_shape, e.g. \"" + data.name + ":1,3,224,224\"");
  const ge::DataType dt = m.desc.dtype;
  if (dt != ge::DT_FLOAT && dt != ge::DT_FLOAT16 && dt != ge::DT_UINT8)
    Bad("E10001", "static AIPP writes float32, float16 or uint8, the input is dtype " + Num(dt), &data, file,
        "Put AIPP on an image input");
  m.nchw = m.desc.format != ge::FORMAT_NHWC;
  m.n = d[0], m.c = m.nchw ? d[1] : d[3], m.h = m.nchw ? d[2] : d[1], m.w = m.nchw ? d[3] : d[2];
  return m;
}

// Effective crop window and padding, checked against the model input's H and W.
void Geometry(const AippOp &op, const ModelInput &m, const ir::Node &data, const std::string &file, int64_t *src_w,
              int64_t *src_h, std::vector<int64_t> *crop, std::vector<int64_t> *pad) {
  const std::string at = "aipp_op block at line " + Num(op.line) + ": ";
  const int64_t top = op.top_padding_size, bottom = op.bottom_padding_size, left = op.left_padding_size,
                right = op.right_padding_size;
  const bool padded = op.padding && top + bottom + left + right > 0;
  *src_w = op.src_image_size_w, *src_h = op.src_image_size_h;
  if ((*src_w == 0 || *src_h == 0) && (op.crop || padded))
    Bad("E10001", at + "src_image_size_w/_h must be set when crop or padding is on", &data, file);
  if (*src_w == 0) *src_w = m.w;
  if (*src_h == 0) *src_h = m.h;
  // Without crop the window is the whole source; a crop size of 0 is the model's size.
  int64_t cw = op.crop ? op.crop_size_w : *src_w, ch = op.crop ? op.crop_size_h : *src_h;
  if ((cw == 0 || ch == 0) && padded)
    Bad("E10001", at + "crop_size_w/_h 0 (the model's size) cannot be used with padding", &data, file);
  if (cw == 0) cw = m.w;
  if (ch == 0) ch = m.h;
  const int64_t x0 = op.crop ? op.load_start_pos_w : 0, y0 = op.crop ? op.load_start_pos_h : 0;
  if (x0 + cw > *src_w || y0 + ch > *src_h)
    Bad("E10001", at + "the crop window " + Num(cw) + "x" + Num(ch) + " at (" + Num(x0) + ", " + Num(y0) +
                      ") does not fit the " + Num(*src_w) + "x" + Num(*src_h) + " source image",
        &data, file);
  if (cw + (padded ? left + right : 0) != m.w || ch + (padded ? top + bottom : 0) != m.h)
    Bad("E10001", at + "AIPP gives a " + Num(cw + (padded ? left + right : 0)) + "x" +
                      Num(ch + (padded ? top + bottom : 0)) + " (WxH) image but the model input is " + Num(m.w) + "x" +
                      Num(m.h),
        &data, file, "Make (crop ? crop_size : src_image_size) + padding equal the model input's W and H");
  if (op.input_format == 1 && (*src_w % 2 != 0 || *src_h % 2 != 0))
    Bad("E10001", at + "a YUV420SP_U8 source needs an even width and height, not " + Num(*src_w) + "x" + Num(*src_h),
        &data, file);
  *crop = {x0, y0, cw, ch};
  *pad = padded ? std::vector<int64_t>{top, bottom, left, right} : std::vector<int64_t>{};
}

ir::AttrValue Ints(std::vector<int64_t> v) {
  ir::AttrValue a;
  a.kind = ir::AttrKind::kListInt;
  a.list_i = std::move(v);
  return a;
}
ir::AttrValue Floats(const float *v, size_t n) {
  ir::AttrValue a;
  a.kind = ir::AttrKind::kListFloat;
  a.list_f.assign(v, v + n);
  return a;
}
ir::AttrValue Int(int64_t v) {
  ir::AttrValue a;
  a.kind = ir::AttrKind::kInt;
  a.i = v;
  return a;
}
ir::AttrValue Float(float v) {
  ir::AttrValue a;
  a.kind = ir::AttrKind::kFloat;
  a.f = v;
  return a;
}
ir::AttrValue Str(const std::string &v) {
  ir::AttrValue a;
  a.kind = ir::AttrKind::kString;
  a.s = v;
  return a;
}

std::string DescText(const ir::TensorDesc &d, const std::string &format, const std::string &dtype,
                     const std::string &name, int64_t bytes) {
  std::string t = format + ":" + dtype + ":" + name + ":" + Num(bytes) + ":" + Num(static_cast<int64_t>(d.shape.size())) + ":";
  for (size_t i = 0; i < d.shape.size(); ++i) t += (i ? "," : "") + Num(d.shape[i]);
  return t;
}

// The Aipp node's attributes (ops/Aipp.cc declares them in this order).
void SetAippAttrs(ir::Node &aipp, const AippOp &op, const ModelInput &m, const std::vector<int64_t> &crop,
                  const std::vector<int64_t> &pad) {
  std::vector<int64_t> matrix, ob, ib;
  for (const auto &row : op.matrix)
    for (int32_t v : row) matrix.push_back(v);
  ob.assign(op.output_bias, op.output_bias + 3);
  ib.assign(op.input_bias, op.input_bias + 3);
  aipp.attrs["input_format"] = Int(op.input_format);
  aipp.attrs["crop"] = Ints(crop);
  aipp.attrs["padding"] = Ints(pad);
  aipp.attrs["padding_value"] = Float(op.padding_value);
  aipp.attrs["csc_switch"] = Int(op.csc_switch);
  aipp.attrs["rbuv_swap_switch"] = Int(op.rbuv_swap_switch);
  aipp.attrs["ax_swap_switch"] = Int(op.ax_swap_switch);
  aipp.attrs["matrix"] = Ints(matrix);
  aipp.attrs["output_bias"] = Ints(ob);
  aipp.attrs["input_bias"] = Ints(ib);
  aipp.attrs["mean_chn"] = Ints(std::vector<int64_t>(op.mean_chn, op.mean_chn + 4));
  aipp.attrs["min_chn"] = Floats(op.min_chn, 4);
  aipp.attrs["var_reci_chn"] = Floats(op.var_reci_chn, 4);
  aipp.attrs["output_dtype"] = Int(m.desc.dtype);
  aipp.attrs["output_format"] = Str(m.nchw ? "NCHW" : "NHWC");
}

void InsertOne(ir::Graph &g, const AippOp &op, int block, std::vector<compiler::InputShape> &shapes,
               const std::string &file) {
  const int32_t idx = FindData(g, op, file);
  const ModelInput m = ReadModelInput(g, idx, shapes, file);
  const ir::Node &data0 = g.nodes[static_cast<size_t>(idx)];
  if (op.input_format < 1 || op.input_format > 4)
    Bad("E10001", "aipp_op block at line " + Num(op.line) + ": input_format " + Num(op.input_format) +
                      " is not supported on the host",
        &data0, file, "Use YUV420SP_U8, XRGB8888_U8, RGB888_U8 or YUV400_U8");
  const int64_t channels = op.input_format == 4 ? 1 : 3;
  if (m.c != channels)
    Bad("E10001", "aipp_op block at line " + Num(op.line) + ": input_format " + Num(op.input_format) + " gives " +
                      Num(channels) + " channel(s) but the model input has " + Num(m.c) + " (shape " +
                      ShapeText(m.desc.shape) + ", " + (m.nchw ? "NCHW" : "NHWC") + ")",
        &data0, file);
  if (op.csc_switch && op.input_format == 4)
    Bad("E10001", "aipp_op block at line " + Num(op.line) + ": YUV400_U8 has no color space conversion", &data0, file,
        "Remove csc_switch: true");
  int64_t sw = 0, sh = 0;
  std::vector<int64_t> crop, pad;
  Geometry(op, m, data0, file, &sw, &sh, &crop, &pad);

  ir::Node aipp;
  aipp.name = data0.name + "_0_aipp";
  aipp.type = "Aipp";
  aipp.inputs = {{idx, 0}};
  SetAippAttrs(aipp, op, m, crop, pad);
  aipp.attrs["current_aipp_index"] = Int(block);
  aipp.output_descs = {m.desc};
  ir::TensorDesc image;
  image.dtype = ge::DT_UINT8;
  image.format = image.origin_format = ge::FORMAT_NHWC;
  const int64_t bpp = op.input_format == 2 ? 4 : (op.input_format == 3 ? 3 : 1);
  image.shape = op.input_format == 1 ? std::vector<int64_t>{m.n, sh * 3 / 2, sw, 1} : std::vector<int64_t>{m.n, sh, sw, bpp};
  image.origin_shape = image.shape;
  aipp.input_descs = {image};
  ReadThrough(g, idx, std::move(aipp));

  ir::Node &data = g.nodes[static_cast<size_t>(idx)];
  const int64_t in_bytes = op.input_format == 1 ? m.n * sh * sw * 3 / 2 : m.n * sh * sw * bpp;
  const int64_t elem = m.desc.dtype == ge::DT_FLOAT ? 4 : (m.desc.dtype == ge::DT_FLOAT16 ? 2 : 1);
  data.attrs[kAippModeAttr] = Str("static_aipp");
  data.attrs[kAippInputsAttr] = Str(DescText(image, "NHWC", "DT_UINT8", data.name, in_bytes));
  data.attrs[kAippOutputsAttr] = Str(DescText(m.desc, m.nchw ? "NCHW" : "NHWC", std::to_string(m.desc.dtype),
                                              data.name, m.n * m.c * m.h * m.w * elem));
  for (auto *descs : {&data.input_descs, &data.output_descs})
    for (auto &d : *descs) d = image;
  for (auto &s : shapes)
    if (s.name == data.name) s.dims = image.shape;
}

// A dynamic block: the image input becomes uint8 [max_src_image_size] and a new input
// ascend_dynamic_aipp_data (uint8 [64 + 96 * N]) carries the parameters, read per run.
void InsertDynamic(ir::Graph &g, const AippOp &op, int block, std::vector<compiler::InputShape> &shapes,
                   const std::string &file) {
  const int32_t idx = FindData(g, op, file);
  const ModelInput m = ReadModelInput(g, idx, shapes, file);
  const ir::Node &data0 = g.nodes[static_cast<size_t>(idx)];
  if (m.c != 3 && m.c != 1)
    Bad("E10001", "aipp_op block at line " + Num(op.line) + ": dynamic AIPP needs a model input of 3 or 1 channels, not " +
                      Num(m.c),
        &data0, file);
  ir::TensorDesc image;
  image.dtype = ge::DT_UINT8;
  image.shape = image.origin_shape = {static_cast<int64_t>(op.max_src_image_size)};
  ir::TensorDesc params = image;
  params.shape = params.origin_shape = {64 + 96 * m.n};
  const std::string params_name =
      block == 0 ? std::string("ascend_dynamic_aipp_data") : "ascend_dynamic_aipp_data_" + data0.name + "_0_aipp";

  ir::Node conf;
  conf.name = params_name;
  conf.type = ir::kData;
  conf.attrs["index"] = Int(static_cast<int64_t>(g.inputs.size()));
  conf.attrs[kAippModeAttr] = Str("dynamic_aipp_conf");
  conf.attrs["_data_aipp_data_name_map"] = Str(data0.name);
  conf.inputs = {ir::Endpoint{}};  // a Data's own (unconnected) input
  conf.input_descs = conf.output_descs = {params};
  const int32_t conf_idx = static_cast<int32_t>(g.nodes.size());
  g.nodes.push_back(std::move(conf));
  g.inputs.push_back(conf_idx);

  ir::Node aipp;
  aipp.name = g.nodes[static_cast<size_t>(idx)].name + "_0_aipp";
  aipp.type = "Aipp";
  aipp.inputs = {{idx, 0}, {conf_idx, 0}};
  aipp.input_descs = {image, params};
  aipp.output_descs = {m.desc};
  aipp.attrs["input_format"] = Int(0);  // in the parameters
  aipp.attrs["padding_value"] = Float(0.0f);
  aipp.attrs["output_dtype"] = Int(m.desc.dtype);
  aipp.attrs["output_format"] = Str(m.nchw ? "NCHW" : "NHWC");
  aipp.attrs["output_dims"] = Ints(m.desc.shape);
  aipp.attrs["current_aipp_index"] = Int(block);
  ReadThrough(g, idx, std::move(aipp));

  ir::Node &data = g.nodes[static_cast<size_t>(idx)];
  data.attrs[kAippModeAttr] = Str("dynamic_aipp");
  data.attrs["_data_aipp_data_name_map"] = Str(params_name);
  for (auto *descs : {&data.input_descs, &data.output_descs})
    for (auto &d : *descs) d = image;
  for (auto &s : shapes)
    if (s.name == data.name) s.dims = image.shape;
}

}  // namespace

void InsertAippNodes(ir::Graph &graph, const std::vector<AippOp> &ops, std::vector<compiler::InputShape> &shapes,
                     const std::string &file) {
  int dynamic = 0;
  for (size_t b = 0; b < ops.size(); ++b) {
    if (ops[b].aipp_mode == 1) InsertOne(graph, ops[b], static_cast<int>(b), shapes, file);
    else InsertDynamic(graph, ops[b], dynamic++, shapes, file);
  }
}
}  // namespace openatc::atc
