# tests/lib: helpers shared by the tests of several layers, not tests
# themselves.  KERNEL_FILES: the real-kernel tests' /proc/self/fd and
# tracefs reads and writes, compiled into each program that uses them.
KERNEL_FILES = tests/lib/kernel_files.c tests/lib/kernel_files.h
# SYSLOG_SOCKETS: namespaces with syslog's sockets bound, guarded signal
# stacks, for the programs that play the daemons (hostile_calls,
# stack-depth, test_socket).
SYSLOG_SOCKETS = tests/lib/syslog_sockets.c tests/lib/syslog_sockets.h
# The EventHeader parser of the Python checks (tests/e2e/*_check.py),
# which find it beside themselves in ../lib.
dist_noinst_DATA += tests/lib/eventheader.py
# perf_path: the real perf binary, for the guest tests that run perf.
dist_noinst_DATA += tests/lib/perf_path.sh
# top_instance.sh: the lock of the host tests that use tracefs's top
# instance (the kernel's own buffer, whatever the mount namespace).
dist_noinst_DATA += tests/lib/top_instance.sh
# readme_section.sh: README.md's commands and the output it shows, for
# the tests that run them as written.
dist_noinst_DATA += tests/lib/readme_section.sh
# sanitizers.sh: the sanitizer runtimes to preload first into programs
# not built with them, for tests that preload the library there.
dist_noinst_DATA += tests/lib/sanitizers.sh
# kernel_logger.sh: logs(), tests/cli/kernel_logger under the preload.
dist_noinst_DATA += tests/lib/kernel_logger.sh
# libehsyslog_layers.so: libehsyslog.so's objects, linked as it is but
# with every layer's API exported too, for the real-kernel tests that
# drive the writer (ue_*) and the decoder (eh_*) in the process whose
# logging calls the library takes (writer_ktest, reliab_ktest).
# -rpath only makes libtool build it shared.
check_LTLIBRARIES += tests/lib/libehsyslog_layers.la
tests_lib_libehsyslog_layers_la_SOURCES =
tests_lib_libehsyslog_layers_la_LIBADD = $(libehsyslog_la_LIBADD)
tests_lib_libehsyslog_layers_la_LDFLAGS = $(LIB_LDFLAGS) -avoid-version -rpath /nowhere
