#pragma once
// Built-in matrix suites: generator specs from design/PERFORMANCE.md plus the real matrices under $SPK_MATRIX_DIR.
#include <string>
#include <vector>

#include "options.hpp"

namespace spk_bench {

std::vector<std::string> suite_names();

// One line per suite for --help.
std::string describe_suites();

// The suite's matrices; files it wanted but could not find are reported in notes and left out. Throws
// std::invalid_argument for an unknown name.
std::vector<MatrixSource> suite_matrices(const std::string& name, std::vector<std::string>& notes);

// The operations a suite runs when --op is not given (the SpGEMM suite runs SpGEMM only).
std::vector<std::string> suite_default_ops(const std::string& name);

// A --matrix argument: "gen:SPEC" or a file path.
MatrixSource matrix_source(const std::string& argument);

}  // namespace spk_bench
