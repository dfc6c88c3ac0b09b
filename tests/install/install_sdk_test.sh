#!/usr/bin/env bash
# Installs the SDK into a temporary prefix, builds examples/compilable_add_custom as an
# out-of-tree custom-op project with find_package(OpenATC) / OpenATC::sdk, then compiles its graph
# with the installed atc and runs the OM with the installed omrun (no environment).
set -euo pipefail
build="$1"; src="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$src/examples/compilable_add_custom" -B "$work/op" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/op" >/dev/null
test -f "$work/op/opp/op_graph/lib/linux/$(uname -m)/libcust_opapi.so"
ASCEND_CUSTOM_OPP_PATH="$work/op/opp" "$work/prefix/bin/atc" --model "$src/examples/compilable_add_custom/single_add.json" \
  --soc_version host --output "$work/out/single_add" | grep -qx "ATC run success, welcome to the next use."
env -u ASCEND_CUSTOM_OPP_PATH "$work/prefix/bin/omrun" "$work/out/single_add.om" \
  --input "$src/examples/compilable_add_custom/ones.npy" --output "$work/r" --outfmt TXT >/dev/null
expected=$(printf '3\n%.0s' $(seq 16))
actual=$(cat "$work/r/output_0.txt")
if [ "$actual" != "$expected" ]; then
  echo "unexpected output:"; echo "$actual"; exit 1
fi
echo "installed SDK: out-of-tree deliverable built, compiled and run: 16 x 3"
# Python custom ops from the installed tree: the bridge beside libgert.so, ge.custom_op under
# python/site-packages (found without PYTHONPATH), AddCustom(1, 2) folded to 3 by its HOST execute.
env -u PYTHONPATH ASCEND_CUSTOM_OPP_PATH="$src/tests/python_ops/plugins/host_add" "$work/prefix/bin/atc" \
  --model "$src/tests/python_ops/const_add.json" --framework 1 --soc_version host --output "$work/out/const_add" \
  | grep -qx "ATC run success, welcome to the next use."
env -u ASCEND_CUSTOM_OPP_PATH "$work/prefix/bin/omrun" "$work/out/const_add.om" --output "$work/py" --outfmt TXT >/dev/null
if [ "$(cat "$work/py/output_0.txt")" != "3" ]; then
  echo "unexpected Python-folded output:"; cat "$work/py/output_0.txt"; exit 1
fi
echo "installed SDK: Python HOST execute folded AddCustom(1, 2) into 3"
