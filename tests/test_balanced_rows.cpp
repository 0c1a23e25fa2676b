// reduce_rows_balanced (src/spk/impl/balanced_rows.hpp) on its own, so that its lanes' carries run on every
// back-end (stream on a host back-end has one lane a team): one team sums rows of random products staged in scratch
// with 1 to 512 lanes (more and fewer than the team's threads), rows empty, short, long, one holding most products,
// runs of empty rows at both ends and no rows at all, against a double-accumulated sum; every row stored exactly
// once (a NaN-poisoned y and a count per row), twice for bitwise equality.
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <spk/execution.hpp>
#include <spk/impl/balanced_rows.hpp>

#include "test_common.hpp"

namespace {
using namespace spk_test;

struct RowsCase {
  std::string name;
  std::function<std::vector<int>(std::mt19937_64&)> lengths;
};

std::vector<RowsCase> rows_cases() {
  return {
      {"no rows", [](std::mt19937_64&) { return std::vector<int>{}; }},
      {"empty rows only", [](std::mt19937_64&) { return std::vector<int>(7, 0); }},
      {"one row", [](std::mt19937_64&) { return std::vector<int>{2000}; }},
      {"medium mix",
       [](std::mt19937_64& g) {
         const int pick[] = {0, 1, 3, 33, 85, 300};
         std::vector<int> out(40);
         for (auto& l : out) l = pick[g() % 6];
         return out;
       }},
      {"one row holds most",
       [](std::mt19937_64& g) {
         std::vector<int> out(21);
         for (auto& l : out) l = static_cast<int>(g() % 4);
         out[g() % out.size()] = 2500;
         return out;
       }},
      {"short rows",
       [](std::mt19937_64& g) {
         std::vector<int> out(500);
         for (auto& l : out) l = static_cast<int>(g() % 6);
         return out;
       }},
      {"empty ends",
       [](std::mt19937_64& g) {
         std::vector<int> out(30, 0);
         for (int r = 9; r < 21; ++r) out[r] = 1 + static_cast<int>(g() % 120);
         return out;
       }},
  };
}

// Runs the reduction in one team of `lanes` lanes; returns y and the number of stores per row.
template <class S>
std::pair<std::vector<S>, std::vector<int>> reduce_on_device(const std::vector<int>& ends, const std::vector<S>& hp,
                                                             int lanes) {
  using Exec = TestExec;
  using Policy = spk::team_policy_for<Exec>;
  using ScalarScratch = Kokkos::View<S*, typename Exec::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  using IntScratch = Kokkos::View<int*, typename Exec::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  const int count = static_cast<int>(ends.size()), n = static_cast<int>(hp.size());
  Kokkos::View<S*, TestDevice> products("products", hp.size()), y("y", ends.size());
  Kokkos::View<int*, TestDevice> row_end("row_end", ends.size()), stores("stores", ends.size());
  Kokkos::deep_copy(products, Kokkos::View<const S*, Kokkos::HostSpace>(hp.data(), hp.size()));
  Kokkos::deep_copy(row_end, Kokkos::View<const int*, Kokkos::HostSpace>(ends.data(), ends.size()));
  poison(y);
  const bool host = spk::is_host_space<Exec>();
  Policy policy(1, host ? 1 : 4, host ? 1 : spk::max_vector_length<Exec>());
  policy.set_scratch_size(0, Kokkos::PerTeam(ScalarScratch::shmem_size(n) +
                                             spk::impl::balanced_rows_scratch_bytes<ScalarScratch, IntScratch>(lanes)));
  Kokkos::parallel_for(
      "test::balanced_rows", policy, KOKKOS_LAMBDA(const typename Policy::member_type& team) {
        ScalarScratch staged(team.team_scratch(0), n), carry(team.team_scratch(0), lanes),
            first_sum(team.team_scratch(0), lanes);
        IntScratch first_row(team.team_scratch(0), lanes);
        Kokkos::parallel_for(Kokkos::TeamVectorRange(team, n), [&](const int k) { staged(k) = products(k); });
        team.team_barrier();
        spk::impl::reduce_rows_balanced(
            team, lanes, staged, carry, first_sum, first_row, count, n, [&](const int i) { return row_end(i); },
            [&](const int i, const S sum) {
              y(i) = sum;
              Kokkos::atomic_add(&stores(i), 1);
            });
      });
  const auto hy = host_copy(y);
  const auto hs = host_copy(stores);
  return {std::vector<S>(hy.data(), hy.data() + hy.extent(0)), std::vector<int>(hs.data(), hs.data() + hs.extent(0))};
}

template <class S>
void check_balanced_rows() {
  for (const auto& c : rows_cases()) {
    const std::uint64_t seed = fresh_seed();
    std::mt19937_64 g(seed);
    const std::vector<int> lengths = c.lengths(g);
    std::vector<int> ends;
    int n = 0;
    for (const int l : lengths) ends.push_back(n += l);
    std::uniform_real_distribution<double> value(-1, 1);
    std::vector<S> hp(n);
    for (auto& p : hp) p = static_cast<S>(value(g));
    std::vector<double> ref(lengths.size(), 0.0);
    for (std::size_t r = 0, k = 0; r < lengths.size(); ++r)
      for (; k < static_cast<std::size_t>(ends[r]); ++k) ref[r] += hp[k];
    int longest = 0;
    for (const int l : lengths) longest = std::max(longest, l);
    for (const int lanes : {1, 2, 3, 7, 32, 100, 512}) {
      const std::string what = c.name + ", " + std::to_string(lanes) + " lanes, seed " + std::to_string(seed);
      const auto [y, stores] = reduce_on_device(ends, hp, lanes);
      double diff = 0, norm = 0;
      for (std::size_t r = 0; r < ref.size(); ++r) {
        EXPECT_EQ(stores[r], 1) << what << ", row " << r;
        diff += (y[r] - ref[r]) * (y[r] - ref[r]), norm += ref[r] * ref[r];
      }
      EXPECT_LE(std::sqrt(diff), tolerance<S>(longest) * std::sqrt(norm) + 1e-30) << what;
      const auto again = reduce_on_device(ends, hp, lanes).first;
      // (an empty vector's data() may be null, which memcmp must not get, even for 0 bytes)
      EXPECT_TRUE(y.size() == again.size() &&
                  (y.empty() || std::memcmp(y.data(), again.data(), y.size() * sizeof(S)) == 0))
          << what << ": not bitwise equal";
    }
  }
}
}  // namespace

TEST(BalancedRows, SumsEveryRowOnceAtEveryLaneCount) {
  check_balanced_rows<float>();
  check_balanced_rows<double>();
}
