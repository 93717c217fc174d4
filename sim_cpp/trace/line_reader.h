// Line-by-line reading of trace files: plain text, or xz-compressed (`.xz`, decoded as a stream
// with liblzma, so a large trace is never held in memory as text). Lines lose their "\n" and a
// trailing "\r"; line numbers count from 1. Every failure (cannot open, read error, corrupt or
// truncated xz data, a line over kMaxLineBytes) is a TraceError naming the file and line.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace l1d::sim::trace {

// Longer lines are an error: the longest legal line (32 listed 64-bit addresses and a few
// operands) is under 1 KB, and a bound keeps a corrupt file without newlines from filling memory.
inline constexpr size_t kMaxLineBytes = 64 * 1024;

// A source of bytes (a file, a string, an xz decoder over another source).
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Up to n bytes into buf; 0 at the end. Throws TraceError on failure.
  virtual size_t read(char* buf, size_t n) = 0;
};

class LineReader {
 public:
  // `name` is used in error messages. `xz`: decode `src` as an xz stream.
  LineReader(std::string name, std::unique_ptr<ByteSource> src, bool xz);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // Opens `path`; xz when it ends in ".xz".
  static std::unique_ptr<LineReader> open_file(const std::string& path);
  // Reads `text` (tests, fuzzing); `xz`: `text` holds xz-compressed bytes.
  static std::unique_ptr<LineReader> from_string(std::string name, std::string text, bool xz = false);

  // The next line, false at the end of the input.
  bool next(std::string& line);
  uint64_t line_number() const { return line_; }  // of the line next() returned last
  const std::string& name() const { return name_; }
  [[noreturn]] void fail(const std::string& problem) const;

 private:
  bool fill();  // more bytes into buf_; false at the end

  std::string name_;
  std::unique_ptr<ByteSource> src_;
  std::string buf_;
  size_t pos_ = 0;
  bool eof_ = false;
  uint64_t line_ = 0;
};

}  // namespace l1d::sim::trace
