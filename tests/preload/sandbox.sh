#!/bin/sh
# A program that installs a seccomp filter, then logs
# (tests/preload/sandbox_calls.c: openat, statfs, ioctl, getpid or
# mknodat killed or failed with EPERM, through prctl, the seccomp system
# call and libseccomp), ends as it does without the library: the same
# transcript (its output, its exit status or signal, what /dev/log got)
#   - without the library (the reference),
#   - with LD_PRELOAD=libehsyslog.so, in pass-through and replace mode,
#   - with a tail reading the library's probes (the uprobe transport
#     of this kernel, in a private tracefs), in both modes.
# And the tail got the events of the mknodat cases, whose filter allows
# every call of the library, and no other: under the others the library
# is off.  sandbox_kernel.sh is the same on user_events.
. "${top_srcdir:-.}/tests/cli/uprobe_lib.sh"
. "${top_srcdir:-.}/tests/preload/sandbox_lib.sh"
in_namespace "$0" "$@"

installed_library "$T/libehsyslog.so.0"
# Named, so that the tail follows that file only: by default it would
# also add the copies other suites' programs map, and print their events.
TAIL_TRANSPORT=--uprobes=$LIB
# shellcheck disable=SC2317 # called by sandbox_checks
tail_ready() {
	enabled_in_tail "$1" ehsyslog
}
sandbox_checks
finish
