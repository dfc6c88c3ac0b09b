#!/usr/bin/env bash
# The TileLang flows with the stand-in producer (tests/tilelang/CMakeLists.txt):
#   tilelang_flows_test.sh <producer|eager|online|offline> <build dir of examples/tilelang_stand_in>
#                          <examples/tilelang_stand_in> <atc>
# Inputs x[i] = i/4, y[i] = 1000 - i over 4096 floats (examples/tilelang_stand_in/inputs.h):
# z[4095] = 1023.75 - 3095 = -2071.25 for x + y and 1023.75 - 6190 = -5166.25 for (x + y) + y;
# the programs compare every element exactly.
set -uo pipefail
flow="$1"; B="$2"; S="$3"; ATC="$4"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
arch=$(uname -m)
fail() { echo "FAIL: $*"; exit 1; }
# expect_line <text> <line>: the output holds the exact line.
expect_line() { grep -qxF -- "$2" <<<"$1" || { echo "$1"; fail "missing line '$2'"; }; }
count_lines() { grep -cxF -- "$2" <<<"$1"; }

producer() {
  cp "$S/add_custom_kernel.py" "$W/"
  out=$(cd "$W" && python3 add_custom_kernel.py) || fail "no-argument form exited $?: $out"
  size=$(stat -c %s "$W/add_kernel.so")
  want="Kernel .so saved to: $W/add_kernel.so
File size: $size bytes
Export function: call(uint8_t* A, uint8_t* B, uint8_t* C, aclrtStream stream)"
  [ "$out" = "$want" ] || fail "no-argument form printed '$out', expected '$want'"
  nm -D --defined-only "$W/add_kernel.so" | grep -qw "T call" || fail "add_kernel.so does not export call"
  for bad in 1000 0 -1024 abc; do
    out=$(python3 "$W/add_custom_kernel.py" "$bad" "$W/bad.so" 2>&1); rc=$?
    [ $rc -eq 1 ] || fail "N=$bad exited $rc, expected 1"
    [ ! -e "$W/bad.so" ] || fail "N=$bad wrote an output"
  done
  expect_line "$(python3 "$W/add_custom_kernel.py" 1000 2>&1)" \
    "[ERROR] N must be a positive multiple of BLOCK_SIZE=1024, got 1000"
  expect_line "$(OPENATC_BISHENG=/nonexistent/bisheng python3 "$W/add_custom_kernel.py" 2>&1)" \
    "[ERROR] cannot run /nonexistent/bisheng: [Errno 2] No such file or directory: '/nonexistent/bisheng'"
  echo "producer: no-argument form, printed lines, exit codes, call exported (N and OUTPUT: tilelang_online)"
}

eager() {
  mkdir -p "$W/opp/op_graph/lib/linux/$arch"
  cp "$B/opp_eager/op_graph/lib/linux/$arch/libcust_opapi.so" "$W/opp/op_graph/lib/linux/$arch/"
  # Without the kernel .so, the first Execute reports the dlopen failure.
  out=$(ASCEND_CUSTOM_OPP_PATH="$W/opp" "$B/tilelang_eager_session_run" 2>&1); rc=$?
  [ $rc -eq 1 ] || fail "run without add_kernel.so exited $rc, expected 1"
  grep -qF "AddCustom: dlopen failed: $W/opp/op_graph/lib/linux/$arch/add_kernel.so" <<<"$out" || fail "no dlopen error: $out"
  cp "$S/add_custom_kernel.py" "$W/"
  (cd "$W" && python3 add_custom_kernel.py >/dev/null) || fail "producer failed"
  cp "$W/add_kernel.so" "$W/opp/op_graph/lib/linux/$arch/"
  out=$(ASCEND_CUSTOM_OPP_PATH="$W/opp:/nonexistent" "$B/tilelang_eager_session_run" 2>/dev/null) || fail "eager run: $out"
  expect_line "$out" "Precision check passed, max_error=0 (4096 elements, z[4095]=-2071.25)"
  # The kernel is built for 4096 floats: other sizes are refused, not run out of bounds.
  out=$(ASCEND_CUSTOM_OPP_PATH="$W/opp" "$B/tilelang_eager_session_run" 2048 2>&1); rc=$?
  [ $rc -eq 1 ] || fail "N=2048 exited $rc, expected 1"
  expect_line "$out" "AddCustom: the kernel adds exactly 4096 floats per input"
  echo "eager: x + y exact from the dlopened kernel"
}

online() {
  out=$(ASCEND_CUSTOM_OPP_PATH="$B/opp_online" "$B/tilelang_online_session_run" 4096 2 2>/dev/null) || fail "online run: $out"
  [ "$(count_lines "$out" "Compiling TileLang kernel (stand-in producer, host bisheng)")" = 1 ] || fail "not one compile: $out"
  expect_line "$out" "N=4096, BLOCK_SIZE=1024"
  expect_line "$out" "TileLang kernel compiled and loaded, key=4096"
  expect_line "$out" "TileLang kernel already compiled for key=4096"
  expect_line "$out" "Precision check passed, max_error=0 (4096 elements, z[4095]=-5166.25)"
  grep -q "^Kernel .so saved to: /tmp/tilelang_online_......\.so$" <<<"$out" || fail "no temporary .so line: $out"
  out=$(ASCEND_CUSTOM_OPP_PATH="$B/opp_online" "$B/tilelang_online_session_run" 1000 2>&1); rc=$?
  [ $rc -eq 1 ] || fail "N=1000 exited $rc, expected 1"
  expect_line "$out" "TileLang compilation failed (exit=1):"
  expect_line "$out" "[ERROR] N must be a positive multiple of BLOCK_SIZE=1024, got 1000"
  grep -qF "node 'add' (AddCustomOnline): Compile returned GRAPH_FAILED" <<<"$out" || fail "no OA1401 line: $out"
  echo "online: one producer run for two nodes of 4096, (x + y) + y exact; a bad size stops CompileGraph"
}

offline() {
  "$B/tilelang_offline_graph_build" "$W/g.air" >/dev/null || fail "graph_build"
  out=$(ASCEND_CUSTOM_OPP_PATH="$B/opp_offline" "$ATC" --framework=1 --model="$W/g.air" --output="$W/g" \
        --soc_version=host 2>&1) || fail "atc: $out"
  expect_line "$out" "ATC run success, welcome to the next use."
  so_size=$(sed -n 's/^TileLang kernel compiled and loaded, key=4096, so_size=\([0-9]*\)$/\1/p' <<<"$out")
  [ -n "$so_size" ] || fail "no compile line: $out"
  # Serialize: magic, version, count, key_len, "4096", so_size, the bytes = so_size + 24 bytes.
  expect_line "$out" "Serialized 1 kernel(s), total buffer size=$((so_size + 24))"
  out=$(env -u ASCEND_CUSTOM_OPP_PATH -u PYTHONPATH "$B/tilelang_offline_model_exec" "$W/g.om" 2>&1) || fail "model_exec: $out"
  expect_line "$out" "Deserialized kernel, key=4096, so_size=$so_size"
  expect_line "$out" "Deserialized 1 kernel(s)"
  expect_line "$out" "Model: 2 inputs, 1 outputs, input size 16384 bytes"
  expect_line "$out" "libpython mapped: no"
  expect_line "$out" "Precision check passed, max_error=0 (4096 elements, z[4095]=-2071.25)"
  grep -q "Compiling" <<<"$out" && fail "the OM run ran the producer: $out"
  echo "offline: the OM carries the kernel ($so_size bytes); run with no OPP path and no Python, x + y exact"
}

"$flow"
