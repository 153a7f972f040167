# src/bridge: syslog semantics (schema, ident, configuration, formatting,
# splitting), a convenience library linked into libehsyslog.  The unit
# tests link the same objects over a test double of the writer
# (tests/doubles/), so the bridge is built once.
BRIDGE_SOURCES = \
	src/bridge/bridge.h src/bridge/bridge.c \
	src/bridge/config_load.h src/bridge/config.c \
	src/bridge/config_parse.h src/bridge/config_parse.c \
	src/bridge/datagram.h src/bridge/datagram.c \
	src/bridge/socket_log.c \
	src/bridge/emit.h src/bridge/emit_inline.h src/bridge/emit.c \
	src/bridge/format.h src/bridge/format_inline.h src/bridge/format.c \
	src/bridge/format_plan.h src/bridge/format_plan.c \
	src/bridge/glib.h src/bridge/glib.c \
	src/bridge/ident.h src/bridge/ident.c \
	src/bridge/journal.h src/bridge/journal.c \
	src/bridge/journal_format.h src/bridge/journal_format.c \
	src/bridge/journal_wire.h src/bridge/journal_wire.c \
	src/bridge/native.c src/bridge/native_cache.h src/bridge/native_cache.c \
	src/bridge/native_site.c \
	src/bridge/pri_table.h src/bridge/pri_table.c \
	src/bridge/schema.h src/bridge/schema.c \
	src/bridge/scratch.h src/bridge/scratch.c \
	src/bridge/syslog_inline.h \
	src/bridge/syslog_stream.h src/bridge/syslog_stream.c \
	src/bridge/text.h src/bridge/text.c
BRIDGE_CPPFLAGS = $(AM_CPPFLAGS) -DEHS_CONFIG_PATH='"$(sysconfdir)/ehsyslog.conf"'

noinst_LTLIBRARIES += src/bridge/libbridge.la
src_bridge_libbridge_la_SOURCES = $(BRIDGE_SOURCES)
src_bridge_libbridge_la_CPPFLAGS = $(BRIDGE_CPPFLAGS)
src_bridge_libbridge_la_CFLAGS = $(LIB_CFLAGS)
libehsyslog_la_LIBADD += src/bridge/libbridge.la

ehsyslogtopdir = $(includedir)
ehsyslogtop_HEADERS = include/ehsyslog.h
ehsyslogsettingsdir = $(includedir)/ehsyslog
ehsyslogsettings_HEADERS = include/ehsyslog/settings.h include/ehsyslog/schema.h
