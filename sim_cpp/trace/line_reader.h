// Line-by-line reading of trace files, decoded as a stream (a large trace is never held in memory
// as text, nor unpacked to disk):
//  - plain text;
//  - xz (`.xz`, liblzma; concatenated streams as `xz -dc` reads them);
//  - zstd (`.zst`, libzstd's ZSTD_decompressStream; concatenated frames as `zstd -dc` reads them);
//  - Accel-Sim 2.0's `.tracez` container (tracez_source.h): read as the `.traceg` text it stands for.
// Lines lose their "\n" and a trailing "\r"; line numbers count from 1 (in a decoded stream, the
// decoded text's lines). Every failure (cannot open, read error, corrupt or truncated compressed
// data, a line over kMaxLineBytes) is a TraceError naming the file and line.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace l1d::sim::trace {

// Longer lines are an error: the longest legal line (32 listed 64-bit addresses, or a version-6
// line with 32 values of each of 6 registers) is under 8 KB, and a bound keeps a corrupt file
// without newlines from filling memory.
inline constexpr size_t kMaxLineBytes = 64 * 1024;

// A source of bytes (a file, a string, a decoder over another source).
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Up to n bytes into buf; 0 at the end. Throws TraceError on failure.
  virtual size_t read(char* buf, size_t n) = 0;
  // Random access, for containers with an index (files and strings have it, decoders do not).
  virtual bool seekable() const { return false; }
  virtual uint64_t size() { return 0; }
  // Exactly n bytes at `offset` (the caller checks offset + n <= size()).
  virtual void read_at(uint64_t offset, char* buf, size_t n);
};

// A file's bytes (seekable); throws TraceError when it cannot be opened.
std::unique_ptr<ByteSource> file_source(const std::string& path);
// The bytes of `text` (seekable).
std::unique_ptr<ByteSource> string_source(std::string text);
// Bytes [begin, min(end, size)) of a seekable source, read as a stream (the parts of a trace that
// parse_kernel_parts parses side by side).
std::unique_ptr<ByteSource> range_source(std::unique_ptr<ByteSource> src, uint64_t begin, uint64_t end);

// How the bytes of a trace file are encoded.
enum class Codec : uint8_t { kPlain, kXz, kZstd, kTracez };
// By the name's suffix: ".xz", ".zst", ".tracez", anything else plain.
Codec codec_for(const std::string& path);

class LineReader {
 public:
  // `name` is used in error messages; `src` holds the bytes encoded as `codec`.
  LineReader(std::string name, std::unique_ptr<ByteSource> src, Codec codec = Codec::kPlain);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // Opens `path`, decoded as codec_for(path).
  static std::unique_ptr<LineReader> open_file(const std::string& path);
  // Reads `text` (tests, fuzzing), encoded as `codec`.
  static std::unique_ptr<LineReader> from_string(std::string name, std::string text, Codec codec = Codec::kPlain);

  // The next line, false at the end of the input.
  bool next(std::string& line);
  // The same without a copy: `line` views the reader's buffer and stays valid until the next
  // call (the kernel trace parser reads its millions of lines so).
  bool next(std::string_view& line);
  uint64_t line_number() const { return line_; }  // of the line next() returned last
  // Bytes of the (decoded) input before the next line: the end of the line next() returned last.
  uint64_t offset() const { return consumed_ + pos_; }
  const std::string& name() const { return name_; }
  [[noreturn]] void fail(const std::string& problem) const;

 private:
  bool fill();  // more bytes into buf_; false at the end

  std::string name_;
  std::unique_ptr<ByteSource> src_;
  // The bytes read and not yet consumed are buf_[pos_, len_); the buffer grows (without the
  // zero fill a std::string's resize would do) only when a line is longer than what it holds.
  std::unique_ptr<char[]> buf_;
  size_t cap_ = 0, len_ = 0;
  size_t pos_ = 0;
  uint64_t consumed_ = 0;  // bytes dropped from the front of buf_
  bool eof_ = false;
  uint64_t line_ = 0;
};

}  // namespace l1d::sim::trace
