#pragma once
// SpGEMM copy rows: a row of A with one nonzero a_ij makes C's row a_ij times row j of B, so no accumulator is
// needed. Only used when B's rows are sorted and duplicate-free (checked in the symbolic phase).
#include <cstdint>

#include <Kokkos_Core.hpp>

#include "../execution.hpp"
#include "../launch_shape.hpp"
#include "spgemm_common.hpp"

namespace spk::impl {

template <bool numeric, class Views, class Space>
void spgemm_copy_rows(const LaunchShape& shape, const Views& v, const RowSlice<Space>& rows,
                      const typename Views::execution_space& space = {}) {
  using exec = typename Views::execution_space;
  using Offset = typename Views::offset_type;
  using BOffset = typename Views::b_offset_type;
  using policy_type = team_policy_for<exec>;
  using member_type = typename policy_type::member_type;
  if (rows.count == 0) return;
  const int threads = shape.team_size;
  const int league = static_cast<int>((rows.count + threads - 1) / threads);
  Kokkos::parallel_for(
      numeric ? "spk::spgemm_copy::numeric" : "spk::spgemm_copy::symbolic",
      policy_type(space, league, threads, shape.vector_length), KOKKOS_LAMBDA(const member_type& team) {
        const std::int64_t i = static_cast<std::int64_t>(team.league_rank()) * threads + team.team_rank();
        if (i >= rows.count) return;
        const int row = rows(i);
        const Offset p = v.a_map(row);
        const BOffset b_begin = v.b_map(v.a_ent(p));
        const int b_len = static_cast<int>(v.b_map(v.a_ent(p) + 1) - b_begin);
        if (!numeric) {
          Kokkos::single(Kokkos::PerThread(team), [&]() { v.c_map(row) = static_cast<Offset>(b_len); });
          return;
        }
        const Offset c_begin = v.c_map(row);
        const auto a = v.a_val(p);
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, b_len), [&](const int q) {
          v.c_ent(c_begin + q) = v.b_ent(b_begin + q);
          v.c_val(c_begin + q) = a * v.b_val(b_begin + q);
        });
      });
}

}  // namespace spk::impl
