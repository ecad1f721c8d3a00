// ProcessGrid: splits a communicator into a pr x pc grid with row and column communicators.

#include "gridblas/core/process_grid.hpp"

#include <string>

#include "gridblas/core/collective_check.hpp"
#include "gridblas/core/error.hpp"
#include "gridblas/core/version.hpp"
#include "gridblas/cuda/device_base.hpp"

namespace gridblas {

std::pair<int, int> ProcessGrid::default_shape(int p) {
    int pr = 1;
    for (int d = 1; d * d <= p; ++d) {
        if (p % d == 0) pr = d;
    }
    return {pr, p / pr};
}

ProcessGrid::ProcessGrid(MPI_Comm comm, int pr, int pc, const comm::Options& options) {
    int p = 0;
    if (MPI_Comm_size(comm, &p) != MPI_SUCCESS || MPI_Comm_rank(comm, &rank_) != MPI_SUCCESS) {
        throw CommError("ProcessGrid: MPI_Comm_size/rank failed");
    }
    if (pr == 0 && pc == 0) {
        std::tie(pr, pc) = default_shape(p);
    }
    if (pr <= 0 || pc <= 0 || pr * pc != p) {
        throw InvalidValue("ProcessGrid: a " + std::to_string(pr) + " x " + std::to_string(pc) +
                           " grid needs " + std::to_string(pr * pc) + " ranks, but the " +
                           "communicator has " + std::to_string(p));
    }
    pr_ = pr;
    pc_ = pc;
    if (MPI_Comm_dup(comm, &base_comm_) != MPI_SUCCESS ||
        MPI_Comm_split(comm, my_row(), my_col(), &row_comm_) != MPI_SUCCESS ||
        MPI_Comm_split(comm, my_col(), my_row(), &col_comm_) != MPI_SUCCESS) {
        throw CommError("ProcessGrid: MPI_Comm_dup/MPI_Comm_split failed");
    }
    world_ = comm::Communicator::create(base_comm_, options);
    row_ = comm::Communicator::create(row_comm_, options);
    col_ = comm::Communicator::create(col_comm_, options);
}

ProcessGrid::~ProcessGrid() {
    world_.reset();
    row_.reset();
    col_.reset();
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) {
        if (base_comm_ != MPI_COMM_NULL) MPI_Comm_free(&base_comm_);
        if (row_comm_ != MPI_COMM_NULL) MPI_Comm_free(&row_comm_);
        if (col_comm_ != MPI_COMM_NULL) MPI_Comm_free(&col_comm_);
    }
}

std::shared_ptr<ProcessGrid> ProcessGrid::create(MPI_Comm comm, int pr, int pc,
                                                 const comm::Options& options) {
    return std::make_shared<ProcessGrid>(comm, pr, pc, options);
}

void ProcessGrid::set_comm_options(const comm::Options& options) {
    world_ = comm::Communicator::create(base_comm_, options);
    row_ = comm::Communicator::create(row_comm_, options);
    col_ = comm::Communicator::create(col_comm_, options);
}

void ProcessGrid::set_exec_backend(ExecBackend backend) {
    if (backend == ExecBackend::cpu) {
        exec_ = ExecBackend::cpu;
        cuda_device_ = -1;
        return;
    }
    // Whether CUDA was compiled in is the same on every rank: no communication needed.
    if (!has_cuda()) {
        throw NotCompiled(
            "ProcessGrid::set_exec_backend(cuda): gridblas was built without CUDA "
            "(configure with -DGRIDBLAS_WITH_CUDA=ON and a CUDA toolkit)");
    }
    // One rank per GPU: ranks sharing a node take its devices in node-local rank order.
    MPI_Comm node = MPI_COMM_NULL;
    int node_rank = 0;
    const bool split_ok = MPI_Comm_split_type(base_comm_, MPI_COMM_TYPE_SHARED, rank_,
                                              MPI_INFO_NULL, &node) == MPI_SUCCESS;
    if (split_ok) {
        MPI_Comm_rank(node, &node_rank);
        MPI_Comm_free(&node);
    }
    int device = -1;
    // Every failure goes through the agreement, so that all ranks throw alike.
    detail::run_collectively(*world_, [&] {
        if (!split_ok) {
            throw CommError("ProcessGrid::set_exec_backend: MPI_Comm_split_type failed on rank " +
                            std::to_string(rank_));
        }
        const int count = cuda_device_count();
        if (count == 0) {
            throw CudaError("ProcessGrid::set_exec_backend(cuda): rank " + std::to_string(rank_) +
                            " has no usable device: " + cuda_unavailable_reason());
        }
        device = node_rank % count;
        cuda_set_device(device);
    });
    exec_ = ExecBackend::cuda;
    cuda_device_ = device;
}

void ProcessGrid::reset_counters() const {
    world_->reset_counters();
    row_->reset_counters();
    col_->reset_counters();
}

comm::Counters ProcessGrid::total_counters() const {
    comm::Counters c = world_->total();
    c += row_->total();
    c += col_->total();
    return c;
}

}  // namespace gridblas
