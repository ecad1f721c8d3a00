#!/usr/bin/env bash
# Fuzzes the Matrix Market reader with libFuzzer (+ AddressSanitizer and UBSan).
#
#   scripts/run-fuzz.sh [SECONDS]     (default 60)
#
# Configures a separate clang build in build-fuzz/ (override with GRIDBLAS_FUZZ_BUILD_DIR),
# builds only the fuzz target, seeds a corpus from tests/data/lagraph/*.mtx and runs for
# SECONDS. Exits non-zero if the fuzzer finds a crash, a hang, a leak or a sanitizer error;
# the failing input is left in <build>/fuzz-run/artifacts/.
# Needs clang++ and the libFuzzer runtime (Debian: apt-get install clang libclang-rt-14-dev).
set -euo pipefail

seconds="${1:-60}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]]; then
    echo "usage: $0 [SECONDS]" >&2
    exit 2
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${GRIDBLAS_FUZZ_BUILD_DIR:-$root/build-fuzz}"
work="$build/fuzz-run"
CC="${CC:-clang}"
CXX="${CXX:-clang++}"

if ! command -v "$CXX" > /dev/null || ! "$CXX" --version | grep -q clang; then
    echo "run-fuzz: '$CXX' is not clang; set CXX=clang++ (libFuzzer needs clang)" >&2
    exit 2
fi
# libFuzzer's runtime ships separately on Debian/Ubuntu: check that a fuzzer links.
probe="$(mktemp -d)"
trap 'rm -rf "$probe"' EXIT
printf 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }\n' \
    > "$probe/probe.cpp"
if ! "$CXX" -fsanitize=fuzzer "$probe/probe.cpp" -o "$probe/probe" 2> "$probe/log"; then
    echo "run-fuzz: $CXX cannot link -fsanitize=fuzzer; install the libFuzzer runtime" >&2
    echo "          (Debian/Ubuntu: apt-get install libclang-rt-14-dev, matching your clang)" >&2
    cat "$probe/log" >&2
    exit 2
fi
echo "run-fuzz: libFuzzer runtime found ($("$CXX" --version | head -n 1))"

mkdir -p "$build"
cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DGRIDBLAS_BUILD_FUZZERS=ON -DGRIDBLAS_BUILD_TESTS=OFF -DGRIDBLAS_BUILD_BENCHMARKS=OFF \
    -DGRIDBLAS_BUILD_EXAMPLES=OFF -DGRIDBLAS_WITH_CUDA=OFF > "$build/configure.log" 2>&1 ||
    { cat "$build/configure.log" >&2; exit 1; }
cmake --build "$build" --target fuzz_matrix_market -- -j2

# Seeds: the small LAGraph files (valid and mangled); libFuzzer adds what it finds to corpus/.
mkdir -p "$work/corpus" "$work/seeds" "$work/artifacts"
find "$root/tests/data/lagraph" -name '*.mtx' -size -32k -exec cp {} "$work/seeds/" \;
echo "run-fuzz: $(ls "$work/seeds" | wc -l) seed files, running for ${seconds}s"

set +e
"$build/tests/fuzz/fuzz_matrix_market" "$work/corpus" "$work/seeds" \
    -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
    -dict="$root/tests/fuzz/matrix_market.dict" -artifact_prefix="$work/artifacts/" \
    -print_final_stats=1 > "$work/fuzz.log" 2>&1
status=$?
set -e
grep -vE '^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse)' "$work/fuzz.log" | tail -n 40 || true
if [ "$status" -ne 0 ] || ls "$work/artifacts" | grep -q .; then
    echo "run-fuzz: FAILED (status $status); inputs in $work/artifacts:" >&2
    ls -l "$work/artifacts" >&2
    exit 1
fi
echo "run-fuzz: no crash in ${seconds}s ($(grep -c . "$work/fuzz.log") log lines, corpus" \
     "$(ls "$work/corpus" | wc -l) inputs)"
