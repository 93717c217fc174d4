#include "gen/names.h"

#include <algorithm>
#include <array>

#include "gen/error.h"

namespace gen {
namespace {

// IEEE 1800-2017 Annex B, Table B.1 (sorted, for binary search).
constexpr std::array<std::string_view, 248> kKeywords = {
    "accept_on", "alias", "always", "always_comb", "always_ff", "always_latch", "and", "assert",
    "assign", "assume", "automatic", "before", "begin", "bind", "bins", "binsof", "bit", "break",
    "buf", "bufif0", "bufif1", "byte", "case", "casex", "casez", "cell", "chandle", "checker",
    "class", "clocking", "cmos", "config", "const", "constraint", "context", "continue", "cover",
    "covergroup", "coverpoint", "cross", "deassign", "default", "defparam", "design", "disable",
    "dist", "do", "edge", "else", "end", "endcase", "endchecker", "endclass", "endclocking",
    "endconfig", "endfunction", "endgenerate", "endgroup", "endinterface", "endmodule",
    "endpackage", "endprimitive", "endprogram", "endproperty", "endsequence", "endspecify",
    "endtable", "endtask", "enum", "event", "eventually", "expect", "export", "extends", "extern",
    "final", "first_match", "for", "force", "foreach", "forever", "fork", "forkjoin", "function",
    "generate", "genvar", "global", "highz0", "highz1", "if", "iff", "ifnone", "ignore_bins",
    "illegal_bins", "implements", "implies", "import", "incdir", "include", "initial", "inout",
    "input", "inside", "instance", "int", "integer", "interconnect", "interface", "intersect",
    "join", "join_any", "join_none", "large", "let", "liblist", "library", "local", "localparam",
    "logic", "longint", "macromodule", "matches", "medium", "modport", "module", "nand", "negedge",
    "nettype", "new", "nexttime", "nmos", "nor", "noshowcancelled", "not", "notif0", "notif1",
    "null", "or", "output", "package", "packed", "parameter", "pmos", "posedge", "primitive",
    "priority", "program", "property", "protected", "pull0", "pull1", "pulldown", "pullup",
    "pulsestyle_ondetect", "pulsestyle_onevent", "pure", "rand", "randc", "randcase",
    "randsequence", "rcmos", "real", "realtime", "ref", "reg", "reject_on", "release", "repeat",
    "restrict", "return", "rnmos", "rpmos", "rtran", "rtranif0", "rtranif1", "s_always",
    "s_eventually", "s_nexttime", "s_until", "s_until_with", "scalared", "sequence", "shortint",
    "shortreal", "showcancelled", "signed", "small", "soft", "solve", "specify", "specparam",
    "static", "string", "strong", "strong0", "strong1", "struct", "super", "supply0", "supply1",
    "sync_accept_on", "sync_reject_on", "table", "tagged", "task", "this", "throughout", "time",
    "timeprecision", "timeunit", "tran", "tranif0", "tranif1", "tri", "tri0", "tri1", "triand",
    "trior", "trireg", "type", "typedef", "union", "unique", "unique0", "unsigned", "until",
    "until_with", "untyped", "use", "uwire", "var", "vectored", "virtual", "void", "wait",
    "wait_order", "wand", "weak", "weak0", "weak1", "while", "wildcard", "wire", "with", "within",
    "wor", "xnor", "xor"};

bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_word(char c) { return is_lower(c) || is_upper(c) || is_digit(c) || c == '_'; }

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() > suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}
bool starts_with(std::string_view s, std::string_view prefix) {
  return s.size() > prefix.size() && s.substr(0, prefix.size()) == prefix;
}

// The spelling rule of each kind; empty when the name conforms.
std::string style_problem(std::string_view n, NameKind kind) {
  const bool snake = is_lower_snake(n);
  const bool port_suffix =
      ends_with(n, "_i") || ends_with(n, "_ni") || ends_with(n, "_o") || ends_with(n, "_no");
  switch (kind) {
    case NameKind::kModule:
      if (!snake) return "module names are lower_snake_case";
      if (ends_with(n, "_pkg")) return "the _pkg suffix is reserved for packages";
      return {};
    case NameKind::kPackage:
      return snake && ends_with(n, "_pkg") ? "" : "package names are lower_snake_case ending in _pkg";
    case NameKind::kParameter:
    case NameKind::kLocalparam:
    case NameKind::kEnumItem:
      return is_upper_camel(n) ? "" : "parameters, localparams and enum items are UpperCamelCase";
    case NameKind::kInput:
      return snake && (ends_with(n, "_i") || ends_with(n, "_ni"))
                 ? ""
                 : "input ports are lower_snake_case ending in _i (active low: _ni)";
    case NameKind::kOutput:
      return snake && (ends_with(n, "_o") || ends_with(n, "_no"))
                 ? ""
                 : "output ports are lower_snake_case ending in _o (active low: _no)";
    case NameKind::kSignal:
      if (!snake) return "signals are lower_snake_case";
      if (port_suffix) return "the suffixes _i/_ni/_o/_no are reserved for ports";
      return {};
    case NameKind::kEnumType:
      return snake && ends_with(n, "_e") ? "" : "enum types are lower_snake_case ending in _e";
    case NameKind::kStructType:
    case NameKind::kTypeAlias:
      return snake && ends_with(n, "_t") ? "" : "struct and alias types are lower_snake_case ending in _t";
    case NameKind::kGenerateBlock:
      return snake && starts_with(n, "g_") ? "" : "generate blocks are named g_<lower_snake_case>";
    case NameKind::kInstance:
      return snake && starts_with(n, "u_") ? "" : "instances are named u_<lower_snake_case>";
    case NameKind::kAssertion:
      return ends_with(n, "_A") && n.size() > 2 && is_upper_camel(n.substr(0, n.size() - 2))
                 ? ""
                 : "assertions are UpperCamelCase ending in _A (the broken invariant, e.g. MshrRespPending_A)";
    case NameKind::kField:
    case NameKind::kFunction:
    case NameKind::kArgument:
    case NameKind::kLocal:
    case NameKind::kLoopVar:
      return snake ? "" : std::string(to_string(kind)) + " names are lower_snake_case";
  }
  return {};
}

}  // namespace

std::string_view to_string(NameKind kind) {
  switch (kind) {
    case NameKind::kModule: return "module";
    case NameKind::kPackage: return "package";
    case NameKind::kParameter: return "parameter";
    case NameKind::kLocalparam: return "localparam";
    case NameKind::kInput: return "input port";
    case NameKind::kOutput: return "output port";
    case NameKind::kSignal: return "signal";
    case NameKind::kEnumType: return "enum type";
    case NameKind::kStructType: return "struct type";
    case NameKind::kTypeAlias: return "type alias";
    case NameKind::kEnumItem: return "enum item";
    case NameKind::kField: return "struct field";
    case NameKind::kGenerateBlock: return "generate block";
    case NameKind::kInstance: return "instance";
    case NameKind::kFunction: return "function";
    case NameKind::kArgument: return "function argument";
    case NameKind::kLocal: return "function local";
    case NameKind::kLoopVar: return "loop variable";
    case NameKind::kAssertion: return "assertion";
  }
  return "name";
}

bool is_keyword(std::string_view name) {
  return std::binary_search(kKeywords.begin(), kKeywords.end(), name);
}

bool is_legal_identifier(std::string_view name) {
  if (name.empty() || is_digit(name.front())) return false;
  return std::all_of(name.begin(), name.end(), is_word);
}

bool is_lower_snake(std::string_view n) {
  if (n.empty() || !is_lower(n.front()) || n.back() == '_') return false;
  for (size_t i = 0; i < n.size(); ++i) {
    const char c = n[i];
    if (!(is_lower(c) || is_digit(c) || c == '_')) return false;
    if (c == '_' && n[i - 1] == '_') return false;
  }
  return true;
}

bool is_upper_camel(std::string_view n) {
  if (n.empty() || !is_upper(n.front())) return false;
  return std::all_of(n.begin(), n.end(), [](char c) { return is_lower(c) || is_upper(c) || is_digit(c); });
}

void check_name(std::string_view name, NameKind kind) {
  const std::string quoted = "'" + std::string(name) + "'";
  if (!is_legal_identifier(name)) {
    throw NameError("name-illegal", std::string(to_string(kind)) + " name " + quoted +
                                        " is not a simple identifier [A-Za-z_][A-Za-z0-9_]*");
  }
  if (is_keyword(name)) {
    throw NameError("name-keyword", std::string(to_string(kind)) + " name " + quoted +
                                        " is a SystemVerilog keyword (IEEE 1800-2017 Annex B)");
  }
  if (const std::string problem = style_problem(name, kind); !problem.empty()) {
    throw NameError("name-style",
                    std::string(to_string(kind)) + " name " + quoted + " breaks the lowRISC convention: " + problem);
  }
}

std::string legalize(std::string_view raw) {
  std::string out;
  out.reserve(raw.size() + 3);
  for (const char c : raw) out.push_back(is_word(c) ? c : '_');
  if (out.empty() || is_digit(out.front())) out.insert(out.begin(), 'n');
  if (is_keyword(out)) out += "_sv";
  return out;
}

}  // namespace gen
