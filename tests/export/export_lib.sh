# shellcheck shell=sh
# What the guest tests of ehsyslog export (tests/export/kernel_*.sh)
# share.  Sourced after a test's header: runs the test in a kernel with
# user_events (in_kernel), where export_helpers.sh gives the receiver's
# and export's helpers.
. "${top_srcdir:-.}/tests/cli/kernel_lib.sh"
. "${top_srcdir:-.}/tests/export/export_helpers.sh"
in_kernel "$0" "$@"

# export_ready PID: export PID has enabled its tracepoints (the last of
# them, level 5 of Syslog) in its instance.
# shellcheck disable=SC2317 # called through wait_until
export_ready() {
	enabled_in "$1" Syslog_L5K800000
}
