// Testbench of l1d_tag_array: tb/tag_array_tb.h on this block's models.
#include "l1d_tag_array_models.h"

namespace {
namespace models = tb::l1d_tag_array;
}  // namespace

#include "tb/tag_array_tb.h"
