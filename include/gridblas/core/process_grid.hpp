#pragma once
/// @file process_grid.hpp
/// @brief The pr x pc process grid: world, row and column communicators, each with its
/// communication backend.
///
/// World rank r sits at grid position (r / pc, r % pc). The row communicator of grid row i
/// holds P(i, 0..pc-1) ordered by column; the column communicator of grid column j holds
/// P(0..pr-1, j) ordered by row.

#include <mpi.h>

#include <memory>
#include <utility>

#include "gridblas/comm/communicator.hpp"
#include "gridblas/core/context.hpp"

namespace gridblas {

/// A 2D grid of MPI ranks. Construction is collective over `comm`.
class ProcessGrid {
public:
    /// Builds a pr x pc grid over `comm`. With pr = pc = 0 the most square factorisation of
    /// the rank count is used (pr <= pc). Throws InvalidValue on every rank when pr * pc
    /// differs from the rank count (the check needs no communication).
    explicit ProcessGrid(MPI_Comm comm, int pr = 0, int pc = 0, const comm::Options& options = {});
    ~ProcessGrid();
    ProcessGrid(const ProcessGrid&) = delete;
    ProcessGrid& operator=(const ProcessGrid&) = delete;

    /// Convenience: a shared grid, as distributed objects hold it.
    static std::shared_ptr<ProcessGrid> create(MPI_Comm comm, int pr = 0, int pc = 0,
                                               const comm::Options& options = {});

    /// The most square factorisation (pr, pc) of p with pr <= pc.
    static std::pair<int, int> default_shape(int p);

    int pr() const { return pr_; }
    int pc() const { return pc_; }
    int size() const { return pr_ * pc_; }
    int rank() const { return rank_; }
    int my_row() const { return rank_ / pc_; }
    int my_col() const { return rank_ % pc_; }
    /// World rank of grid position (i, j).
    int rank_of(int i, int j) const { return i * pc_ + j; }

    comm::Communicator& world() const { return *world_; }
    comm::Communicator& row() const { return *row_; }
    comm::Communicator& col() const { return *col_; }

    /// Replaces the backend options of all three communicators (collective).
    void set_comm_options(const comm::Options& options);
    /// Chooses where the local work of operations on this grid runs (collective).
    /// ExecBackend::cuda binds each rank to one GPU of its node (node-local rank modulo the
    /// node's device count) and makes vxm, mxv and bfs run their local kernels on it, with
    /// the exchanges staged through pinned host memory. Other operations stay on the CPU.
    /// @throws NotCompiled on every rank when gridblas was built without CUDA; CudaError on
    ///         every rank when any rank has no usable device. The backend is unchanged then.
    void set_exec_backend(ExecBackend backend);
    /// Where local work runs (ExecBackend::cpu unless set_exec_backend() chose cuda).
    ExecBackend exec_backend() const { return exec_; }
    /// The CUDA device of this rank when exec_backend() is cuda, else -1.
    int cuda_device() const { return cuda_device_; }

    /// Zeroes the counters of all three communicators.
    void reset_counters() const;
    /// Sum of the counters of the three communicators.
    comm::Counters total_counters() const;

private:
    int pr_ = 1;
    int pc_ = 1;
    int rank_ = 0;
    ExecBackend exec_ = ExecBackend::cpu;
    int cuda_device_ = -1;
    MPI_Comm base_comm_ = MPI_COMM_NULL;  // duplicate of the caller's communicator
    MPI_Comm row_comm_ = MPI_COMM_NULL;
    MPI_Comm col_comm_ = MPI_COMM_NULL;
    std::unique_ptr<comm::Communicator> world_;
    std::unique_ptr<comm::Communicator> row_;
    std::unique_ptr<comm::Communicator> col_;
};

}  // namespace gridblas
