# CMAKE_PROJECT_INCLUDE of a measuring build (scripts/build_step_time.sh): links, archives and custom
# commands (Verilator, Yosys, dcgen) timed too, not only compiles.
set_property(GLOBAL PROPERTY RULE_LAUNCH_LINK ${CMAKE_CURRENT_LIST_DIR}/build_step_time.sh)
set_property(GLOBAL PROPERTY RULE_LAUNCH_CUSTOM ${CMAKE_CURRENT_LIST_DIR}/build_step_time.sh)
