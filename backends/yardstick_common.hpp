#pragma once
// What the yardstick adapters share, free of any library's types: the value type and the dense-block description
// that the raw-array adapters (cuSPARSE, rocSPARSE, GraphBLAS) take, and the check of an algorithm's name.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace spk::yardstick {

enum class Value { f32, f64 };

// A dense rows x cols block (device memory for cuSPARSE and rocSPARSE, host memory for GraphBLAS); ld is the leading
// dimension (row stride when row_major, else column stride).
struct DenseArrays {
  std::int64_t rows = 0, cols = 0, ld = 0;
  void* values = nullptr;
  bool row_major = true;
  Value value_type = Value::f64;
};

// Returns when name is one of valid; otherwise throws std::invalid_argument("<library> <what>: unknown or unavailable
// algorithm '<name>', expected one of: <valid>").
inline void require_algorithm(const char* library, const char* what, const std::string& name,
                              const std::vector<std::string>& valid) {
  std::string choices;
  for (const auto& v : valid) {
    if (v == name) return;
    choices += (choices.empty() ? "" : ", ") + v;
  }
  throw std::invalid_argument(std::string(library) + " " + what + ": unknown or unavailable algorithm '" + name +
                              "', expected one of: " + choices);
}

}  // namespace spk::yardstick
