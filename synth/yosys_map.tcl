# Yosys 0.23 (yosys -c): synthesize one block to the cells of a liberty file (synth/block.sh).
#
# Environment: SYN_RTL_DIR (every *.sv read, packages *_pkg.sv first), SYN_TOP (the block),
# SYN_LIBERTY (the prepared plain copy, synth/liberty.py), SYN_CONSTR (ABC's driving cell and
# load), SYN_OUT (output directory), SYN_TIEHI / SYN_TIELO ("cell port", or empty when the
# library has none), SYN_BLACKBOX (modules kept as black boxes, e.g. the data SRAM),
# SYN_ABC_ARGS (extra abc options), SYN_CONST_INPUTS (inputs tied to constants, below),
# SYN_MACRO_MIN_BITS (memories at least this large become SRAM macros, below; default 4096),
# SYN_SUBBLOCKS (modules synthesized on their own runs: black boxes here, below), SYN_CONTEXT
# (the block in the context of its instances, below), SYN_TOOLS (synth/), SYN_PYTHON,
# SYN_SRAM_KIND / SYN_SRAM_MACROS / SYN_SRAM_DENSITY / SYN_FO4_NS (the SRAM layer, below).
#
# Steps: read_verilog -sv -noautowire -defer (only what TOP instantiates is elaborated: the big
# arrays of other files cost nothing); hierarchy -check; black boxes; proc; constant inputs;
# synth -flatten (the block alone, large memories made SRAM macros after its coarse steps); the
# register wrapper TOP_synwrap (synth/wrapper.py) around it, kept as its own module so that the
# block's cells, area and flops are counted apart from the wrapper's; dfflibmap; abc -liberty
# -constr; tie cells (hilomap); then a failure if any internal ($) cell is left unmapped, and
# stat -liberty (JSON) and the netlist for OpenSTA.

proc read_file {path} {
    set fh [open $path]
    set text [read $fh]
    close $fh
    return $text
}

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
set subs    [env_or SYN_SUBBLOCKS ""]
set context [env_or SYN_CONTEXT ""]

set pkgs [lsort [glob -nocomplain -directory $rtl *_pkg.sv]]
set mods {}
foreach f [lsort [glob -nocomplain -directory $rtl *.sv]] {
    if {[lsearch -exact $pkgs $f] < 0} { lappend mods $f }
}
yosys read_verilog -sv -noautowire -defer {*}$pkgs {*}$mods
# SYN_PARAMS ("name=value ..."): the parameters of a sub-block's instance in its hierarchical
# block (written by the glue's run below, synth/hier.sh passes them on); -chparam elaborates the
# block with them under its plain name, which the glue's netlist instantiates.
set chparams {}
foreach p [env_or SYN_PARAMS ""] {
    if {![regexp {^(\w+)=(\d+)$} $p _ name value]} {
        error "yosys_map: SYN_PARAMS entry '$p' is not name=decimal"
    }
    lappend chparams -chparam $name $value
}
yosys hierarchy -check -top $top {*}$chparams

# The elaborated modules of module m: \m, $paramod\m\P=... or $paramod$<hash>\m.
proc elaborated {m} {
    global out
    yosys tee -q -o $out/modules.txt ls
    set names {}
    foreach line [split [read_file $out/modules.txt] "\n"] {
        set name [string trim $line]
        if {$name eq $m || [regexp [string cat {^\$paramod(\$[0-9a-f]+)?\\} $m {(\\.*)?$}] $name]} {
            lappend names $name
        }
    }
    return $names
}

# Sub-blocks that their hierarchical block instantiates with parameters (SYN_SUBBLOCKS; synth.sh
# --hier-params, the staged l1d_top's l1d_tag_read #(.RowBits(856))): the one elaborated module of
# each takes the plain name, so that the glue's netlist instantiates it by that name, and its
# parameters go to OUT/sub_params/<m>.txt for the sub-block's own run (SYN_PARAMS). Two different
# parameter sets of one sub-block would need two netlists of one name: refused.
foreach m [env_or SYN_SUBBLOCKS ""] {
    file mkdir $out/sub_params
    set names [elaborated $m]
    if {[llength $names] > 1} {
        error "yosys_map: sub-block $m is elaborated [llength $names] times with different parameters\
               ([join $names {, }]); the hierarchical flow synthesizes one netlist per sub-block"
    }
    set params {}
    if {[llength $names] == 1 && [lindex $names 0] ne $m} {
        # (rename does not retype the instances)
        yosys chtype -map [lindex $names 0] $m
        yosys rename [lindex $names 0] $m
        yosys tee -q -o $out/sub_params/$m.dump dump -m $m/w:*
        foreach {_ name value} [regexp -all -inline -line {^\s+parameter \\(\w+) (\d+)$} \
                                    [read_file $out/sub_params/$m.dump]] {
            lappend params $name=$value
        }
        if {[llength $params] == 0} { error "yosys_map: no integer parameters found for sub-block $m" }
    }
    set fh [open $out/sub_params/$m.txt w]
    puts $fh [join $params " "]
    close $fh
}

# The SRAM layer (docs/synthesis.md): every elaborated l1d_sram_1rw / l1d_sram_1r1w (the logical
# arrays) is replaced by its synthesis view for the library, a wrapper around the macros that
# synth/sram_tiling.py chooses (SYN_SRAM_KIND sky130 | sg13g2: the unpacked macro .lib files in
# SYN_SRAM_MACROS, read with read_liberty -lib as black-box cells), or around one black box per
# array (blackbox: SYN_SRAM_DENSITY um^2/bit, timing stated in FO4 of SYN_FO4_NS). The shapes come
# from the elaborated modules' parameters (Yosys names them $paramod$<hash>\l1d_sram_1rw).
# OUT/sram_views.json lists each array's tiling (synth/report.py), OUT/sram_sta.tcl the macro
# libraries and clock pins (synth/sta_block.tcl).
set sram_kind [env_or SYN_SRAM_KIND ""]
if {$sram_kind ne ""} {
    set sram_sel {}
    foreach m {l1d_sram_1rw l1d_sram_1r1w} {
        yosys tee -q -o $out/sram_modules.txt select -list *$m
        if {[regexp -line "^\\S*$m\$" [read_file $out/sram_modules.txt]]} { lappend sram_sel *$m/w:clk_i }
    }
    if {[llength $sram_sel]} {
        # dump -m: the module headers (name, parameters) of the partly selected modules
        yosys tee -q -o $out/sram_dump.txt dump -m {*}$sram_sel
        set cmd [list $python $tools/sram_tiling.py views --lib $sram_kind --dump $out/sram_dump.txt \
                     --top $top --out $out --macro-dir [env_or SYN_SRAM_MACROS ""]]
        if {[env_or SYN_SRAM_DENSITY ""] ne ""} { lappend cmd --density $::env(SYN_SRAM_DENSITY) }
        if {[env_or SYN_FO4_NS ""] ne ""} { lappend cmd --fo4 $::env(SYN_FO4_NS) }
        exec {*}$cmd
        yosys script $out/sram_views.ys
        yosys hierarchy -check -top $top
    }
}

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
    set bits 0
    foreach {_ n} [regexp -all -inline {"num_memory_bits":\s*(\d+)} [read_file $path]] { incr bits $n }
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
# Hierarchical synthesis (SYN_SUBBLOCKS, l1d_top): the sub-blocks are synthesized and timed by
# their own runs; here they are black boxes, so that only the glue goes through synth and ABC.
# synth/synth.sh times the whole (glue netlist and the sub-blocks' netlists) with OpenSTA and
# synth/report.py adds the areas. ABC's run time grows faster than the size of its input: the flat
# l1d_top took about an hour, the glue and the blocks each take a few minutes at most.
foreach m $subs {
    yosys select -assert-min 1 $m
    yosys blackbox $m
    lappend bbsel $m
}
# Storage arrays as SRAM macros: after the coarse steps of synth, every memory ($mem_v2: an array
# the RTL writes and reads through indexed ports, not a register table) of at least MIN_BITS bits
# with one read and one write port becomes an instance of a black-box module named after its
# shape, syn_sram_<words>x<width>_<r>r<w>w, with the memory cell's ports (RD_*, WR_*); its shape
# goes to OUT/mem_macros.json, and synth/report.py adds its bits to the SRAM area. In silicon
# these are the MSHR's data and request buffers (register files or SRAM macros), and mapping
# them to flops costs minutes of Yosys for area that a macro would replace.
# MIN_BITS = 0 keeps every memory in flops.
proc macro_memories {top out min_bits} {
    set fh [open $out/mem_macros.json w]
    puts $fh "\["
    set sep ""
    if {$min_bits > 0} {
        yosys tee -q -o $out/memories.txt select -list t:\$mem_v2
        set mems [split [string trim [read_file $out/memories.txt]] "\n"]
        # Every parameter of $mem_v2: the black box declares none.
        set params {MEMID SIZE OFFSET ABITS WIDTH INIT RD_PORTS RD_CLK_ENABLE RD_CLK_POLARITY
            RD_TRANSPARENCY_MASK RD_COLLISION_X_MASK RD_WIDE_CONTINUATION RD_CE_OVER_SRST
            RD_ARST_VALUE RD_SRST_VALUE RD_INIT_VALUE WR_PORTS WR_CLK_ENABLE WR_CLK_POLARITY
            WR_PRIORITY_MASK WR_WIDE_CONTINUATION}
        set unset {}
        foreach p $params { lappend unset -unset $p }
        foreach m $mems {
            if {$m eq ""} continue
            yosys tee -q -o $out/memory.txt dump $m
            set text [read_file $out/memory.txt]
            foreach p {SIZE WIDTH ABITS RD_PORTS WR_PORTS} {
                if {![regexp "parameter \\\\$p (\\d+)" $text _ g($p)]} {
                    error "yosys_map: no parameter $p on memory $m"
                }
            }
            set bits [expr {$g(SIZE) * $g(WIDTH)}]
            # One read and one write port, as a two-port SRAM or register-file macro has; a memory
            # with more (the miss queue writes five entries a cycle) stays in flops.
            if {$bits < $min_bits || $g(RD_PORTS) > 1 || $g(WR_PORTS) > 1} continue
            set r $g(RD_PORTS)
            set w $g(WR_PORTS)
            set a $g(ABITS)
            set d $g(WIDTH)
            set type "syn_sram_$g(SIZE)x$g(WIDTH)_${r}r${w}w"
            set stub $out/$type.v
            set vf [open $stub w]
            puts $vf "(* blackbox *)\nmodule $type ("
            puts $vf "  input \[[expr {$r - 1}]:0\] RD_CLK, input \[[expr {$r - 1}]:0\] RD_EN,"
            puts $vf "  input \[[expr {$r - 1}]:0\] RD_ARST, input \[[expr {$r - 1}]:0\] RD_SRST,"
            puts $vf "  input \[[expr {$r * $a - 1}]:0\] RD_ADDR, output \[[expr {$r * $d - 1}]:0\] RD_DATA,"
            puts $vf "  input \[[expr {$w - 1}]:0\] WR_CLK, input \[[expr {$w * $d - 1}]:0\] WR_EN,"
            puts $vf "  input \[[expr {$w * $a - 1}]:0\] WR_ADDR, input \[[expr {$w * $d - 1}]:0\] WR_DATA);"
            puts $vf "endmodule"
            close $vf
            if {![info exists seen($type)]} { yosys read_verilog $stub }
            set seen($type) 1
            yosys setparam -type $type {*}$unset $m
            puts $fh "$sep  {\"memory\": \"[string map {\\ {}} $m]\", \"type\": \"$type\", \"words\": $g(SIZE), \"width\": $d, \"bits\": $bits}"
            set sep ","
        }
    }
    puts $fh "\]"
    close $fh
}

yosys proc

# SYN_CONTEXT (synth/context.py): the block as its instances in the hierarchical baseline see it,
# some inputs constant and some outputs unread. The block is flattened into its context wrapper
# TOP_syn_ctx, which then takes the block's name, so that the glue's netlist links to it.
if {$context ne ""} {
    exec $python $tools/context.py wrapper $context $out/context.v
    yosys read_verilog -sv $out/context.v
    yosys hierarchy -check -top ${top}_syn_ctx
    yosys proc
    yosys flatten
    yosys hierarchy -top ${top}_syn_ctx
    yosys rename -top $top
}

# SYN_CONST_INPUTS ("port=value ...", decimal values): inputs of TOP tied to constants, no longer
# ports, so that synthesis removes what those values leave unreachable (the policy-overhead
# row's baseline: l1d_top with its configuration inputs fixed to the baseline policy).
foreach tie [env_or SYN_CONST_INPUTS ""] {
    if {![regexp {^(\w+)=(\d+)$} $tie _ port value]} {
        error "yosys_map: SYN_CONST_INPUTS entry '$tie' is not port=decimal"
    }
    yosys select -assert-count 1 $top/i:$port
    yosys delete -port $top/$port
    yosys cd $top
    yosys connect -set $port $value
    yosys cd
}

# The wrapper needs the block's elaborated port widths: taken from the coarse design (after proc,
# which synth runs first anyway), whose JSON is small; the gate-level one of a large block takes
# minutes to write.
yosys write_json $out/block.json
exec $python $tools/wrapper.py $out/block.json $top $out/wrapper.v
yosys synth -flatten -noshare -top $top -run :fine
macro_memories $top $out [env_or SYN_MACRO_MIN_BITS 4096]
yosys synth -noabc -top $top -run fine:
yosys read_verilog $out/wrapper.v
yosys hierarchy -check -top ${top}_synwrap
yosys proc
yosys techmap ${top}_synwrap
yosys opt_clean

yosys dfflibmap -liberty $lib
# The glue of a hierarchical block goes through Yosys' default ABC script for a liberty with
# constraints minus its choice computation (&dch): on l1d_top's glue (72 000 gates) that step took
# 90 of ABC's 120 s, and without it the glue's area is 3.8 % larger and its critical path the
# same (18.94 against 18.87 ns, osu018). On the blocks &dch costs little and is kept.
if {$abcargs eq "" && $subs ne ""} {
    set abcargs [list -script "+strash;&get,-n;&fraig,-x;&put;scorr;dc2;dretime;strash;&get,-n;&nf,{D};&put;buffer;upsize,{D};dnsize,{D};stime,-p"]
}
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
    set cells [lrange [split [string trim [read_file $out/unmapped.txt]] "\n"] 0 2]
    error "yosys_map: unmapped internal cells remain in $top: [join $cells {, }] (all: $out/unmapped.txt)"
}
yosys tee -q -o $out/stat.json stat -json -liberty $lib
yosys tee -q -o $out/stat.txt stat -liberty $lib
yosys write_verilog -noattr -noexpr -simple-lhs $out/netlist.v
