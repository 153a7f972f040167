# tests/cli/kernel_*: the ehsyslog tool against a kernel with user_events
# (see Makefile.am).  Each script boots the QEMU guest once, through
# scripts/kernel-test, and runs all its checks inside it.
check_PROGRAMS += tests/cli/kernel_logger
tests_cli_kernel_logger_SOURCES = tests/cli/kernel_logger.c
# A program linked with the library, writing native events.
check_PROGRAMS += tests/cli/kernel_native
tests_cli_kernel_native_SOURCES = tests/cli/kernel_native.c
tests_cli_kernel_native_LDADD = libehsyslog.la
tests_cli_kernel_native_LDFLAGS = -no-install

CLI_KERNEL_TESTS = tests/cli/kernel_tail.sh tests/cli/kernel_register.sh \
	tests/cli/kernel_decode.sh tests/cli/kernel_stale.sh tests/cli/kernel_facility.sh \
	tests/cli/kernel_plugin.sh tests/cli/kernel_native.sh tests/cli/kernel_group.sh
TESTS += $(CLI_KERNEL_TESTS)
EXTRA_DIST += $(CLI_KERNEL_TESTS) tests/cli/kernel_lib.sh
