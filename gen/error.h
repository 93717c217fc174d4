// Errors raised while building the SystemVerilog IR. Every check fires when the IR is
// built (not when it is emitted), so the C++ stack trace points at the generator line
// that asked for the bad construct.
#pragma once

#include <stdexcept>
#include <string>

namespace gen {

// Base of every generator error; `rule()` is a short stable id ("fill-ones-param",
// "name-keyword", ...) that tests and callers can match on.
class Error : public std::runtime_error {
 public:
  Error(std::string rule, const std::string& message)
      : std::runtime_error(message), rule_(std::move(rule)) {}
  const std::string& rule() const { return rule_; }

 private:
  std::string rule_;
};

// A construct outside the target profile (SV-SUBSET.md): refused because Verilator 5.006
// or Yosys 0.23 rejects or silently miscompiles it, or because it would build a latch.
class ProfileError : public Error {
 public:
  using Error::Error;
};

// An identifier that is a keyword, is not a legal simple identifier, breaks the lowRISC
// naming convention, or duplicates (or hides) another name.
class NameError : public Error {
 public:
  using Error::Error;
};

// Malformed IR that no tool would accept either (selecting bits of an expression,
// assigning an input, a function that never sets its result, ...).
class IrError : public Error {
 public:
  using Error::Error;
};

}  // namespace gen
