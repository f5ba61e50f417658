#!/usr/bin/env bash
# Build the peer benchmark "FLAME GPU 2 circles benchmark"
# (FLAMEGPU/FLAMEGPU2-circles-benchmark on FLAMEGPU/FLAMEGPU2) OUTSIDE this
# repository, offline, for sm_90 (H100/H200), so the binary can be carried to a
# GPU machine that has only the NVIDIA driver.
#
# Nothing here is committed third-party code: the sources are cloned from GitHub,
# or from local bare mirrors where $MIRROR has them (<owner>+<name>/repo: an
# offline machine's copies), and everything is built under $PEERS (default
# /work/peers). Only the small driver and stub written below (this project's own
# code) are added on top of the upstream sources.
#
# Usage:  bash scripts/build-peer-flamegpu.sh            # circles-single only
#         BUILD_STOCK=1 bash scripts/build-peer-flamegpu.sh  # also the upstream
#                                                         # circles-benchmark target
# Result: $PEERS/bundle/{circles-single,libnvrtc.so.13} (25 MiB), copied to this checkout's
# build/peers/flamegpu, where scripts/gpu-check.sh runs it beside our 3D world (carry that folder
# to the GPU machine with the build). It needs only NVIDIA's driver and glibc >= 2.36 there.
set -euo pipefail

PEERS=${PEERS:-/work/peers}
MIRROR=${MIRROR:-/work/.mirror}          # bare git mirrors: <owner>+<name>/repo
JOBS=${JOBS:-2}                          # machine is shared: at most -j2 ...
NICE="nice -n 19"                        # ... and lowest priority
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}   # CUDA 13.0 (V13.0.88) in this image; gcc 12.2 host
BUILD_STOCK=${BUILD_STOCK:-0}

# Pinned versions.
# (FLAME GPU d2ba2ccf: rc.3 and rc.4 are the first releases that build with CUDA 13; the
# circles benchmark's master; the rest as FLAME GPU's cmake/dependencies/*.cmake pin them; glm
# is unused without GLM or the visualiser; FLAME GPU rc.3+ needs CMake >= 3.25.2 for CUDA C++20,
# and Debian 12 has 3.25.1.)
FLAMEGPU_TAG=v2.0.0-rc.4
CIRCLES_COMMIT=d5621f91573c7a91e47e34b97ef5d04e3796adbc
JITIFY_COMMIT=44e978b21fc8bdb6b2d7d8d179523c8350db72e5
TINYXML2_TAG=9.0.0
GLM_COMMIT=66062497b104ca7c297321bd0e970869b1e6ece5
JSON_TAG=v3.11.3
CMAKE_BPO=3.31.6-2~bpo12+1

mkdir -p "$PEERS"/{src,tools,overlay,bundle}
SRC=$PEERS/src
BUILD=$PEERS/build

# ---------------------------------------------------------------------------
# 1. CMake >= 3.25.2. Debian 12 ships 3.25.1, whose NVIDIA-CUDA module lacks
#    CUDA20 (-std=c++20) support that FLAME GPU >= rc.3 requires. Download the
#    bookworm-backports .deb with apt (private lists dir, nothing installed
#    system-wide) and just unpack it.
# ---------------------------------------------------------------------------
CMAKE=$PEERS/tools/cmake-root/usr/bin/cmake
if [ ! -x "$CMAKE" ]; then
  T=$PEERS/tools
  mkdir -p $T/apt/lists/partial $T/apt/cache/archives/partial
  echo "deb http://deb.debian.org/debian bookworm-backports main" > $T/apt/sources.list
  APTOPT="-o Dir::Etc::SourceList=$T/apt/sources.list -o Dir::Etc::SourceParts=/dev/null"
  APTOPT+=" -o Dir::State::Lists=$T/apt/lists -o Dir::Cache=$T/apt/cache"
  apt-get $APTOPT update
  (cd $T && apt-get $APTOPT download cmake=$CMAKE_BPO cmake-data=$CMAKE_BPO)
  mkdir -p $T/cmake-root
  for d in $T/cmake_*.deb $T/cmake-data_*.deb; do dpkg-deb -x "$d" $T/cmake-root; done
fi
"$CMAKE" --version | head -1

# ---------------------------------------------------------------------------
# 2. Work trees from the mirrors at the pinned versions. FetchContent is told
#    to use these (FETCHCONTENT_SOURCE_DIR_*) and never touch the network.
#    jitify / tinyxml2 must sit in a folder named after themselves because
#    FLAME GPU includes them as <jitify/...> / <tinyxml2/...> via the parent dir.
# ---------------------------------------------------------------------------
clone() { # clone <owner+name> <dest> <rev> [paths...]
  local m=$MIRROR/$1/repo dest=$2 rev=$3; shift 3
  [ -d "$m" ] || m=https://github.com/${1/+//}
  if [ ! -d "$dest/.git" ]; then
    mkdir -p "$(dirname "$dest")"
    git clone -q --no-checkout "$m" "$dest"
  fi
  if [ $# -gt 0 ]; then git -C "$dest" checkout -q "$rev" -- "$@"   # partial checkout
  else git -C "$dest" checkout -q "$rev"; fi
}
clone FLAMEGPU+FLAMEGPU2 $SRC/flamegpu2 $FLAMEGPU_TAG
# circles-benchmark: the mirror lacks the >4 MiB sample CSVs, so check out only what builds.
clone FLAMEGPU+FLAMEGPU2-circles-benchmark $SRC/circles-benchmark $CIRCLES_COMMIT \
  CMakeLists.txt cmake src scripts README.md Dockerfile
clone NVIDIA+jitify $SRC/jitify-src/jitify $JITIFY_COMMIT
clone leethomason+tinyxml2 $SRC/tinyxml2-src/tinyxml2 $TINYXML2_TAG
clone g-truc+glm $SRC/glm $GLM_COMMIT
clone nlohmann+json $SRC/nlohmann_json $JSON_TAG
# (CCCL/Thrust/CUB 3.0.1 are taken from the CUDA 13 toolkit itself; googletest is
#  only needed for tests (OFF); the visualiser is OFF.)

# ---------------------------------------------------------------------------
# 3. Local changes on top of upstream (all reversible with git checkout):
#  a) FLAME GPU forces CMAKE_CUDA_RUNTIME_LIBRARY=shared in cmake/common.cmake;
#     switch to Static so the binary does not need libcudart.so at run time.
#  b) Add a single-configuration driver (our code) + CMake target
#     `circles-single`: upstream main.cu always runs all 4 experiment sweeps
#     (incl. O(N^2) brute force at 1M agents), unusable for one measurement.
#     The driver calls the UNMODIFIED upstream run_circles_spatial3D().
# ---------------------------------------------------------------------------
git -C $SRC/flamegpu2 checkout -q -- cmake/common.cmake
sed -i 's/^set(CMAKE_CUDA_RUNTIME_LIBRARY shared)/set(CMAKE_CUDA_RUNTIME_LIBRARY Static)/' \
  $SRC/flamegpu2/cmake/common.cmake
grep -q 'CMAKE_CUDA_RUNTIME_LIBRARY Static' $SRC/flamegpu2/cmake/common.cmake

cat > $SRC/circles-benchmark/src/single.cu <<'EOF'
// Single-measurement driver for the FLAME GPU 2 circles benchmark.
// Not part of upstream FLAMEGPU2-circles-benchmark: upstream main.cu always runs
// the full 4-experiment sweep (incl. O(N^2) brute force at 1M agents). This driver
// runs exactly ONE configuration of one unmodified upstream model function
// (run_circles_spatial3D / run_circles_bruteforce from the upstream .cu files)
// and prints the same columns as upstream's <label>_perSimulationCSV.csv.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <numeric>
#include <string>
#include <algorithm>
#include <chrono>
#include <ctime>

#include "flamegpu/flamegpu.h"
#include "common.cuh"
#include "util.cuh"

void run_circles_spatial3D(const RunSimulationInputs runInputs, RunSimulationOutputs &runOutputs);
#ifdef CIRCLES_SINGLE_WITH_BRUTEFORCE
void run_circles_bruteforce(const RunSimulationInputs runInputs, RunSimulationOutputs &runOutputs);
#endif

static void usage(const char *a0) {
    printf("usage: %s [--model circles_spatial3D] [--agents N | --width W --density D]\n"
           "          [--width W] [--radius R] [--steps S] [--seed S] [--device D]\n"
           "          [--sort-period P] [--repetitions N] [--per-step]\n"
           "defaults: model circles_spatial3D, width 100, density 1 (-> 1,000,000 agents),\n"
           "          radius 2, steps 200, seed 0, device 0, sort-period 1, repetitions 1\n"
           "(these match upstream experiment 'fixed-density' at target volume 1e6)\n", a0);
}

int main(int argc, const char **argv) {
    std::string model = "circles_spatial3D";
    long long agents = -1;
    float width = 100.f, density = 1.f, radius = 2.f;
    unsigned steps = 200, sortPeriod = 1, reps = 1;
    unsigned long long seed = 0;
    int device = 0;
    bool perStep = false;
    for (int i = 1; i < argc; ++i) {
        std::string a(argv[i]);
        auto need = [&](void) -> const char * {
            if (i + 1 >= argc) { usage(argv[0]); exit(EXIT_FAILURE); }
            return argv[++i];
        };
        if (a == "-h" || a == "--help") { usage(argv[0]); return EXIT_SUCCESS; }
        else if (a == "--model") model = need();
        else if (a == "--agents") agents = std::stoll(need());
        else if (a == "--width") width = std::stof(need());
        else if (a == "--density") density = std::stof(need());
        else if (a == "--radius") radius = std::stof(need());
        else if (a == "-s" || a == "--steps") steps = std::stoul(need());
        else if (a == "-r" || a == "--seed") seed = std::stoull(need());
        else if (a == "-d" || a == "--device") device = std::stoi(need());
        else if (a == "--sort-period") sortPeriod = std::stoul(need());
        else if (a == "--repetitions") reps = std::stoul(need());
        else if (a == "--per-step") perStep = true;
        else { printf("unknown argument %s\n", a.c_str()); usage(argv[0]); return EXIT_FAILURE; }
    }
    // Same population rule as upstream main.cu: popSize = ceil(width^3 * density)
    if (agents < 0) agents = static_cast<long long>(std::ceil(width * width * width * density));

    using run_fn = std::function<void(const RunSimulationInputs, RunSimulationOutputs &)>;
    std::map<std::string, run_fn> MODELS = {
        {"circles_spatial3D", run_circles_spatial3D},
#ifdef CIRCLES_SINGLE_WITH_BRUTEFORCE
        {"circles_bruteforce", run_circles_bruteforce},
#endif
    };
    auto it = MODELS.find(model);
    if (it == MODELS.end()) {
        printf("unknown/unbuilt model %s\n", model.c_str());
        return EXIT_FAILURE;
    }

    const std::string deviceName = getGPUName(device);
    printf("GPU,release_mode,seatbelts_on,model,steps,agent_count,env_width,comm_radius,"
           "sort_period,repeat,agent_density,mean_message_count,s_rtc,s_simulation,s_init,"
           "s_exit,s_step_mean\n");
    fflush(stdout);
    for (unsigned r = 0; r < reps; ++r) {
        const RunSimulationInputs in = {device, steps, seed + r, static_cast<uint32_t>(agents),
                                        width, radius, sortPeriod};
        RunSimulationOutputs out = {};
        auto t0 = std::chrono::steady_clock::now();
        it->second(in, out);
        double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        printf("%s,%d,%d,%s,%u,%u,%.6f,%.6f,%u,%u,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f\n",
               deviceName.c_str(), isReleaseMode(), isSeatbeltsON(), model.c_str(), steps,
               static_cast<uint32_t>(agents), width, radius, sortPeriod, r, out.agentDensity,
               out.mean_messageCount, out.s_rtc, out.s_simulation, out.s_init, out.s_exit,
               out.s_stepMean);
        fprintf(stderr, "# repeat %u: wall (model, population, simulate) %.3f s\n", r, wall);
        if (perStep && out.s_per_step) {
            for (size_t s = 0; s < out.s_per_step->size(); ++s)
                printf("#step,%u,%zu,%.6f\n", r, s, out.s_per_step->at(s));
        }
        fflush(stdout);
    }
    return EXIT_SUCCESS;
}
EOF

git -C $SRC/circles-benchmark checkout -q $CIRCLES_COMMIT -- CMakeLists.txt # (re-run: anew)
cat >> $SRC/circles-benchmark/CMakeLists.txt <<'EOF'

# ---- Added for peer benchmarking (not upstream): single-configuration driver ----
if(CIRCLES_SINGLE)
    set(S "${CMAKE_CURRENT_SOURCE_DIR}/src")
    flamegpu_add_executable(circles-single
        "${S}/single.cu;${S}/circles_spatial3D.cu;${S}/common.cuh;${S}/util.cuh"
        "${FLAMEGPU_ROOT}" "${PROJECT_BINARY_DIR}" TRUE)
endif()
EOF

# ---------------------------------------------------------------------------
# 4. Configure: Release, sm_90 only, seatbelts OFF (= published "beltsoff"
#    rows), no visualisation / python / tests / telemetry, static libstdc++.
# ---------------------------------------------------------------------------
mkdir -p $BUILD
$NICE "$CMAKE" -S $SRC/circles-benchmark -B $BUILD -G "Unix Makefiles" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_COMPILER=$NVCC \
  -DFLAMEGPU_ROOT=$SRC/flamegpu2 \
  -DFLAMEGPU_SEATBELTS=OFF -DFLAMEGPU_VISUALISATION=OFF -DFLAMEGPU_BUILD_PYTHON=OFF \
  -DFLAMEGPU_BUILD_TESTS=OFF -DFLAMEGPU_SHARE_USAGE_STATISTICS=OFF \
  -DFLAMEGPU_TELEMETRY_SUPPRESS_NOTICE=ON -DFLAMEGPU_RTC_DISK_CACHE=OFF \
  -DFLAMEGPU_ENABLE_LINT_FLAMEGPU=OFF \
  -DCIRCLES_SINGLE=ON -DCMAKE_EXE_LINKER_FLAGS="-static-libstdc++ -static-libgcc" \
  -DFETCHCONTENT_FULLY_DISCONNECTED=ON \
  -DFETCHCONTENT_SOURCE_DIR_JITIFY=$SRC/jitify-src/jitify \
  -DFETCHCONTENT_SOURCE_DIR_TINYXML2=$SRC/tinyxml2-src/tinyxml2 \
  -DFETCHCONTENT_SOURCE_DIR_GLM=$SRC/glm \
  -DFETCHCONTENT_SOURCE_DIR_NLOHMANN_JSON=$SRC/nlohmann_json
# (configure applies FLAME GPU's own jitify2-pr-146 patch to the jitify work tree.)

# ---------------------------------------------------------------------------
# 5. Build: the single-run driver (needs the flamegpu static lib, ~85 TUs);
#    optionally the upstream target too.
# ---------------------------------------------------------------------------
$NICE make -C $BUILD -j$JOBS circles-single
if [ "$BUILD_STOCK" = 1 ]; then $NICE make -C $BUILD -j$JOBS circles-benchmark; fi

# ---------------------------------------------------------------------------
# 6. Bundle. The binary has cudart + libstdc++ static; it still NEEDs
#    libcuda.so.1 (driver: present on the GPU machine) and libnvrtc.so.13
#    (105 MiB, over budget). FLAME GPU references NVRTC directly only in
#    compute_capability.cu, reached only when an RTC agent function is built
#    (jitify2 dlopen()s NVRTC itself), so for the non-RTC model a 16 KiB stub
#    with the same SONAME / symbol version stands in for it.
# ---------------------------------------------------------------------------
B=$PEERS/bundle
BIN=$(find $BUILD/bin -name circles-single -type f | head -1)
cp "$BIN" $B/circles-single
cat > $PEERS/overlay/nvrtc_stub.c <<'EOF'
/* Tiny stand-in for libnvrtc.so.13 (the real one is ~105 MiB).
 * FLAME GPU 2 links CUDA::nvrtc only for compute_capability.cu
 * (nvrtcGetNumSupportedArchs / nvrtcGetSupportedArchs), which is only reached
 * when an RTC agent function is compiled. jitify2 itself dlopen()s nvrtc.
 * The non-RTC circles_spatial3D model never calls NVRTC, so these stubs are
 * never executed; if they are (an RTC model was run), they fail loudly. */
#include <stdio.h>
#include <stdlib.h>
#define NVRTC_ERROR_INTERNAL_ERROR 11
static void die(const char *f) {
    fprintf(stderr, "nvrtc stub: %s called: this bundle has no NVRTC (no RTC models)\n", f);
    abort();
}
int nvrtcVersion(int *major, int *minor)
{
    if (major) *major = 13;
    if (minor) *minor = 0;
    return 0;
}
const char *nvrtcGetErrorString(int r) { (void)r; return "NVRTC stub: not available"; }
int nvrtcGetNumSupportedArchs(int *n)
{
    (void)n, die("nvrtcGetNumSupportedArchs");
    return NVRTC_ERROR_INTERNAL_ERROR;
}
int nvrtcGetSupportedArchs(int *a)
{
    (void)a, die("nvrtcGetSupportedArchs");
    return NVRTC_ERROR_INTERNAL_ERROR;
}
EOF
echo 'libnvrtc.so.13 { global: nvrtc*; local: *; };' > $PEERS/overlay/nvrtc_stub.map
gcc -O2 -shared -fPIC -Wl,-soname,libnvrtc.so.13 \
    -Wl,--version-script=$PEERS/overlay/nvrtc_stub.map \
    -o $B/libnvrtc.so.13 $PEERS/overlay/nvrtc_stub.c
# every nvrtc symbol the binary needs must be in the stub
syms() { nm -D "$@" | awk '{print $NF}' | grep '^nvrtc' | sed 's/@.*//' | sort -u; }
missing=$(comm -23 <(syms --undefined-only $B/circles-single) \
  <(syms --defined-only $B/libnvrtc.so.13))
if [ -n "$missing" ]; then echo "stub lacks: $missing" >&2; exit 1; fi
strip $B/circles-single
echo "== ldd (on the GPU machine run with LD_LIBRARY_PATH=<bundle dir>)"
LD_LIBRARY_PATH=$B ldd $B/circles-single || true
du -b $B/* ; du -sh $B
REPO=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$REPO/build/peers/flamegpu"
cp $B/circles-single $B/libnvrtc.so.13 "$REPO/build/peers/flamegpu/"
echo "== copied to $REPO/build/peers/flamegpu (scripts/gpu-check.sh's peer)"
