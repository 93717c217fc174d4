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

sta_main {
    set period [env_req STA_PERIOD]
    load_library [env_req STA_LIBERTY]
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
    set ends [find_timing_paths -path_delay max -group_count 1 {*}$r2r]
    if {[llength $ends] == 0} { sta_fail "no register-to-register path" }
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

    set rpt [open [env_req STA_REPORT] w]
    close $rpt
    sta::redirect_file_begin [env_req STA_REPORT]
    report_checks -path_delay max -group_count 1 {*}$r2r -fields {fanout cap slew} -digits 3
    sta::redirect_file_end

    set f [open [env_req STA_OUT] w]
    puts $f "\{\"critical_ns\": [format %.5f [expr {$period - $slack}]], \"depth\": $depth,"
    puts $f " \"start_pin\": [json_str [get_full_name $start]], \"end_pin\": [json_str [get_full_name $end]],"
    puts $f " \"start_reg\": [json_str [register_net $start]], \"end_reg\": [json_str [register_net $end]]\}"
    close $f
}
