# shellcheck shell=sh
# Sourced by the tests that preload the library into programs not built
# with the sanitizers.

# sanitizer_runtimes OBJECT: in a sanitizer build, the ASan and UBSan
# runtimes OBJECT links, each followed by ':', to go first in LD_PRELOAD
# of a program not built with them (python3, trace-cmd, perf); else
# nothing.
sanitizer_runtimes() {
	[ "${sanitizers:-no}" = yes ] || return 0
	ldd "$1" | awk '/lib(asan|ubsan)\.so/ { printf "%s:", $3 }'
}
