# src/user_events: the writer (kernel interface), linked into libehsyslog.
noinst_LTLIBRARIES += src/user_events/libuserevents.la
src_user_events_libuserevents_la_SOURCES = \
	src/user_events/abi.h \
	src/user_events/internal.h \
	src/user_events/channel.h \
	src/user_events/fdguard.h \
	src/user_events/sys.h \
	src/user_events/discover.c \
	src/user_events/kernel.c \
	src/user_events/fdlimit.c \
	src/user_events/writer.c \
	src/user_events/status.c \
	src/user_events/provider.c
src_user_events_libuserevents_la_CFLAGS = $(LIB_CFLAGS)
libehsyslog_la_LIBADD += src/user_events/libuserevents.la

# Not installed: libehsyslog.so exports none of the writer's functions.
noinst_HEADERS += include/ehsyslog/user_events.h
