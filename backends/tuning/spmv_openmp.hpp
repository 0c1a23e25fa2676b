#pragma once
// spk SpMV tuning table (openmp): empty until `spk-bench --sweep` writes it; the selector's rules apply meanwhile.
#include <spk/select/spmv_tuning_entry.hpp>

namespace spk::tuning {

inline constexpr SpmvTuningEntry spmv_openmp[] = {
    {},  // end of table
};

}  // namespace spk::tuning
