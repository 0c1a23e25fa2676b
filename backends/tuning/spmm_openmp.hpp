#pragma once
// spk SpMM tuning table 'spmm_openmp': not swept yet, so the selector's rules decide.
// Regenerate with spk-bench --sweep backends/tuning/spmm_openmp.hpp --op spmm (see README).
#include <spk/select/spmm_tuning_entry.hpp>

namespace spk::tuning {

inline constexpr SpmmTuningEntry spmm_openmp[] = {
    {},  // end of table
};

}  // namespace spk::tuning
