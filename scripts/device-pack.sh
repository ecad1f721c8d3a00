#!/usr/bin/env bash
# Packs what a GPU machine WITHOUT MPI needs to run gridblas' CUDA tests and BFS benchmark.
#
# Runs HERE, on the Debian build machine (as root, for apt-get download), after the "release"
# preset is built. Fills .deps/ (git-ignored), to be sent with the device run as carry [".deps"]:
#   .deps/mpi/       the OpenMPI runtime (mpirun, orted, libmpi, MCA components, PMIx, hwloc,
#                    libevent, munge) unpacked from this machine's Debian packages with dpkg -x;
#                    components that need fabrics (UCX, OFI, PSM, verbs) or oshmem are dropped
#   .deps/bin/       gridblas-bfs, cuda_test_*, mpi_test_{exec_backend,bfs,spmv}
#   .deps/fallback/  libgomp, libudev: used on the device only where the system lacks them
#   .deps/data_dir   the test data folder compiled into the tests (see device-env.sh)
# CUDA libraries (cudart, cusparse, nvJitLink) and glibc/libstdc++/libgcc/libz are not carried.
#
#   bash scripts/device-pack.sh [BUILD_DIR]      (default build/release)
set -euo pipefail

cd "$(dirname "$0")/.."
build=${1:-build/release}
deps=$PWD/.deps
mpi=$deps/mpi
arch=x86_64-linux-gnu

# The OpenMPI runtime and the libraries it links that a CUDA image lacks, at the versions
# installed here (the ones the binaries were linked against).
packages=(openmpi-bin libopenmpi3 openmpi-common libpmix2 libhwloc15
          libevent-core-2.1-7 libevent-pthreads-2.1-7 libmunge2)
binaries=("$build"/benchmarks/gridblas-bfs "$build"/tests/cuda/cuda_test_*
          "$build"/tests/mpi/mpi_test_{exec_backend,bfs,spmv})
fallback_libs=(libgomp.so.1 libudev.so.1)
# Libraries every image has (or, for CUDA, the device's toolkit provides): never carried.
system_ok='^(linux-vdso|ld-linux-x86-64|libc|libm|libdl|libpthread|librt|libresolv|libstdc\+\+|libgcc_s|libz|libcuda|libcudart|libcusparse|libnvJitLink)\.so'

for b in "${binaries[@]}"; do
    [[ -x $b ]] || { echo "missing $b: build the release preset first" >&2; exit 1; }
done

rm -rf "$deps"
mkdir -p "$mpi" "$deps/bin" "$deps/fallback"
debs=$(mktemp -d)
trap 'rm -rf "$debs"' EXIT

# --- download and unpack (no install) ---------------------------------------------------------
specs=()
for p in "${packages[@]}"; do
    v=$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null || true)
    specs+=("$p${v:+=$v}")
done
dl() { (cd "$debs" && apt-get download -q -o APT::Sandbox::User=root "${specs[@]}"); }
dl || { apt-get update -q && dl; }
for d in "$debs"/*.deb; do dpkg -x "$d" "$mpi"; done

# --- prune to what mpirun and an MPI program need ----------------------------------------------
cd "$mpi"
rm -rf usr/share/doc usr/share/man usr/share/lintian usr/share/openmpi/amca-param-sets \
       usr/lib/$arch/openmpi/include usr/lib/$arch/pmix2/include
rm -f usr/share/openmpi/*wrapper-data.txt usr/share/openmpi/*.supp \
      usr/lib/$arch/pmix2/share/pmix/*.supp usr/lib/$arch/pmix2/share/pmix/*wrapper-data.txt
# Fortran, Java and OpenSHMEM bindings, fabric helper libraries.
rm -f usr/lib/$arch/lib{mpi_mpifh,mpi_usempi,mpi_java,oshmem,mca_common_ofi,mca_common_ucx}* \
      usr/lib/$arch/libmca_common_verbs* usr/lib/$arch/libompitrace*
# Keep the launcher (orterun, its links mpirun/mpiexec, orted for singletons) and ompi_info.
find usr/bin -mindepth 1 ! -name orterun ! -name orted ! -name ompi_info -delete
ln -s orterun usr/bin/mpirun
ln -s orterun usr/bin/mpiexec

# libgomp and libudev (hwloc links it) go to fallback/ (device-env.sh uses them only where
# the system lacks them).
for l in "${fallback_libs[@]}"; do
    src=$(ldconfig -p | awk -v l="$l" '$1 == l && /x86-64/ {print $NF; exit}')
    if [[ -n $src ]]; then cp -L "$src" "$deps/fallback/$l"; fi
done

ld_path=$mpi/usr/lib/$arch:$mpi/usr/lib/$arch/pmix2/lib:$mpi/usr/lib/$arch/openmpi/lib
ld_path=$ld_path:$deps/fallback
# Lines "lib => path" of an ELF file's dependencies that resolve outside .deps and are not
# system_ok, or do not resolve at all.
foreign() {
    LD_LIBRARY_PATH=$ld_path ldd "$1" 2>/dev/null |
        awk -v d="$deps/" '/=>/ && index($3, d) != 1 {print $1, $2, $3}' |
        grep -Ev "$system_ok" || true
}
# Drop each MCA component (OpenMPI's or PMIx's) that needs a library not carried.
for c in usr/lib/"$arch"/openmpi/lib/openmpi3/*.so usr/lib/"$arch"/pmix2/lib/pmix/*.so; do
    [[ -z $(foreign "$c") ]] || rm -f "$c"
done
find . -xtype l -delete
cd - >/dev/null

# --- gridblas binaries -------------------------------------------------------------------------
cp "${binaries[@]}" "$deps/bin/"
grep -h '^GRIDBLAS_TEST_DATA_DIR:' "$build/CMakeCache.txt" | cut -d= -f2- >"$deps/data_dir"

# --- self-check: every ELF file's dependencies resolve inside .deps or are system_ok -----------
bad=0
while IFS= read -r f; do
    file -b "$f" | grep -q '^ELF' || continue
    out=$(foreign "$f")
    [[ -z $out ]] || { echo "unresolved for ${f#"$deps"/}: $out"; bad=1; }
done < <(find "$deps" -type f)
if [[ $bad == 0 ]]; then
    echo "self-check: every library needed in .deps resolves inside .deps or is system_ok"
fi

du -sh "$deps"
exit $bad
