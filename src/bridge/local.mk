# src/bridge: syslog semantics, a convenience library linked into
# libehsyslog.  Here the core that makes events; each concern beside it
# adds its sources from its own local.mk.  The unit tests link the same
# objects over a test double of the writer (tests/doubles/), so the
# bridge is built once.
BRIDGE_SOURCES = \
	src/bridge/bridge.h src/bridge/bridge.c \
	src/bridge/record.h \
	src/bridge/emit.h src/bridge/emit_inline.h src/bridge/emit.c \
	src/bridge/ident.h src/bridge/ident.c \
	src/bridge/pri_table.h src/bridge/pri_table.c \
	src/bridge/schema.h src/bridge/schema.c \
	src/bridge/sandbox.h src/bridge/sandbox.c \
	src/bridge/scratch.h src/bridge/scratch.c \
	src/bridge/transport.h src/bridge/transport_inline.h src/bridge/transport.c \
	src/bridge/unit.h src/bridge/unit.c \
	src/bridge/syslog_inline.h
include $(srcdir)/src/bridge/format/local.mk
include $(srcdir)/src/bridge/config/local.mk
include $(srcdir)/src/bridge/input/local.mk
include $(srcdir)/src/bridge/api/local.mk
include $(srcdir)/src/bridge/socket/local.mk
include $(srcdir)/src/bridge/output/local.mk
BRIDGE_CPPFLAGS = $(AM_CPPFLAGS) -DEHS_CONFIG_PATH='"$(sysconfdir)/ehsyslog.conf"'

noinst_LTLIBRARIES += src/bridge/libbridge.la
src_bridge_libbridge_la_SOURCES = $(BRIDGE_SOURCES)
src_bridge_libbridge_la_CPPFLAGS = $(BRIDGE_CPPFLAGS)
src_bridge_libbridge_la_CFLAGS = $(LIB_CFLAGS)
libehsyslog_la_LIBADD += src/bridge/libbridge.la
EXTRA_DIST += src/bridge/README.md src/bridge/format/README.md src/bridge/config/README.md \
	src/bridge/input/README.md src/bridge/api/README.md src/bridge/socket/README.md \
	src/bridge/output/README.md

ehsyslogtopdir = $(includedir)
ehsyslogtop_HEADERS = include/ehsyslog.h
# The settings and the schema are the layers' and the tool's: the library
# exports none of their functions (libehsyslog.sym), so they are not
# installed.
noinst_HEADERS += include/ehsyslog/settings.h include/ehsyslog/schema.h
