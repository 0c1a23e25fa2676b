#pragma once
// Exceptions thrown by spk. Every message names what was wrong, where, and what was expected.
#include <cstddef>
#include <sstream>
#include <stdexcept>
#include <string>

namespace spk {

// A caller handed spk an argument it cannot use: mismatched dimensions, a malformed CSR structure, ...
class invalid_argument : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// A file (Matrix Market) could not be parsed. line() is 1-based; 0 when the problem is not tied to a line.
class format_error : public std::runtime_error {
 public:
  format_error(const std::string& source, std::size_t line, const std::string& message)
      : std::runtime_error(source + (line ? ":" + std::to_string(line) : std::string()) + ": " + message),
        line_(line) {}
  std::size_t line() const noexcept { return line_; }

 private:
  std::size_t line_;
};

namespace detail {
template <class... Args>
std::string concat(const Args&... args) {
  std::ostringstream os;
  (os << ... << args);
  return os.str();
}
}  // namespace detail

}  // namespace spk
