#include "common/types.h"

namespace l1d {

std::string_view to_string(Outcome o) {
  switch (o) {
    case Outcome::kHit: return "hit";
    case Outcome::kMissReturn: return "miss-return";
    case Outcome::kBypassReturn: return "bypass-return";
    case Outcome::kStoreAck: return "store-ack";
  }
  return "?";
}

}  // namespace l1d
