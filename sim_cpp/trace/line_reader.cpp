// Line reader over plain, xz- and zstd-compressed bytes and .tracez containers (line_reader.h).
#include "sim_cpp/trace/line_reader.h"

#include <lzma.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "sim_cpp/trace/trace_error.h"
#include "sim_cpp/trace/tracez_source.h"

namespace l1d::sim::trace {

void ByteSource::read_at(uint64_t, char*, size_t) { throw std::logic_error("ByteSource::read_at on a stream"); }

namespace {

constexpr size_t kChunk = 1 << 16;
// liblzma's decoder memory limit: xz -9 needs 65 MiB to decode; a corrupt header that asks for
// more is refused instead of allocated.
constexpr uint64_t kXzMemLimit = uint64_t{1} << 30;

class FileSource final : public ByteSource {
 public:
  explicit FileSource(const std::string& path) : path_(path), f_(std::fopen(path.c_str(), "rb")) {
    if (f_ == nullptr) throw TraceError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  }
  ~FileSource() override { std::fclose(f_); }
  size_t read(char* buf, size_t n) override {
    const size_t got = std::fread(buf, 1, n, f_);
    if (got == 0 && std::ferror(f_)) throw TraceError(path_, 0, "read error");
    return got;
  }
  bool seekable() const override { return true; }
  uint64_t size() override {
    if (fseeko(f_, 0, SEEK_END) != 0) throw TraceError(path_, 0, "cannot seek: not a regular file");
    const off_t end = ftello(f_);
    if (end < 0) throw TraceError(path_, 0, "cannot seek: not a regular file");
    return static_cast<uint64_t>(end);
  }
  void read_at(uint64_t offset, char* buf, size_t n) override {
    if (fseeko(f_, static_cast<off_t>(offset), SEEK_SET) != 0 || std::fread(buf, 1, n, f_) != n)
      throw TraceError(path_, 0, "read error at byte " + std::to_string(offset));
  }

 private:
  std::string path_;
  std::FILE* f_;
};

class StringSource final : public ByteSource {
 public:
  explicit StringSource(std::string s) : s_(std::move(s)) {}
  size_t read(char* buf, size_t n) override {
    const size_t got = std::min(n, s_.size() - pos_);
    std::memcpy(buf, s_.data() + pos_, got);
    pos_ += got;
    return got;
  }
  bool seekable() const override { return true; }
  uint64_t size() override { return s_.size(); }
  void read_at(uint64_t offset, char* buf, size_t n) override { std::memcpy(buf, s_.data() + offset, n); }

 private:
  std::string s_;
  size_t pos_ = 0;
};

class RangeSource final : public ByteSource {
 public:
  RangeSource(std::unique_ptr<ByteSource> src, uint64_t begin, uint64_t end)
      : src_(std::move(src)), pos_(begin), end_(std::min(end, src_->size())) {}
  size_t read(char* buf, size_t n) override {
    const size_t got = static_cast<size_t>(std::min<uint64_t>(n, end_ - pos_));
    if (got != 0) src_->read_at(pos_, buf, got);
    pos_ += got;
    return got;
  }

 private:
  std::unique_ptr<ByteSource> src_;
  uint64_t pos_, end_;
};

const char* lzma_problem(lzma_ret r) {
  switch (r) {
    case LZMA_FORMAT_ERROR: return "not xz data";
    case LZMA_OPTIONS_ERROR: return "unsupported xz options";
    case LZMA_DATA_ERROR: return "corrupt xz data";
    case LZMA_BUF_ERROR: return "truncated xz data";
    case LZMA_MEM_ERROR: return "out of memory decoding xz data";
    case LZMA_MEMLIMIT_ERROR: return "xz data needs more than 1 GiB to decode";
    default: return "xz decoder error";
  }
}

// Decodes an xz stream (concatenated streams allowed, as `xz -dc` does) from another source.
class XzSource final : public ByteSource {
 public:
  XzSource(std::string name, std::unique_ptr<ByteSource> in, const uint64_t* line)
      : name_(std::move(name)), in_(std::move(in)), line_(line), inbuf_(kChunk, '\0') {
    const lzma_ret r = lzma_stream_decoder(&strm_, kXzMemLimit, LZMA_CONCATENATED);
    if (r != LZMA_OK) throw TraceError(name_, 0, lzma_problem(r));
  }
  ~XzSource() override { lzma_end(&strm_); }
  size_t read(char* buf, size_t n) override {
    if (done_) return 0;
    strm_.next_out = reinterpret_cast<uint8_t*>(buf);
    strm_.avail_out = n;
    while (strm_.avail_out == n) {
      if (strm_.avail_in == 0 && !in_eof_) {
        const size_t got = in_->read(inbuf_.data(), inbuf_.size());
        if (got == 0) in_eof_ = true;
        strm_.next_in = reinterpret_cast<const uint8_t*>(inbuf_.data());
        strm_.avail_in = got;
      }
      const lzma_ret r = lzma_code(&strm_, in_eof_ ? LZMA_FINISH : LZMA_RUN);
      if (r == LZMA_STREAM_END) {
        done_ = true;
        break;
      }
      if (r != LZMA_OK) throw TraceError(name_, *line_ + 1, lzma_problem(r));
    }
    return n - strm_.avail_out;
  }

 private:
  std::string name_;
  std::unique_ptr<ByteSource> in_;
  const uint64_t* line_;  // the reader's line counter, for error positions
  std::string inbuf_;
  lzma_stream strm_ = LZMA_STREAM_INIT;
  bool in_eof_ = false;
  bool done_ = false;
};

// Decodes a zstd stream (concatenated frames allowed, as `zstd -dc` does) from another source
// with libzstd's streaming decoder: memory stays bounded by the frame's window (libzstd refuses
// frames whose window is over 128 MiB: "Frame requires too much memory for decoding").
class ZstdSource final : public ByteSource {
 public:
  ZstdSource(std::string name, std::unique_ptr<ByteSource> src, const uint64_t* line)
      : name_(std::move(name)), src_(std::move(src)), line_(line), inbuf_(ZSTD_DStreamInSize(), '\0'),
        dctx_(ZSTD_createDCtx()) {
    if (dctx_ == nullptr) throw TraceError(name_, 0, "out of memory creating the zstd decoder");
  }
  ~ZstdSource() override { ZSTD_freeDCtx(dctx_); }
  size_t read(char* buf, size_t n) override {
    ZSTD_outBuffer out{buf, n, 0};
    while (out.pos == 0) {
      if (in_.pos == in_.size && !in_eof_) refill();
      const bool input_left = in_.pos < in_.size;
      if (!input_left && in_eof_ && frame_done_) return 0;  // the last frame is complete
      const size_t in_before = in_.pos;
      const size_t r = ZSTD_decompressStream(dctx_, &out, &in_);
      if (ZSTD_isError(r)) fail(std::string("corrupt zstd data (") + ZSTD_getErrorName(r) + ")");
      frame_done_ = r == 0;
      // No input left to give and nothing produced: the frame was cut short.
      if (out.pos == 0 && in_.pos == in_before && in_eof_ && !frame_done_)
        fail(seen_input_ ? "truncated zstd data" : "empty file, not zstd data");
      if (out.pos == 0 && in_.pos == in_before && input_left) fail("zstd decoder made no progress");
    }
    return out.pos;
  }

 private:
  void refill() {
    const size_t got = src_->read(inbuf_.data(), inbuf_.size());
    if (got == 0) in_eof_ = true;
    seen_input_ = seen_input_ || got != 0;
    in_ = ZSTD_inBuffer{inbuf_.data(), got, 0};
  }
  [[noreturn]] void fail(const std::string& problem) const { throw TraceError(name_, *line_ + 1, problem); }

  std::string name_;
  std::unique_ptr<ByteSource> src_;
  const uint64_t* line_;  // the reader's line counter, for error positions
  std::string inbuf_;
  ZSTD_DCtx* dctx_;
  ZSTD_inBuffer in_{nullptr, 0, 0};
  bool in_eof_ = false, seen_input_ = false;
  bool frame_done_ = false;  // the decoder is between frames (nothing owed)
};

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::unique_ptr<ByteSource> file_source(const std::string& path) { return std::make_unique<FileSource>(path); }

std::unique_ptr<ByteSource> string_source(std::string text) { return std::make_unique<StringSource>(std::move(text)); }

std::unique_ptr<ByteSource> range_source(std::unique_ptr<ByteSource> src, uint64_t begin, uint64_t end) {
  return std::make_unique<RangeSource>(std::move(src), begin, end);
}

Codec codec_for(const std::string& path) {
  if (ends_with(path, ".xz")) return Codec::kXz;
  if (ends_with(path, ".zst")) return Codec::kZstd;
  if (ends_with(path, ".tracez")) return Codec::kTracez;
  return Codec::kPlain;
}

LineReader::LineReader(std::string name, std::unique_ptr<ByteSource> src, Codec codec) : name_(std::move(name)) {
  switch (codec) {
    case Codec::kPlain: src_ = std::move(src); break;
    case Codec::kXz: src_ = std::make_unique<XzSource>(name_, std::move(src), &line_); break;
    case Codec::kZstd: src_ = std::make_unique<ZstdSource>(name_, std::move(src), &line_); break;
    case Codec::kTracez: src_ = std::make_unique<TracezSource>(name_, std::move(src), &line_); break;
  }
}

LineReader::~LineReader() = default;

std::unique_ptr<LineReader> LineReader::open_file(const std::string& path) {
  return std::make_unique<LineReader>(path, std::make_unique<FileSource>(path), codec_for(path));
}

std::unique_ptr<LineReader> LineReader::from_string(std::string name, std::string text, Codec codec) {
  return std::make_unique<LineReader>(std::move(name), std::make_unique<StringSource>(std::move(text)), codec);
}

void LineReader::fail(const std::string& problem) const { throw TraceError(name_, line_, problem); }

bool LineReader::fill() {
  if (eof_) return false;
  // The unread bytes to the front, then room for kChunk more: the source is asked for kChunk
  // bytes at a time, as before (a decoder's errors name the line reached when it decodes).
  const size_t unread = len_ - pos_;
  if (unread + kChunk > cap_) {
    const size_t cap = std::max(2 * cap_, unread + kChunk);
    auto bigger = std::make_unique_for_overwrite<char[]>(cap);
    if (unread != 0) std::memcpy(bigger.get(), buf_.get() + pos_, unread);
    buf_ = std::move(bigger);
    cap_ = cap;
  } else if (unread != 0 && pos_ != 0) {
    std::memmove(buf_.get(), buf_.get() + pos_, unread);
  }
  consumed_ += pos_;
  pos_ = 0;
  len_ = unread;
  const size_t got = src_->read(buf_.get() + len_, kChunk);
  len_ += got;
  if (got == 0) eof_ = true;
  return got != 0;
}

bool LineReader::next(std::string& line) {
  std::string_view v;
  if (!next(v)) return false;
  line.assign(v);
  return true;
}

bool LineReader::next(std::string_view& line) {
  size_t scan = pos_;
  for (;;) {
    const char* const buf = buf_.get();
    const auto* nl = len_ == scan ? nullptr : static_cast<const char*>(std::memchr(buf + scan, '\n', len_ - scan));
    if (nl != nullptr) {
      const size_t at = static_cast<size_t>(nl - buf);
      line = std::string_view(buf + pos_, at - pos_);
      pos_ = at + 1;
      break;
    }
    if (len_ - pos_ > kMaxLineBytes) {
      ++line_;
      fail("line longer than " + std::to_string(kMaxLineBytes) + " bytes");
    }
    scan = len_ - pos_;  // offset after compaction in fill()
    if (!fill()) {
      if (pos_ == len_) return false;
      line = std::string_view(buf_.get() + pos_, len_ - pos_);  // last line without "\n"
      pos_ = len_;
      break;
    }
    // fill() moved the unread bytes to the front: continue the search where it stopped.
  }
  ++line_;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.size() > kMaxLineBytes) fail("line longer than " + std::to_string(kMaxLineBytes) + " bytes");
  return true;
}

}  // namespace l1d::sim::trace
