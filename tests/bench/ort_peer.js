// The ONNX Runtime side of ort_bench (README.md "Benchmarks"): loads one .onnx with
// onnxruntime-node, feeds the given serialized onnx.TensorProto inputs (input_K.pb, in model input
// order), runs it `warmup` untimed times then `runs` timed times, and prints ONE JSON line on
// stdout:  
// {"load_ms":..,"median_ms":..,"p90_ms":..,"min_ms":..,"runs":N,"threads":T,"base_rss_kb":..,"max_rss_kb":..}
// load_ms times InferenceSession.create alone; median and p90 are the sorted run times at index
// round(p x (runs - 1)), omrun's rule (loader/omrun/src/driver.cc); base_rss_kb is the process's
// resident size before create (Node.js itself), max_rss_kb its high-water mark at the end
// (getrusage, KiB). On failure it prints {"error":"..."} and exits 1.
// Without --inputs every model input is zeros of its declared shape (onnx-light's models, whose
// output does not depend on the input); --save_inputs DIR writes the fed tensors there as
// input_K.pb, so that omrun can be fed the same.
//
// Usage: node ort_peer.js --peer DIR --model M.onnx [--inputs a.pb,b.pb] [--save_inputs DIR]
//                          [--threads 1] [--runs 20] [--warmup 5]
// DIR is the folder holding node_modules/onnxruntime-node and node_modules/onnx-proto
// (`make bench-ort` installs them into <build>/ort-peer).
'use strict';
const fs = require('fs');
const path = require('path');
const { createRequire } = require('module');

function parseArgs(argv) {
  const o = { peer: '', model: '', inputs: [], saveInputs: '', threads: 1, runs: 20, warmup: 5 };
  for (let i = 0; i < argv.length; i += 2) {
    const k = argv[i], v = argv[i + 1];
    if (v === undefined) throw new Error(`flag ${k} needs a value`);
    if (k === '--peer') o.peer = v;
    else if (k === '--model') o.model = v;
    else if (k === '--inputs') o.inputs = v ? v.split(',') : [];
    else if (k === '--save_inputs') o.saveInputs = v;
    else if (k === '--threads') o.threads = parseInt(v, 10);
    else if (k === '--runs') o.runs = parseInt(v, 10);
    else if (k === '--warmup') o.warmup = parseInt(v, 10);
    else throw new Error(`unknown flag ${k}`);
  }
  if (!o.peer || !o.model) throw new Error('--peer and --model are required');
  if (!(o.threads >= 1) || !(o.runs >= 1) || !(o.warmup >= 0)) throw new Error('bad --threads/--runs/--warmup');
  return o;
}

// onnx.TensorProto.DataType -> [ort type name, typed array, repeated field holding the values].
const kTypes = {
  1: ['float32', Float32Array, 'floatData'],
  2: ['uint8', Uint8Array, 'int32Data'],
  3: ['int8', Int8Array, 'int32Data'],
  6: ['int32', Int32Array, 'int32Data'],
  7: ['int64', BigInt64Array, 'int64Data'],
  9: ['bool', Uint8Array, 'int32Data'],
  11: ['float64', Float64Array, 'doubleData'],
};

function toOrtTensor(ort, onnx, file) {
  const t = onnx.TensorProto.decode(fs.readFileSync(file));
  const spec = kTypes[t.dataType];
  if (!spec) throw new Error(`${file}: tensor dtype ${t.dataType} is not handled by ort_peer.js`);
  const [name, Arr, field] = spec;
  const dims = t.dims.map(Number);
  const count = dims.reduce((a, b) => a * b, 1);
  let data;
  if (t.rawData && t.rawData.length > 0) {
    const bytes = Uint8Array.from(t.rawData);  // aligned copy
    data = new Arr(bytes.buffer, 0, bytes.length / Arr.BYTES_PER_ELEMENT);
  } else {
    const vals = t[field] || [];
    data = new Arr(count);
    for (let i = 0; i < count; ++i) data[i] = Arr === BigInt64Array ? BigInt(vals[i].toString()) : Number(vals[i]);
  }
  if (data.length !== count) throw new Error(`${file}: ${data.length} values for shape [${dims}]`);
  return new ort.Tensor(name, data, dims);
}

// Zeros of input `meta`'s declared shape and dtype (float32, int32, int64, uint8, int8, bool, float64).
function zerosTensor(ort, meta) {
  if (!meta.isTensor) throw new Error(`input '${meta.name}' is not a tensor: pass --inputs`);
  const dims = meta.shape.map((d) => {
    if (typeof d !== 'number' || d < 0) throw new Error(`input '${meta.name}' has a symbolic dim '${d}': pass --inputs`);
    return d;
  });
  const arrays = { float32: Float32Array, int32: Int32Array, int64: BigInt64Array, uint8: Uint8Array,
                   int8: Int8Array, bool: Uint8Array, float64: Float64Array };
  const Arr = arrays[meta.type];
  if (!Arr) throw new Error(`input '${meta.name}' has dtype ${meta.type}: pass --inputs`);
  return new ort.Tensor(meta.type, new Arr(dims.reduce((a, b) => a * b, 1)), dims);
}

// Writes `tensor` as a serialized onnx.TensorProto (raw_data) to `file`.
function saveTensor(onnx, name, tensor, file) {
  const codes = { float32: 1, uint8: 2, int8: 3, int32: 6, int64: 7, bool: 9, float64: 11 };
  const d = tensor.data;
  const proto = onnx.TensorProto.create({
    name, dims: tensor.dims, dataType: codes[tensor.type],
    rawData: Buffer.from(d.buffer, d.byteOffset, d.byteLength),
  });
  fs.writeFileSync(file, onnx.TensorProto.encode(proto).finish());
}

// Sorted run times at index round(p x (n - 1)), as omrun reports them.
function percentile(sorted, p) { return sorted[Math.floor(p * (sorted.length - 1) + 0.5)]; }

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const req = createRequire(path.join(path.resolve(o.peer), 'package.json'));
  const ort = req('onnxruntime-node');
  const onnx = req('onnx-proto').onnx;
  const baseRss = Math.round(process.memoryUsage().rss / 1024);
  const t0 = process.hrtime.bigint();
  const session = await ort.InferenceSession.create(o.model, {
    intraOpNumThreads: o.threads, interOpNumThreads: 1, graphOptimizationLevel: 'all', logSeverityLevel: 3,
  });
  const loadMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (o.inputs.length !== 0 && o.inputs.length !== session.inputNames.length)
    throw new Error(`the model has ${session.inputNames.length} input(s) but ${o.inputs.length} file(s) were given`);
  const feeds = {};
  session.inputNames.forEach((n, i) => {
    feeds[n] = o.inputs.length ? toOrtTensor(ort, onnx, o.inputs[i]) : zerosTensor(ort, session.inputMetadata[i]);
    if (o.saveInputs) saveTensor(onnx, n, feeds[n], path.join(o.saveInputs, `input_${i}.pb`));
  });
  for (let i = 0; i < o.warmup; ++i) await session.run(feeds);
  const times = [];
  for (let i = 0; i < o.runs; ++i) {
    const s = process.hrtime.bigint();
    await session.run(feeds);
    times.push(Number(process.hrtime.bigint() - s) / 1e6);
  }
  times.sort((a, b) => a - b);
  process.stdout.write(JSON.stringify({
    load_ms: loadMs, median_ms: percentile(times, 0.5), p90_ms: percentile(times, 0.9), min_ms: times[0],
    runs: o.runs, threads: o.threads,
    base_rss_kb: baseRss, max_rss_kb: process.resourceUsage().maxRSS,
  }) + '\n');
}

main().catch((e) => {
  process.stdout.write(JSON.stringify({ error: String(e && e.message ? e.message : e) }) + '\n');
  process.exit(1);
});
