# OpenSTA: the register-to-register critical path of one block's netlist (synth/block.sh).
#
# Environment: SYN_TOOLS, STA_LIBERTY, STA_NETLIST (one or more files: a hierarchical block's glue
# and its sub-blocks), STA_TOP (the wrapper TOP_synwrap),
# STA_DRIVER (driving cell of every input), STA_LOAD (load of every output, library units),
# STA_PERIOD (ns; only sets the slack, the path delay does not depend on it), STA_REPORT (the
# path report), STA_OUT (result, JSON).
#
# Constraints: one ideal clock on clk_i, input and output delays 0 against it, the driving cell
# on every input and the load on every output; the asynchronous reset rst_ni is a false path.
# The wrapper registers every port, so the critical path is the worst register-to-register
# path: clk-to-q of the launching flop, the logic, and the capturing flop's setup time.
# critical_ns = period - slack, fmax = 1 / critical_ns.
source [file join $::env(SYN_TOOLS) sta_common.tcl]

proc json_str {s} {
    return "\"[string map {\\ \\\\ \" \\\"} $s]\""
}

# The register a flop pin belongs to, named by the net on the flop's output.
proc register_net {pin} {
    set inst [get_cells -of_objects $pin]
    foreach p [get_pins -of_objects $inst] {
        if {[get_property $p direction] eq "output"} {
            set net [get_nets -quiet -of_objects $p]
            if {$net ne ""} { return [get_full_name $net] }
        }
    }
    return [get_full_name $inst]
}

# --- the SRAM layer (docs/synthesis.md): macros from synth/sram_tiling.py (STA_SRAM, Tcl files
# with sram_libs, sram_min_period(cell) and sram_clocks(cell)) are timed beside the standard cells.

# The period a path needs. OpenSTA gives its slack at one period; a path launched at a falling
# edge (sky130's read data) has half a period for its delay, so the slack is measured at two
# periods: slack(P) = f*P - d, and the path needs d / f.
proc needed_period {query p1 p2} {
    create_clock -name clk -period $p1 [get_ports clk_i]
    set e1 [{*}$query]
    if {[llength $e1] == 0} { return {} }
    set s1 [get_property [lindex $e1 0] slack]
    create_clock -name clk -period $p2 [get_ports clk_i]
    set s2 [get_property [lindex [{*}$query] 0] slack]
    # A new clock invalidates the path objects found before it: query again at p1.
    create_clock -name clk -period $p1 [get_ports clk_i]
    set f [expr {($s2 - $s1) / double($p2 - $p1)}]
    if {$f <= 0} { sta_fail "no period fits the path ($query)" }
    return [list [lindex [{*}$query] 0] [expr {$p1 - $s1 / $f}] $f]
}

# The logic of a path: from the first output pin on it (the launching flop's Q or the macro's
# read data) to its end, in ns, and the pins at both ends.
proc path_logic {pe} {
    set points [get_property $pe points]
    set first {}
    foreach p $points {
        if {[get_property [get_property $p pin] direction] eq "output"} { set first $p; break }
    }
    if {$first eq ""} { set first [lindex $points 0] }
    set last [lindex $points end]
    return [list [expr {[get_property $last arrival] - [get_property $first arrival]}] \
                [get_full_name [get_property $first pin]] [get_full_name [get_property $last pin]]]
}

proc path_json {name pe period fraction} {
    lassign [path_logic $pe] logic from to
    return "[json_str $name]: \{\"period_ns\": [format %.5f $period], \"fraction\": [format %.3f $fraction],\
        \"logic_ns\": [format %.5f $logic], \"from\": [json_str $from], \"to\": [json_str $to],\
        \"slack_ns\": [format %.5f [get_property $pe slack]]\}"
}

# Returns the JSON members of the SRAM analysis and sets the std-cell register pins (the r2r
# query without the macros) in the caller's r2r_std.
proc sram_analysis {period} {
    global sram_min_period sram_clocks
    upvar r2r_std r2r_std
    set macros {}
    foreach c [get_cells -hierarchical *] {
        if {[info exists sram_min_period([get_property $c ref_name])]} { lappend macros $c }
    }
    if {[llength $macros] == 0} { sta_fail "STA_SRAM names macros, but the netlist has none" }
    set clk_pins {}
    set in_pins {}
    set min_period 0
    set min_cell ""
    foreach c $macros {
        set ref [get_property $c ref_name]
        set clocks {}
        foreach name $sram_clocks($ref) {
            foreach pin [get_pins -quiet [get_full_name $c]/$name] {
                lappend clk_pins $pin
                lappend clocks [get_full_name $pin]
            }
        }
        foreach pin [get_pins -of_objects $c] {
            if {[get_property $pin direction] eq "input" && [lsearch -exact $clocks [get_full_name $pin]] < 0} {
                lappend in_pins $pin
            }
        }
        if {$sram_min_period($ref) > $min_period} {
            set min_period $sram_min_period($ref)
            set min_cell [get_full_name $c]
        }
    }
    if {[llength $clk_pins] == 0} { sta_fail "no clock pin found on the SRAM macros" }
    # The standard-cell registers: every register pin but the macros' (by name: a Tcl array).
    foreach pin [concat $clk_pins $in_pins] { set is_macro([get_full_name $pin]) 1 }
    set std_clk {}
    foreach pin [all_registers -clock_pins] {
        if {![info exists is_macro([get_full_name $pin])]} { lappend std_clk $pin }
    }
    set std_data {}
    foreach pin [all_registers -data_pins] {
        if {![info exists is_macro([get_full_name $pin])]} { lappend std_data $pin }
    }
    set r2r_std [list -from $std_clk -to $std_data]
    uplevel #0 [list set sram_clk_pins $clk_pins]
    uplevel #0 [list set sram_in_pins $in_pins]
    set p2 [expr {2 * $period}]
    set json [list "\"macros\": [llength $macros]"]
    set out [needed_period [list find_timing_paths -path_delay max -group_count 1 -from $clk_pins] $period $p2]
    if {[llength $out]} { lappend json [path_json macro_to_reg {*}$out] }
    set in [needed_period [list find_timing_paths -path_delay max -group_count 1 -to $in_pins] $period $p2]
    if {[llength $in]} { lappend json [path_json reg_to_macro {*}$in] }
    # Hold at the macro inputs (the flow does not fix it: synth/report.py reports it).
    # (Every find_timing_paths invalidates the path objects of the one before: use them at once.)
    set hold [find_timing_paths -path_delay min -group_count 1 -to $in_pins]
    if {[llength $hold]} {
        lassign [path_logic [lindex $hold 0]] _ from to
        set slack [get_property [lindex $hold 0] slack]
        set viol [llength [find_timing_paths -path_delay min -group_count 1000000 -endpoint_count 1 -slack_max 0 \
                               -to $in_pins]]
        lappend json "\"hold\": \{\"slack_ns\": [format %.5f $slack], \"violating_pins\": $viol,\
            \"input_pins\": [llength $in_pins], \"to\": [json_str $to]\}"
    }
    lappend json "\"min_period_ns\": $min_period, \"min_period_cell\": [json_str $min_cell]"
    return $json
}

# A hierarchical block (STA_PER_INSTANCE=1): the worst standard-cell register-to-register path
# ending in each sub-block instance of the block (u_dut/<instance>/...), in its glue (u_dut/...)
# and in the wrapper's output registers ("ports"); from any register. The stage-by-stage view of
# the staged l1d_top: one critical path says nothing about the other stages.
proc per_instance {r2r period} {
    array set by {}
    foreach pin [lindex $r2r 3] {
        set name [get_full_name $pin]
        # (a leaf cell's pin is cell/pin: one more level is a sub-block instance)
        if {[regexp {^u_dut/([^/]+)/[^/]+/[^/]+$} $name _ inst]} {
            lappend by($inst) $pin
        } elseif {[string match u_dut/* $name]} {
            lappend by(glue) $pin
        } else {
            lappend by(ports) $pin
        }
    }
    set json {}
    foreach inst [lsort [array names by]] {
        set pe [lindex [find_timing_paths -path_delay max -group_count 1 -from [lindex $r2r 1] -to $by($inst)] 0]
        if {$pe eq ""} continue
        set delay [expr {$period - [get_property $pe slack]}]
        lappend json "[json_str $inst]: \{\"ns\": [format %.5f $delay],\
            \"start\": [json_str [register_net [get_property $pe startpoint]]],\
            \"end\": [json_str [register_net [get_property $pe endpoint]]]\}"
    }
    return [join $json ",\n  "]
}

sta_main {
    set period [env_req STA_PERIOD]
    load_library [env_req STA_LIBERTY]
    set sram {}
    # STA_SRAM: one file per netlist with macros (a hierarchical block's glue and sub-blocks).
    # Each names its libraries; a library of the same file name is the same macro or the same
    # black-box shape (synth/sram_tiling.py), loaded once.
    set loaded {}
    foreach facts [expr {[info exists ::env(STA_SRAM)] ? $::env(STA_SRAM) : ""}] {
        source $facts
        foreach lib $sram_libs {
            if {[lsearch -exact $loaded [file tail $lib]] < 0} {
                load_library $lib
                lappend loaded [file tail $lib]
            }
        }
    }
    foreach netlist [env_req STA_NETLIST] { read_verilog $netlist }
    if {![link_design [env_req STA_TOP]]} { sta_fail "cannot link [env_req STA_TOP]" }
    if {[get_ports -quiet clk_i] eq ""} { sta_fail "no clk_i port" }
    create_clock -name clk -period $period [get_ports clk_i]
    set ins {}
    foreach port [all_inputs] {
        if {[get_full_name $port] ne "clk_i"} { lappend ins $port }
    }
    set_input_delay 0 -clock clk $ins
    set_output_delay 0 -clock clk [all_outputs]
    set_driving_cell -lib_cell [env_req STA_DRIVER] $ins
    set_load [env_req STA_LOAD] [all_outputs]
    if {[get_ports -quiet rst_ni] ne ""} { set_false_path -from [get_ports rst_ni] }

    set r2r [list -from [all_registers -clock_pins] -to [all_registers -data_pins]]
    if {[info exists sram_libs]} {
        set sram [sram_analysis $period]
        set r2r $r2r_std
    }
    set ends [find_timing_paths -path_delay max -group_count 1 {*}$r2r]
    if {[llength $ends] == 0 && [llength $sram] == 0} { sta_fail "no register-to-register path" }
    if {[llength $ends] == 0} {
        # Only macro paths (a primitive alone: its registered inputs go straight into the macros).
        set result "\{\"critical_ns\": null"
    } else {
        set pe [lindex $ends 0]
        set slack [get_property $pe slack]
        set start [get_property $pe startpoint]
        set end [get_property $pe endpoint]
        # Logic depth: the cells between the launching and the capturing flop.
        set cells {}
        foreach point [get_property $pe points] {
            set inst [get_full_name [get_cells -of_objects [get_property $point pin]]]
            if {[lsearch -exact $cells $inst] < 0} { lappend cells $inst }
        }
        set depth [expr {max(0, [llength $cells] - 2)}]
        set result "\{\"critical_ns\": [format %.5f [expr {$period - $slack}]], \"depth\": $depth,\n"
        append result " \"start_pin\": [json_str [get_full_name $start]], \"end_pin\": [json_str [get_full_name $end]],\n"
        append result " \"start_reg\": [json_str [register_net $start]], \"end_reg\": [json_str [register_net $end]]"
    }
    if {[llength $sram]} { append result ", \"sram\": \{[join $sram {, }]\}" }
    if {[info exists ::env(STA_PER_INSTANCE)] && $::env(STA_PER_INSTANCE)} {
        append result ", \"per_instance\": \{[per_instance $r2r $period]\}"
    }

    set rpt [open [env_req STA_REPORT] w]
    close $rpt
    sta::redirect_file_begin [env_req STA_REPORT]
    if {[llength $ends]} {
        report_checks -path_delay max -group_count 1 {*}$r2r -fields {fanout cap slew} -digits 3
    }
    if {[llength $sram]} {
        puts "SRAM macros: the worst path out of a macro, into a macro, and the worst hold check at a macro input"
        report_checks -path_delay max -group_count 1 -from $sram_clk_pins -fields {fanout cap slew} -digits 3
        report_checks -path_delay max -group_count 1 -to $sram_in_pins -fields {fanout cap slew} -digits 3
        report_checks -path_delay min -group_count 1 -to $sram_in_pins -fields {fanout cap slew} -digits 3
    }
    sta::redirect_file_end

    set f [open [env_req STA_OUT] w]
    puts $f "$result\}"
    close $f
}
