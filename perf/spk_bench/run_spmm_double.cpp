// run_spmm for double matrices (see run_spmm.hpp).
#include "run_spmm.hpp"

namespace spk_bench {

template void run_spmm<double, std::int32_t>(const MatrixCase<double, std::int32_t>&, RunContext&);
template void run_spmm<double, std::int64_t>(const MatrixCase<double, std::int64_t>&, RunContext&);

}  // namespace spk_bench
