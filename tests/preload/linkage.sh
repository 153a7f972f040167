#!/bin/sh
# libehsyslog.so depends on libc only, exports the interposed symbols
# unversioned, and nothing else besides the layers' public API
# (eh_*, ue_*, ehs_*).
set -u
lib="$top_builddir/.libs/libehsyslog.so"
[ -f "$lib" ] || { echo "SKIP: $lib not built"; exit 77; }
fail=0
want=libc.so.6
needed=$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
# An ASan/UBSan build also needs the sanitizers' runtimes, nothing else.
[ "${sanitizers:-no}" = yes ] && needed=$(printf '%s\n' "$needed" | grep -v -E '^lib(a|ub)san\.so')
if [ "$needed" != "$want" ]; then
	echo "FAIL: NEEDED is '$needed', want only $want"
	fail=1
fi
interposed="__syslog_chk __vsyslog_chk closelog err errc error error_at_line errx
openlog setlogmask syslog verr verrc verrx vsyslog vwarn vwarnc vwarnx warn
warnc warnx close close_range closefrom dup2 dup3 fcntl fcntl64 fclose
setrlimit setrlimit64 prlimit prlimit64
setuid setgid seteuid setegid setreuid setregid setresuid setresgid setgroups
initgroups setfsuid setfsgid capset
g_log g_logv g_log_structured g_log_structured_array g_log_structured_standard
sd_journal_print sd_journal_printv sd_journal_send sd_journal_sendv
sd_journal_perror sd_journal_print_with_location sd_journal_printv_with_location
sd_journal_send_with_location sd_journal_sendv_with_location
sd_journal_perror_with_location
connect send sendto sendmsg sendmmsg write writev"

# The configuration's calls that <ehsyslog/settings.h> makes public.
public_config="ehs_config_defaults ehs_config_parse ehs_config_section ehs_config_strerror
ehs_config_apply_env ehs_config_env_known"

exports=$(nm -D --defined-only "$lib" | awk '{print $3}' | sort)
for s in $interposed; do
	if ! printf '%s\n' "$exports" | grep -qx "$s"; then
		echo "FAIL: $s not exported unversioned"
		fail=1
	fi
done
for s in ehs_enabled ehs_event ehs_event_cached ehs_site_write ehs_site_event \
	ehs_provider_valid ehs_severity_level ehs_keyword $public_config \
	ue_tracefs_dir ue_kernel_register ue_kernel_delete; do
	printf '%s\n' "$exports" | grep -qx "$s" || { echo "FAIL: $s missing"; fail=1; }
done
extra=$(printf '%s\n' "$exports" | grep -vx -e 'eh_[a-z0-9_]*' -e 'ue_[a-z0-9_]*' \
	-e 'ehs_[a-z0-9_]*' $(for s in $interposed; do printf -- '-e %s ' "$s"; done))
if [ -n "$extra" ]; then
	echo "FAIL: unexpected exports:"; echo "$extra"
	fail=1
fi
# Versioned exports of interposed names would not interpose glibc's.
if readelf --dyn-syms -W "$lib" | grep -E ' (syslog|err|warn|error|close|dup2|fcntl|fclose|setrlimit|prlimit|set[a-z]*id|setgroups|initgroups|capset|g_log[a-z_]*|sd_journal_[a-z_]*)(@|$)' | grep -q '@'; then
	echo "FAIL: interposed symbol carries a version"
	fail=1
fi
# Bridge internals stay hidden: of the configuration, only what
# <ehsyslog/settings.h> declares ($public_config) is exported.
if printf '%s\n' "$exports" | grep -vx $(for s in $public_config; do printf -- '-e %s ' "$s"; done) |
	grep -q -e '^ehs_vsyslog$' -e '^ehs_report$' -e '^ehs_config'; then
	echo "FAIL: bridge internals exported"
	fail=1
fi
[ $fail = 0 ] && echo "ok: libc only, $(printf '%s\n' "$exports" | wc -l) exports as expected"
exit $fail
