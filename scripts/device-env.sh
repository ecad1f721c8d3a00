# Environment for running gridblas on a GPU machine without MPI, from the .deps/ folder that
# scripts/device-pack.sh filled (sent as carry [".deps"]).
#
# SOURCED ON THE DEVICE, from the repo root:   source scripts/device-env.sh
# Afterwards mpirun, gridblas-bfs, cuda_test_* and mpi_test_* are on PATH. Single-node runs
# only: shared memory between ranks, no network or fabric hardware needed, root allowed.
# Not `set -e`: it is sourced into the caller's shell.

_gb_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
_gb_deps=$_gb_root/.deps
if [ ! -x "$_gb_deps/mpi/usr/bin/orterun" ]; then
    echo "device-env.sh: $_gb_deps/mpi is missing (run scripts/device-pack.sh, carry .deps)" >&2
    # shellcheck disable=SC2317
    return 1 2>/dev/null || exit 1
fi
_gb_lib=$_gb_deps/mpi/usr/lib/x86_64-linux-gnu
# The carried libraries come from Debian 12: libevent needs glibc >= 2.36 (Ubuntu 24.04 ok).
_gb_v=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')
if [ -n "$_gb_v" ] && [ "$(printf '%s\n' 2.36 "$_gb_v" | sort -V | head -n1)" != 2.36 ]; then
    echo "device-env.sh: warning: glibc $_gb_v < 2.36, the carried OpenMPI will not load" >&2
fi

# OpenMPI 4.1 (Debian build, prefix /usr) relocated into .deps/mpi/usr; PMIx likewise.
export OPAL_PREFIX=$_gb_deps/mpi/usr
export OPAL_SYSCONFDIR=$_gb_deps/mpi/etc/openmpi
# Debian's PMIx has absolute libdir/datadir/sysconfdir (.../pmix2/{lib,share}): set each.
export PMIX_PREFIX=$_gb_lib/pmix2
export PMIX_LIBDIR=$_gb_lib/pmix2/lib
export PMIX_DATADIR=$_gb_lib/pmix2/share
export PMIX_SYSCONFDIR=$_gb_lib/pmix2/share
export PMIX_MCA_mca_base_component_path=$_gb_lib/pmix2/lib/pmix
export PATH=$_gb_deps/bin:$OPAL_PREFIX/bin:$PATH

_gb_ld=$_gb_lib:$_gb_lib/pmix2/lib:$_gb_lib/openmpi/lib
# libgomp / libudev from the pack only where the system has none.
for _gb_l in libgomp.so.1 libudev.so.1; do
    _gb_p=$(/sbin/ldconfig -p 2>/dev/null | awk -v l="$_gb_l" '$1 == l && /x86-64/ {print $NF; exit}')
    if [ -z "$_gb_p" ] || [ ! -s "$_gb_p" ]; then
        _gb_ld=$_gb_ld:$_gb_deps/fallback
        break
    fi
done
# The CUDA toolkit's libraries (cudart, cusparse, nvJitLink), in case ld.so.conf lacks them.
for _gb_d in /usr/local/cuda/lib64 /usr/local/cuda/lib /usr/local/cuda/targets/x86_64-linux/lib; do
    if [ -d "$_gb_d" ]; then _gb_ld=$_gb_ld:$_gb_d; fi
done
export LD_LIBRARY_PATH=$_gb_ld${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

# mpirun as root; one node: launch locally (no ssh), ranks talk through shared memory (vader),
# the ob1 PML only (no UCX / OFI / PSM probing), no CMA single-copy (needs ptrace rights
# that containers often lack), oversubscription allowed, no binding (ranks share the GPU
# host's cores with their OpenMP threads), singletons without an orted.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_plm=isolated
export OMPI_MCA_btl=self,vader
export OMPI_MCA_pml=ob1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_hwloc_base_binding_policy=none
export OMPI_MCA_ess_singleton_isolated=1
export OMPI_MCA_btl_base_warn_component_unused=0
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-8}
# Plain gtest output (under mpirun it is colourised), so that the scripts can grep it.
export GTEST_COLOR=no
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}

# The tests open their data at the path compiled in on the build machine
# (.deps/data_dir: the build checkout's absolute tests/data/lagraph): link it to this
# checkout if absent.
if [ -s "$_gb_deps/data_dir" ]; then
    _gb_data=$(cat "$_gb_deps/data_dir")
    if [ ! -e "$_gb_data" ] && [ -d "$_gb_root/tests/data/lagraph" ]; then
        mkdir -p "$(dirname "$_gb_data")" 2>/dev/null &&
            ln -s "$_gb_root/tests/data/lagraph" "$_gb_data" 2>/dev/null ||
            echo "device-env.sh: cannot link $_gb_data (data-file tests will fail)" >&2
    fi
fi
unset _gb_root _gb_deps _gb_lib _gb_v _gb_ld _gb_l _gb_p _gb_d _gb_data
