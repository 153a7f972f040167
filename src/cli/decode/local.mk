# src/cli/decode: `ehsyslog decode`, recorded events (perf.data,
# trace.dat) read and handed to src/cli/output.  The program is defined
# in src/cli/local.mk.
ehsyslog_SOURCES += \
	src/cli/decode/cmd_decode.c \
	src/cli/decode/perf_data.c \
	src/cli/decode/perf_data.h \
	src/cli/decode/perf_unzip.c \
	src/cli/decode/perf_unzip.h \
	src/cli/decode/trace_dat.c \
	src/cli/decode/trace_dat.h \
	src/cli/decode/trace_dat_check.c \
	src/cli/decode/trace_dat_check.h \
	src/cli/decode/span.h
