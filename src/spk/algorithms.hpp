#pragma once
// The algorithm enums: every algorithm can be forced by name; automatic lets the selector choose.
#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "error.hpp"

namespace spk {

enum class SpmvAlgorithm { automatic, thread_row, vector_row, stream, flat, long_row_split };
enum class SpmmAlgorithm { automatic, row_team, k_tiled, flat, vector_row, row_pieces };
// SpGEMM: binned sends each row to the accumulator its work calls for; gustavson gives every row a worker's dense
// accumulator (where the budget holds one per worker, else binned); automatic is gustavson on host back-ends and
// binned on GPUs. The other values send every row down that path (rows it cannot hold take the global fallback, or
// dense tiles where the memory budget leaves no room for a global table).
enum class SpgemmAlgorithm { automatic, binned, row_merge, sort_rows, tiny_rows, hash, dense_tile, global, gustavson };
// SpMM's opt-in row reordering (a plan option, not an algorithm): the order in which rows are visited.
enum class RowReordering { none, by_length, rcm };
// How SpGEMM's hash and dense teams walk a row's products (an option of those paths, not an algorithm): `flat`, every
// lane over the products of staged entries of A, or `by-entries`, threads over A's row and lanes over B's rows;
// `automatic`: flat on GPUs when B's rows are shorter than a vector, else by entries.
enum class SpgemmWalk { automatic, flat, by_entries };
// Whether an SpMV plan streams a 16-bit packed copy of A's column indices (a plan option, not an algorithm: see
// impl/packed_columns.hpp); `on` throws when the matrix does not fit the packing, `automatic` packs where the rule
// in select/spmv_select.hpp says it pays and the matrix fits.
enum class ColumnPacking { automatic, off, on };
// Whether an SpMV plan renumbers A's columns by their nonzero count, hubs first (a plan option, not an algorithm: see
// impl/grouped_columns.hpp); `automatic` renumbers where the rule in select/spmv_select.hpp says it pays.
enum class ColumnGrouping { automatic, off, on };

namespace detail {
template <class Enum, std::size_t N>
using name_table = std::array<std::pair<Enum, std::string_view>, N>;

inline constexpr name_table<SpmvAlgorithm, 6> spmv_names{{{SpmvAlgorithm::automatic, "automatic"},
                                                          {SpmvAlgorithm::thread_row, "thread-row"},
                                                          {SpmvAlgorithm::vector_row, "vector-row"},
                                                          {SpmvAlgorithm::stream, "stream"},
                                                          {SpmvAlgorithm::flat, "flat"},
                                                          {SpmvAlgorithm::long_row_split, "long-row-split"}}};
inline constexpr name_table<SpmmAlgorithm, 6> spmm_names{{{SpmmAlgorithm::automatic, "automatic"},
                                                          {SpmmAlgorithm::row_team, "row-team"},
                                                          {SpmmAlgorithm::k_tiled, "k-tiled"},
                                                          {SpmmAlgorithm::flat, "flat"},
                                                          {SpmmAlgorithm::vector_row, "vector-row"},
                                                          {SpmmAlgorithm::row_pieces, "row-pieces"}}};
inline constexpr name_table<SpgemmAlgorithm, 9> spgemm_names{{{SpgemmAlgorithm::automatic, "automatic"},
                                                              {SpgemmAlgorithm::binned, "binned"},
                                                              {SpgemmAlgorithm::row_merge, "row-merge"},
                                                              {SpgemmAlgorithm::sort_rows, "sort-rows"},
                                                              {SpgemmAlgorithm::tiny_rows, "tiny-rows"},
                                                              {SpgemmAlgorithm::hash, "hash"},
                                                              {SpgemmAlgorithm::dense_tile, "dense-tile"},
                                                              {SpgemmAlgorithm::global, "global"},
                                                              {SpgemmAlgorithm::gustavson, "gustavson"}}};
inline constexpr name_table<RowReordering, 3> reordering_names{{{RowReordering::none, "none"},
                                                                {RowReordering::by_length, "by-length"},
                                                                {RowReordering::rcm, "rcm"}}};
inline constexpr name_table<ColumnPacking, 3> packing_names{{{ColumnPacking::automatic, "automatic"},
                                                             {ColumnPacking::off, "off"},
                                                             {ColumnPacking::on, "on"}}};
inline constexpr name_table<ColumnGrouping, 3> grouping_names{{{ColumnGrouping::automatic, "automatic"},
                                                               {ColumnGrouping::off, "off"},
                                                               {ColumnGrouping::on, "on"}}};
inline constexpr name_table<SpgemmWalk, 3> walk_names{{{SpgemmWalk::automatic, "automatic"},
                                                       {SpgemmWalk::flat, "flat"},
                                                       {SpgemmWalk::by_entries, "by-entries"}}};

template <class Enum, std::size_t N>
std::string_view name_of(const name_table<Enum, N>& table, Enum e) {
  for (const auto& [value, name] : table)
    if (value == e) return name;
  return "unknown";
}

template <class Enum, std::size_t N>
Enum parse_name(const name_table<Enum, N>& table, std::string_view name, const char* what) {
  std::string choices;
  for (const auto& [value, n] : table) {
    if (n == name) return value;
    choices += (choices.empty() ? "" : ", ") + std::string(n);
  }
  throw invalid_argument(concat("spk: unknown ", what, " algorithm '", name, "', expected one of: ", choices));
}
}  // namespace detail

inline std::string_view to_string(SpmvAlgorithm a) { return detail::name_of(detail::spmv_names, a); }
inline std::string_view to_string(SpmmAlgorithm a) { return detail::name_of(detail::spmm_names, a); }
inline std::string_view to_string(SpgemmAlgorithm a) { return detail::name_of(detail::spgemm_names, a); }
inline std::string_view to_string(RowReordering r) { return detail::name_of(detail::reordering_names, r); }
inline std::string_view to_string(SpgemmWalk w) { return detail::name_of(detail::walk_names, w); }
inline std::string_view to_string(ColumnPacking p) { return detail::name_of(detail::packing_names, p); }
inline std::string_view to_string(ColumnGrouping g) { return detail::name_of(detail::grouping_names, g); }

// Parse the names to_string() prints, e.g. "vector-row". Throws spk::invalid_argument listing the valid names.
template <class Enum>
Enum parse_algorithm(std::string_view name);
template <>
inline SpmvAlgorithm parse_algorithm<SpmvAlgorithm>(std::string_view name) {
  return detail::parse_name(detail::spmv_names, name, "SpMV");
}
template <>
inline SpmmAlgorithm parse_algorithm<SpmmAlgorithm>(std::string_view name) {
  return detail::parse_name(detail::spmm_names, name, "SpMM");
}
template <>
inline SpgemmAlgorithm parse_algorithm<SpgemmAlgorithm>(std::string_view name) {
  return detail::parse_name(detail::spgemm_names, name, "SpGEMM");
}

template <>
inline RowReordering parse_algorithm<RowReordering>(std::string_view name) {
  return detail::parse_name(detail::reordering_names, name, "row reordering");
}
template <>
inline SpgemmWalk parse_algorithm<SpgemmWalk>(std::string_view name) {
  return detail::parse_name(detail::walk_names, name, "SpGEMM product walk");
}
template <>
inline ColumnPacking parse_algorithm<ColumnPacking>(std::string_view name) {
  return detail::parse_name(detail::packing_names, name, "SpMV column packing");
}
template <>
inline ColumnGrouping parse_algorithm<ColumnGrouping>(std::string_view name) {
  return detail::parse_name(detail::grouping_names, name, "SpMV column grouping");
}

// Every forceable value of an enum (automatic excluded): tests and the benchmark loop over these.
template <class Enum>
std::vector<Enum> all_algorithms();
template <>
inline std::vector<SpmvAlgorithm> all_algorithms<SpmvAlgorithm>() {
  return {SpmvAlgorithm::thread_row, SpmvAlgorithm::vector_row, SpmvAlgorithm::stream, SpmvAlgorithm::flat,
          SpmvAlgorithm::long_row_split};
}
template <>
inline std::vector<SpmmAlgorithm> all_algorithms<SpmmAlgorithm>() {
  return {SpmmAlgorithm::row_team, SpmmAlgorithm::k_tiled, SpmmAlgorithm::flat, SpmmAlgorithm::vector_row,
          SpmmAlgorithm::row_pieces};
}
template <>
inline std::vector<SpgemmAlgorithm> all_algorithms<SpgemmAlgorithm>() {
  return {SpgemmAlgorithm::binned,    SpgemmAlgorithm::row_merge,  SpgemmAlgorithm::sort_rows,
          SpgemmAlgorithm::tiny_rows, SpgemmAlgorithm::hash,       SpgemmAlgorithm::dense_tile,
          SpgemmAlgorithm::global,    SpgemmAlgorithm::gustavson};
}

}  // namespace spk
