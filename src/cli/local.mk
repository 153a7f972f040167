# src/cli: the ehsyslog command (see Makefile.am)
bin_PROGRAMS += ehsyslog
ehsyslog_SOURCES = \
	src/cli/main.c src/cli/commands.h \
	src/cli/util.c src/cli/util.h \
	src/cli/names.c src/cli/names.h \
	src/cli/paths.c src/cli/paths.h \
	src/cli/read_file.c src/cli/read_file.h \
	src/cli/provider.c src/cli/provider.h \
	src/cli/cmd_run.c \
	src/cli/cmd_preload.c src/cli/cmd_register.c \
	src/cli/cmd_status.c src/cli/cmd_config.c \
	src/cli/user_events_access.c src/cli/user_events_access.h \
	src/cli/tracing_dir.c src/cli/tracing_dir.h \
	src/cli/settings.c src/cli/settings.h \
	src/cli/preload_list.c src/cli/preload_list.h \
	src/cli/preload_file.c src/cli/preload_file.h \
	src/cli/preload_lib.c src/cli/preload_lib.h \
	src/cli/read_stub_tmp.c src/cli/layers_stub_tmp.c
# TEMPORARY (deleted at merge with tmp_include/ and the *_tmp.c files):
# tmp_include/ stands in for headers of branches not merged yet; it comes
# after include/, so the real headers win as soon as they exist.
ehsyslog_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/src/cli/tmp_include \
	-DEHSYSLOG_LIBRARY_PATH='"$(libdir)/libehsyslog.so"' \
	-DEHSYSLOG_CONFIG_PATH='"$(sysconfdir)/ehsyslog.conf"'
ehsyslog_CFLAGS = $(AM_CFLAGS) $(LIBBSD_CFLAGS) \
	$(LIBTRACEFS_CFLAGS) $(LIBTRACEEVENT_CFLAGS) $(LIBTRACECMD_CFLAGS)
ehsyslog_LDADD = libehsyslog.la $(LIBBSD_LIBS) \
	$(LIBTRACECMD_LIBS) $(LIBTRACEFS_LIBS) $(LIBTRACEEVENT_LIBS)
EXTRA_DIST += src/cli/tmp_include/ehsyslog/user_events.h \
	src/cli/tmp_include/bridge/config_parse.h src/cli/tmp_include/bridge/config_load.h

# '=' not '+=': no other fragment installs man pages.
dist_man_MANS = man/ehsyslog.1 man/libehsyslog.7 man/ehsyslog.conf.5
