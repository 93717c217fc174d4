# OpenSTA: the fanout-of-4 inverter delay of a library (synth/synth.sh, docs/synthesis.md).
#
# Environment: FO4_LIBERTY, FO4_INV / FO4_INV_IN / FO4_INV_OUT (the X1 inverter and its pins),
# FO4_DIR (where the chain netlist goes), FO4_OUT (result file).
#
# Two chains of the inverter, 4 and 12 stages, in one generated netlist; every stage drives the
# next stage and three more inverters (a fanout of 4), and the last one four. Both chains start
# from the same input (driven by the inverter) and end alike, so the difference of their delays
# is 8 stages in the steady state, four rising and four falling: FO4 = (d12 - d4) / 8, the mean
# of the rise and fall delays. No wire load (as for the blocks).
source [file join $::env(SYN_TOOLS) sta_common.tcl]

proc chain_verilog {inv pin_in pin_out} {
    set v "module fo4_chain (input wire in, output wire out_short, output wire out_long);\n"
    foreach {name stages} {short 4 long 12} {
        append v "  wire \[$stages:0\] ${name}_n;\n  assign ${name}_n\[0\] = in;\n"
        for {set i 0} {$i < $stages} {incr i} {
            set j [expr {$i + 1}]
            append v "  $inv ${name}_s$i (.$pin_in\(${name}_n\[$i\]), .$pin_out\(${name}_n\[$j\]));\n"
            set loads [expr {$j == $stages ? 4 : 3}]
            for {set k 0} {$k < $loads} {incr k} {
                append v "  wire ${name}_dummy_${i}_$k;\n"
                append v "  $inv ${name}_l${i}_$k (.$pin_in\(${name}_n\[$j\]), .$pin_out\(${name}_dummy_${i}_$k));\n"
            }
        }
        append v "  assign out_$name = ${name}_n\[$stages\];\n"
    }
    append v "endmodule\n"
    return $v
}

sta_main {
    set inv [env_req FO4_INV]
    load_library [env_req FO4_LIBERTY]
    set netlist [file join [env_req FO4_DIR] fo4_chain.v]
    set f [open $netlist w]
    puts -nonewline $f [chain_verilog $inv [env_req FO4_INV_IN] [env_req FO4_INV_OUT]]
    close $f
    read_verilog $netlist
    if {![link_design fo4_chain]} { sta_fail "cannot link the inverter chain of $inv" }
    set period 100.0
    create_clock -name vclk -period $period
    set_input_delay 0 -clock vclk [get_ports in]
    set_output_delay 0 -clock vclk [get_ports {out_short out_long}]
    set_driving_cell -lib_cell $inv [get_ports in]
    set arrival {}
    foreach out {out_short out_long} {
        set ends [find_timing_paths -path_delay max -to [get_ports $out]]
        if {[llength $ends] == 0} { sta_fail "no timed path to $out" }
        lappend arrival [expr {$period - [get_property [lindex $ends 0] slack]}]
    }
    set fo4 [expr {([lindex $arrival 1] - [lindex $arrival 0]) / 8.0}]
    if {!($fo4 > 0)} { sta_fail "FO4 of $inv came out $fo4 ns" }
    set f [open [env_req FO4_OUT] w]
    puts $f [format {{"inverter": "%s", "fo4_ns": %.5f, "chain4_ns": %.5f, "chain12_ns": %.5f}} \
                 $inv $fo4 [lindex $arrival 0] [lindex $arrival 1]]
    close $f
    puts [format "fo4: %s %.1f ps" $inv [expr {$fo4 * 1000}]]
}
