# The README's two commands:
#   make demo   install what is missing, build, run the main job (the paper-figure sweeps, the
#               slowest at a coarser spacing: VBC_FIGS_QUICK in scripts/figs.sh) and
#               draw its figures into results/demo, then animate a short dam break and a body
#               scene (scripts/animations.sh: results/demo/animations/*/animation.mp4)
#   make figs   the same sweeps into paper_figs/out (paper_figs/README.md is the index)
#   make atlas  every method preset on every validation case at every spacing of the case
#               (experiments/atlas/atlas.json, docs/atlas.md) into paper_figs/out/atlas, but
#               for the cells predicted over the spec's budget of 3 CPU-minutes each (about
#               an hour on 2 cores; --budget S lets more through);
#               make demo draws its coarsest spacing into results/demo/atlas, with a
#               budget of one CPU-minute a cell (the cells over it: not run, with the
#               predicted cost)
#   make test   install what is missing, build, run the test suite, then again under ASan+UBSan
BUILD      ?= build
BUILD_ASAN ?= build-asan
JOBS       ?= 2

.PHONY: demo figs atlas test deps build build-asan clean

deps:
	@scripts/install-deps.sh

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BUILD) -j $(JOBS)

# -O2: the sanitizers still check every access the optimised code makes, and the simulation
# tests run about 10 % faster than at -O1. -g1: line tables only, all a sanitizer's stack trace
# prints (file, line, function), and the build takes about 15 % less CPU than with -g.
build-asan: deps
	cmake -S . -B $(BUILD_ASAN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVBC_SANITIZE=ON \
	  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1"
	cmake --build $(BUILD_ASAN) -j $(JOBS)

# Two test programs at a time: most run one single-threaded simulation at a time and would leave
# the second core idle (every test writes under its own PID-named directory).
test: build build-asan
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	cd $(BUILD_ASAN) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure -j $(JOBS)

demo: build
	VBC_FIGS_QUICK=1 scripts/figs.sh $(BUILD)/vbc results/demo
	$(BUILD)/vbc atlas experiments/atlas/atlas.json --levels 1 --budget 60 -j $(JOBS) --out results/demo/atlas
	scripts/animations.sh $(BUILD)/vbc results/demo/animations

figs: build
	scripts/figs.sh $(BUILD)/vbc paper_figs/out

atlas: build
	$(BUILD)/vbc atlas experiments/atlas/atlas.json -j $(JOBS) --out paper_figs/out/atlas

clean:
	rm -rf $(BUILD) $(BUILD_ASAN)
