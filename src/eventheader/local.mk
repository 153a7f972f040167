# src/eventheader: the wire-format layer (builder, tracepoint names,
# errors), a convenience library linked into libehsyslog.  The decoder
# adds its sources to the same library from decode.mk.
noinst_LTLIBRARIES += src/eventheader/libeventheader.la
src_eventheader_libeventheader_la_CFLAGS = $(LIB_CFLAGS)
src_eventheader_libeventheader_la_SOURCES = \
	src/eventheader/buf.h \
	src/eventheader/buf.c \
	src/eventheader/errors.c \
	src/eventheader/event.c \
	src/eventheader/meta.c \
	src/eventheader/names.c \
	src/eventheader/payload.c
libehsyslog_la_LIBADD += src/eventheader/libeventheader.la

# Not installed: libehsyslog.so exports none of the format's functions.
noinst_HEADERS += include/eventheader/eventheader.h
