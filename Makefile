# Entry points. Each target does its own set-up (bootstrap installs missing Debian packages).
#   make          build the release CLI at build/schedlab
#   make demo     run the main job on the bundled KTH log
#   make check    build and run every test (CTest), then fuzz the SWF reader for a bounded time
JOBS ?= $(shell nproc)
FUZZ_SECONDS ?= 60

.PHONY: all bootstrap build demo check test fuzz bench clean

all: build

bootstrap:
	@scripts/bootstrap.sh

build: bootstrap
	@test -f build/build.ninja || cmake --preset release >/dev/null
	cmake --build build -j $(JOBS)

demo: build
	./build/schedlab simulate data/KTH-SP2-1996-2.swf.gz --scheduler easy --warmup-fraction 0.01

test: build
	ctest --test-dir build -j $(JOBS) --output-on-failure

check: test fuzz

fuzz: bootstrap
	@scripts/fuzz.sh $(FUZZ_SECONDS)

bench: build
	@bench/run.sh

clean:
	rm -rf build build-debug build-fuzz
