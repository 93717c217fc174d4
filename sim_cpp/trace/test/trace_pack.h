// Compressed forms of a trace text for the tests and the fuzzer, made with the libraries at test
// time (no binary fixtures): xz, zstd (optionally as several concatenated frames), and Accel-Sim
// 2.0's `.tracez` container (layout: sim_cpp/trace/tracez_source.h), written from a grouped
// `.traceg` text independently of the reader's code.
#pragma once

#include <lzma.h>
#include <zstd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace l1d::sim::trace::pack {

inline std::string xz(const std::string& text, uint32_t preset = 6) {
  std::string out(lzma_stream_buffer_bound(text.size()), '\0');
  size_t pos = 0;
  if (lzma_easy_buffer_encode(preset, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const uint8_t*>(text.data()), text.size(),
                              reinterpret_cast<uint8_t*>(out.data()), &pos, out.size()) != LZMA_OK)
    throw std::runtime_error("lzma_easy_buffer_encode failed");
  out.resize(pos);
  return out;
}

// One zstd frame with a content checksum (as the zstd tool writes it), with `dict` as a
// raw-content dictionary when it is not empty.
inline std::string zstd_frame(const std::string& text, const std::string& dict = "") {
  std::string out(ZSTD_compressBound(text.size()), '\0');
  ZSTD_CCtx* c = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
  if (!dict.empty()) ZSTD_CCtx_loadDictionary(c, dict.data(), dict.size());
  const size_t n = ZSTD_compress2(c, out.data(), out.size(), text.data(), text.size());
  ZSTD_freeCCtx(c);
  if (ZSTD_isError(n)) throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(n));
  out.resize(n);
  return out;
}

// `frames` concatenated frames (as `zstd` writes a file compressed in pieces).
inline std::string zstd(const std::string& text, size_t frames = 1) {
  std::string out;
  const size_t step = text.size() / frames + 1;
  for (size_t at = 0; at < text.size() || out.empty(); at += step) out += zstd_frame(text.substr(at, step));
  return out;
}

inline void put32(std::string& s, uint32_t v) {
  for (int i = 0; i < 4; ++i) s += static_cast<char>(v >> (8 * i) & 0xFF);
}
inline void put64(std::string& s, uint64_t v) {
  put32(s, static_cast<uint32_t>(v));
  put32(s, static_cast<uint32_t>(v >> 32));
}

// The .tracez container of a grouped text trace: its header (everything before the first
// #BEGIN_TB), per warp sub-chunks of at most `per_subchunk` instruction lines, a raw-content
// dictionary (the first 2 KiB of instruction text) when `dict`, and the index.
inline std::string tracez(const std::string& traceg, uint32_t per_subchunk = 2048, bool dict = true) {
  struct Block {
    uint32_t v[10] = {};  // block x,y,z, cluster id x,y,z, cluster cta x,y,z, rank
    std::vector<std::vector<std::string>> warps;
  };
  std::string header;
  std::vector<Block> blocks;
  std::string all_insts;
  bool body = false;
  std::istringstream in(traceg);
  auto three = [](const std::string& v, uint32_t* out) {
    std::string t = v;
    for (char& c : t)
      if (c == ',' || c == '(' || c == ')') c = ' ';
    std::istringstream s(t);
    s >> out[0] >> out[1] >> out[2];
  };
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("#BEGIN_TB", 0) == 0) body = true;
    if (!body) {
      header += line + "\n";
      continue;
    }
    const size_t eq = line.find('=');
    const std::string value = eq == std::string::npos ? "" : line.substr(eq + 1);
    // Lines outside a block or warp (a mutated input) are left out: the reader must cope with
    // whatever container comes out, not with these rules.
    const bool in_block = !blocks.empty(), in_warp = in_block && !blocks.back().warps.empty();
    if (line.rfind("#BEGIN_TB", 0) == 0) {
      blocks.emplace_back();
    } else if (!in_block) {
      continue;
    } else if (line.rfind("thread block", 0) == 0) {
      three(value, blocks.back().v);
    } else if (line.rfind("cluster id", 0) == 0) {
      three(value, blocks.back().v + 3);
    } else if (line.rfind("cluster cta", 0) == 0) {
      three(value, blocks.back().v + 6);
    } else if (line.rfind("cluster rank", 0) == 0) {
      blocks.back().v[9] = static_cast<uint32_t>(std::strtoul(value.c_str(), nullptr, 10));
    } else if (line.rfind("warp", 0) == 0) {
      blocks.back().warps.emplace_back();
    } else if (in_warp && !line.empty() && line[0] != '#' && line.rfind("insts", 0) != 0) {
      blocks.back().warps.back().push_back(line);
      if (all_insts.size() < 2048) all_insts += line + "\n";
    }
  }
  const std::string d = dict ? all_insts.substr(0, 2048) : "";
  std::string out = header;
  out += '\0';
  put32(out, static_cast<uint32_t>(d.size()));
  put32(out, per_subchunk);
  out += d;
  std::string index;
  put32(index, static_cast<uint32_t>(blocks.size()));
  for (const Block& b : blocks) {
    for (uint32_t v : b.v) put32(index, v);
    put32(index, static_cast<uint32_t>(b.warps.size()));
    for (const std::vector<std::string>& w : b.warps) {
      std::vector<uint32_t> counts;
      std::string data;
      for (size_t at = 0; at < w.size(); at += per_subchunk) {
        std::string text;
        for (size_t i = at; i < w.size() && i < at + per_subchunk; ++i) text += (i > at ? "\n" : "") + w[i];
        const std::string f = zstd_frame(text, d);
        put32(data, static_cast<uint32_t>(f.size()));
        data += f;
        counts.push_back(static_cast<uint32_t>(std::min<size_t>(per_subchunk, w.size() - at)));
      }
      put32(index, static_cast<uint32_t>(w.size()));
      put32(index, static_cast<uint32_t>(counts.size()));
      put64(index, out.size());
      for (uint32_t c : counts) put32(index, c);
      put32(out, static_cast<uint32_t>(w.size()));
      put32(out, static_cast<uint32_t>(counts.size()));
      out += data;
    }
  }
  const uint64_t index_at = out.size();
  out += index;
  put64(out, index_at);
  return out;
}

}  // namespace l1d::sim::trace::pack
