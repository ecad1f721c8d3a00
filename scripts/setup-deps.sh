#!/usr/bin/env bash
# Installs the Debian 12 packages that gridblas needs to build, test and benchmark.
#
# Idempotent: when every package is already installed it does nothing (no apt-get update).
# Runs apt-get directly as root, through sudo otherwise.
#
#   bash scripts/setup-deps.sh            install what is missing
#   bash scripts/setup-deps.sh --list     print the package list and exit
set -euo pipefail

# Build tools, compilers (clang and its runtime for the fuzzers and sanitizers), MPI,
# the test/benchmark libraries, the reference GraphBLAS for comparisons, plotting and
# formatting tools. openssh-client: OpenMPI's launcher expects an rsh agent to exist.
PACKAGES=(
    cmake
    ninja-build
    g++
    clang
    libclang-rt-14-dev
    libomp-14-dev
    libopenmpi-dev
    openmpi-bin
    openssh-client
    libeigen3-dev
    libgtest-dev
    libgmock-dev
    libbenchmark-dev
    libgraphblas-dev
    gnuplot-nox
    clang-format
    python3
)

if [[ "${1:-}" == "--list" ]]; then
    printf '%s\n' "${PACKAGES[@]}"
    exit 0
fi

# A package counts as present when dpkg reports it fully installed.
missing=()
for pkg in "${PACKAGES[@]}"; do
    status="$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)"
    if [[ "$status" != "installed" ]]; then
        missing+=("$pkg")
    fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
    echo "setup-deps: all ${#PACKAGES[@]} packages already installed"
    exit 0
fi

if [[ $(id -u) -eq 0 ]]; then
    SUDO=()
elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
else
    echo "setup-deps: not root and sudo not found; install these by hand:" >&2
    printf '  %s\n' "${missing[@]}" >&2
    exit 1
fi

echo "setup-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update
"${SUDO[@]}" apt-get install -y "${missing[@]}"
echo "setup-deps: done"
