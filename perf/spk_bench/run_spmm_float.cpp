// run_spmm for float matrices (see run_spmm.hpp).
#include "run_spmm.hpp"

namespace spk_bench {

template void run_spmm<float, std::int32_t>(const MatrixCase<float, std::int32_t>&, RunContext&);
template void run_spmm<float, std::int64_t>(const MatrixCase<float, std::int64_t>&, RunContext&);

}  // namespace spk_bench
