// What travels between the memory system's blocks.
#pragma once

#include <cstdint>

#include "common/types.h"

namespace l1d::sim {

// SM -> L2 bank (request network).
struct ReqPacket {
  MemReq req;
  uint32_t sm = 0;
  uint64_t accepted = 0;  // cycle the memory system accepted it from the L1
};

// L2 bank -> SM (response network). Only reads are answered.
struct RespPacket {
  MemResp resp;
  uint32_t sm = 0;
  uint64_t accepted = 0;  // of the read this answers
  SectorMask sectors = 0; // returned sectors (sets the packet size)
  // Where the read's round trip went (MemorySystemStats::RoundTripParts): the cycles its request
  // left the SM's injection buffer and reached the L2 slice's input, the slice accepted it, and
  // its response was ready to leave the slice (hit pipeline or fill path); whether it hit.
  uint64_t req_grant = 0, req_arrive = 0, l2_accept = 0, l2_ready = 0;
  bool l2_hit = false;
};

// A request's trip through the request network, as the L2 slice takes it (L2Bank::accept).
struct ReqTimes {
  uint64_t grant = 0, arrive = 0;
};

// L2 bank <-> DRAM channel.
struct DramRequest {
  uint64_t channel_line = 0;  // line index inside the partition = DRAM channel (AddressMap::channel_line)
  SectorMask sectors = 0;   // 32 B sectors transferred
  bool write = false;
  uint32_t tag = 0;         // reads: the L2 MSHR entry the data is for
};

}  // namespace l1d::sim
