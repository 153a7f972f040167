# src/cli/export: `ehsyslog export`, the events as OTLP log records posted
# to an OpenTelemetry collector: the command, its options, the sender
# (batches, retries, libcurl) and the state it publishes for status.  The
# wire encoding is in otlp/, the queue in queue/.  The program is defined
# in src/cli/local.mk.
ehsyslog_SOURCES += \
	src/cli/export/cmd_export.c \
	src/cli/export/options.c src/cli/export/options.h \
	src/cli/export/sender.c src/cli/export/sender.h \
	src/cli/export/batch.c src/cli/export/batch.h \
	src/cli/export/http.c src/cli/export/http.h \
	src/cli/export/secret_file.c src/cli/export/secret_file.h \
	src/cli/export/backoff.c src/cli/export/backoff.h \
	src/cli/export/gzip.c src/cli/export/gzip.h \
	src/cli/export/state.c src/cli/export/state.h
ehsyslog_CFLAGS += $(LIBCURL_CFLAGS) $(ZLIB_CFLAGS)
ehsyslog_LDADD += $(LIBCURL_LIBS) $(ZLIB_LIBS)
