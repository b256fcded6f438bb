# rdmasim: the two set-up commands are `make demo` and `make test` (see README.md).
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: screenshot validate demo test test-sanitize test-tsan build release deps bench bench-fabric bench-parallel bench-gpu bench-study docs golden fuzz-smoke clean docs-update

deps:
	@bash scripts/install-deps.sh

build/release/build.ninja: | deps
	@cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null

release: deps build/release/build.ninja
	@ninja -C build/release -j $(JOBS) rdmasim_cli

demo: release
	@./build/release/rdmasim demo

build/dev/build.ninja: | deps
	@cmake -S . -B build/dev -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null

build: deps build/dev/build.ninja
	@ninja -C build/dev -j $(JOBS)

test: build fuzz-smoke
	@cd build/dev && ctest --output-on-failure -j $(JOBS)

# The scenario parsers and the server's request handling under libFuzzer (clang, ASan+UBSan): a fixed-seed run of FUZZ_RUNS inputs each from the seed corpus
# (deterministic; inputs up to 1 MiB, and the corpus holds 15,000- to 30,000-level nestings);
# longer: ./build/fuzz/fuzz/scenario_toml_fuzz -max_total_time=600 <a copy of fuzz/corpus/toml>.
FUZZ_SECONDS ?= 60
FUZZ_RUNS ?= 100000
FUZZ_MAX_LEN ?= 1048576
build/fuzz/build.ninja: | deps
	@CXX=clang++ cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRDMASIM_SANITIZE=ON \
	  -DRDMASIM_FUZZ=ON -DRDMASIM_BENCH=OFF $(CMAKE_FLAGS) >/dev/null

fuzz-smoke: deps build/fuzz/build.ninja
	@ninja -C build/fuzz -j $(JOBS) scenario_toml_fuzz scenario_json_fuzz http_request_fuzz
	@for kind in scenario_toml:toml scenario_json:json http_request:http; do \
	  target=$${kind%%:*}_fuzz; corpus=$${kind##*:}; \
	  rm -rf build/fuzz/corpus-$$corpus && cp -r fuzz/corpus/$$corpus build/fuzz/corpus-$$corpus && \
	  ./build/fuzz/fuzz/$$target -seed=1 -runs=$(FUZZ_RUNS) -max_total_time=$(FUZZ_SECONDS) -max_len=$(FUZZ_MAX_LEN) -print_final_stats=0 -artifact_prefix=build/fuzz/ \
	    build/fuzz/corpus-$$corpus 2>build/fuzz/$$corpus.log || { tail -40 build/fuzz/$$corpus.log; exit 1; }; \
	  echo "fuzz-smoke: $$target: $$(grep -c . build/fuzz/$$corpus.log) log lines, no crash"; \
	done

# The tests again under AddressSanitizer + UndefinedBehaviorSanitizer, in the fuzz build's tree
# (clang, RelWithDebInfo, -fno-sanitize-recover): the library fuzz-smoke compiled for its
# targets serves the tests too, so CI compiles the sources twice (dev and this), not three times.
test-sanitize: deps build/fuzz/build.ninja
	@ninja -C build/fuzz -j $(JOBS)
	@cd build/fuzz && ctest --output-on-failure -j $(JOBS)

# The partitioned runs' worker threads under ThreadSanitizer: the engine and every partitioned
# workload's tests, and the runs over ranks played by threads of one process (TrafficRanks), a
# data race failing the run (not in CI: the build alone takes ~10 minutes on 2 cores).
build/tsan/build.ninja: | deps
	@cmake -S . -B build/tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRDMASIM_BENCH=OFF -DRDMASIM_MPI=OFF \
	  -DCMAKE_CXX_FLAGS=-fsanitize=thread -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread $(CMAKE_FLAGS) >/dev/null

test-tsan: deps build/tsan/build.ninja
	@ninja -C build/tsan -j $(JOBS) unit_tests
	@TSAN_OPTIONS=halt_on_error=1 ./build/tsan/tests/unit_tests \
	  --gtest_filter='ParallelRun*:FabricPartition.*:TrafficPartition.*:TrafficRanks.*:CollectivePartition.*:CollectiveRanks.*:FlowsPartition.*:FlowsRanks.*'

bench: release
	@ninja -C build/release -j $(JOBS)
	@./build/release/bench/engine_bench
	@bash bench/summary.sh build/release

# Fabric throughput and memory: fat-tree permutations of 2 MiB WRITEs, one line per k
# (`make bench-fabric FABRIC_K="12 16"`).
FABRIC_K ?= 4 8 12
bench-fabric: release
	@ninja -C build/release -j $(JOBS) fabric_bench
	@for k in $(FABRIC_K); do ./build/release/bench/fabric_bench --k $$k; done

# Parallel simulation: window synchronization and speed-up on threads (bench/parallel_bench), the
# same exchange between MPI ranks when Open MPI is there (bench/mpi_window_bench), and the fabric's
# events per 50 ns window (`make bench-parallel FABRIC_K="16 20"`): the inputs of docs/parallel.md.
bench-parallel: release
	@ninja -C build/release -j $(JOBS) parallel_bench fabric_bench
	@./build/release/bench/parallel_bench
	@if [ -x build/release/bench/mpi_window_bench ]; then OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
	  mpirun --oversubscribe -np 2 ./build/release/bench/mpi_window_bench; fi
	@for k in $(FABRIC_K); do ./build/release/bench/fabric_bench --k $$k --window 50ns; done

# 1,024 GPUs: 128 DGX H100 on a rail-optimized fabric, all_reduce 1 GiB and alltoall 256 MiB
# (wall time, peak RSS, events; `make bench-gpu GPU_SERVERS=16` for a smaller cluster).
GPU_SERVERS ?= 128
bench-gpu: release
	@bash bench/gpu_cluster.sh ./build/release/rdmasim $(GPU_SERVERS)

# The HPCC paper's FCT study: 320 hosts, WebSearch at STUDY_LOAD % for 10 ms, five congestion controls.
STUDY_LOAD ?= 50
bench-study: release
	@bash bench/hpcc_study.sh ./build/release/rdmasim $(STUDY_LOAD)

# Generated documents (CI fails when they are stale).
docs: build
	@./build/dev/rdmasim list --scenario-format > docs/scenario-format.md
	@./build/dev/rdmasim list --json-format > docs/json.md

# The dashboard's browser test (chromium, playwright-core), keeping its full-page screenshot as docs/dashboard.png.
screenshot: build
	@node tests/browser/dashboard_test.mjs ./build/dev/rdmasim build/dev/browser-screenshots
	@cp build/dev/browser-screenshots/dashboard.png docs/dashboard.png && echo "docs/dashboard.png updated"

# The published measurements (validation/points.toml) through rdmasim: docs/validation.md.
validate: build
	@./build/dev/rdmasim validate validation/points.toml -o docs/validation.md

# After an intended model change: rewrite tests/golden/*.json from scenarios/*.toml.
golden: build
	@mkdir -p tests/golden
	@RDMASIM_UPDATE_GOLDEN=1 ./build/dev/tests/unit_tests --gtest_filter='ScenarioGolden.*' >/dev/null
	@git diff --stat -- tests/golden || true

clean:
	rm -rf build

# Executable documentation: rewrite the shown output of README.md's and docs/'s examples where the
# program now prints something else (review the diff: the prose around a figure may need it too).
docs-update: build
	@python3 scripts/doc_examples.py --bin build/dev --root . --update README.md docs/*.md
