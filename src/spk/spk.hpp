#pragma once
// spk: sparse portable kernels. One include for the whole public API.
#include "algorithms.hpp"
#include "csr_matrix.hpp"
#include "error.hpp"
#include "io/coo.hpp"
#include "io/generators.hpp"
#include "io/matrix_market.hpp"
#include "matrix_stats.hpp"
#include "reference/reference.hpp"
#include "spgemm.hpp"
#include "spmm.hpp"
#include "spmv.hpp"
