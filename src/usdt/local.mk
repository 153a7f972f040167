# src/usdt: USDT probe sites, the transport for kernels without
# user_events, linked into libehsyslog.
noinst_LTLIBRARIES += src/usdt/libusdt.la
src_usdt_libusdt_la_SOURCES = \
	src/usdt/sites.h \
	src/usdt/sites.c \
	src/usdt/write.c
src_usdt_libusdt_la_CFLAGS = $(LIB_CFLAGS)
libehsyslog_la_LIBADD += src/usdt/libusdt.la
noinst_HEADERS += include/ehsyslog/usdt.h
