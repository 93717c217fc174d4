// The .tracez container as text (tracez_source.h).
#include "sim_cpp/trace/tracez_source.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "sim_cpp/trace/trace_error.h"

namespace l1d::sim::trace {
namespace {

// The header text is a few hundred bytes; a file without a NUL this early is not a .tracez.
constexpr uint64_t kMaxHeaderBytes = uint64_t{1} << 20;
constexpr size_t kScanChunk = 4096;
// The smallest file: an empty header's NUL, the two u32 words, an empty index, its offset.
constexpr uint64_t kMinBytes = 1 + 8 + 4 + 8;

}  // namespace

TracezSource::TracezSource(std::string name, std::unique_ptr<ByteSource> file, const uint64_t* line)
    : name_(std::move(name)), file_(std::move(file)), line_(line), inbuf_(ZSTD_DStreamInSize(), '\0') {}

TracezSource::~TracezSource() {
  ZSTD_freeDCtx(dctx_);
  ZSTD_freeDDict(ddict_);
}

void TracezSource::layout_error(const std::string& problem) const { throw TraceError(name_, 0, ".tracez layout: " + problem); }

void TracezSource::data_error(const std::string& problem) const {
  const Block& b = blocks_[block_];
  throw TraceError(name_, *line_ + 1,
                   fmt::format("warp {} of thread block ({},{},{}), sub-chunk {}: {}", warp_, b.v[0], b.v[1], b.v[2],
                               subchunk_, problem));
}

uint32_t TracezSource::u32_at(uint64_t offset) {
  char b[4];
  file_->read_at(offset, b, 4);
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = v << 8 | static_cast<uint8_t>(b[i]);  // little-endian, as the writer's x86 host
  return v;
}

uint64_t TracezSource::u64_at(uint64_t offset) { return u32_at(offset) | uint64_t{u32_at(offset + 4)} << 32; }

void TracezSource::read_layout() {
  if (!file_->seekable()) layout_error("the container needs a seekable file (its index is at the end)");
  size_ = file_->size();
  if (size_ < kMinBytes) layout_error(fmt::format("{} bytes, fewer than the smallest container's {}", size_, kMinBytes));

  // The header text up to its NUL.
  const uint64_t scan_end = std::min(size_, kMaxHeaderBytes);
  char chunk[kScanChunk];
  bool found = false;
  for (uint64_t at = 0; at < scan_end && !found; at += kScanChunk) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(kScanChunk, scan_end - at));
    file_->read_at(at, chunk, n);
    const char* nul = static_cast<const char*>(std::memchr(chunk, '\0', n));
    header_.append(chunk, nul ? static_cast<size_t>(nul - chunk) : n);
    found = nul != nullptr;
  }
  if (!found) layout_error(fmt::format("no NUL byte ending the kernel header in the first {} bytes: not a .tracez file", scan_end));
  uint64_t pos = header_.size() + 1;  // after the NUL
  if (!header_.empty() && header_.back() != '\n') header_ += '\n';

  // The dictionary.
  if (pos + 8 + 4 + 8 > size_) layout_error(fmt::format("the file ends at byte {} inside the dictionary header", size_));
  const uint32_t dict_size = u32_at(pos);
  pos += 8;  // and the sub-chunk size word, which a reader does not need
  if (dict_size > size_ - 8 - pos)
    layout_error(fmt::format("dictionary of {} bytes at byte {} runs past the file's {} bytes", dict_size, pos, size_));
  if (dict_size > 0) {
    dict_.resize(dict_size);
    file_->read_at(pos, dict_.data(), dict_size);
    ddict_ = ZSTD_createDDict(dict_.data(), dict_.size());
    if (ddict_ == nullptr) layout_error(fmt::format("unusable zstd dictionary of {} bytes at byte {}", dict_size, pos));
  }
  data_begin_ = pos + dict_size;

  // The index, located by the file's last 8 bytes.
  index_at_ = u64_at(size_ - 8);
  if (index_at_ < data_begin_ || index_at_ > size_ - 8 - 4)
    layout_error(fmt::format("index offset {} outside the data ({} to {})", index_at_, data_begin_, size_ - 12));
  read_index(index_at_, size_ - 8);

  dctx_ = ZSTD_createDCtx();
  if (dctx_ == nullptr) layout_error("out of memory creating the zstd decoder");
  if (ddict_ != nullptr && ZSTD_isError(ZSTD_DCtx_refDDict(dctx_, ddict_))) layout_error("cannot use the zstd dictionary");
}

void TracezSource::read_index(uint64_t at, uint64_t end) {
  auto need = [&](uint64_t bytes, const char* what) {
    if (bytes > end - at) layout_error(fmt::format("the index is cut short at byte {}: {} missing", at, what));
  };
  need(4, "the thread block count");
  const uint32_t blocks = u32_at(at);
  at += 4;
  for (uint32_t b = 0; b < blocks; ++b) {
    Block blk;
    need(11 * 4, "a thread block record");
    for (uint32_t& v : blk.v) v = u32_at(at), at += 4;
    const uint32_t warps = u32_at(at);
    at += 4;
    for (uint32_t w = 0; w < warps; ++w) {
      Warp wr;
      need(16, "a warp record");
      wr.insts = u32_at(at);
      wr.subchunks = u32_at(at + 4);
      wr.offset = u64_at(at + 8);
      at += 16;
      if (wr.offset < data_begin_ || wr.offset > index_at_ - 8)
        layout_error(fmt::format("warp {} of thread block {} of the index: data offset {} outside the data ({} to {})", w, b,
                                 wr.offset, data_begin_, index_at_ - 8));
      need(uint64_t{wr.subchunks} * 4, "a warp's sub-chunk sizes");
      uint64_t sum = 0;
      for (uint32_t s = 0; s < wr.subchunks; ++s) sum += u32_at(at), at += 4;
      if (sum != wr.insts)
        layout_error(fmt::format("warp {} of thread block {} of the index: its sub-chunks hold {} instructions, not its {}", w, b,
                                 sum, wr.insts));
      blk.warps.push_back(wr);
    }
    blocks_.push_back(std::move(blk));
  }
  if (at != end) layout_error(fmt::format("{} bytes between the index's end (byte {}) and its offset word", end - at, at));
}

// --- streaming ---

size_t TracezSource::read(char* buf, size_t n) {
  // The layout is read at the first read, not when the file is opened: its errors are the
  // kernel file's own (parse_trace_dir names the command list's line only for a failed open).
  if (!laid_out_) {
    read_layout();
    laid_out_ = true;
  }
  size_t got = 0;
  while (got < n) {
    if (pending_pos_ < pending_.size()) {
      const size_t k = std::min(n - got, pending_.size() - pending_pos_);
      std::memcpy(buf + got, pending_.data() + pending_pos_, k);
      pending_pos_ += k;
      got += k;
    } else if (decoding_) {
      got += decode(buf + got, n - got);
    } else if (!advance()) {
      break;
    }
  }
  return got;
}

// Sets up the next piece of text (pending_) or sub-chunk (decoding_); false at the end.
bool TracezSource::advance() {
  pending_.clear();
  pending_pos_ = 0;
  switch (step_) {
    case Step::kHeader:
      pending_ = header_;
      step_ = blocks_.empty() ? Step::kDone : Step::kBlockStart;
      return true;
    case Step::kBlockStart: {
      const uint32_t* v = blocks_[block_].v;
      pending_ = fmt::format("#BEGIN_TB\nthread block = {},{},{}\ncluster id = {},{},{}\ncluster cta = {},{},{}\ncluster rank = {}\n",
                             v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9]);
      warp_ = 0;
      step_ = blocks_[block_].warps.empty() ? Step::kBlockEnd : Step::kWarpStart;
      return true;
    }
    case Step::kWarpStart: start_warp(); return true;
    case Step::kSubchunk: start_subchunk(); return true;
    case Step::kBlockEnd:
      pending_ = "#END_TB\n";
      ++block_;
      step_ = block_ < blocks_.size() ? Step::kBlockStart : Step::kDone;
      return true;
    case Step::kDone: return false;
  }
  return false;
}

// The warp's lines, and a check that its data starts with the counts its index record gives.
void TracezSource::start_warp() {
  const Warp& w = blocks_[block_].warps[warp_];
  pending_ = fmt::format("warp = {}\ninsts = {}\n", warp_, w.insts);
  subchunk_ = 0;
  const uint32_t insts = u32_at(w.offset), subchunks = u32_at(w.offset + 4);
  if (insts != w.insts || subchunks != w.subchunks)
    data_error(fmt::format("its data at byte {} gives {} instructions in {} sub-chunks, the index {} in {}", w.offset, insts,
                           subchunks, w.insts, w.subchunks));
  cursor_ = w.offset + 8;
  step_ = w.subchunks > 0 ? Step::kSubchunk : (++warp_ < blocks_[block_].warps.size() ? Step::kWarpStart : Step::kBlockEnd);
}

void TracezSource::start_subchunk() {
  if (cursor_ + 4 > index_at_) data_error(fmt::format("its size word at byte {} is past the data's end {}", cursor_, index_at_));
  const uint32_t bytes = u32_at(cursor_);
  if (bytes > index_at_ - cursor_ - 4)
    data_error(fmt::format("its {} compressed bytes at byte {} run past the data's end {}", bytes, cursor_ + 4, index_at_));
  frame_pos_ = cursor_ + 4;
  frame_end_ = frame_pos_ + bytes;
  cursor_ = frame_end_;
  ZSTD_DCtx_reset(dctx_, ZSTD_reset_session_only);  // keeps the dictionary
  in_ = ZSTD_inBuffer{inbuf_.data(), 0, 0};
  decoding_ = true;
  frame_done_ = false;
}

// Decodes the current sub-chunk into buf; at its end, a newline ends its last line and the
// stream moves on to the next sub-chunk, warp or thread block.
size_t TracezSource::decode(char* buf, size_t n) {
  ZSTD_outBuffer out{buf, n, 0};
  while (out.pos == 0) {
    if (in_.pos == in_.size && frame_pos_ < frame_end_) {
      const size_t k = static_cast<size_t>(std::min<uint64_t>(inbuf_.size(), frame_end_ - frame_pos_));
      file_->read_at(frame_pos_, inbuf_.data(), k);
      frame_pos_ += k;
      in_ = ZSTD_inBuffer{inbuf_.data(), k, 0};
    }
    const bool input_left = in_.pos < in_.size || frame_pos_ < frame_end_;
    if (!input_left && frame_done_) {
      decoding_ = false;
      pending_ = "\n";
      pending_pos_ = 0;
      const Block& b = blocks_[block_];
      if (++subchunk_ < b.warps[warp_].subchunks)
        step_ = Step::kSubchunk;
      else
        step_ = ++warp_ < b.warps.size() ? Step::kWarpStart : Step::kBlockEnd;
      return 0;
    }
    const size_t before = in_.pos;
    const size_t r = ZSTD_decompressStream(dctx_, &out, &in_);
    if (ZSTD_isError(r)) data_error(std::string("corrupt zstd data (") + ZSTD_getErrorName(r) + ")");
    frame_done_ = r == 0;
    if (out.pos == 0 && in_.pos == before && !frame_done_)
      data_error(input_left ? "the zstd decoder made no progress" : "truncated zstd frame");
  }
  return out.pos;
}

}  // namespace l1d::sim::trace
