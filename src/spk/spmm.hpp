#pragma once
// Sparse times dense: C = alpha * A * B + beta * C, B and C rank-2 Views (LayoutRight or LayoutLeft) with k columns
// (BLAS semantics: beta == 0 never reads C).
#include <limits>
#include <optional>

#include <Kokkos_Core.hpp>

#include "algorithms.hpp"
#include "csr_matrix.hpp"
#include "impl/row_reorder.hpp"
#include "impl/spmm_flat.hpp"
#include "impl/spmm_k_tiled.hpp"
#include "impl/spmm_row_pieces.hpp"
#include "impl/spmm_row_team.hpp"
#include "impl/spmm_vector_row.hpp"
#include "launch_shape.hpp"
#include "matrix_stats.hpp"
#include "select/spmm_select.hpp"

namespace spk {

struct SpmmOptions {
  SpmmAlgorithm algorithm = SpmmAlgorithm::automatic;
  int vector_length = 0;     // lanes per row; 0: the selector decides; alone, it keeps the team's thread count
  int team_size = 0;         // 0: the selector decides
  int columns_per_lane = 0;  // 0: the selector decides (this or vector_length drops a tuned row-pieces tile)
  std::optional<LaunchShape> shape;               // the whole launch shape, forced (the tuning sweep uses it)
  RowReordering reorder = RowReordering::none;    // opt-in row reordering (row-team, k-tiled, vector-row)
};

// Reusable analysis of one matrix for one dense width k: build once, call spmm() many times with new B, C or
// values. It owns the algorithm's partition (row blocks, merge-path splits and their carry buffers, row order), so
// one plan must not serve two spmm calls running concurrently.
template <class Matrix>
struct SpmmPlan {
  using device_type = typename Matrix::device_type;

  SpmmAlgorithm algorithm = SpmmAlgorithm::automatic;
  LaunchShape shape;
  RowLengthStats stats;
  int k = 0;
  RowReordering reorder = RowReordering::none;
  const char* tuned_from = nullptr;  // the tuning-table entry the choice came from (nullptr: the rules)
  double setup_seconds = 0;          // what make_spmm_plan took, reordering included
  double features_seconds = 0;       // of which row_length_stats
  double reorder_seconds = 0;        // of which building the row order

  impl::RowBlocks<device_type> row_blocks;                                      // row-team, k-tiled
  bool long_rows = false;                                                       // a row exceeds the stage capacity
  impl::RowOrder<device_type, typename Matrix::offset_type> order;             // reordering
  impl::SpmmMergePath<device_type, typename Matrix::scalar_type> merge_path;    // flat
  Kokkos::View<std::int64_t*, device_type> vector_long_rows;                    // vector-row: rows of a team each
  impl::SpmmRowPieces<device_type, typename Matrix::scalar_type> row_pieces;    // row-pieces
};

namespace detail {
template <class Matrix>
void check_spmm_shape(SpmmAlgorithm algorithm, const LaunchShape& shape, std::int64_t max_length, int k) {
  using exec = typename Matrix::execution_space;
  using S = typename Matrix::scalar_type;
  const char* who = "spk::make_spmm_plan";
  check_launch_shape<exec>(shape, who);
  if (shape.pipelined)
    throw invalid_argument(concat(who, ": a pipelined stage is an SpMV stream option; SpMM shapes take none"));
  if (shape.balanced)
    throw invalid_argument(concat(who, ": balanced row sums are an SpMV stream option; SpMM shapes take none"));
  if (!impl::spmm_columns_per_lane_compiled<exec>(shape.columns_per_lane))
    throw invalid_argument(concat(who, ": ", shape.columns_per_lane, " columns per lane is not compiled for this ",
                                  "back-end, expected ", is_host_space<exec>() ? "1, 8 or 16" : "1, 2, 4 or 8"));
  const int slots = impl::spmm_lane_slots(shape.vector_length, shape.columns_per_lane, k);
  if (!impl::lane_groups_supported<exec>() && slots < shape.vector_length)
    throw invalid_argument(concat(who, ": ", describe(shape), " has more lanes than k = ", k, " needs, and this ",
                                  "back-end cannot share rows' nonzeros among lane groups; expected a vector length ",
                                  "of at most ", slots));
  // See check_spmv_shape: a GPU team launch over Kokkos's scratch limit must never be attempted.
  const std::size_t scratch_max = select::spmm_scratch_max<exec>();
  const bool chunked = algorithm == SpmmAlgorithm::flat || algorithm == SpmmAlgorithm::row_pieces;
  if (algorithm != SpmmAlgorithm::vector_row && (chunked ? shape.chunk : shape.stage_capacity) < 1)
    throw invalid_argument(concat(who, ": ", to_string(algorithm), " needs a ", chunked ? "chunk" : "stage capacity",
                                  " >= 1, got ", chunked ? shape.chunk : shape.stage_capacity));
  if (algorithm == SpmmAlgorithm::row_pieces && !is_host_space<exec>() &&
      shape.team_size * shape.vector_length > impl::row_pieces_max_threads)
    throw invalid_argument(concat(who, ": row-pieces with ", describe(shape), " has ",
                                  shape.team_size * shape.vector_length, " threads a team, expected at most ",
                                  impl::row_pieces_max_threads, " (its launch bounds)"));
  // row-pieces: a tile of columns_per_lane times a power of two lanes, at most the vector (lane groups share the rest).
  const int tile = shape.tile_width, cpl = shape.columns_per_lane;
  if (algorithm == SpmmAlgorithm::row_pieces && tile > 0 && !is_host_space<exec>() &&
      (tile % cpl != 0 || tile / cpl > shape.vector_length || ((tile / cpl) & (tile / cpl - 1)) != 0))
    throw invalid_argument(concat(who, ": row-pieces tile of ", tile, " columns with ", describe(shape),
                                  " is invalid, expected ", cpl, " columns per lane times a power of two lanes of at ",
                                  "most ", shape.vector_length));
  const std::size_t bytes =
      select::spmm_scratch_bytes(algorithm, shape, sizeof(S), sizeof(typename Matrix::ordinal_type), max_length);
  if (bytes > scratch_max)
    throw invalid_argument(concat(who, ": ", to_string(algorithm), " with ", describe(shape), " needs ", bytes,
                                  " bytes of team scratch, more than the ", scratch_max, " this back-end gives"));
}
}  // namespace detail

template <class Matrix>
SpmmPlan<Matrix> make_spmm_plan(const Matrix& A, int k, const SpmmOptions& options = {}) {
  static_assert(is_csr_matrix<Matrix>::value, "spk::make_spmm_plan: A must be an spk::CsrMatrix");
  using exec = typename Matrix::execution_space;
  using S = typename Matrix::scalar_type;
  if (k < 0) throw invalid_argument(detail::concat("spk::make_spmm_plan: k is ", k, ", expected k >= 0"));
  Kokkos::Timer timer;
  SpmmPlan<Matrix> plan;
  plan.k = k;
  plan.stats = row_length_stats(A);
  plan.features_seconds = timer.seconds();
  constexpr int ordinal_bytes = sizeof(typename Matrix::ordinal_type);
  auto choice = select::choose_spmm<exec>(options.algorithm, plan.stats, k, sizeof(S), ordinal_bytes);
  // flat balances nonzeros in stored order and row-pieces orders them itself; reordering asks for rows.
  const auto orders_itself = [](SpmmAlgorithm a) { return a == SpmmAlgorithm::flat || a == SpmmAlgorithm::row_pieces; };
  if (options.reorder != RowReordering::none && options.algorithm == SpmmAlgorithm::automatic &&
      orders_itself(choice.algorithm))
    choice = select::choose_spmm<exec>(SpmmAlgorithm::row_team, plan.stats, k, sizeof(S), ordinal_bytes);
  plan.algorithm = choice.algorithm;
  plan.shape = options.shape ? *options.shape : choice.shape;
  plan.tuned_from = options.shape ? nullptr : choice.tuned_from;
  apply_overrides(plan.shape, options.vector_length, options.team_size);
  if (options.columns_per_lane > 0) plan.shape.columns_per_lane = options.columns_per_lane;
  // A tuned row-pieces tile counts the tuned lanes' columns: with other lanes, the lanes k needs (a forced shape's
  // tile stays, and is checked below).
  if (!options.shape && (options.columns_per_lane > 0 || options.vector_length > 0)) plan.shape.tile_width = 0;
  if (orders_itself(plan.algorithm) && options.reorder != RowReordering::none)
    throw invalid_argument(detail::concat("spk::make_spmm_plan: ", to_string(plan.algorithm),
                                          plan.algorithm == SpmmAlgorithm::flat
                                              ? " balances nonzeros in stored row order"
                                              : " orders its row pieces by length itself",
                                          " and does not reorder rows; ask row-team, k-tiled or vector-row for ",
                                          to_string(options.reorder), " reordering"));
  detail::check_spmm_shape<Matrix>(plan.algorithm, plan.shape, plan.stats.max_length, k);
  plan.reorder = options.reorder;
  std::int64_t teams = 0;
  if (plan.algorithm == SpmmAlgorithm::flat) {
    plan.merge_path = impl::make_spmm_merge_path(A, plan.shape.chunk, k);
    teams = impl::flat_teams(plan.merge_path.chunks, plan.shape);
  } else if (plan.algorithm == SpmmAlgorithm::row_pieces) {
    plan.row_pieces = impl::make_spmm_row_pieces(A, plan.shape.chunk, k, plan.stats.max_length);
    teams = impl::row_pieces_teams<exec>(plan.row_pieces.count, plan.shape, k);
  } else {
    Kokkos::Timer reorder_timer;
    plan.order = impl::make_row_order(A, options.reorder);
    plan.reorder_seconds = reorder_timer.seconds();
  }
  if (plan.algorithm == SpmmAlgorithm::vector_row) {
    plan.vector_long_rows = impl::make_vector_row_long_rows(A, plan.shape, plan.stats.max_length);
    teams = impl::vector_row_teams(A.num_rows(), plan.vector_long_rows.extent(0), plan.shape);
  } else if (plan.algorithm != SpmmAlgorithm::flat && plan.algorithm != SpmmAlgorithm::row_pieces) {
    plan.row_blocks = plan.order.identity()
                          ? impl::make_row_blocks(A, plan.shape.stage_capacity, plan.stats)
                          : impl::make_row_blocks<exec, typename Matrix::device_type>(
                                plan.order.offsets, A.num_rows(), plan.shape.stage_capacity, plan.stats);
    plan.long_rows = plan.stats.max_length > plan.shape.stage_capacity;
    teams = plan.algorithm == SpmmAlgorithm::k_tiled ? impl::k_tiled_teams(plan.row_blocks.count, k, plan.shape)
                                                     : plan.row_blocks.count;
  }
  if (teams > std::numeric_limits<int>::max())
    throw invalid_argument(detail::concat("spk::make_spmm_plan: ", to_string(plan.algorithm), " would launch ",
                                          teams, " teams, more than a Kokkos league holds (",
                                          std::numeric_limits<int>::max(),
                                          "); force a larger stage capacity, chunk or rows per thread"));
  Kokkos::fence();
  plan.setup_seconds = timer.seconds();
  return plan;
}

namespace detail {
template <class Plan, class Matrix, class BView, class CView>
void check_spmm_arguments(const Plan& plan, const Matrix& A, const BView& B, const CView& C) {
  static_assert(is_csr_matrix<Matrix>::value, "spk::spmm: A must be an spk::CsrMatrix");
  static_assert(Kokkos::is_view<BView>::value && Kokkos::is_view<CView>::value, "spk::spmm: B and C must be Views");
  static_assert(static_cast<int>(BView::rank) == 2 && static_cast<int>(CView::rank) == 2,
                "spk::spmm: B and C must be rank-2 Views");
  using exec = typename Matrix::execution_space;
  static_assert(Kokkos::SpaceAccessibility<exec, typename BView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<exec, typename CView::memory_space>::accessible,
                "spk::spmm: B and C must be accessible from the matrix's execution space");
  if (B.extent(0) != static_cast<std::size_t>(A.num_cols()))
    throw invalid_argument(concat("spk::spmm: B has ", B.extent(0), " rows, expected A.cols = ", A.num_cols()));
  if (C.extent(0) != static_cast<std::size_t>(A.num_rows()))
    throw invalid_argument(concat("spk::spmm: C has ", C.extent(0), " rows, expected A.rows = ", A.num_rows()));
  if (C.extent(1) != B.extent(1))
    throw invalid_argument(concat("spk::spmm: C has ", C.extent(1), " columns, expected B's ", B.extent(1)));
  // The kernels step from row to row of B with a 32-bit byte offset (impl::LaneRows).
  const std::size_t row_bytes = B.stride(0) * sizeof(typename BView::non_const_value_type);
  if (row_bytes > std::numeric_limits<std::uint32_t>::max())
    throw invalid_argument(concat("spk::spmm: B's row stride is ", B.stride(0), " elements (", row_bytes,
                                  " bytes), more than the ", std::numeric_limits<std::uint32_t>::max(),
                                  " bytes the kernels step between rows with"));
  if (B.extent(1) != static_cast<std::size_t>(plan.k))
    throw invalid_argument(concat("spk::spmm: the plan was made for k = ", plan.k, ", but B has ", B.extent(1),
                                  " columns"));
  check_plan_matches(plan.stats, A, "spk::spmm");
}
}  // namespace detail

// A must have the sparsity pattern the plan analysed (its values may have changed). Every kernel of the call is
// queued on `space`, an instance of A's execution space, and the call returns without waiting for them (as spmv).
template <class Matrix, class BView, class CView>
void spmm(const typename Matrix::execution_space& space, const SpmmPlan<Matrix>& plan,
          typename Matrix::scalar_type alpha, const Matrix& A, const BView& B, typename Matrix::scalar_type beta,
          const CView& C) {
  detail::check_spmm_arguments(plan, A, B, C);
  switch (plan.algorithm) {
    case SpmmAlgorithm::row_team:
      impl::spmm_row_team(space, plan.shape, plan.row_blocks, plan.order, plan.long_rows, alpha, A, B, beta, C);
      break;
    case SpmmAlgorithm::k_tiled:
      impl::spmm_k_tiled(space, plan.shape, plan.row_blocks, plan.order, plan.long_rows, alpha, A, B, beta, C);
      break;
    case SpmmAlgorithm::flat: impl::spmm_flat(space, plan.shape, plan.merge_path, alpha, A, B, beta, C); break;
    case SpmmAlgorithm::row_pieces:
      impl::spmm_row_pieces(space, plan.shape, plan.row_pieces, alpha, A, B, beta, C);
      break;
    case SpmmAlgorithm::vector_row:
      impl::spmm_vector_row(space, plan.shape, plan.order.rows, plan.vector_long_rows, alpha, A, B, beta, C);
      break;
    case SpmmAlgorithm::automatic:
      throw invalid_argument("spk::spmm: the plan has no algorithm; build it with spk::make_spmm_plan");
  }
}

// On A's execution space's default instance.
template <class Matrix, class BView, class CView>
void spmm(const SpmmPlan<Matrix>& plan, typename Matrix::scalar_type alpha, const Matrix& A, const BView& B,
          typename Matrix::scalar_type beta, const CView& C) {
  spmm(typename Matrix::execution_space(), plan, alpha, A, B, beta, C);
}

// One-shot form: analyses A, then multiplies. Prefer a plan when A is used more than once.
template <class Matrix, class BView, class CView>
void spmm(typename Matrix::scalar_type alpha, const Matrix& A, const BView& B, typename Matrix::scalar_type beta,
          const CView& C, const SpmmOptions& options = {}) {
  spmm(make_spmm_plan(A, static_cast<int>(B.extent(1)), options), alpha, A, B, beta, C);
}

}  // namespace spk
