# preload: one thin wrapper per interposed libc/libbsd symbol.  Built
# without _FORTIFY_SOURCE: glibc's fortify inlines clash with definitions
# of syslog and friends.
PRELOAD_SOURCES = \
	preload/real.h preload/real.c \
	preload/syslog.c preload/err.c preload/error.c preload/bsd_err.c \
	preload/journal.c preload/sd_journal.h

noinst_LTLIBRARIES += preload/libpreload.la
preload_libpreload_la_SOURCES = $(PRELOAD_SOURCES)
preload_libpreload_la_CFLAGS = $(LIB_CFLAGS) -U_FORTIFY_SOURCE
libehsyslog_la_LIBADD += preload/libpreload.la
