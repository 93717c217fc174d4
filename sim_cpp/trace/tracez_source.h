// Accel-Sim 2.0's `.tracez` kernel trace container, read as the `.traceg` text it stands for
// (docs/simulator.md, "Real traces"), so the one text parser reads every format.
//
// Layout (facts from Accel-Sim's post-processing writer and its trace reader; all integers
// little-endian):
//   the kernel header text ("-key = value" lines and '#' comments), then a NUL byte;
//   u32 dictionary size D, u32 instructions per sub-chunk (unused here);
//   D bytes of zstd dictionary (none when D = 0);
//   per warp: u32 instruction count, u32 sub-chunk count, then per sub-chunk
//     u32 compressed size C and C bytes: a zstd frame (with the dictionary) holding the warp's
//     instruction lines joined by '\n' (no final newline);
//   the index: u32 thread blocks, per thread block 11 x u32 (block x,y,z, cluster id x,y,z,
//     cluster cta x,y,z, cluster rank, warp count W) and W warp records
//     (u32 instructions, u32 sub-chunks S, u64 byte offset of the warp's data, S x u32
//     instructions per sub-chunk);
//   u64 byte offset of the index (the file's last 8 bytes).
// The text produced: the header text, then per thread block of the index "#BEGIN_TB",
// "thread block = x,y,z", the three cluster lines, per warp "warp = w" / "insts = n" and the
// decompressed lines, "#END_TB". Sub-chunks are decoded one at a time with libzstd's streaming
// decoder straight into the reader's buffer: memory stays bounded by the index and one window.
//
// Every inconsistency (offsets outside the file, counts that do not fit, a warp record that does
// not match its data, corrupt or truncated zstd frames) is a TraceError: line 0 with the byte
// offset when the layout is wrong, else the decoded text's next line.
#pragma once

#include <zstd.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim_cpp/trace/line_reader.h"

namespace l1d::sim::trace {

class TracezSource final : public ByteSource {
 public:
  // `file` must be seekable (a file or a string). The header and the index are read at the
  // first read().
  TracezSource(std::string name, std::unique_ptr<ByteSource> file, const uint64_t* line);
  ~TracezSource() override;
  TracezSource(const TracezSource&) = delete;
  TracezSource& operator=(const TracezSource&) = delete;
  size_t read(char* buf, size_t n) override;

 private:
  struct Warp {
    uint32_t insts = 0, subchunks = 0;
    uint64_t offset = 0;
  };
  struct Block {
    uint32_t v[10] = {};  // block x,y,z, cluster id x,y,z, cluster cta x,y,z, cluster rank
    std::vector<Warp> warps;
  };

  void read_layout();
  void read_index(uint64_t at, uint64_t end);
  uint32_t u32_at(uint64_t offset);
  uint64_t u64_at(uint64_t offset);
  [[noreturn]] void layout_error(const std::string& problem) const;
  [[noreturn]] void data_error(const std::string& problem) const;

  // Streaming: the next piece of text into pending_, or the next sub-chunk to decode.
  bool advance();
  void start_warp();
  void start_subchunk();
  size_t decode(char* buf, size_t n);

  std::string name_;
  std::unique_ptr<ByteSource> file_;
  const uint64_t* line_;  // the reader's line counter, for error positions
  uint64_t size_ = 0, data_begin_ = 0, index_at_ = 0;
  std::string header_;
  std::string dict_;
  ZSTD_DDict* ddict_ = nullptr;
  ZSTD_DCtx* dctx_ = nullptr;
  std::vector<Block> blocks_;

  // Where the stream is.
  bool laid_out_ = false;  // read_layout() done
  enum class Step : uint8_t { kHeader, kBlockStart, kWarpStart, kSubchunk, kBlockEnd, kDone };
  Step step_ = Step::kHeader;
  size_t block_ = 0, warp_ = 0;
  uint32_t subchunk_ = 0;
  uint64_t cursor_ = 0;  // file offset of the next sub-chunk's size word
  std::string pending_;
  size_t pending_pos_ = 0;
  // The sub-chunk being decoded: compressed bytes [frame_pos_, frame_end_).
  bool decoding_ = false, frame_done_ = false;
  uint64_t frame_pos_ = 0, frame_end_ = 0;
  std::string inbuf_;
  ZSTD_inBuffer in_{nullptr, 0, 0};
};

}  // namespace l1d::sim::trace
