# Shared by the OpenSTA 2.0.17 scripts of the flow (sta -no_init -exit SCRIPT).
#
# OpenSTA prints a failed read_liberty as "Error: ..." and goes on with no library at all (it
# also reads nothing from a .lib.gz), and its `exit` neither stops a script nor sets the exit
# status (always 0). So every script runs its body in sta_main, which stops at the first error
# with one line "sta: ..." on stderr, checks what it loaded, and writes its result file last:
# the caller (synth/block.sh, synth/synth.sh) fails unless that file exists and the log has no
# "Error" line.

proc sta_fail {msg} {
    error $msg
}

proc env_req {name} {
    if {![info exists ::env($name)] || $::env($name) eq ""} { sta_fail "$name is not set" }
    return $::env($name)
}

# Reads LIBERTY and fails unless it yields a library with cells.
proc load_library {liberty} {
    if {![file readable $liberty]} { sta_fail "cannot read liberty $liberty" }
    read_liberty $liberty
    set n 0
    foreach lib [get_libs -quiet *] {
        incr n [llength [get_lib_cells -quiet [get_name $lib]/*]]
    }
    if {$n == 0} { sta_fail "no cell loaded from $liberty (empty, gzipped or not a liberty file)" }
    return $n
}

# Runs BODY; the first Tcl error ends it with "sta: <message>" on stderr (and no result file).
proc sta_main {body} {
    if {[catch {uplevel #0 $body} err]} { puts stderr "sta: $err" }
}
