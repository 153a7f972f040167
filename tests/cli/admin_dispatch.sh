#!/bin/sh
# ehsyslog's dispatcher: usage, help, version, unknown commands and
# options, and every subcommand's --help.
. "${top_srcdir:-.}/tests/cli/admin_lib.sh"

expect 2 "$EHSYSLOG"
expect_text err "Usage: ehsyslog <command> [options]"
expect_empty out

expect 0 "$EHSYSLOG" --help
expect_text out "Usage: ehsyslog <command> [options]"
# The library run and preload use by default, as the build installs it:
# the runtime name (SONAME), which the library package alone provides.
checks=$((checks + 1))
grep -qx "Library: /.*/libehsyslog\.so\.0 (this build's libdir; run and" "$T/out" || fail "--help names no library: $(cat "$T/out")"
for c in tail export decode run register status cleanup preload config; do
	grep -q "^  $c " "$T/out" || fail "--help does not list $c"
done
expect_empty err

expect 0 "$EHSYSLOG" help
expect_text out "Usage: ehsyslog <command> [options]"

expect 0 "$EHSYSLOG" --version
expect_line out "ehsyslog 0.1.0"

expect 2 "$EHSYSLOG" frobnicate
expect_line err "ehsyslog: unknown command 'frobnicate'"
expect 2 "$EHSYSLOG" help frobnicate
expect_line err "ehsyslog: unknown command 'frobnicate'"
expect 2 "$EHSYSLOG" --frobnicate
expect_line err "ehsyslog: unknown option '--frobnicate'"
expect 2 "$EHSYSLOG" help run status
expect_line err "ehsyslog help: too many arguments"

for c in run register status cleanup preload config; do
	expect 0 "$EHSYSLOG" "$c" --help
	expect_text out "Usage: ehsyslog $c"
	expect_empty err
	cp "$T/out" "$T/help_flag"
	expect 0 "$EHSYSLOG" help "$c"
	cmp -s "$T/out" "$T/help_flag" || fail "'help $c' differs from '$c --help'"
	expect 2 "$EHSYSLOG" "$c" --no-such-option
	expect_line err "ehsyslog $c: unknown option '--no-such-option'"
	expect_line err "Try 'ehsyslog $c --help'."
	expect 2 "$EHSYSLOG" "$c" -Z
	expect_line err "ehsyslog $c: unknown option '-Z'"
done

# tail, export and decode: the same help convention, never the help on stderr.
for c in tail export decode; do
	expect 0 "$EHSYSLOG" "$c" --help
	expect_text out "Usage: ehsyslog $c"
	expect_empty err
	for bad in --no-such-option -Z; do
		expect 2 "$EHSYSLOG" "$c" "$bad"
		expect_line err "ehsyslog $c: unknown option '$bad'"
		expect_line err "Try 'ehsyslog $c --help'."
		expect_empty out
	done
done
expect 2 "$EHSYSLOG" tail --count
expect_line err "ehsyslog tail: option '--count' needs an argument"
expect_line err "Try 'ehsyslog tail --help'."
expect 2 "$EHSYSLOG" decode --min-severity loud x
expect_line err "ehsyslog decode: unknown severity 'loud'"
expect_line err "Try 'ehsyslog decode --help'."
expect 2 "$EHSYSLOG" export --batch-size 0
expect_line err "ehsyslog export: bad batch size '0'"
expect_line err "Try 'ehsyslog export --help'."

expect 2 "$EHSYSLOG" run --provider
expect_line err "ehsyslog run: option '--provider' needs an argument"
expect 2 "$EHSYSLOG" register -P
expect_line err "ehsyslog register: option '-P' needs an argument"
expect 2 "$EHSYSLOG" register extra
expect_line err "ehsyslog register: unexpected argument 'extra'"
expect 2 "$EHSYSLOG" status extra
expect_line err "ehsyslog status: unexpected argument 'extra'"
expect 2 "$EHSYSLOG" cleanup extra
expect_line err "ehsyslog cleanup: unexpected argument 'extra'"
expect 2 "$EHSYSLOG" preload
expect_line err "ehsyslog preload: missing action: enable, disable or status"
expect 2 "$EHSYSLOG" preload frob
expect_line err "ehsyslog preload: unknown action 'frob' (enable, disable or status)"
expect 2 "$EHSYSLOG" preload status extra
expect_line err "ehsyslog preload: too many arguments"
expect 2 "$EHSYSLOG" config
expect_line err "ehsyslog config: missing action: check"
expect 2 "$EHSYSLOG" config lint
expect_line err "ehsyslog config: unknown action 'lint' (check)"
expect 2 "$EHSYSLOG" config check a b
expect_line err "ehsyslog config: too many arguments"

finish
