# preload: one thin wrapper per interposed libc/libbsd symbol.  Built
# without _FORTIFY_SOURCE: glibc's fortify inlines clash with definitions
# of syslog and friends.  The interposer's tests link PRELOAD_SOURCES over
# the bridge and the writer's double; fd.c (the calls that close or replace descriptor numbers) needs
# the real writer, so only the library has it.
# PRELOAD_C_SOURCES is the C alone: the wrappers as their own entry
# points, which tests also build on x86-64 (with EHS_NO_ASM_STUBS).
PRELOAD_C_SOURCES = \
	preload/real.h preload/real.c preload/stubs.h preload/stub_route.c \
	preload/syslog.c preload/err.c preload/error.c preload/bsd_err.c \
	preload/glib.h preload/glib.c \
	preload/journal.c preload/sd_journal.h
PRELOAD_SOURCES = $(PRELOAD_C_SOURCES)
if ASM_STUBS
PRELOAD_SOURCES += preload/syslog_stubs.S preload/error_stub.S
endif

noinst_LTLIBRARIES += preload/libpreload.la
preload_libpreload_la_SOURCES = $(PRELOAD_SOURCES)
preload_libpreload_la_CFLAGS = $(LIB_CFLAGS) -U_FORTIFY_SOURCE
libehsyslog_la_LIBADD += preload/libpreload.la

# fd.c, creds.c and the socket calls on their own, never built with the
# sanitizers: close(), setuid(), write() and the like run inside other
# libraries' constructors, and in a sanitizer build those
# can run before the ASan runtime has set up its shadow memory (the
# library, not the runtime, comes first in LD_PRELOAD), which any
# instrumented load would then fault on.
noinst_LTLIBRARIES += preload/libpreload_fd.la
# PRELOAD_SOCKET_SOURCES: the socket calls with the bridge's socket
# rules (src/bridge/socket/, its own unsanitized library in the product),
# which the interposer's socket tests link over the bridge and the
# writer's double.
PRELOAD_SOCKET_SOURCES = preload/socket.c preload/next.h $(BRIDGE_SOCKET_SOURCES) \
	$(BRIDGE_OUTPUT_SOURCES)
# seccomp.c: the calls that install a seccomp filter (prctl, syscall).
preload_libpreload_fd_la_SOURCES = preload/fd.c preload/creds.c preload/socket.c preload/next.h \
	preload/stdio.c \
	preload/seccomp.c preload/cbpf.h preload/cbpf.c
preload_libpreload_fd_la_CFLAGS = $(WARN_CFLAGS) -fvisibility=hidden -U_FORTIFY_SOURCE
libehsyslog_la_LIBADD += preload/libpreload_fd.la
