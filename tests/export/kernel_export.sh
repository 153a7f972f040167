#!/bin/sh
# ehsyslog export against programs logging under the preload, in a kernel
# with user_events (one guest boot), and a receiver that decodes every
# request with the official OTLP definitions (proto/, compiled by protoc):
#  1. an outage (503, 503, then 200): every record arrives once, in the
#     order logged, field by field as ehsyslog(1) EXPORT says, a split
#     message whole, and the retried batch is the one refused;
#  2. a full queue while the collector is away: the drops are counted on
#     stderr and reported by a record once it is back;
#  3. a receiver that never answers: the queue stays at its bound, the
#     drops are counted, and SIGTERM ends export within its timeouts;
#  4. a process of three threads: one resource, the process's, each
#     record with its thread's id; --resource pairs replacing built-in
#     ones, each key once;
#  5. the same process gone before export read its records (export
#     stopped meanwhile): they still name it (the kernel's saved_tgids).
# kernel_export_tls.sh, _wire.sh and _config.sh test the rest, each in a
# guest of its own, so that none comes near the guest's time limit.
. "${top_srcdir:-.}/tests/export/export_lib.sh"

# after_export LABEL: nothing of export's left in the guest's tracefs.
after_export() {
	no_leftovers "$1"
}

outage_scenario
full_queue_scenario

# 3. A receiver that never answers.
start_receiver never --never
start_export never --endpoint "$url" --queue-size 5 --batch-delay 100 \
	--request-timeout 1000 --flush-timeout 1000
logs silent 1 6 20 "unheard"
# The first request's timeout, however slow the guest: waited for, not
# assumed after a second.
wait_until 60 grep -qx "ehsyslog export: Timeout was reached; retrying" "$T/never.err" || :
stop_export never
expect_line never.err "ehsyslog export: Timeout was reached; retrying"
expect_line never.err "ehsyslog export: 0 records sent, 15 dropped (queue full or refused), 5 unsent at exit, 0 events lost by the trace buffer"

threads_scenario
gone_scenario
finish
