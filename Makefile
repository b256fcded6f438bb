# rdmasim: the two set-up commands are `make demo` and `make test` (see README.md).
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: demo test test-sanitize build release deps bench bench-fabric clean

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

test: build
	@cd build/dev && ctest --output-on-failure -j $(JOBS)

build/asan/build.ninja: | deps
	@cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DRDMASIM_SANITIZE=ON $(CMAKE_FLAGS) >/dev/null

test-sanitize: deps build/asan/build.ninja
	@ninja -C build/asan -j $(JOBS)
	@cd build/asan && ctest --output-on-failure -j $(JOBS)

bench: release
	@ninja -C build/release -j $(JOBS)
	@./build/release/bench/engine_bench

# Fabric throughput and memory: fat-tree permutations of 2 MiB WRITEs, one line per k
# (`make bench-fabric FABRIC_K="12 16"`).
FABRIC_K ?= 4 8 12
bench-fabric: release
	@ninja -C build/release -j $(JOBS) fabric_bench
	@for k in $(FABRIC_K); do ./build/release/bench/fabric_bench --k $$k; done

clean:
	rm -rf build
