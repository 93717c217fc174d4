// The fixture every RTL testbench uses: one verilated model in its own VerilatedContext.
//
//   tb::Dut<Vl1d_tag_mask_gtx480> dut("l1d_tag_mask", /*seed=*/1);
//   dut->gran_i = 1;          // drive inputs through the model's ports
//   dut.settle();             // evaluate with these inputs (clock low): read outputs now
//   dut.tick();               // rising edge: registered state takes the new values
//
// Every variable starts from a random value (the models are verilated with --x-initial unique;
// the context's randReset(2) draws them from `seed`), so a missing reset shows as a mismatch.
// With tracing on (`--trace` on the testbench command line, or L1D_TRACE=1) the model writes
// <waves_dir()>/<trace_name>.fst, one time step of 10 per cycle (rising edge at +5).
// Built with TB_RTL_COVERAGE (a model verilated with coverage, tb/coverage.cmake), every model
// counts from the end of its last reset() and writes its counts to $TB_COVERAGE_DIR when it ends.
#pragma once

#include <verilated.h>
#if VM_TRACE_FST
#include <verilated_fst_c.h>
#endif
#ifdef TB_RTL_COVERAGE  // a coverage build of a block's testbench (tb/coverage.cmake)
#include <unistd.h>
#include <verilated_cov.h>

#include <atomic>
#include <cstdlib>
#endif

#include <cstdint>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace tb {

// --trace or L1D_TRACE=1.
bool tracing();
void set_tracing(bool on);
// $L1D_WAVES_DIR, else <build dir>/waves.
std::filesystem::path waves_dir();
// The +plusargs of the testbench command line (tb/main.cpp), passed to every model's context:
// +mut_<name> selects a mutant of the mutation tests (add_rtl_mutants, tb/mutants/).
const std::vector<std::string>& plusargs();
// Sets a model context's command arguments to plusargs() ($test$plusargs reads them).
void add_plusargs(VerilatedContext& ctx);
#ifdef TB_RTL_COVERAGE
// The coverage files this process wrote (one per model, whatever its type).
inline std::atomic<uint64_t>& coverage_files() {
  static std::atomic<uint64_t> n{0};
  return n;
}
#endif

template <class Model>
class Dut {
 public:
  static constexpr bool kClocked = requires(Model& m) { m.clk_i; };
  static constexpr bool kHasReset = requires(Model& m) { m.rst_ni; };

  Dut(const std::string& trace_name, uint64_t seed) : ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->randReset(2);  // --x-initial unique: random initial values ...
    ctx_->randSeed(static_cast<int>(seed & 0x7fffffff));  // ... drawn from this seed
    ctx_->traceEverOn(tracing());
    add_plusargs(*ctx_);
    model_ = std::make_unique<Model>(ctx_.get(), "TOP");
    if (tracing()) open_trace(trace_name);
    if constexpr (kClocked) model_->clk_i = 0;
    if constexpr (kHasReset) model_->rst_ni = 1;
  }
  ~Dut() {
    model_->final();
#ifdef TB_RTL_COVERAGE
    if (const char* dir = std::getenv("TB_COVERAGE_DIR"); dir != nullptr && *dir != '\0') {
      const std::string file = std::string(dir) + "/" + std::to_string(::getpid()) + "-" +
                               std::to_string(coverage_files()++) + ".dat";
      ctx_->coveragep()->write(file.c_str());
    }
#endif
#if VM_TRACE_FST
    if (trace_) trace_->close();
#endif
  }
  Dut(const Dut&) = delete;
  Dut& operator=(const Dut&) = delete;

  Model& operator*() { return *model_; }
  Model* operator->() { return model_.get(); }
  const Model& operator*() const { return *model_; }

  // Evaluates the model with the inputs as driven (clock low) and records the wave sample.
  void settle() {
    model_->eval();
    dump();
  }

  // Ends the cycle: a rising clock edge for clocked models, then the clock returns low at the
  // next settle(). For combinational models only the time advances.
  void tick() {
    if constexpr (kClocked) {
      ctx_->timeInc(5);
      model_->clk_i = 1;
      model_->eval();
      dump();
      ctx_->timeInc(5);
      model_->clk_i = 0;
    } else {
      ctx_->timeInc(10);
    }
    ++cycles_;
  }

  // Holds rst_ni low for `cycles` cycles, then releases it (models without rst_ni: no-op).
  void reset(unsigned cycles = 2) {
    if constexpr (kHasReset) {
      model_->rst_ni = 0;
      for (unsigned i = 0; i < cycles; ++i) {
        settle();
        tick();
      }
      model_->rst_ni = 1;
#ifdef TB_RTL_COVERAGE
      // The first reset toggles every flop that starts at a random value: not coverage.
      if (!counting_) ctx_->coveragep()->zero();
      counting_ = true;
#endif
    }
  }

  uint64_t cycles() const { return cycles_; }
  VerilatedContext& context() { return *ctx_; }

  // The RTL's assertions (verilated with --assert) stop the process at the first violation with
  // the assertion's name (docs/rtl-verification.md). A testbench that drives a block outside its
  // input contract on purpose, to check what the RTL defines there, turns them off for those
  // cycles only: `{ auto off = dut.asserts_off(); cycle(in); }`.
  class AssertsOff {
   public:
    explicit AssertsOff(VerilatedContext& ctx) : ctx_(ctx), was_(ctx.assertOn()) { ctx_.assertOn(false); }
    ~AssertsOff() { ctx_.assertOn(was_); }
    AssertsOff(const AssertsOff&) = delete;
    AssertsOff& operator=(const AssertsOff&) = delete;

   private:
    VerilatedContext& ctx_;
    bool was_;
  };
  [[nodiscard]] AssertsOff asserts_off() { return AssertsOff(*ctx_); }

 private:
  void open_trace(const std::string& name) {
#if VM_TRACE_FST
    trace_ = std::make_unique<VerilatedFstC>();
    model_->trace(trace_.get(), 99);
    std::filesystem::create_directories(waves_dir());
    const std::filesystem::path file = waves_dir() / (name + ".fst");
    trace_->open(file.c_str());
    std::cout << "[ waves    ] " << file.string() << "\n";
#else
    std::cerr << "tracing requested, but the models were built without FST support (zlib missing)\n";
    (void)name;
#endif
  }

  void dump() {
#if VM_TRACE_FST
    if (trace_) trace_->dump(ctx_->time());
#endif
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> model_;
#ifdef TB_RTL_COVERAGE
  bool counting_ = false;  // coverage counts since the first reset
#endif
#if VM_TRACE_FST
  std::unique_ptr<VerilatedFstC> trace_;
#endif
  uint64_t cycles_ = 0;
};

}  // namespace tb
