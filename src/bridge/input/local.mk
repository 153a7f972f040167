# src/bridge/input: the bytes a program sends a syslog socket itself,
# parsed into journal records.
BRIDGE_SOURCES += \
	src/bridge/input/datagram.h src/bridge/input/datagram.c \
	src/bridge/input/syslog_stream.h src/bridge/input/syslog_stream.c \
	src/bridge/input/journal_wire.h src/bridge/input/journal_wire.c \
	src/bridge/input/socket_log.c
