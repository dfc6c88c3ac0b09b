#!/usr/bin/env bash
# An ACL application against the INSTALLED SDK: installs the SDK into a temporary prefix, builds
# examples/compilable_add_custom (the deliverable) and examples/model_exec (a program including
# only acl/*.h, linking only libascendcl) out of tree with find_package(OpenATC), compiles
# single_add.json with the installed atc and runs the OM with model_exec (no environment).
set -euo pipefail
build="$1"; src="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
for p in compilable_add_custom model_exec; do
  cmake -S "$src/examples/$p" -B "$work/$p" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
  cmake --build "$work/$p" >/dev/null
done
# model_exec sees only the public ACL headers and libascendcl.
grep -h '#include' "$src/examples/model_exec/main.cc" | grep -v '<' | grep -qvx '#include "acl/acl.h"' && {
  echo "model_exec includes more than acl/*.h"; exit 1; }
needed=$(readelf -d "$work/model_exec/model_exec" | sed -n 's/.*Shared library: \[\(lib[a-z_]*\)\..*/\1/p' | sort | tr '\n' ' ')
case "$needed" in *libacl_rtc*|*libgert*|*libregister*) echo "model_exec links more than libascendcl: $needed"; exit 1;; esac
ASCEND_CUSTOM_OPP_PATH="$work/compilable_add_custom/opp" "$work/prefix/bin/atc" \
  --model "$src/examples/compilable_add_custom/single_add.json" --soc_version host --output "$work/out/single_add" \
  | grep -qx "ATC run success, welcome to the next use."
out=$(env -u ASCEND_CUSTOM_OPP_PATH "$work/model_exec/model_exec" "$work/out/single_add.om")
expected=$'[INFO] Model executed successfully!\n[INFO] First element of output: 3.000000'
if [ "$out" != "$expected" ]; then
  echo "unexpected model_exec output:"; echo "$out"; exit 1
fi
echo "installed SDK: model_exec (acl/*.h + libascendcl only) ran single_add.om: first element 3.000000"
