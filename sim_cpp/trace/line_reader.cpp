// Line reader over plain and xz-compressed bytes (line_reader.h).
#include "sim_cpp/trace/line_reader.h"

#include <lzma.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "sim_cpp/trace/trace_error.h"

namespace l1d::sim::trace {
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

 private:
  std::string s_;
  size_t pos_ = 0;
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

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

LineReader::LineReader(std::string name, std::unique_ptr<ByteSource> src, bool xz) : name_(std::move(name)) {
  src_ = xz ? std::make_unique<XzSource>(name_, std::move(src), &line_) : std::move(src);
}

LineReader::~LineReader() = default;

std::unique_ptr<LineReader> LineReader::open_file(const std::string& path) {
  return std::make_unique<LineReader>(path, std::make_unique<FileSource>(path), ends_with(path, ".xz"));
}

std::unique_ptr<LineReader> LineReader::from_string(std::string name, std::string text, bool xz) {
  return std::make_unique<LineReader>(std::move(name), std::make_unique<StringSource>(std::move(text)), xz);
}

void LineReader::fail(const std::string& problem) const { throw TraceError(name_, line_, problem); }

bool LineReader::fill() {
  if (eof_) return false;
  buf_.erase(0, pos_);
  pos_ = 0;
  const size_t old = buf_.size();
  buf_.resize(old + kChunk);
  const size_t got = src_->read(buf_.data() + old, kChunk);
  buf_.resize(old + got);
  if (got == 0) eof_ = true;
  return got != 0;
}

bool LineReader::next(std::string& line) {
  size_t scan = pos_;
  for (;;) {
    const size_t nl = buf_.find('\n', scan);
    if (nl != std::string::npos) {
      line.assign(buf_, pos_, nl - pos_);
      pos_ = nl + 1;
      break;
    }
    if (buf_.size() - pos_ > kMaxLineBytes) {
      ++line_;
      fail("line longer than " + std::to_string(kMaxLineBytes) + " bytes");
    }
    scan = buf_.size() - pos_;  // offset after compaction in fill()
    if (!fill()) {
      if (pos_ == buf_.size()) return false;
      line.assign(buf_, pos_, std::string::npos);  // last line without "\n"
      pos_ = buf_.size();
      break;
    }
    // fill() moved the unread bytes to the front: continue the search where it stopped.
  }
  ++line_;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (line.size() > kMaxLineBytes) fail("line longer than " + std::to_string(kMaxLineBytes) + " bytes");
  return true;
}

}  // namespace l1d::sim::trace
