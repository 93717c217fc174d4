#include "sim_cpp/workload/matrix_market.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>
#include <tuple>

#include "sim_cpp/workload/input_file.h"

namespace l1d::sim::wl {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

Csr load_matrix_market(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputFileError(path, 0, "cannot open the Matrix Market file");
  std::string line;
  uint64_t lineno = 0;
  const auto next_line = [&]() {
    while (std::getline(in, line)) {
      ++lineno;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return true;
    }
    return false;
  };
  if (!next_line()) throw InputFileError(path, 0, "empty file (no %%MatrixMarket banner)");
  std::istringstream banner(line);
  std::string tag, object, format, field, symmetry;
  banner >> tag >> object >> format >> field >> symmetry;
  if (tag != "%%MatrixMarket") throw InputFileError(path, lineno, "expected the banner '%%MatrixMarket matrix coordinate ...'");
  object = lower(object), format = lower(format), field = lower(field), symmetry = lower(symmetry);
  if (object != "matrix") throw InputFileError(path, lineno, "object '" + object + "' is not supported (only 'matrix')");
  if (format != "coordinate")
    throw InputFileError(path, lineno, "format '" + format + "' is not supported (only sparse 'coordinate')");
  if (field != "real" && field != "integer" && field != "pattern")
    throw InputFileError(path, lineno, "field '" + field + "' is not supported (real, integer or pattern)");
  if (symmetry != "general" && symmetry != "symmetric" && symmetry != "skew-symmetric")
    throw InputFileError(path, lineno,
                         "symmetry '" + symmetry + "' is not supported (general, symmetric or skew-symmetric)");
  const bool pattern = field == "pattern";

  // Size line: the first line that is not a comment.
  do {
    if (!next_line()) throw InputFileError(path, lineno, "missing the size line 'rows cols entries'");
  } while (line.empty() || line[0] == '%');
  int64_t rows = 0, cols = 0, nnz = 0;
  {
    std::istringstream s(line);
    std::string extra;
    if (!(s >> rows >> cols >> nnz) || (s >> extra) || rows <= 0 || cols <= 0 || nnz < 0)
      throw InputFileError(path, lineno, "expected the size line 'rows cols entries' (positive), got '" + line + "'");
    if (rows > (int64_t{1} << 28) || cols > (int64_t{1} << 28) || nnz > (int64_t{1} << 28))
      throw InputFileError(path, lineno, "matrix too large (at most 2^28 rows, columns and entries)");
  }

  std::vector<std::tuple<int32_t, int32_t, double>> entries;
  entries.reserve(static_cast<size_t>(nnz) * (symmetry == "general" ? 1 : 2));
  int64_t read = 0;
  while (next_line()) {
    if (line.empty() || line[0] == '%') continue;
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    if (read == nnz) throw InputFileError(path, lineno, "more entries than the " + std::to_string(nnz) + " announced");
    std::istringstream s(line);
    int64_t i = 0, j = 0;
    double v = 1.0;
    std::string extra;
    if (!(s >> i >> j) || (!pattern && !(s >> v)) || (s >> extra))
      throw InputFileError(path, lineno,
                           std::string("expected an entry '") + (pattern ? "row col" : "row col value") + "', got '" + line + "'");
    if (i < 1 || i > rows || j < 1 || j > cols)
      throw InputFileError(path, lineno, "entry (" + std::to_string(i) + ", " + std::to_string(j) + ") outside the " +
                                             std::to_string(rows) + " x " + std::to_string(cols) + " matrix");
    if (!std::isfinite(v)) throw InputFileError(path, lineno, "value is not a finite number in '" + line + "'");
    if (symmetry != "general" && j > i)
      throw InputFileError(path, lineno, "entry above the diagonal in a " + symmetry + " file (only the lower triangle is stored)");
    entries.emplace_back(static_cast<int32_t>(i - 1), static_cast<int32_t>(j - 1), v);
    if (symmetry != "general" && i != j)
      entries.emplace_back(static_cast<int32_t>(j - 1), static_cast<int32_t>(i - 1), symmetry == "symmetric" ? v : -v);
    ++read;
  }
  if (in.bad()) throw InputFileError(path, lineno, "read error");
  if (read < nnz)
    throw InputFileError(path, lineno, "file ends after " + std::to_string(read) + " of the " + std::to_string(nnz) +
                                           " entries announced");

  std::sort(entries.begin(), entries.end());
  Csr m;
  m.rows = static_cast<uint32_t>(rows);
  m.cols = static_cast<uint32_t>(cols);
  m.row_ptr.assign(static_cast<size_t>(rows) + 1, 0);
  for (size_t k = 0; k < entries.size(); ++k) {
    const auto [i, j, v] = entries[k];
    if (k > 0 && std::get<0>(entries[k - 1]) == i && std::get<1>(entries[k - 1]) == j) {
      m.val.back() += static_cast<float>(v);  // duplicate: summed
      continue;
    }
    m.col.push_back(j);
    m.val.push_back(static_cast<float>(v));
    ++m.row_ptr[static_cast<size_t>(i) + 1];
  }
  for (size_t r = 0; r < static_cast<size_t>(rows); ++r) m.row_ptr[r + 1] += m.row_ptr[r];
  return m;
}

}  // namespace l1d::sim::wl
