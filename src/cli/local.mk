# src/cli: the ehsyslog command (see Makefile.am): the dispatcher and
# what several subcommands share.
bin_PROGRAMS += ehsyslog
ehsyslog_SOURCES = \
	src/cli/main.c src/cli/commands.h \
	src/cli/util.c src/cli/util.h \
	src/cli/options.c src/cli/options.h \
	src/cli/names.c src/cli/names.h \
	src/cli/read_file.c src/cli/read_file.h \
	src/cli/provider.c src/cli/provider.h \
	src/cli/user_events_access.c src/cli/user_events_access.h \
	src/cli/stale.c src/cli/stale.h \
	src/cli/transport.c src/cli/transport.h \
	src/cli/process_alive.c src/cli/process_alive.h \
	src/cli/reader_alive.c src/cli/reader_alive.h \
	src/cli/paths.c src/cli/paths.h
# The subcommands' folders (README.md says which is which) add theirs.
# The tool links the layers' convenience libraries, not libehsyslog.so:
# its own err()/syslog() calls are not to be bridged.  It uses only their
# public headers (include/), as any program would.
# The default library is the runtime name, the SONAME (major 0 from
# -version-info 0:0:0 in Makefile.am): libehsyslog.so itself is a
# development link that a runtime install (Debian's libehsyslog0) lacks.
ehsyslog_CPPFLAGS = $(AM_CPPFLAGS) \
	-DEHSYSLOG_LIBRARY_PATH='"$(libdir)/libehsyslog.so.0"' \
	-DEHSYSLOG_CONFIG_PATH='"$(sysconfdir)/ehsyslog.conf"'
ehsyslog_CFLAGS = $(AM_CFLAGS) $(LIBBSD_CFLAGS) \
	$(LIBTRACEFS_CFLAGS) $(LIBTRACEEVENT_CFLAGS) $(LIBTRACECMD_CFLAGS) \
	$(LIBZSTD_CFLAGS)
ehsyslog_LDADD = src/bridge/libbridge.la src/usdt/libusdt.la src/user_events/libuserevents.la \
	src/eventheader/libeventheader.la $(LIBBSD_LIBS) \
	$(LIBTRACECMD_LIBS) $(LIBTRACEFS_LIBS) $(LIBTRACEEVENT_LIBS) \
	$(LIBZSTD_LIBS)

# The library's own pages are installed with it (Makefile.am).
dist_man_MANS += man/ehsyslog.1
