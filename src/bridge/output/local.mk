# src/bridge/output: standard output and error as events, a line each,
# where they are a log.  Built without the sanitizers, as socket/: the
# first write() looks here, and write() runs in other libraries'
# constructors, before the ASan runtime is set up.
BRIDGE_OUTPUT_SOURCES = src/bridge/output/output.h src/bridge/output/find.c \
	src/bridge/output/stream.h src/bridge/output/stream.c \
	src/bridge/output/line.h src/bridge/output/line.c \
	src/bridge/output/stdio.c
noinst_LTLIBRARIES += src/bridge/output/libbridge_output.la
src_bridge_output_libbridge_output_la_SOURCES = $(BRIDGE_OUTPUT_SOURCES)
src_bridge_output_libbridge_output_la_CFLAGS = $(WARN_CFLAGS) -fvisibility=hidden
libehsyslog_la_LIBADD += src/bridge/output/libbridge_output.la
