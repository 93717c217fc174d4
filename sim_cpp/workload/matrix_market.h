// Sparse matrices of the SpMV workload: CSR, each row's columns sorted and unique. Loaded from a
// Matrix Market file (coordinate format; real, integer or pattern; general, symmetric or
// skew-symmetric).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace l1d::sim::wl {

struct Csr {
  uint32_t rows = 0, cols = 0;
  std::vector<int32_t> row_ptr, col;
  std::vector<float> val;
};

// Reads `path`. Pattern entries get the value 1; duplicate entries are summed; a symmetric
// (skew-symmetric) file's off-diagonal entries are mirrored (negated). Throws InputFileError
// (file and line) for a bad banner, an unsupported format (array, complex, hermitian), a bad
// size line, an entry out of range or malformed, and fewer or more entries than announced.
Csr load_matrix_market(const std::string& path);

}  // namespace l1d::sim::wl
