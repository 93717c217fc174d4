// Testbench of l1d_line_state (the staged L1's flop fields of the tag/state array: valid,
// slot_rank, priority): tb/tag_array_tb.h on this block's models.
#include "l1d_line_state_models.h"

namespace {
namespace models = tb::l1d_line_state;
}  // namespace

#include "tb/tag_array_tb.h"
