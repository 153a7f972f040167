#!/bin/sh
# Which of a site's two nops a reader probes, as the kernel runs it: on
# x86-64 each site of the library is the note's one-byte nop and a
# five-byte nop after it.  Where the kernel optimises uprobes on a nop5
# (site_offset says how this test tells), the tail's events probe the
# nop5, and after the first hit a process's copy of the site holds the
# kernel's call there, its nop untouched; elsewhere (the stock Debian
# guests' kernels, arm64) the nop, which then holds the breakpoint.
# Either way each event is printed once, and a level the tail did not
# enable keeps its site as built.
. "${top_srcdir:-.}/tests/cli/uprobe_lib.sh"
in_namespace "$0" "$@"

own_library "$T/libehsyslog.so.0"
# vaddr SYMBOL: the site's address in the library (its symbol table).
vaddr() { nm "$LIB" | awk -v s="$1" '$3 == s { print "0x" $1 }'; }
warning=$(vaddr usdt_site_L3) info=$(vaddr usdt_site_L4)
[ -n "$warning" ] && [ -n "$info" ] || { fail "no usdt_site_L3 or _L4 in $LIB's symbols"; finish; }
note_off=$(file_offset "$LIB" "$warning")
probed=$(site_offset "$LIB" "$note_off")

"$EHSYSLOG" tail --uprobes="$LIB" -s warning --count 20 --timeout 60 >"$T/tail.out" 2>"$T/tail.err" &
tail_pid=$!
wait_until 60 enabled_in_tail $tail_pid "$GROUP" warning || fail "tail did not enable $GROUP: $(cat "$T/tail.err")"
checks=$((checks + 1))
grep -q "^p:$GROUP/warning $LIB:$(printf '0x%016x' "$probed")(" "$TR/uprobe_events" ||
	fail "warning is not probed at file offset $probed: $(grep "^p:$GROUP/warning " "$TR/uprobe_events")"

# 20 warnings and 20 infos, then the first bytes of both sites as this
# process maps them (its mapping of the library at file offset 0 is the
# base the symbols' addresses add to).
cat >"$T/prog.py" <<'PY'
import sys, syslog
syslog.openlog("nop5", 0, syslog.LOG_USER)
for i in range(20):
    syslog.syslog(syslog.LOG_WARNING, "warning %d" % i)
    syslog.syslog(syslog.LOG_INFO, "info %d" % i)
lib = sys.argv[1]
base = None
with open("/proc/self/maps") as maps:
    for line in maps:
        f = line.split()
        if len(f) >= 6 and f[5] == lib and int(f[2], 16) == 0:
            base = int(f[0].split("-")[0], 16)
            break
with open("/proc/self/mem", "rb") as mem:
    for a in sys.argv[2:]:
        mem.seek(base + int(a, 16))
        print(mem.read(6).hex())
PY
LD_PRELOAD=$PRELOAD python3 "$T/prog.py" "$LIB" "$warning" "$info" >"$T/bytes" 2>"$T/prog.err" ||
	fail "python3 exited $?: $(cat "$T/prog.err")"
wait $tail_pid || fail "tail exited $?: $(cat "$T/tail.err")"
checks=$((checks + 1))
[ "$(sed 's/.*: //' "$T/tail.out")" = "$(seq 0 19 | sed 's/^/user.warning warning /')" ] ||
	fail "tail printed: $(cat "$T/tail.out") $(cat "$T/tail.err")"
if [ "$probed" != "$note_off" ]; then
	want_warning="90e8" what="the nop, then the kernel's call"
else
	want_warning="cc" what="the kernel's breakpoint"
fi
checks=$((checks + 1))
case $(sed -n 1p "$T/bytes") in
"$want_warning"*) ;;
*) fail "the enabled site holds $(sed -n 1p "$T/bytes"), not $what" ;;
esac
checks=$((checks + 1))
case $(uname -m) in
x86_64) [ "$(sed -n 2p "$T/bytes")" = 900f1f440000 ] ;;
*) [ "$(sed -n 2p "$T/bytes" | cut -c1-8)" = 1f2003d5 ] ;;
esac || fail "the site of a level not enabled holds $(sed -n 2p "$T/bytes")"
echo "note: the probe at file offset $probed (the note's: $note_off): $what"
finish
