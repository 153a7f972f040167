# src/bridge/socket: which sockets carry syslog, the ones watched, and
# what becomes of the bytes programs send them.  Built without the
# sanitizers, as the interposer's descriptor calls (preload/local.mk):
# connect() and write() run in other libraries' constructors, before
# the ASan runtime is set up, and every connect() asks here first.
BRIDGE_SOCKET_SOURCES = src/bridge/socket/socket.h src/bridge/socket/destination.c \
	src/bridge/socket/watch.c src/bridge/socket/send.c
noinst_LTLIBRARIES += src/bridge/socket/libbridge_socket.la
src_bridge_socket_libbridge_socket_la_SOURCES = $(BRIDGE_SOCKET_SOURCES)
src_bridge_socket_libbridge_socket_la_CFLAGS = $(WARN_CFLAGS) -fvisibility=hidden
libehsyslog_la_LIBADD += src/bridge/socket/libbridge_socket.la
