# Yosys 0.23 (yosys -c): synthesize one block to the cells of a liberty file (synth/block.sh).
#
# Environment: SYN_RTL_DIR (every *.sv read, packages *_pkg.sv first), SYN_TOP (the block),
# SYN_LIBERTY (the prepared plain copy, synth/liberty.py), SYN_CONSTR (ABC's driving cell and
# load), SYN_OUT (output directory), SYN_TIEHI / SYN_TIELO ("cell port", or empty when the
# library has none), SYN_BLACKBOX (modules kept as black boxes, e.g. the data SRAM),
# SYN_ABC_ARGS (extra abc options), SYN_TOOLS (synth/), SYN_PYTHON.
#
# Steps: read_verilog -sv -noautowire -defer (only what TOP instantiates is elaborated: the big
# arrays of other files cost nothing); hierarchy -check; synth -flatten (the block alone); the
# register wrapper TOP_synwrap (synth/wrapper.py) around it, kept as its own module so that the
# block's cells, area and flops are counted apart from the wrapper's; dfflibmap; abc -liberty
# -constr; tie cells (hilomap); then a failure if any internal ($) cell is left unmapped, and
# stat -liberty (JSON) and the netlist for OpenSTA.

proc env_or {name default} {
    if {[info exists ::env($name)]} { return $::env($name) }
    return $default
}

set rtl     $::env(SYN_RTL_DIR)
set top     $::env(SYN_TOP)
set lib     $::env(SYN_LIBERTY)
set constr  $::env(SYN_CONSTR)
set out     $::env(SYN_OUT)
set tools   $::env(SYN_TOOLS)
set python  [env_or SYN_PYTHON python3]
set tiehi   [env_or SYN_TIEHI ""]
set tielo   [env_or SYN_TIELO ""]
set bboxes  [env_or SYN_BLACKBOX ""]
set abcargs [env_or SYN_ABC_ARGS ""]

set pkgs [lsort [glob -nocomplain -directory $rtl *_pkg.sv]]
set mods {}
foreach f [lsort [glob -nocomplain -directory $rtl *.sv]] {
    if {[lsearch -exact $pkgs $f] < 0} { lappend mods $f }
}
yosys read_verilog -sv -noautowire -defer {*}$pkgs {*}$mods
yosys hierarchy -check -top $top

# Black boxes (SYN_BLACKBOX, e.g. the data SRAM): first their storage as instantiated here
# (memory bits per elaborated module, from the memory declarations; synth/report.py multiplies by
# the instance counts), then their contents go. Their area comes from a stated SRAM density
# (docs/synthesis.md), reported apart from the standard cells. The memory bits are counted before
# proc, which takes many minutes on a byte-masked memory model in Yosys 0.23; only a model
# without a memory is put through proc, to count its flop bits instead.
# Elaborated modules are named \M or $paramod$<hash>\M, hence the pattern *M.
set bbsel {}
foreach m $bboxes { lappend bbsel "*$m" }
proc memory_bits {path} {
    set fh [open $path]
    set text [read $fh]
    close $fh
    set bits 0
    foreach {_ n} [regexp -all -inline {"num_memory_bits":\s*(\d+)} $text] { incr bits $n }
    return $bits
}
if {[llength $bbsel]} {
    yosys tee -q -o $out/macros.json stat -json -width {*}$bbsel
    if {[memory_bits $out/macros.json] == 0} {
        yosys proc {*}$bbsel
        yosys tee -q -o $out/macros.json stat -json -width {*}$bbsel
    }
    yosys tee -q -o $out/hierarchy.json stat -json
    if {$top in $bboxes} { return }
    foreach sel $bbsel { yosys blackbox $sel }
}
yosys proc

# The wrapper needs the block's elaborated port widths: taken from the coarse design (after proc,
# which synth runs first anyway), whose JSON is small; the gate-level one of a large block takes
# minutes to write.
yosys write_json $out/block.json
exec $python $tools/wrapper.py $out/block.json $top $out/wrapper.v
yosys synth -flatten -top $top
yosys read_verilog $out/wrapper.v
yosys hierarchy -check -top ${top}_synwrap
yosys proc
yosys techmap ${top}_synwrap
yosys opt_clean

yosys dfflibmap -liberty $lib
yosys abc -liberty $lib -constr $constr {*}$abcargs
yosys opt_clean
# Undriven bits (don't-care constants of the RTL) read 0, then constants come from tie cells.
yosys setundef -zero
if {$tiehi ne "" && $tielo ne ""} {
    yosys hilomap -hicell {*}$tiehi -locell {*}$tielo
} elseif {$tiehi ne "" || $tielo ne ""} {
    error "yosys_map: a library with only one tie cell kind is not supported"
}
# -purge keeps one name per net: OpenSTA 2.0.17 cannot read the concatenations on the left of
# `assign` that write_verilog emits for aliases.
yosys opt_clean -purge

# Anything still of an internal type ($_AND_, $_DFF_P_, $mem ...) has no cell in the library.
# (Black-box instances are named after their module, which is $paramod... once elaborated.)
set unmapped [list t:\$*]
foreach sel $bbsel { lappend unmapped t:$sel %d }
yosys tee -q -o $out/unmapped.txt select -list {*}$unmapped
if {[file size $out/unmapped.txt] > 0} {
    yosys stat
    set fh [open $out/unmapped.txt]
    set cells [lrange [split [string trim [read $fh]] "\n"] 0 2]
    close $fh
    error "yosys_map: unmapped internal cells remain in $top: [join $cells {, }] (all: $out/unmapped.txt)"
}
yosys tee -q -o $out/stat.json stat -json -liberty $lib
yosys tee -q -o $out/stat.txt stat -liberty $lib
yosys write_verilog -noattr -noexpr -simple-lhs $out/netlist.v
