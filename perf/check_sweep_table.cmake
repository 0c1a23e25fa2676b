# Checks a tuning table written by spk-bench --sweep: ENTRIES entries (one per swept matrix and precision), each
# with a positive rate (its last field: GB/s or GFLOP/s; a candidate whose timing never reached its sweep record
# would leave 0). Run as: cmake -DTABLE=<file> -DENTRIES=<n> -P check_sweep_table.cmake
file(STRINGS "${TABLE}" _entries REGEX "^ +\\{\"")
list(LENGTH _entries _n)
if(NOT _n EQUAL ENTRIES)
  message(FATAL_ERROR "${TABLE}: ${_n} entries, expected ${ENTRIES}")
endif()
foreach(_e IN LISTS _entries)
  if(NOT _e MATCHES "\\}, ([-+0-9.eE]+)\\},$")
    message(FATAL_ERROR "${TABLE}: no rate at the end of '${_e}'")
  endif()
  if(NOT CMAKE_MATCH_1 GREATER 0)
    message(FATAL_ERROR "${TABLE}: rate ${CMAKE_MATCH_1} in '${_e}', expected a positive number")
  endif()
endforeach()
message(STATUS "${TABLE}: ${_n} entries, every rate positive")
