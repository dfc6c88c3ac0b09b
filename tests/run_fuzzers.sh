#!/usr/bin/env bash
# Runs libFuzzer targets of a fuzz build (make fuzz), each for SECONDS, FUZZ_JOBS of them at once
# (default: the number of cores; each libFuzzer process is single-threaded), and fails when any
# finds a problem. Used by `make fuzz-smoke`.
#   [FUZZ_JOBS=N] tests/run_fuzzers.sh BUILD_DIR SECONDS FUZZER...
# Per fuzzer: the working corpus is BUILD_DIR/fuzz_corpus/NAME (kept, so later runs start from
# what earlier ones found), seeds and dictionary are read from the tree and the build, a finding
# is written to BUILD_DIR/fuzz_findings/NAME/ and the log to BUILD_DIR/fuzz_logs/NAME.log.
# Reproduce a finding: BUILD_DIR/tests/NAME BUILD_DIR/fuzz_findings/NAME/crash-...
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 BUILD_DIR SECONDS FUZZER..." >&2
  exit 2
fi
build=$1 seconds=$2
shift 2
src=$(cd "$(dirname "$0")/.." && pwd)
# Symbolized reports: the sanitizers need llvm-symbolizer by its real path (a /usr/bin link to it
# is refused as "invalid path to external symbolizer").
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ]; then
  sym=$(command -v llvm-symbolizer-19 || command -v llvm-symbolizer || true)
  [ -n "$sym" ] && export ASAN_SYMBOLIZER_PATH=$(readlink -f "$sym")
fi
jobs=${FUZZ_JOBS:-$(nproc)}
# Checks every name and its binary before anything runs.
for name in "$@"; do
  case $name in
    om_reader_fuzz | ge_ir_fuzz | npy_fuzz | value_io_fuzz | onnx_fuzz | atc_argv_fuzz | aipp_config_fuzz | singleop_json_fuzz) ;;
    *) echo "$0: unknown fuzzer '$name' (om_reader_fuzz, ge_ir_fuzz, npy_fuzz, value_io_fuzz, onnx_fuzz, atc_argv_fuzz, aipp_config_fuzz, singleop_json_fuzz)" >&2; exit 2 ;;
  esac
  [ -x "$build/tests/$name" ] || { echo "$0: $build/tests/$name is missing; run 'make fuzz' first" >&2; exit 2; }
done

# One fuzzer's run; its summary goes to BUILD_DIR/fuzz_logs/NAME.summary, its exit status is the
# fuzzer's.
run_one() {
  local name=$1 seeds=() opts=()
  case $name in
    om_reader_fuzz) seeds=("$build/om_fuzz_corpus"); opts=(-max_len=65536) ;;
    ge_ir_fuzz) seeds=("$src/tests/om/fuzz_seeds/ge_ir" "$src/tests/om/fuzz_regressions"); opts=(-max_len=65536) ;;
    npy_fuzz) seeds=("$src/tests/om/fuzz_seeds/npy"); opts=(-max_len=4096) ;;
    value_io_fuzz) seeds=("$build/fuzz_seeds/value_io"); opts=(-max_len=4096) ;;
    onnx_fuzz)
      seeds=("$build/fuzz_seeds/onnx" "$src/tests/frontend_onnx/fuzz_seeds")
      opts=(-max_len=16384 "-dict=$src/tests/frontend_onnx/onnx_fuzz.dict") ;;
    atc_argv_fuzz)
      seeds=("$src/tests/tools/fuzz_seeds/atc_argv")
      opts=(-max_len=4096 "-dict=$src/tests/tools/atc_argv_fuzz.dict") ;;
    aipp_config_fuzz)
      seeds=("$src/tests/tools/fuzz_seeds/aipp_config")
      opts=(-max_len=4096 "-dict=$src/tests/tools/aipp_config_fuzz.dict") ;;
    singleop_json_fuzz)
      seeds=("$src/tests/singleop/json" "$src/tests/singleop/json/bad"); opts=(-max_len=8192) ;;
  esac
  local existing=() d
  for d in "${seeds[@]}"; do [ -d "$d" ] && existing+=("$d"); done
  mkdir -p "$build/fuzz_corpus/$name" "$build/fuzz_findings/$name"
  local log=$build/fuzz_logs/$name.log
  echo "== $name: ${seconds}s, seeds: ${existing[*]:-none}" >"$build/fuzz_logs/$name.summary"
  # The first folder gets what the fuzzer finds; the seed folders are only read.
  "$build/tests/$name" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$build/fuzz_findings/$name/" "${opts[@]}" \
    "$build/fuzz_corpus/$name" "${existing[@]}" >"$log" 2>&1
}

mkdir -p "$build/fuzz_logs"
declare -A pid_of
for name in "$@"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  run_one "$name" &
  pid_of[$name]=$!
done
status=0
for name in "$@"; do
  log=$build/fuzz_logs/$name.log
  if wait "${pid_of[$name]}"; then
    cat "$build/fuzz_logs/$name.summary"
    grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1
  else
    cat "$build/fuzz_logs/$name.summary"
    echo "FAIL: $name found a problem; last lines of $log:"
    tail -n 40 "$log"
    status=1
  fi
done
exit $status
