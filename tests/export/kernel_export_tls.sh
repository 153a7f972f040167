#!/bin/sh
# ehsyslog export over https, and the collector's Retry-After, in a
# kernel with user_events (one guest boot; export_lib.sh):
#  1. https with a CA made for the test and a header from --header-file;
#     with another CA the server is refused, retried, never sent to;
#  2. a 503 with Retry-After: 2 delays the retry by 2 s, not the backoff's
#     0.1 s.
. "${top_srcdir:-.}/tests/export/export_lib.sh"

# 1. TLS: a CA and a server certificate for 127.0.0.1, made now.
printf 'subjectAltName=IP:127.0.0.1\n' >"$T/san"
if ! openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=ehsyslog-test-ca \
	-keyout "$T/ca.key" -out "$T/ca.pem" 2>"$T/openssl.err" ||
	! openssl req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 \
		-keyout "$T/server.key" -out "$T/server.csr" 2>>"$T/openssl.err" ||
	! openssl x509 -req -in "$T/server.csr" -CA "$T/ca.pem" -CAkey "$T/ca.key" \
		-CAcreateserial -days 1 -extfile "$T/san" -out "$T/server.pem" 2>>"$T/openssl.err" ||
	! openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=ehsyslog-test-other-ca \
		-keyout "$T/other-ca.key" -out "$T/other-ca.pem" 2>>"$T/openssl.err"; then
	fail "openssl could not make the test certificates: $(cat "$T/openssl.err")"
fi
printf '# the token stays off the command line\nAuthorization: Bearer t0ken\n' >"$T/headers"
chmod 600 "$T/headers"	# it holds a token: export refuses it readable by others
start_receiver tls --tls "$T/server.pem" "$T/server.key"
url=https://127.0.0.1:$(cat "$T/tls/port")
start_export tls --endpoint "$url" --cacert "$T/ca.pem" --header-file "$T/headers" \
	--batch-delay 100
logs secure 1 5 1 "over tls" $linger
wait_until 60 test -s "$T/tls/records" ||
	fail "tls: no record; requests: $(cat "$T/tls/requests"); export: $(cat "$T/tls.err")"
stop_export tls
echo "R: $(res $lpid secure) | S: 10 notice | B: \"over tls\" | A: $(attrs secure 1 $lpid) | T: ok" >"$T/tls.want"
expect_same "tls: the record" "$T/tls.want" "$T/tls/records"
echo '200 1 "over tls" authorization=Bearer t0ken' >"$T/tls.requests.want"
expect_same "tls: the request and its header" "$T/tls.requests.want" "$T/tls/requests"
# With another CA, the server is not trusted: retried, never sent. (Not
# the system's CA bundle: parsing its hundred certificates under ASan in
# the emulated guest can outlast the connect timeout.)
start_receiver untrusted --tls "$T/server.pem" "$T/server.key"
url=https://127.0.0.1:$(cat "$T/untrusted/port")
start_export untrusted --endpoint "$url" --cacert "$T/other-ca.pem" --batch-delay 100 \
	--flush-timeout 500
logs secure 1 5 1 "not trusted"
# Until the handshake has failed once: a slow guest (ASan) may not have
# tried yet after a fixed sleep, and the flush at exit would then time out.
wait_until 60 grep -qF "SSL peer certificate or SSH remote key was not OK" "$T/untrusted.err" ||
	fail "untrusted: no refused handshake: $(cat "$T/untrusted.err")"
stop_export untrusted
expect_empty untrusted/requests
expect_line untrusted.err "ehsyslog export: SSL peer certificate or SSH remote key was not OK; retrying"
expect_line untrusted.err "ehsyslog export: 0 records sent, 0 dropped (queue full or refused), 1 unsent at exit, 0 events lost by the trace buffer"

# 2. Retry-After outranks the backoff.
start_receiver later --answers 503 --retry-after 2
start_export later --endpoint "$url" --batch-delay 100 --backoff-initial 100
logs patient 1 6 1 "after a while"
wait_until 60 test -s "$T/later/records" ||
	fail "later: no record; requests: $(cat "$T/later/requests")"
stop_export later
expect_line later/requests '503 1 "after a while"'
expect_line later/requests '200 1 "after a while"'
checks=$((checks + 1))
gap=$(awk 'NR == 1 { a = $1 } NR == 2 { print int(($1 - a) / 1000000) }' "$T/later/arrivals")
[ "${gap:-0}" -ge 2000 ] || fail "later: the retry came ${gap:-?} ms after the 503 with Retry-After: 2"
expect_line later.err "ehsyslog export: the collector answered 503; retrying"

no_leftovers "at the end"
finish
