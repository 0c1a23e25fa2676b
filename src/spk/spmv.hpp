#pragma once
// Sparse matrix-vector product y = alpha * A * x + beta * y (BLAS semantics: beta == 0 never reads y).
#include <algorithm>
#include <limits>
#include <optional>

#include <Kokkos_Core.hpp>

#include "algorithms.hpp"
#include "csr_matrix.hpp"
#include "impl/far_columns.hpp"
#include "impl/grouped_columns.hpp"
#include "impl/packed_columns.hpp"
#include "impl/spmv_flat.hpp"
#include "impl/spmv_long_row_split.hpp"
#include "impl/spmv_stream.hpp"
#include "impl/spmv_thread_row.hpp"
#include "impl/spmv_vector_row.hpp"
#include "launch_shape.hpp"
#include "matrix_stats.hpp"
#include "select/spmv_select.hpp"

namespace spk {

struct SpmvOptions {
  SpmvAlgorithm algorithm = SpmvAlgorithm::automatic;
  int vector_length = 0;             // 0: the selector decides; alone, it keeps the team's thread count
  int team_size = 0;                 // 0: the selector decides
  std::optional<LaunchShape> shape;  // the whole launch shape, forced (the tuning sweep uses it)
  ColumnPacking packing = ColumnPacking::automatic;  // 16-bit packed column indices (impl/packed_columns.hpp)
  ColumnGrouping grouping = ColumnGrouping::automatic;  // columns renumbered hubs first (impl/grouped_columns.hpp)
};

// Reusable analysis of one matrix (like a cuSPARSE descriptor plus its buffer): build once, call spmv() many
// times with new x, y or values. It owns the algorithm's partition of A (row blocks, merge-path splits, long-row
// pieces) and the small buffers its fix-ups use, so one plan must not serve two spmv calls running concurrently.
template <class Matrix>
struct SpmvPlan {
  using device_type = typename Matrix::device_type;
  using scalar_type = typename Matrix::scalar_type;

  SpmvAlgorithm algorithm = SpmvAlgorithm::automatic;
  LaunchShape shape;
  RowLengthStats stats;
  // Host back-ends: most of A's nonzeros lie in rows spanning far more of x than the L2 holds
  // (impl/far_columns.hpp), and the host row loops read x ahead.
  bool far_columns = false;
  const char* tuned_from = nullptr;  // the tuning-table entry the choice came from (nullptr: the rules)
  double setup_seconds = 0;          // what make_spmv_plan took (features, selection, packing, partition)
  double features_seconds = 0;       // of which row_length_stats
  double packing_seconds = 0;        // of which packing the column indices
  double grouping_seconds = 0;       // of which counting (and renumbering) the columns

  impl::RowBlocks<device_type> row_blocks;                // stream
  impl::MergePath<device_type, scalar_type> merge_path;   // flat
  impl::LongRows<device_type, scalar_type> long_rows;     // long-row-split, and stream's pieces of long rows
  impl::LongRowWindows<device_type, scalar_type> long_row_windows;  // stream's long rows by column window (windowed)
  // A packed copy of A's column indices, read instead of A.entries() when columns.packed (all but long-row-split).
  impl::PackedColumns<device_type, typename Matrix::ordinal_type> columns;
  // A's columns renumbered hubs first, read instead of A.entries() (x's entries of the grouped columns copied into
  // their order by each call) when grouped.grouped (all but long-row-split; never with packed columns).
  impl::GroupedColumns<device_type, typename Matrix::ordinal_type, scalar_type> grouped;
};

namespace detail {
// Refuses a shape the algorithm cannot run with, naming what and why.
template <class Matrix>
void check_spmv_shape(SpmvAlgorithm algorithm, const LaunchShape& shape) {
  using exec = typename Matrix::execution_space;
  const char* who = "spk::make_spmv_plan";
  check_launch_shape<exec>(shape, who);
  // What a GPU team may have (CUDA: 48 KiB less Kokkos's reduction space; host back-ends allocate what is asked).
  // A launch over the limit must never reach Kokkos: its CUDA team launch throws after taking a scratch pool slot
  // it never gives back, and the next launches then wait for that slot forever.
  const std::size_t scratch_max = is_host_space<exec>()
                                      ? std::size_t(1) << 30
                                      : static_cast<std::size_t>(Kokkos::TeamPolicy<exec>::scratch_size_max(0));
  // Entries of bytes_per_entry that fit beside `extra` bytes; with `slots`, plus reduce_staged_rows's int per
  // serial_row_max + 1 of them and two more. 128: the alignment of two scratch views.
  const auto check_scratch = [&](const char* what, int entries, std::size_t bytes_per_entry, bool slots = false,
                                 std::size_t extra = 0) {
    const std::size_t group = impl::serial_row_max + 1, reserve = 128 + extra + (slots ? 2 * sizeof(int) : 0);
    const std::size_t per_group = group * bytes_per_entry + (slots ? sizeof(int) : 0);
    const std::size_t most = scratch_max > reserve ? (scratch_max - reserve) / per_group * group : 0;
    if (entries < 1 || static_cast<std::size_t>(entries) > most)
      throw invalid_argument(concat(who, ": ", to_string(algorithm), " needs a ", what, " of 1 to ", most,
                                    " entries on this back-end, got ", entries));
  };
  using S = typename Matrix::scalar_type;
  if (shape.pipelined && algorithm != SpmvAlgorithm::stream)
    throw invalid_argument(concat(who, ": a pipelined stage is a stream option; ", to_string(algorithm),
                                  " takes no pipelined shape"));
  if (shape.balanced && algorithm != SpmvAlgorithm::stream)
    throw invalid_argument(concat(who, ": balanced row sums are a stream option; ", to_string(algorithm),
                                  " takes no balanced shape"));
  if (shape.windowed && (algorithm != SpmvAlgorithm::stream || shape.chunk < 1))
    throw invalid_argument(concat(who, ": column windows are an option of stream with a piece length (chunk >= 1); ",
                                  to_string(algorithm), " with chunk ", shape.chunk, " takes none"));
  switch (algorithm) {
    case SpmvAlgorithm::thread_row:
      if (shape.vector_length != 1)
        throw invalid_argument(concat(who, ": thread-row uses one lane per row, got vector length ",
                                      shape.vector_length));
      if (shape.stage_capacity > 0)
        check_scratch("stage capacity", shape.stage_capacity, sizeof(S) + sizeof(typename Matrix::ordinal_type));
      break;
    case SpmvAlgorithm::stream: {
      // balanced: reduce_rows_balanced's lane arrays as the kernel asks for them, and their three views' alignment
      using T = impl::SpmvTypes<Matrix>;
      const int lanes = shape.team_size * shape.vector_length;
      check_scratch("stage capacity", shape.stage_capacity, sizeof(S), true,
                    shape.balanced ? impl::balanced_rows_scratch_bytes<typename T::scalar_scratch,
                                                                       typename T::int_scratch>(lanes) + 3 * 128
                                   : 0);
      if (shape.chunk < 0)
        throw invalid_argument(concat(who, ": stream needs a piece length (chunk) >= 0 (0: a team per long row), got ",
                                      shape.chunk));
      break;
    }
    case SpmvAlgorithm::flat: check_scratch("chunk", shape.chunk, sizeof(S), true); break;
    case SpmvAlgorithm::long_row_split:
      if (shape.chunk < 1 || shape.long_row < 1)
        throw invalid_argument(concat(who, ": long-row-split needs a piece length (chunk) and a long-row threshold",
                                      " >= 1, got ", shape.chunk, " and ", shape.long_row));
      break;
    default: break;
  }
}

// Kokkos numbers teams with an int: refuse a launch that would need more (a tiny forced chunk on a huge matrix).
template <class Plan, class Matrix>
void check_spmv_league(const Plan& plan, const Matrix& A) {
  const std::int64_t rows = A.num_rows(), nnz = A.nnz();
  std::int64_t teams = (rows + plan.shape.rows_per_team() - 1) / plan.shape.rows_per_team();
  if (plan.algorithm == SpmvAlgorithm::stream)
    teams = plan.row_blocks.count + plan.long_rows.pieces + plan.long_row_windows.pieces;
  if (plan.algorithm == SpmvAlgorithm::flat) teams = plan.merge_path.chunks;
  if (plan.algorithm == SpmvAlgorithm::long_row_split) teams += plan.long_rows.pieces;
  if (teams > std::numeric_limits<int>::max())
    throw invalid_argument(concat("spk::make_spmv_plan: ", to_string(plan.algorithm), " would launch ", teams,
                                  " teams, more than a Kokkos league holds (", std::numeric_limits<int>::max(),
                                  "); force a larger stage capacity or chunk"));
}
}  // namespace detail

template <class Matrix>
SpmvPlan<Matrix> make_spmv_plan(const Matrix& A, const SpmvOptions& options = {}) {
  static_assert(is_csr_matrix<Matrix>::value, "spk::make_spmv_plan: A must be an spk::CsrMatrix");
  using exec = typename Matrix::execution_space;
  Kokkos::Timer timer;
  SpmvPlan<Matrix> plan;
  plan.stats = row_length_stats(A);
  if constexpr (is_host_space<exec>())
    plan.far_columns = impl::far_nonzero_share(A, impl::far_column_bytes / sizeof(typename Matrix::scalar_type)) >=
                       impl::far_columns_share;
  plan.features_seconds = timer.seconds();
  const auto choice =
      select::choose_spmv<exec>(options.algorithm, plan.stats, sizeof(typename Matrix::scalar_type));
  plan.algorithm = choice.algorithm;
  plan.shape = options.shape ? *options.shape : choice.shape;
  plan.tuned_from = options.shape ? nullptr : choice.tuned_from;
  apply_overrides(plan.shape, options.vector_length, options.team_size);
  detail::check_spmv_shape<Matrix>(plan.algorithm, plan.shape);
  // Packed and grouped columns replace A's column reader, which long-row-split does not take.
  const auto refuse_own_columns = [&](bool forced, const char* option_works) {
    if (forced && !select::reads_packed_columns(plan.algorithm))
      throw invalid_argument(detail::concat("spk::make_spmv_plan: ", to_string(plan.algorithm), " reads A's own",
                                            " column indices; ", option_works, " with thread-row, vector-row,",
                                            " stream and flat"));
  };
  refuse_own_columns(options.packing == ColumnPacking::on, "packed columns work");
  refuse_own_columns(options.grouping == ColumnGrouping::on, "column grouping works");
  if (options.grouping == ColumnGrouping::on && options.packing == ColumnPacking::on)
    throw invalid_argument("spk::make_spmv_plan: column grouping and packed columns are exclusive: turn one off");
  // Grouping is for matrices whose columns are too scattered to pack, so a plan that groups does not pack.
  if (options.grouping == ColumnGrouping::on ||
      (options.grouping == ColumnGrouping::automatic && options.packing != ColumnPacking::on &&
       select::may_group_columns<exec>(plan.algorithm, plan.stats, sizeof(typename Matrix::scalar_type)))) {
    const double before = timer.seconds();
    plan.grouped = impl::group_columns(A, options.grouping == ColumnGrouping::on);
    plan.grouping_seconds = timer.seconds() - before;
  }
  // automatic: the table entry's winner, or the rule when the shape was forced (the entry's shape was not used)
  const bool pack_automatically =
      options.shape ? select::pack_columns_by_rule<exec>(plan.algorithm, plan.stats) : choice.packed_columns;
  if (options.packing == ColumnPacking::on ||
      (options.packing == ColumnPacking::automatic && pack_automatically && !plan.grouped.grouped)) {
    const double before = timer.seconds();
    plan.columns = impl::pack_columns(A, options.packing == ColumnPacking::on);  // waits for its verdict
    plan.packing_seconds = timer.seconds() - before;
  }
  switch (plan.algorithm) {
    case SpmvAlgorithm::stream:
      plan.row_blocks = impl::make_row_blocks(A, plan.shape.stage_capacity, plan.stats);
      plan.long_rows = impl::make_stream_pieces(A, plan.shape, plan.row_blocks);
      plan.long_row_windows = impl::make_stream_windows(A, plan.shape, plan.row_blocks);
      break;
    case SpmvAlgorithm::flat:
      plan.merge_path = impl::make_merge_path(A, plan.shape.chunk, plan.stats.max_length);
      break;
    case SpmvAlgorithm::long_row_split:
      plan.long_rows = impl::make_long_rows(A, plan.shape.long_row, plan.shape.chunk);
      break;
    default: break;
  }
  detail::check_spmv_league(plan, A);
  Kokkos::fence();
  plan.setup_seconds = timer.seconds();
  return plan;
}

namespace detail {
template <class Plan, class Matrix, class XView, class YView>
void check_spmv_arguments(const Plan& plan, const Matrix& A, const XView& x, const YView& y) {
  static_assert(is_csr_matrix<Matrix>::value, "spk::spmv: A must be an spk::CsrMatrix");
  static_assert(Kokkos::is_view<XView>::value && Kokkos::is_view<YView>::value, "spk::spmv: x and y must be Views");
  static_assert(static_cast<int>(XView::rank) == 1 && static_cast<int>(YView::rank) == 1,
                "spk::spmv: x and y must be rank-1 Views");
  using exec = typename Matrix::execution_space;
  static_assert(Kokkos::SpaceAccessibility<exec, typename XView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<exec, typename YView::memory_space>::accessible,
                "spk::spmv: x and y must be accessible from the matrix's execution space");
  if (x.extent(0) != static_cast<std::size_t>(A.num_cols()))
    throw invalid_argument(concat("spk::spmv: x has ", x.extent(0), " entries, expected A.cols = ", A.num_cols()));
  if (y.extent(0) != static_cast<std::size_t>(A.num_rows()))
    throw invalid_argument(concat("spk::spmv: y has ", y.extent(0), " entries, expected A.rows = ", A.num_rows()));
  check_plan_matches(plan.stats, A, "spk::spmv");
}
}  // namespace detail

// A must have the sparsity pattern the plan analysed (its values may have changed). Every kernel of the call is
// queued on `space`, an instance of A's execution space (a CUDA or HIP stream, as cusparseSetStream chooses), and the
// call returns without waiting for them: fence `space` before reading y on the host. The plan's buffers are written
// by the call, so two calls sharing a plan must not run at once (on two instances, fence the first before the second).
template <class Matrix, class XView, class YView>
void spmv(const typename Matrix::execution_space& space, const SpmvPlan<Matrix>& plan,
          typename Matrix::scalar_type alpha, const Matrix& A, const XView& x, typename Matrix::scalar_type beta,
          const YView& y) {
  detail::check_spmv_arguments(plan, A, x, y);
  // Runs f with the plan's column reader (packed, renumbered or A's own) and the x it indexes.
  const auto with_columns = [&](const auto& f) {
    if (plan.grouped.grouped) {
      impl::gather_grouped_x(space, plan.grouped, x);
      f(impl::columns_in_place(plan.grouped.entries), impl::grouped_x(plan.grouped, x));
    } else if (plan.columns.packed) {
      f(plan.columns, x);
    } else {
      f(impl::columns_in_place(A.entries()), x);
    }
  };
  switch (plan.algorithm) {
    case SpmvAlgorithm::thread_row:
      with_columns([&](const auto& cols, const auto& xv) {
        impl::spmv_thread_row(space, plan.shape, cols, alpha, A, xv, beta, y, plan.stats.max_length, plan.far_columns);
      });
      break;
    case SpmvAlgorithm::vector_row:
      with_columns([&](const auto& cols, const auto& xv) {
        impl::spmv_vector_row(space, plan.shape, cols, alpha, A, xv, beta, y, plan.stats.max_length, plan.far_columns);
      });
      break;
    case SpmvAlgorithm::stream:
      with_columns([&](const auto& cols, const auto& xv) {
        const auto run = [&](const auto& pieces) {
          impl::spmv_stream(space, plan.shape, plan.row_blocks, pieces, cols, alpha, A, xv, beta, y);
        };
        if (plan.shape.windowed)
          run(plan.long_row_windows);
        else
          run(plan.long_rows);
      });
      break;
    case SpmvAlgorithm::flat:
      with_columns([&](const auto& cols, const auto& xv) {
        impl::spmv_flat(space, plan.shape, plan.merge_path, cols, alpha, A, xv, beta, y);
      });
      break;
    case SpmvAlgorithm::long_row_split:
      impl::spmv_long_row_split(space, plan.shape, plan.long_rows, alpha, A, x, beta, y, plan.stats.max_length,
                                plan.far_columns);
      break;
    case SpmvAlgorithm::automatic:
      throw invalid_argument("spk::spmv: the plan has no algorithm; build it with spk::make_spmv_plan");
  }
}

// On A's execution space's default instance.
template <class Matrix, class XView, class YView>
void spmv(const SpmvPlan<Matrix>& plan, typename Matrix::scalar_type alpha, const Matrix& A, const XView& x,
          typename Matrix::scalar_type beta, const YView& y) {
  spmv(typename Matrix::execution_space(), plan, alpha, A, x, beta, y);
}

// One-shot form: analyses A, then multiplies. Prefer a plan when A is used more than once.
template <class Matrix, class XView, class YView>
void spmv(typename Matrix::scalar_type alpha, const Matrix& A, const XView& x, typename Matrix::scalar_type beta,
          const YView& y, const SpmvOptions& options = {}) {
  spmv(make_spmv_plan(A, options), alpha, A, x, beta, y);
}

}  // namespace spk
