# Two commands on a fresh machine: `make run` and `make test`.
# Override e.g. `make test BUILD_DIR=out JOBS=8`.
BUILD_DIR   ?= build
ASAN_DIR    ?= build-asan
BUILD_TYPE  ?= RelWithDebInfo
JOBS        ?= 2
CMAKE       ?= cmake
CTEST       ?= ctest
CMAKE_FLAGS ?=
RUN_ARGS    ?= --local

.PHONY: all deps configure build run test asan bench clean

all: build

deps:
	@bash scripts/deps.sh

configure: deps
	$(CMAKE) -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_FLAGS)

build: configure
	$(CMAKE) --build $(BUILD_DIR) -j$(JOBS)

run: build
	./$(BUILD_DIR)/cxi_write_bw $(RUN_ARGS)

test: build
	$(CTEST) --test-dir $(BUILD_DIR) --output-on-failure -j$(JOBS)

asan: deps
	$(CMAKE) -S . -B $(ASAN_DIR) -DCMAKE_BUILD_TYPE=Debug -DCXD_SANITIZE=ON $(CMAKE_FLAGS)
	$(CMAKE) --build $(ASAN_DIR) -j$(JOBS)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		$(CTEST) --test-dir $(ASAN_DIR) --output-on-failure -j$(JOBS)

bench: build
	bash bench/run.sh $(BUILD_DIR)

clean:
	rm -rf $(BUILD_DIR) $(ASAN_DIR)
