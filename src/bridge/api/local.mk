# src/bridge/api: what the calls of each logging API mean: GLib's,
# libsystemd's journal, the native API of <ehsyslog.h>.
BRIDGE_SOURCES += \
	src/bridge/api/error.h src/bridge/api/error.c \
	src/bridge/api/glib.h src/bridge/api/glib.c \
	src/bridge/api/journal.h src/bridge/api/journal.c \
	src/bridge/api/journal_call.h src/bridge/api/journal_call.c \
	src/bridge/api/journal_format.h src/bridge/api/journal_format.c \
	src/bridge/api/native.c src/bridge/api/native_cache.h src/bridge/api/native_cache.c \
	src/bridge/api/native_site.c
