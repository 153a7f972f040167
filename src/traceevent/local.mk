# src/traceevent: plugin_ehsyslog.so, the libtraceevent plugin that makes
# trace-cmd report and perf script print EventHeader events field by
# field, and the record helpers it shares with the ehsyslog tool: where a
# user_events record's EventHeader starts, and the library's uprobe
# events' records turned back into the EventHeader events they carry.
traceplugins_LTLIBRARIES = src/traceevent/plugin_ehsyslog.la
src_traceevent_plugin_ehsyslog_la_SOURCES = \
	src/traceevent/plugin_ehsyslog.c \
	src/traceevent/payload.c src/traceevent/payload.h \
	src/traceevent/uprobe_record.c src/traceevent/uprobe_record.h \
	src/traceevent/uprobe_group.c src/traceevent/uprobe_group.h \
	src/traceevent/base64.c src/traceevent/base64.h
src_traceevent_plugin_ehsyslog_la_CFLAGS = $(AM_CFLAGS) $(LIBTRACEEVENT_CFLAGS)
# Not linked to libtraceevent.so: its tep_* calls bind to the copy in the
# program that loads it (trace-cmd's libtraceevent.so.1, perf's own).
# Only the plugin entry points are exported, so the decoder's eh_* symbols
# never meet those of a preloaded libehsyslog.so.
src_traceevent_plugin_ehsyslog_la_LDFLAGS = $(AM_LDFLAGS) -module -avoid-version \
	-shared -export-symbols-regex '^tep_plugin_'
src_traceevent_plugin_ehsyslog_la_LIBADD = src/eventheader/libeventheader.la

# libtraceevent loads every *.so of the directory and nothing else: the
# libtool archive would only be clutter there.  Without it, libtool's
# uninstall cannot find the module, so the .so is removed here.
install-data-hook:
	rm -f "$(DESTDIR)$(tracepluginsdir)/plugin_ehsyslog.la"
uninstall-hook:
	rm -f "$(DESTDIR)$(tracepluginsdir)/plugin_ehsyslog.so"
