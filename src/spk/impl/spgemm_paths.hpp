#pragma once
// Runs every bin of a binned row list down its path (symbolic or numeric), with the launch shape for that path.
#include <algorithm>

#include "../select/spgemm_select.hpp"
#include "spgemm_bins.hpp"
#include "spgemm_copy.hpp"
#include "spgemm_dense.hpp"
#include "spgemm_global.hpp"
#include "spgemm_gustavson.hpp"
#include "spgemm_hash.hpp"
#include "spgemm_merge.hpp"
#include "spgemm_tiny.hpp"

namespace spk::impl {

template <bool numeric, class Views, class Space, class Bounds>
void run_spgemm_bins(const Views& v, const BinnedRows<Space>& bins, const GlobalBatches<Space>& global,
                     const GustavsonWorkspace& gustavson, const select::SpgemmCapacity& cap, double mean_b_len,
                     const Bounds& lo, const Bounds& hi, bool sorted, bool b_sorted) {
  using exec = typename Views::execution_space;
  for (std::size_t b = 0; b < bins.bins.size(); ++b) {
    const RowSlice<Space> rows = bins.slice(b);
    if (rows.count == 0) continue;
    const int slots = bins.bins[b].slots;
    switch (bins.bins[b].path) {
      case SpgemmPath::copy:
        spgemm_copy_rows<numeric>(select::spgemm_shape<exec>(mean_b_len, 128, 0), v, rows);
        break;
      case SpgemmPath::merge:
        spgemm_merge_rows<numeric>(select::spgemm_merge_shape<exec>(bins.bins[b].lanes), v, rows);
        break;
      case SpgemmPath::tiny:
        spgemm_tiny_rows<numeric>(select::spgemm_shape<exec>(mean_b_len, 128, slots), v, rows, slots, sorted);
        break;
      case SpgemmPath::hash:
        spgemm_hash_rows<numeric>(select::spgemm_shape<exec>(mean_b_len, std::clamp(slots / 4, 64, 256), 0), v,
                                  rows, slots, sorted, lo, hi, bins.widest[b], cap.scratch_bytes);
        break;
      case SpgemmPath::dense:
        spgemm_dense_rows<numeric>(select::spgemm_shape<exec>(mean_b_len, 256, 0), v, rows, lo, hi,
                                   numeric ? cap.dense_width_numeric : cap.dense_width_symbolic, b_sorted);
        break;
      case SpgemmPath::global:
        spgemm_global_rows<numeric>(select::spgemm_shape<exec>(mean_b_len, 256, 0), v, rows, global, sorted);
        break;
      case SpgemmPath::gustavson:
        spgemm_gustavson_rows<numeric>(v, rows, lo, hi, gustavson, sorted);
        break;
      case SpgemmPath::none: break;
    }
  }
}

}  // namespace spk::impl
