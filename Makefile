# Entry points. Each target does its own set-up (bootstrap installs missing Debian packages).
#   make          build the release CLI at build/schedlab (no package installation: see make bootstrap)
#   make demo     install what is missing, build, run the main job on the bundled KTH log
#   make check    install what is missing, build, run every test (CTest, the Python tests too), then fuzz the parsers
#                 and the simulator
#   make python   build the Python module into build/python (PYTHONPATH=build/python)
#   make bootstrap  install the missing Debian packages (scripts/bootstrap.sh)
#   make install [PREFIX=/usr/local]  build, then install the CLI, the library, its headers and CMake package, and
#                 the Python package under PREFIX (docs/install.md); make uninstall removes them again
JOBS ?= $(shell nproc)
# One test more than the cores: the Slurm test spends its 200 s mostly waiting for Slurm (CMakeLists.txt, COST).
CTEST_JOBS ?= $(shell echo $$(( $(JOBS) + 1 )))
FUZZ_SECONDS ?= 60
PREFIX ?= /usr/local

.PHONY: all bootstrap build python demo check test fuzz bench clean install uninstall

all: build

bootstrap:
	@scripts/bootstrap.sh

build:
	@test -f build/build.ninja || cmake --preset release >/dev/null
	cmake --build build -j $(JOBS)

# The Python module, importable with PYTHONPATH=build/python (docs/python.md).
python: bootstrap
	@test -f build/build.ninja || cmake --preset release >/dev/null
	cmake --build build -j $(JOBS) --target schedlab_python

install: build
	cmake --install build --prefix $(PREFIX)

# What the last make install put in place (build/install_manifest.txt), and the directories left empty.
uninstall:
	@scripts/uninstall.sh build/install_manifest.txt

demo: bootstrap
	@$(MAKE) --no-print-directory build
	./build/schedlab simulate data/KTH-SP2-1996-2.swf.gz --scheduler easy --warmup-fraction 0.01

test: bootstrap
	@$(MAKE) --no-print-directory build
	ctest --test-dir build -j $(CTEST_JOBS) --output-on-failure --output-junit ctest-junit.xml
	@python3 scripts/test_summary.py build/ctest-junit.xml

check: test fuzz

fuzz: bootstrap
	@scripts/fuzz.sh $(FUZZ_SECONDS)

bench: build
	@bench/run.sh

clean:
	rm -rf build build-debug build-fuzz build-coverage
