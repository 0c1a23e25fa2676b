#pragma once
// Runs every bin of a binned row list down its path (symbolic or numeric), with the launch shape for that path.
// Bins of a few rows, and sort bins that fit the device together, join a larger bin's launch (bin_launches). With
// more than one launch, table and tile bins go round the bin instances (bin_streams.hpp), which first wait for what
// the default instance has queued and are all waited for on return (host waits); the global pool's batches and
// Gustavson's workers keep the default instance.
#include <algorithm>

#include "../select/spgemm_select.hpp"
#include "bin_streams.hpp"
#include "spgemm_bins.hpp"
#include "spgemm_copy.hpp"
#include "spgemm_dense.hpp"
#include "spgemm_global.hpp"
#include "spgemm_gustavson.hpp"
#include "spgemm_hash.hpp"
#include "spgemm_merge.hpp"
#include "spgemm_sort.hpp"
#include "spgemm_tiny.hpp"

namespace spk::impl {

template <bool numeric, class Views, class Space, class Bounds>
void run_spgemm_bins(const Views& v, const BinnedRows<Space>& bins, const GlobalBatches<Space>& global,
                     const GustavsonWorkspace& gustavson, const select::SpgemmCapacity& cap, double mean_b_len,
                     std::int64_t max_b_len, const Bounds& lo, const Bounds& hi, bool sorted, bool b_sorted,
                     SpgemmWalk walk) {
  using exec = typename Views::execution_space;
  const auto sort_wave_rows = [&](int slots) { return cap.sort_wave_lanes / sort_lanes<exec>(slots); };
  const std::vector<BinLaunch<Space>> launches = bin_launches(bins, cap.small_bin_rows, sort_wave_rows);
  // One launch (lap2d's and band's merges) stays on the default instance: the waits would buy no overlap.
  const std::vector<exec> one{exec()};
  const std::vector<exec>& instances = launches.size() > 1 ? bin_instances<exec>() : one;
  if (launches.size() > 1) exec().fence();  // the bins read what the default instance wrote (spans, counts, offsets)
  std::size_t launched = 0;
  for (const BinLaunch<Space>& launch : launches) {
    const std::size_t b = launch.bin;
    const RowSlice<Space>& rows = launch.rows;
    const int slots = bins.bins[b].slots;
    const exec& space = instances[launched++ % instances.size()];
    switch (bins.bins[b].path) {
      case SpgemmPath::copy:
        spgemm_copy_rows<numeric>(select::spgemm_shape<exec>(mean_b_len, 128, 0), v, rows, space);
        break;
      case SpgemmPath::merge:
        spgemm_merge_rows<numeric>(select::spgemm_merge_shape<exec>(bins.bins[b].lanes), v, rows, space);
        break;
      case SpgemmPath::sort:
        spgemm_sort_rows<numeric>(v, rows, slots, space);
        break;
      case SpgemmPath::tiny:
        spgemm_tiny_rows<numeric>(select::spgemm_shape<exec>(mean_b_len, 128, slots), v, rows, slots, sorted, space);
        break;
      case SpgemmPath::hash: {
        const LaunchShape shape = select::spgemm_shape<exec>(mean_b_len, std::clamp(slots / 4, 64, 256), 0);
        spgemm_hash_rows<numeric>(shape, v, rows, slots, sorted, lo, hi, launch.widest, cap.table_bytes,
                                  select::spgemm_walk_chunk<exec>(walk, cap, shape, mean_b_len, max_b_len), space);
        break;
      }
      case SpgemmPath::dense: {
        const LaunchShape shape = select::spgemm_shape<exec>(mean_b_len, 256, 0);
        spgemm_dense_rows<numeric>(shape, v, rows, lo, hi,
                                   numeric ? cap.dense_width_numeric : cap.dense_width_symbolic,
                                   select::spgemm_walk_chunk<exec>(walk, cap, shape, mean_b_len, max_b_len), b_sorted,
                                   space);
        break;
      }
      case SpgemmPath::global:
        spgemm_global_rows<numeric>(select::spgemm_shape<exec>(mean_b_len, 256, 0), v, rows, global, sorted);
        break;
      case SpgemmPath::gustavson:
        spgemm_gustavson_rows<numeric>(v, rows, lo, hi, gustavson, sorted);
        break;
      case SpgemmPath::none: break;
    }
  }
  if (launches.size() > 1)
    for (std::size_t k = 0; k < std::min(launched, instances.size()); ++k) instances[k].fence();
}

}  // namespace spk::impl
