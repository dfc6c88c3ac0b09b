// ort_conformance: the peer's side of onnx_conformance (docs/conformance-newer.md, "ONNX's own
// newer cases"): runs ONNX backend case folders (<data>/<folder>/<case>/model.onnx +
// test_data_set_*/{input,output}_K.pb) through ONNX Runtime's Node.js binding and compares every
// output with the rule omrun uses (loader/tensor_io/src/compare.cc): |a - e| <= atol + rtol * |e|,
// NaN equals NaN, an infinity only the same infinity, integers, bools and strings exactly, dtype
// and shape equal. Each case runs in its own child process (the binding can abort the process), with
// a timeout.
//
// Usage: node ort_conformance.js --peer DIR --data DIR [--folders node,simple] [--cases FILE]
//                                [--jobs 2] [--timeout 60] [--atol 1e-7] [--rtol 1e-3] [--tsv FILE]
// DIR (--peer) holds node_modules/onnxruntime-node and node_modules/onnx-proto (`make
// conformance-ort` installs them into <build>/ort-peer). --cases: one "<folder>/<case>" a line,
// '#' comments. --tsv writes "case<TAB>outcome<TAB>detail" a line. Outcomes: pass; mismatch (an
// output differs); error (the session could not be created or run, an input or output the binding
// cannot carry); crash (a signal or the timeout). Prints one summary line; exit 0, or 2 on usage.
'use strict';
const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');
const { createRequire } = require('module');

function parseArgs(argv) {
  const o = { peer: '', data: '', folders: ['node'], cases: '', jobs: 2, timeout: 60, atol: 1e-7, rtol: 1e-3,
              tsv: '', one: '' };
  for (let i = 0; i < argv.length; i += 2) {
    const k = argv[i], v = argv[i + 1];
    if (v === undefined) throw new Error(`flag ${k} needs a value`);
    if (k === '--peer') o.peer = v;
    else if (k === '--data') o.data = v;
    else if (k === '--folders') o.folders = v.split(',').filter((s) => s);
    else if (k === '--cases') o.cases = v;
    else if (k === '--jobs') o.jobs = parseInt(v, 10);
    else if (k === '--timeout') o.timeout = parseFloat(v);
    else if (k === '--atol') o.atol = parseFloat(v);
    else if (k === '--rtol') o.rtol = parseFloat(v);
    else if (k === '--tsv') o.tsv = v;
    else if (k === '--one') o.one = v;  // internal: the child's case folder
    else throw new Error(`unknown flag ${k}`);
  }
  if (!o.peer || (!o.data && !o.one)) throw new Error('--peer and --data are required');
  if (!(o.jobs >= 1) || !(o.timeout > 0) || !(o.atol >= 0) || !(o.rtol >= 0))
    throw new Error('bad --jobs/--timeout/--atol/--rtol');
  return o;
}

// onnx.TensorProto.DataType -> [ort type name, typed array, repeated field of the values when not raw].
const kTypes = {
  1: ['float32', Float32Array, 'floatData'],
  2: ['uint8', Uint8Array, 'int32Data'],
  3: ['int8', Int8Array, 'int32Data'],
  4: ['uint16', Uint16Array, 'int32Data'],
  5: ['int16', Int16Array, 'int32Data'],
  6: ['int32', Int32Array, 'int32Data'],
  7: ['int64', BigInt64Array, 'int64Data'],
  8: ['string', Array, 'stringData'],
  9: ['bool', Uint8Array, 'int32Data'],
  10: ['float16', Uint16Array, 'int32Data'],
  11: ['float64', Float64Array, 'doubleData'],
  12: ['uint32', Uint32Array, 'uint64Data'],
  13: ['uint64', BigUint64Array, 'uint64Data'],
};

function decodeTensor(onnx, file) {
  const t = onnx.TensorProto.decode(fs.readFileSync(file));
  const spec = kTypes[t.dataType];
  if (!spec) throw new Error(`${path.basename(file)}: tensor dtype ${t.dataType} has no ONNX Runtime JS type`);
  const [type, Arr, field] = spec;
  const dims = t.dims.map(Number);
  const count = dims.reduce((a, b) => a * b, 1);
  let data;
  if (type === 'string') {
    data = (t.stringData || []).map((b) => Buffer.from(b).toString('utf8'));
  } else if (t.rawData && t.rawData.length > 0) {
    const bytes = Uint8Array.from(t.rawData);  // an aligned copy
    data = new Arr(bytes.buffer, 0, bytes.length / Arr.BYTES_PER_ELEMENT);
  } else {
    const vals = t[field] || [];
    data = new Arr(count);
    const big = Arr === BigInt64Array || Arr === BigUint64Array;
    for (let i = 0; i < count; ++i) data[i] = big ? BigInt(vals[i].toString()) : Number(vals[i]);
  }
  if (data.length !== count) throw new Error(`${path.basename(file)}: ${data.length} values for shape [${dims}]`);
  return { type, dims, data };
}

function halfToNumber(h) {
  const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 0x1f, f = h & 0x3ff;
  if (e === 0) return s * f * 2 ** -24;
  if (e === 31) return f ? NaN : s * Infinity;
  return s * (1 + f / 1024) * 2 ** (e - 15);
}

// null when equal, else a short description of the first difference.
function compare(actual, expected, atol, rtol) {
  const shape = (t) => `${t.type} [${t.dims.join(', ')}]`;
  if (actual.type !== expected.type || actual.dims.join(',') !== expected.dims.join(','))
    return `is ${shape(actual)}, expected ${shape(expected)}`;
  const float = actual.type === 'float32' || actual.type === 'float64' || actual.type === 'float16';
  for (let i = 0; i < expected.data.length; ++i) {
    let a = actual.data[i], e = expected.data[i];
    let ok;
    if (float) {
      if (actual.type === 'float16') { a = halfToNumber(a); e = halfToNumber(e); }
      if (Number.isNaN(a) || Number.isNaN(e)) ok = Number.isNaN(a) && Number.isNaN(e);
      else if (!Number.isFinite(a) || !Number.isFinite(e)) ok = a === e;
      else ok = Math.abs(a - e) <= atol + rtol * Math.abs(e);
    } else {
      ok = a === e || (typeof a === 'boolean' && Number(a) === Number(e));
    }
    if (!ok) return `element ${i}: ${a} vs expected ${e}`;
  }
  return null;
}

// The child: one case folder, every test_data_set_*; prints one JSON line {outcome, detail}.
async function runOne(o) {
  const req = createRequire(path.join(path.resolve(o.peer), 'package.json'));
  const ort = req('onnxruntime-node');
  const onnx = req('onnx-proto').onnx;
  let session;
  try {
    session = await ort.InferenceSession.create(path.join(o.one, 'model.onnx'), {
      intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all', logSeverityLevel: 4,
    });
  } catch (e) {
    return { outcome: 'error', detail: `load: ${String(e.message || e).split('\n')[0]}` };
  }
  const sets = fs.readdirSync(o.one).filter((n) => n.startsWith('test_data_set_')).sort();
  if (sets.length === 0) return { outcome: 'error', detail: 'no test_data_set_* folder' };
  const numbered = (dir, prefix) => {
    const out = [];
    for (let k = 0; fs.existsSync(path.join(dir, `${prefix}_${k}.pb`)); ++k) out.push(path.join(dir, `${prefix}_${k}.pb`));
    return out;
  };
  for (const set of sets) {
    const dir = path.join(o.one, set);
    const inputs = numbered(dir, 'input'), outputs = numbered(dir, 'output');
    let feeds = {}, expected;
    try {
      if (inputs.length !== session.inputNames.length)
        throw new Error(`${inputs.length} input file(s) for ${session.inputNames.length} model input(s)`);
      session.inputNames.forEach((n, i) => {
        const t = decodeTensor(onnx, inputs[i]);
        feeds[n] = new ort.Tensor(t.type, t.data, t.dims);
      });
      expected = outputs.map((f) => decodeTensor(onnx, f));
    } catch (e) {
      return { outcome: 'error', detail: `${set}: ${String(e.message || e).split('\n')[0]}` };
    }
    let result;
    try {
      result = await session.run(feeds);
    } catch (e) {
      return { outcome: 'error', detail: `${set}: run: ${String(e.message || e).split('\n')[0]}` };
    }
    if (expected.length !== session.outputNames.length)
      return { outcome: 'error', detail: `${set}: ${expected.length} expected outputs for ${session.outputNames.length}` };
    for (let k = 0; k < expected.length; ++k) {
      const r = result[session.outputNames[k]];
      const a = { type: r.type, dims: Array.from(r.dims, Number), data: r.data };
      const why = compare(a, expected[k], o.atol, o.rtol);
      if (why) return { outcome: 'mismatch', detail: `${set}: output ${k}: ${why}` };
    }
  }
  return { outcome: 'pass', detail: '' };
}

function listCases(o) {
  if (o.cases) {
    return fs.readFileSync(o.cases, 'utf8').split('\n')
      .map((l) => l.replace(/#.*/, '').split('\t')[0].trim()).filter((l) => l);
  }
  const ids = [];
  for (const f of o.folders) {
    const dir = path.join(o.data, f);
    if (!fs.existsSync(dir)) continue;
    for (const c of fs.readdirSync(dir).sort())
      if (fs.existsSync(path.join(dir, c, 'model.onnx'))) ids.push(`${f}/${c}`);
  }
  return ids;
}

function runChild(o, id) {
  return new Promise((resolve) => {
    const args = [__filename, '--peer', o.peer, '--one', path.join(o.data, id), '--atol', String(o.atol),
                  '--rtol', String(o.rtol)];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '', timedOut = false;
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, o.timeout * 1000);
    child.stdout.on('data', (d) => { out += d; });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (timedOut) return resolve({ outcome: 'crash', detail: `timed out after ${o.timeout} s` });
      const line = out.trim().split('\n').pop();
      try {
        if (line) return resolve(JSON.parse(line));
      } catch (e) { /* falls through */ }
      resolve({ outcome: 'crash', detail: signal ? `killed by signal ${signal}` : `exit ${code} without a result` });
    });
  });
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (o.one) {
    const r = await runOne(o);
    process.stdout.write(JSON.stringify(r) + '\n');
    return;
  }
  if (!fs.existsSync(path.join(path.resolve(o.peer), 'node_modules', 'onnxruntime-node')))
    throw new Error(`no node_modules/onnxruntime-node under '${o.peer}' (make conformance-ort installs it)`);
  const ids = listCases(o);
  const results = new Array(ids.length);
  let next = 0, done = 0;
  const worker = async () => {
    for (let i = next++; i < ids.length; i = next++) {
      results[i] = await runChild(o, ids[i]);
      if (++done % 50 === 0) process.stderr.write(`ort_conformance: ${done}/${ids.length} cases run\n`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(o.jobs, Math.max(1, ids.length)) }, worker));
  const totals = { pass: 0, mismatch: 0, error: 0, crash: 0 };
  results.forEach((r) => { totals[r.outcome] = (totals[r.outcome] || 0) + 1; });
  if (o.tsv) {
    const text = ids.map((id, i) => `${id}\t${results[i].outcome}\t${results[i].detail.replace(/[\t\n]/g, ' ')}`).join('\n');
    const tmp = `${o.tsv}.tmp${process.pid}`;
    fs.writeFileSync(tmp, text + '\n');
    fs.renameSync(tmp, o.tsv);
  }
  process.stdout.write(`ort_conformance: ${ids.length} cases: ${totals.pass} pass, ${totals.mismatch} mismatch, ` +
                       `${totals.error} error, ${totals.crash} crash\n`);
}

main().catch((e) => {
  process.stderr.write(`ort_conformance: error: ${String(e && e.message ? e.message : e)}\n`);
  process.exit(2);
});
