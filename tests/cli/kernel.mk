# tests/cli/kernel_*: the ehsyslog tool against a kernel with user_events
# (see Makefile.am).  Each script boots the QEMU guest once, through
# scripts/kernel-test, and runs all its checks inside it.
check_PROGRAMS += tests/cli/kernel_logger
tests_cli_kernel_logger_SOURCES = tests/cli/kernel_logger.c
tests_cli_kernel_logger_CFLAGS = $(AM_CFLAGS) -pthread
tests_cli_kernel_logger_LDADD = -lpthread
# Threads logging at once, to overflow a trace buffer (kernel_lost.sh).
check_PROGRAMS += tests/cli/kernel_flood
tests_cli_kernel_flood_SOURCES = tests/cli/kernel_flood.c
tests_cli_kernel_flood_CFLAGS = $(AM_CFLAGS) -pthread
tests_cli_kernel_flood_LDADD = -lpthread
# A program linked with the library, writing native events.
check_PROGRAMS += tests/cli/kernel_native
tests_cli_kernel_native_SOURCES = tests/cli/kernel_native.c
tests_cli_kernel_native_LDADD = libehsyslog.la
tests_cli_kernel_native_LDFLAGS = -no-install
# The same calls written in C++, for kernel_native.sh too.
if HAVE_CXX
check_PROGRAMS += tests/cli/kernel_native_cxx
tests_cli_kernel_native_cxx_SOURCES = tests/cli/kernel_native_cxx.cc
tests_cli_kernel_native_cxx_CXXFLAGS = -std=$(CXX_STD_NEW) -Wall -Wextra -pedantic -Werror \
	$(SANITIZER_CFLAGS)
tests_cli_kernel_native_cxx_LDADD = libehsyslog.la
tests_cli_kernel_native_cxx_LDFLAGS = -no-install
endif

CLI_KERNEL_TESTS = tests/cli/kernel_tail.sh tests/cli/kernel_register.sh \
	tests/cli/kernel_decode.sh tests/cli/kernel_stale.sh tests/cli/kernel_facility.sh \
	tests/cli/kernel_plugin.sh tests/cli/kernel_native.sh tests/cli/kernel_group.sh \
	tests/cli/kernel_lost.sh tests/cli/kernel_quickstart.sh tests/cli/kernel_ns.sh \
	tests/cli/kernel_output.sh
TESTS += $(CLI_KERNEL_TESTS)
EXTRA_DIST += $(CLI_KERNEL_TESTS) tests/cli/kernel_lib.sh
