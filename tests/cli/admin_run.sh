#!/bin/sh
# ehsyslog run: LD_PRELOAD gets the library appended once, the provider
# and replace options reach the environment, the command's exit status
# comes back, errors are reported.
. "${top_srcdir:-.}/tests/cli/admin_lib.sh"

[ -f "$BUILT_LIBRARY" ] || skip "$BUILT_LIBRARY not built"
lib=$T/libehsyslog.so
other=$T/other.so
cp "$BUILT_LIBRARY" "$lib"
cp "$BUILT_LIBRARY" "$other"
export EHSYSLOG_LIBRARY="$lib"
unset LD_PRELOAD EHSYSLOG_PROVIDER EHSYSLOG_PASSTHROUGH
# A tracefs where events could be written, whatever this machine has:
# run warns otherwise (checked at the end).
mkdir "$T/tracefs"
: >"$T/tracefs/user_events_data"
export EHSYSLOG_TRACEFS="$T/tracefs"

# printenv shows what the command was given.
expect 0 "$EHSYSLOG" run printenv LD_PRELOAD
expect_line out "$lib"
expect_empty err

expect 0 env LD_PRELOAD="$other" "$EHSYSLOG" run printenv LD_PRELOAD
expect_line out "$other:$lib"

# Already there, among space- or colon-separated entries: not added twice.
expect 0 env LD_PRELOAD="$other $lib" "$EHSYSLOG" run printenv LD_PRELOAD
expect_line out "$other $lib"
expect 0 env LD_PRELOAD="$lib:$other" "$EHSYSLOG" run printenv LD_PRELOAD
expect_line out "$lib:$other"
# Separators only: as if unset.
expect 0 env LD_PRELOAD=" : " "$EHSYSLOG" run printenv LD_PRELOAD
expect_line out "$lib"

expect 0 "$EHSYSLOG" run --provider MyApp printenv EHSYSLOG_PROVIDER
expect_line out "MyApp"
expect 1 "$EHSYSLOG" run printenv EHSYSLOG_PASSTHROUGH
expect_empty out
expect 0 "$EHSYSLOG" run --replace printenv EHSYSLOG_PASSTHROUGH
expect_line out "0"
expect 0 "$EHSYSLOG" run -r -P P2 -- printenv EHSYSLOG_PROVIDER EHSYSLOG_PASSTHROUGH
expect_line out "P2"
expect_line out "0"
# -R is --replace's documented short form; -r, the old one, stays for scripts.
expect 0 "$EHSYSLOG" run -R printenv EHSYSLOG_PASSTHROUGH
expect_line out "0"

# --stdio: EHSYSLOG_STDIO, and only its words.
expect 0 "$EHSYSLOG" run --stdio stdout,stderr printenv EHSYSLOG_STDIO
expect_line out "stdout,stderr"
expect 0 "$EHSYSLOG" run -S both printenv EHSYSLOG_STDIO
expect_line out "both"
for bad in stdot "" "stdout," ",stderr" "stdout,,stderr"; do
	expect 2 "$EHSYSLOG" run --stdio "$bad" true
	expect_line err "ehsyslog run: --stdio takes stdout, stderr or both, not '$bad'"
	expect_line err "Try 'ehsyslog run --help'."
done

# The command's own options are not ehsyslog's.
expect 0 "$EHSYSLOG" run printf '%s\n' --replace -p
expect_line out "--replace"
expect_line out "-p"

# Exit status: the command's, 127 not found, 126 not executable.
expect 42 "$EHSYSLOG" run sh -c 'exit 42'
expect 127 "$EHSYSLOG" run no-such-command-ehsyslog
expect_line err "ehsyslog run: cannot run no-such-command-ehsyslog: No such file or directory"
printf 'not a program\n' >"$T/plain"
chmod 644 "$T/plain"
# (root too: execve wants an execute bit.)
expect 126 "$EHSYSLOG" run "$T/plain"
expect_line err "ehsyslog run: cannot run $T/plain: Permission denied"

expect 2 "$EHSYSLOG" run --provider 'a:b' true
expect_text err "ehsyslog run: invalid provider name 'a:b': "
expect 2 "$EHSYSLOG" run --provider '' true
expect_text err "ehsyslog run: invalid provider name '': "
# Names the library would ignore (it would log under Syslog): refused.
expect 2 "$EHSYSLOG" run --provider x-y true
expect_line err "ehsyslog run: invalid provider name 'x-y': must be 1-200 characters of A-Z a-z 0-9 _"
expect_empty out
long=$(printf 'x%.0s' $(seq 201))
expect 2 "$EHSYSLOG" run -P "$long" true
expect_line err "ehsyslog run: invalid provider name '$long': must be 1-200 characters of A-Z a-z 0-9 _"
expect 0 "$EHSYSLOG" run -P "${long%x}" printenv EHSYSLOG_PROVIDER
expect_line out "${long%x}"
expect 2 "$EHSYSLOG" run
expect_line err "ehsyslog run: no command to run"

expect 1 env EHSYSLOG_LIBRARY="$T/missing.so" "$EHSYSLOG" run true
expect_line err "ehsyslog run: cannot read the library $T/missing.so: No such file or directory (set EHSYSLOG_LIBRARY to its path)"
expect 1 env EHSYSLOG_LIBRARY="$T" "$EHSYSLOG" run true
expect_line err "ehsyslog run: cannot read the library $T: Is a directory (set EHSYSLOG_LIBRARY to its path)"
# A file ld.so cannot preload: refused before the command runs (ld.so
# would print its error into the command's stderr and run it untraced).
# patched NAME OFFSET BYTE: the library with one byte of its ELF header changed.
patched() {
	cp "$lib" "$T/$1"
	printf '%b' "\\0$(printf '%03o' "$3")" | dd of="$T/$1" bs=1 seek="$2" conv=notrunc status=none
}
patched class32.so 4 1	# EI_CLASS: ELFCLASS32
patched other_order.so 5 2	# EI_DATA: ELFDATA2MSB
patched exec.so 16 2	# e_type: ET_EXEC
patched machine.so 18 183	# e_machine: EM_AARCH64, or EM_X86_64 (62) on arm64
[ "$(uname -m)" != aarch64 ] || patched machine.so 18 62
head -c 40 "$lib" >"$T/cut.so"
for bad in "plain:not an ELF file" "cut.so:an ELF file cut short" \
	"class32.so:a 32-bit ELF file, for 64-bit programs here" \
	"other_order.so:an ELF file of the other byte order" \
	"exec.so:an ELF file that is not a shared object" \
	"machine.so:a shared object for another machine"; do
	file=$T/${bad%%:*}
	expect 1 env EHSYSLOG_LIBRARY="$file" "$EHSYSLOG" run echo ran
	expect_empty out
	expect_line err "ehsyslog run: cannot use the library $file: ${bad#*:} (set EHSYSLOG_LIBRARY to its path)"
done

# Where no event can be written run says why on stderr, and the command
# still runs with its exit status.
mkdir "$T/no_user_events"
expect 7 env EHSYSLOG_TRACEFS="$T/no_user_events" "$EHSYSLOG" run -- sh -c 'echo ran; exit 7'
expect_line out "ran"
expect_line err "ehsyslog run: warning: no event can be written here: $T/no_user_events/user_events_data does not exist: this kernel has no user_events (needs Linux 6.4 or later built with CONFIG_USER_EVENTS); the command runs, its calls passing through as without the library"
# This machine's own tracefs, in a namespace of the test's: a new
# tracefs mount, as root sees it.
if without_user_events "run's warning on this machine's tracefs"; then
	expect 7 env -u EHSYSLOG_TRACEFS "$ns" fresh -- "$EHSYSLOG" run -- sh -c 'exit 7'
	expect_no_user_events run "the command runs, its calls passing through as without the library"
	expect 7 env -u EHSYSLOG_TRACEFS "$ns" none -- "$EHSYSLOG" run -- sh -c 'exit 7'
	expect_text err "ehsyslog run: warning: no event can be written here: no tracefs found"
fi

finish
