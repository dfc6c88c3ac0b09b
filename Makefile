# OpenATC: thin wrapper over CMake. `make help` lists the targets.
BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
FUZZERS    ?= om_reader_fuzz ge_ir_fuzz npy_fuzz value_io_fuzz onnx_fuzz atc_argv_fuzz aipp_config_fuzz singleop_json_fuzz
FUZZ_TIME  ?= 30
FUZZ_JOBS  ?= $(JOBS)
PREFIX     ?= /usr/local/openatc
ORT_DATA   ?= /usr/share/libonnx-testdata/data
ORT_FOLDERS ?= node,pytorch-converted,pytorch-operator,simple
JOBS       ?= $(shell nproc)
# Sanitizer builds (asan, fuzz): -O1 keeps them fast to build and run; -g1 (line tables) is all
# a sanitizer report needs for file:line stack traces.
SANITIZE_OPT ?= -O1 -g1 -DNDEBUG
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Debian 12 packages every build, test and demo needs.
DEPS := cmake ninja-build g++ make python3 libcli11-dev nlohmann-json3-dev libflatbuffers-dev \
        flatbuffers-compiler libzstd-dev catch2 libprotobuf-dev protobuf-compiler libonnx-dev \
        libxxhash-dev clang-19 libclang-rt-19-dev binutils llvm libdnnl-dev libonnx-testdata \
        python3-dev pybind11-dev python3-numpy python3-pip libssl-dev

DEMO_OUT := $(BUILD)/demo

.PHONY: all deps build demo test asan fuzz fuzz-smoke conformance conformance-ort ort-peer bench bench-ort install clean help

all: build

help:
	@echo "make deps     install the Debian packages OpenATC needs (apt-get; sudo when not root)"
	@echo "make          configure and build into $(BUILD)/ (Release)"
	@echo "make demo     deps + build, then GE's flow on examples/compilable_add_custom: graph_build -> AIR -> atc (Ascend910B1 emulated) -> OM -> model_exec, omrun"
	@echo "make test     deps + build, then run every test with ctest"
	@echo "make asan     build with AddressSanitizer+UndefinedBehaviorSanitizer into $(ASAN_BUILD)/ and run the tests"
	@echo "make fuzz     build the libFuzzer targets ($(FUZZERS)) and their seeds with clang-19 into $(FUZZ_BUILD)/"
	@echo "make fuzz-smoke  make fuzz, then run each of FUZZERS for FUZZ_TIME=$(FUZZ_TIME) s, FUZZ_JOBS=$(FUZZ_JOBS) at once; fails on any finding"
	@echo "make conformance  run every ONNX backend case of libonnx-testdata and OpenATC's opset-18+ cases; rewrites docs/conformance.md, docs/conformance-newer.md"
	@echo "make bench    build and run the benchmarks (OM load vs read(), sink replay vs Execute every run, memory-plan arena, op compile cache cold vs warm)"
	@echo "make conformance-ort  install onnxruntime-node (npm) into $(BUILD)/ort-peer and run ONNX Runtime on the ONNX cases under ORT_DATA=$(ORT_DATA) (folders ORT_FOLDERS=$(ORT_FOLDERS)) with onnx_conformance's tolerances; writes $(BUILD)/ort_conformance.tsv"
	@echo "make bench-ort  install onnxruntime-node (npm) into $(BUILD)/ort-peer and run omrun vs ONNX Runtime on the shared models"
	@echo "make install  install a CANN-shaped tree into PREFIX=$(PREFIX) (then: source PREFIX/set_env.sh)"
	@echo "make clean    remove the build folders"

deps:
	@missing=$$(for p in $(DEPS); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:" $$missing; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	else echo "all dependencies are installed"; fi

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release

build: $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

# GE's whole flow on examples/compilable_add_custom (README.md "Two commands"): graph_build writes
# the AIR, atc compiles it for Ascend910B1 emulated on this CPU (the switch is set here, on the
# command line, never by the programs), omrun and model_exec run the OM with no environment.
DEMO_EX := $(BUILD)/examples/compilable_add_custom
demo: deps build
	@rm -rf $(DEMO_OUT) && mkdir -p $(DEMO_OUT)
	$(DEMO_EX)/compilable_add_graph_build $(DEMO_OUT)/single_add.air
	OPENATC_EMULATION=1 ASCEND_CUSTOM_OPP_PATH=$(CURDIR)/$(DEMO_EX)/opp \
	  $(BUILD)/bin/atc --model=$(DEMO_OUT)/single_add.air --framework=1 --soc_version=Ascend910B1 \
	  --output=$(DEMO_OUT)/single_add
	env -u OPENATC_EMULATION -u ASCEND_CUSTOM_OPP_PATH $(BUILD)/examples/model_exec/model_exec $(DEMO_OUT)/single_add.om
	env -u OPENATC_EMULATION -u ASCEND_CUSTOM_OPP_PATH $(BUILD)/bin/omrun $(DEMO_OUT)/single_add.om \
	  --input examples/compilable_add_custom/ones.npy --output $(DEMO_OUT)/result --outfmt TXT
	@echo "output_0 (add2 = (x + x) + x with x = ones, expected 3 everywhere):"
	@paste -sd' ' $(DEMO_OUT)/result/output_0.txt

test: deps build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# Tests labelled `external` build projects out of tree with the system compiler, like a user's: their
# programs are not instrumented, so they cannot load the sanitized libraries (ASan's runtime must come
# first); they run in `make test`.
# intercept_tls_get_addr=0: gcc 12's sanitizer runtime takes a dynamic-TLS block that starts 16
# bytes past a page boundary for one carrying glibc < 2.25's header, reads a bogus range from the
# words before it, and LeakSanitizer's tracer dies scanning that range at exit ("Tracer caught
# signal 11": a crash, not a leak report), as the heap's layout happens to fall (google/sanitizers
# issue 1322; runtimes after gcc 13 and LLVM 16 no longer guess). Without the interceptor the blocks
# are still scanned, as heap blocks reachable from each thread's DTV, so every test but the Python
# ones keeps the leak check.
asan: deps
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOPENATC_SANITIZE=ON \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$(SANITIZE_OPT)" -DCMAKE_C_FLAGS_RELWITHDEBINFO="$(SANITIZE_OPT)"
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1:intercept_tls_get_addr=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS) -LE "slow|large|conformance|models|onnx_cases|bench|external"

# Only the fuzzers, their seed corpora and what they link are built (target `fuzzers`), not the tree.
fuzz: deps
	CC=clang-19 CXX=clang++-19 cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$(SANITIZE_OPT)" -DCMAKE_C_FLAGS_RELWITHDEBINFO="$(SANITIZE_OPT)" \
	  -DOPENATC_BUILD_FUZZERS=ON -DOPENATC_SANITIZE=ON
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzzers

# Longer runs: make fuzz-smoke FUZZERS=onnx_fuzz FUZZ_TIME=600 (the corpus in $(FUZZ_BUILD)/fuzz_corpus is kept).
fuzz-smoke: fuzz
	FUZZ_JOBS=$(FUZZ_JOBS) tests/run_fuzzers.sh $(FUZZ_BUILD) $(FUZZ_TIME) $(FUZZERS)

conformance: deps build
	cmake --build $(BUILD) --target onnx_conformance_report
	cmake --build $(BUILD) --target onnx_conformance_newer_report

bench: deps build
	$(BUILD)/tests/om_load_bench 100 9
	OPENATC_SOURCE_DIR=$(CURDIR) OPENATC_BUILD_DIR=$(CURDIR)/$(BUILD) $(BUILD)/tests/sink_bench
	$(BUILD)/tests/arena_bench
	OPENATC_SOURCE_DIR=$(CURDIR) OPENATC_BUILD_DIR=$(CURDIR)/$(BUILD) $(BUILD)/tests/kernel_cache_bench

# The peer, ONNX Runtime: onnxruntime-node from npm into $(BUILD)/ort-peer (README.md "Benchmarks").
ort-peer:
	@command -v npm >/dev/null || { echo "the ONNX Runtime peer needs Node.js and npm (apt-get install nodejs npm)"; exit 1; }
	mkdir -p $(BUILD)/ort-peer
	cd $(BUILD)/ort-peer && { [ -f package.json ] || npm init -y >/dev/null; } && \
	  ONNXRUNTIME_NODE_INSTALL=skip npm install --no-audit --no-fund onnxruntime-node@1.30.0 onnx-proto@8.0.1

# ONNX Runtime over ONNX backend case folders, side by side with onnx_conformance
# (docs/conformance-newer.md "ONNX's own newer cases"): make conformance-ort ORT_DATA=DIR ORT_FOLDERS=node
conformance-ort: ort-peer
	node tests/conformance/ort_conformance.js --peer $(BUILD)/ort-peer --data $(ORT_DATA) --folders $(ORT_FOLDERS) \
	  --jobs $(JOBS) --tsv $(BUILD)/ort_conformance.tsv

# omrun vs ONNX Runtime on the shared models.
bench-ort: deps build ort-peer
	$(BUILD)/tests/ort_bench
	$(BUILD)/tests/ort_bench --busy

# README.md "Installed tree".
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)
	@echo "installed into $(PREFIX); set the environment with: source $(PREFIX)/set_env.sh"

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
