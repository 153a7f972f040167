#!/bin/sh
# ehsyslog preload --unit on a generated systemd directory
# (EHSYSLOG_SYSTEMD_DIR) with a fake systemctl (EHSYSLOG_SYSTEMCTL): the
# drop-in's exact text, the unit's own LD_PRELOAD kept, other drop-ins
# left alone, status, unit name and library refusals (the machine-wide
# rules, a sticky directory's library included); and, where
# systemd-analyze is installed, that systemd reads the drop-in cleanly.
. "${top_srcdir:-.}/tests/cli/admin_lib.sh"

sys=$T/system
mkdir "$sys"
export EHSYSLOG_SYSTEMD_DIR="$sys" EHSYSLOG_LD_SO_PRELOAD="$T/ld.so.preload"
export EHSYSLOG_SYSTEMCTL="$T/systemctl"
# A tracefs where events could be written, whatever this machine has:
# enable warns otherwise (checked at the end).
mkdir "$T/tracefs"
: >"$T/tracefs/user_events_data"
export EHSYSLOG_TRACEFS="$T/tracefs"

# Unit names: refused before anything else, exit 2.
bad_name() {
	expect 2 "$EHSYSLOG" preload enable --library /nonexistent.so --unit "$1"
	expect_line err "ehsyslog preload: invalid unit name '$1': $2"
	expect_empty out
}
bad_name '' 'empty'
bad_name 'a/b.service' 'a unit name holds only ASCII letters, digits and ":-_.\@"'
bad_name 'two words' 'a unit name holds only ASCII letters, digits and ":-_.\@"'
bad_name 'sshd.socket' 'not a service (only a .service unit runs a program)'
bad_name '.service' 'no name before .service'
bad_name "$(printf '%0256d' 0)" "longer than systemd's 255 characters"
expect 2 "$EHSYSLOG" preload disable --unit ../x
expect_line err "ehsyslog preload: invalid unit name '../x': a unit name holds only ASCII letters, digits and \":-_.\\@\""
checks=$((checks + 1))
[ -z "$(ls -A "$sys")" ] || fail "refused names left $(ls -A "$sys")"

safe_library
export EHSYSLOG_LIBRARY="$lib"

# The fake systemctl logs its arguments and shows what $T/env holds.
cat >"$EHSYSLOG_SYSTEMCTL" <<FAKE
#!/bin/sh
echo "\$*" >>"$T/systemctl.log"
[ -e "$T/env" ] || exit 1
cat "$T/env"
FAKE
chmod 755 "$EHSYSLOG_SYSTEMCTL"

# drop_in UNIT VALUE: the file enable writes for UNIT with LD_PRELOAD=VALUE.
drop_in() {
	printf '# Written by ehsyslog; "ehsyslog preload disable --unit %s" removes it.\n' "$1"
	printf "# LD_PRELOAD keeps the unit's own entries as systemctl showed them then.\n"
	printf '[Service]\nEnvironment=LD_PRELOAD=%s\n' "$2"
}

# A unit without LD_PRELOAD, named without its suffix.
echo 'PATH=/usr/bin LANG=C' >"$T/env"
expect 0 "$EHSYSLOG" preload enable --unit food
expect_empty err
file=$sys/food.service.d/ehsyslog.conf
printf '%s\n' "added $lib to food.service's LD_PRELOAD in $file" \
	'run: systemctl daemon-reload && systemctl restart food.service' >"$T/want"
checks=$((checks + 1))
cmp -s "$T/out" "$T/want" || fail "enable printed: $(cat "$T/out")"
drop_in food.service "$lib" >"$T/want"
checks=$((checks + 1))
cmp -s "$file" "$T/want" || fail "drop-in is: $(cat "$file")"
checks=$((checks + 1))
[ "$(stat -c %a "$file") $(stat -c %a "${file%/*}")" = "644 755" ] ||
	fail "modes: $(stat -c %a "$file") $(stat -c %a "${file%/*}")"
checks=$((checks + 1))
[ "$(cat "$T/systemctl.log")" = "show --property=Environment --value food.service" ] ||
	fail "systemctl was run as: $(cat "$T/systemctl.log")"
checks=$((checks + 1))
[ "$(ls -A "${file%/*}")" = ehsyslog.conf ] || fail "left in the drop-in directory: $(ls -A "${file%/*}")"

# Again: nothing changes, and systemctl is not asked.
: >"$T/systemctl.log"
expect 0 "$EHSYSLOG" preload enable --unit food.service
expect_line out "$lib is already in food.service's LD_PRELOAD in $file"
checks=$((checks + 1))
cmp -s "$file" "$T/want" || fail "second enable changed the drop-in: $(cat "$file")"
checks=$((checks + 1))
[ ! -s "$T/systemctl.log" ] || fail "second enable ran systemctl"

# A unit with its own LD_PRELOAD (quoted as systemctl quotes white space,
# with our library already in it after an earlier enable and reload):
# its entries come first, '%' and '\' escaped for the unit file.
printf 'A=1 "LD_PRELOAD=/opt/a.so /opt/b%%.so:%s" "B=x y"\n' "$lib" >"$T/env"
expect 0 "$EHSYSLOG" preload enable --unit web@1
expect_empty err
expect_line out "kept the unit's own LD_PRELOAD entries before it: /opt/a.so:/opt/b%.so"
expect_line out "run: systemctl daemon-reload && systemctl restart web@1.service"
drop_in web@1.service "/opt/a.so:/opt/b%%.so:$lib" >"$T/want"
checks=$((checks + 1))
cmp -s "$sys/web@1.service.d/ehsyslog.conf" "$T/want" || fail "kept drop-in is: $(cat "$sys/web@1.service.d/ehsyslog.conf")"

# Quotes and backslashes, as systemctl escapes them inside its quotes,
# come back escaped for the unit file.
printf '"LD_PRELOAD=/opt/q\\"x.so /opt/b\\\\s.so"\n' >"$T/env"
expect 0 "$EHSYSLOG" preload enable --unit esc
expect_line out "kept the unit's own LD_PRELOAD entries before it: /opt/q\"x.so:/opt/b\\s.so"
drop_in esc.service "/opt/q\\\"x.so:/opt/b\\\\s.so:$lib" >"$T/want"
checks=$((checks + 1))
cmp -s "$sys/esc.service.d/ehsyslog.conf" "$T/want" || fail "escaped drop-in is: $(cat "$sys/esc.service.d/ehsyslog.conf")"
expect 0 "$EHSYSLOG" preload disable --unit esc

# systemctl failing (no systemd running): said on stderr, still written.
rm "$T/env"
expect 0 "$EHSYSLOG" preload enable --unit nosys
expect_line err "ehsyslog preload: '$EHSYSLOG_SYSTEMCTL show' could not tell nosys.service's environment: an LD_PRELOAD the unit sets itself is not kept"
drop_in nosys.service "$lib" >"$T/want"
checks=$((checks + 1))
cmp -s "$sys/nosys.service.d/ehsyslog.conf" "$T/want" || fail "drop-in without systemctl: $(cat "$sys/nosys.service.d/ehsyslog.conf")"

# A drop-in for another library: not overwritten.
other=$S/other.so
cp "$lib" "$other"
expect 1 "$EHSYSLOG" preload enable --unit nosys --library "$other"
expect_line err "ehsyslog preload: $sys/nosys.service.d/ehsyslog.conf does not preload $other (written for another library?): run 'ehsyslog preload disable --unit nosys.service' first"
checks=$((checks + 1))
cmp -s "$sys/nosys.service.d/ehsyslog.conf" "$T/want" || fail "enable for another library changed the drop-in"

# status: the services with our drop-in, in name order; not those with
# only other drop-ins.
mkdir "$sys/plain.service.d"
printf '[Service]\nNice=5\n' >"$sys/plain.service.d/nice.conf"
expect 0 "$EHSYSLOG" preload status
printf '%s\n' "disabled: $lib is not listed in $T/ld.so.preload" \
	"enabled for food.service: $file" \
	"enabled for nosys.service: $sys/nosys.service.d/ehsyslog.conf" \
	"enabled for web@1.service: $sys/web@1.service.d/ehsyslog.conf" >"$T/want"
checks=$((checks + 1))
cmp -s "$T/out" "$T/want" || fail "status printed: $(cat "$T/out")"
expect 0 "$EHSYSLOG" preload status --unit plain
expect_line out "disabled for plain.service: no $sys/plain.service.d/ehsyslog.conf"
expect 0 "$EHSYSLOG" preload status --unit food
expect_line out "enabled for food.service: $file"
export EHSYSLOG_TRACEFS="$T/no-tracefs"
run_cmd "$EHSYSLOG" status
expect_line out "preload units: food.service, nosys.service, web@1.service"

# disable: only our file goes; the directory only when left empty.
printf '[Service]\nNice=5\n' >"$sys/food.service.d/nice.conf"
expect 0 "$EHSYSLOG" preload disable --unit food
printf '%s\n' "removed $file" 'run: systemctl daemon-reload && systemctl restart food.service' >"$T/want"
checks=$((checks + 1))
cmp -s "$T/out" "$T/want" || fail "disable printed: $(cat "$T/out")"
checks=$((checks + 1))
[ "$(ls -A "$sys/food.service.d")" = nice.conf ] || fail "disable left: $(ls -A "$sys/food.service.d")"
expect 0 "$EHSYSLOG" preload disable --unit food
expect_line out "food.service has no ehsyslog drop-in ($file): nothing to do"
expect 0 "$EHSYSLOG" preload disable --unit web@1.service
expect_line out "removed $sys/web@1.service.d/ehsyslog.conf and its directory, now empty"
checks=$((checks + 1))
[ ! -e "$sys/web@1.service.d" ] || fail "disable left $sys/web@1.service.d"
expect 0 "$EHSYSLOG" preload disable --unit nosys
run_cmd "$EHSYSLOG" status
expect_line out "preload units: none (no NAME.service.d/ehsyslog.conf in $sys)"
expect 0 "$EHSYSLOG" preload status
expect_line out "no service has an ehsyslog drop-in in $sys"

# unchanged WHO: the refused enables by WHO left the directory as it was:
# food.service.d with only the other drop-in, and plain.service.d.
unchanged() {
	checks=$((checks + 1))
	[ "$(ls -A "$sys")" = "$(printf 'food.service.d\nplain.service.d')" ] ||
		fail "enables $1 left: $(ls -A "$sys")"
	checks=$((checks + 1))
	[ "$(ls -A "$sys/food.service.d")" = nice.conf ] || fail "enable $1 wrote: $(ls -A "$sys/food.service.d")"
}

# The library checks of the machine-wide enable apply: nothing written.
cp "$lib" "$T/gw.so"
chmod 664 "$T/gw.so"
expect 1 "$EHSYSLOG" preload enable --unit food --library "$T/gw.so"
expect_line err "ehsyslog preload: refusing $T/gw.so: writable by group or others (mode 0664)"
cp "$lib" "$T/nobody.so"
chown nobody "$T/nobody.so"
expect 1 "$EHSYSLOG" preload enable --unit food --library "$T/nobody.so"
expect_line err "ehsyslog preload: refusing $T/nobody.so: not owned by root (its owner could run code in every process)"
# In a sticky directory anyone may write, like /tmp: refused as well.
mkdir -m 1777 "$S/sticky"
cp "$lib" "$S/sticky/lib.so"
expect 1 "$EHSYSLOG" preload enable --unit food --library "$S/sticky/lib.so"
expect_line err "ehsyslog preload: refusing $S/sticky/lib.so: directory $S/sticky is writable by group or others (mode 1777): sticky or not, whoever may write there could put another library at this path"
unchanged "of unsafe libraries"

# Not root: refused with the machine-wide enable's hint, whether the
# drop-in directory is still to be made or already there; nothing written.
if command -v setpriv >/dev/null; then
	expect 4 as_nobody "$EHSYSLOG" preload enable --unit newsvc
	expect_line err "ehsyslog preload: cannot create $sys/newsvc.service.d: Permission denied (needs root, or write permission on its directory)"
	expect_empty out
	expect 4 as_nobody "$EHSYSLOG" preload enable --unit food
	expect_line err "ehsyslog preload: cannot create a file in $sys/food.service.d: Permission denied (needs root, or write permission on its directory)"
	unchanged "as nobody"
else
	echo "SKIP (sub-check): setpriv is not installed: enable as non-root not tried"
fi

# systemd itself reads the unit with the drop-in without a complaint.
if command -v systemd-analyze >/dev/null; then
	printf '[Unit]\nDescription=ehsyslog test\n[Service]\nExecStart=/bin/true\n' >"$sys/food.service"
	printf 'A=1 "LD_PRELOAD=/opt/a%%b.so"\n' >"$T/env"
	expect 0 "$EHSYSLOG" preload enable --unit food
	expect 0 systemd-analyze verify "$sys/food.service"
	expect_empty out
	expect_empty err
	# The check can fail: systemd-analyze reads drop-ins beside the unit.
	printf '[Service]\nNotAKey=1\n' >"$sys/food.service.d/zz.conf"
	run_cmd systemd-analyze verify "$sys/food.service"
	expect_text err "zz.conf:2: Unknown key 'NotAKey'"
else
	echo "SKIP (sub-check): systemd-analyze is not installed: drop-in not verified by systemd"
fi

# Where no event can be written enable --unit still writes the drop-in,
# exit 0, and says why nothing will come of it.
mkdir "$T/no_user_events"
echo 'PATH=/usr/bin' >"$T/env"
expect 0 env EHSYSLOG_TRACEFS="$T/no_user_events" "$EHSYSLOG" preload enable --unit warned
expect_text out "added $lib to warned.service's LD_PRELOAD"
expect_line err "ehsyslog preload: warning: no event can be written here: $T/no_user_events/user_events_data does not exist: this kernel has no user_events (needs Linux 6.4 or later built with CONFIG_USER_EVENTS); the service will load the library, its calls passing through as without it"
checks=$((checks + 1))
[ -f "$sys/warned.service.d/ehsyslog.conf" ] || fail "no drop-in written when warning"
expect 0 env EHSYSLOG_TRACEFS="$T/no_user_events" "$EHSYSLOG" preload disable --unit warned
expect_empty err
if without_user_events "enable --unit's warning on this machine's tracefs"; then
	expect 0 env -u EHSYSLOG_TRACEFS "$ns" fresh -- "$EHSYSLOG" preload enable --unit warned
	expect_no_user_events preload "the service will load the library, its calls passing through as without it"
fi

finish
