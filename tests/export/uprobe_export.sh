#!/bin/sh
# ehsyslog export through the uprobe transport, on this machine's kernel
# (uprobe events, no user_events), in a private mount namespace with a
# fresh tracefs: kernel_logger logs under the preload of the test's own
# copy of the library, export defines and enables that copy's uprobe
# events (--uprobes=LIB), and the receiver decodes every request with the
# official OTLP definitions.  The records must be the ones the same calls
# give through user_events (tests/export/kernel_export.sh, whose wanted
# text this test shares): resource, severity, body, attributes, a split
# message whole; through an outage (503, 503, then 200) and a full queue
# whose drops are reported; a multithreaded process's records in one
# resource, with --resource pairs replacing built-in ones; and the
# records of a process that exited before export read them still name it.
# Nothing is left defined after export exits.
. "${top_srcdir:-.}/tests/export/uprobe_export_lib.sh"

outage_scenario
full_queue_scenario
threads_scenario
gone_scenario
finish
