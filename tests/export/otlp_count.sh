#!/bin/sh
# tests/export/otlp_count, the receiver bench_export.py counts export's
# records with: requests built here byte by byte, with fields of every
# wire type it must skip, are counted to the record; a broken one is
# answered 400 and not counted; wrong types, paths and framings are
# refused; the connection is kept between requests, and a new one is
# taken once it is closed.
. "${top_srcdir:-.}/tests/cli/admin_lib.sh"
command -v python3 >/dev/null || skip "no python3"

"$top_builddir/tests/export/otlp_count" "$T" 2>"$T/receiver-err" &
pid=$!
trap 'kill "$pid" 2>/dev/null; rm -rf "$T"' EXIT
checks=$((checks + 1))
wait_until 60 test -s "$T/port" || fail "otlp_count wrote no port"
checks=$((checks + 1))
grep -Eqx '[0-9]+' "$T/port" || fail "the port file: $(cat "$T/port")"

# Each request: what it was, the status, then the count in WORK/count.
python3 - "$(cat "$T/port")" "$T" >"$T/got" 2>&1 <<'EOF'
import http.client
import socket
import struct
import sys

port, work = int(sys.argv[1]), sys.argv[2]


def varint(n):
    out = b""
    while n >= 0x80:
        out += bytes([n & 0x7f | 0x80])
        n >>= 7
    return out + bytes([n])


def field(number, wire, payload):
    if wire == 2:
        payload = varint(len(payload)) + payload
    return varint(number << 3 | wire) + payload


def record(i):
    # time_unix_nano (fixed64), severity_number, body; then fields no
    # LogRecord has: a varint past one byte and a fixed32.
    return (field(1, 1, struct.pack("<Q", 1700000000000000000 + i)) + field(2, 0, varint(9))
            + field(5, 2, field(1, 2, b"message %d" % i))
            + field(99, 0, varint(300)) + field(100, 5, struct.pack("<I", 7)))


def scope_logs(first, n):
    return (field(1, 2, field(1, 2, b"ehsyslog"))
            + b"".join(field(2, 2, record(i)) for i in range(first, first + n))
            + field(3, 2, b""))


def resource_logs(*scopes):
    # schema_url holds bytes that read as a ScopeLogs of one record: not
    # one of this resource's.
    return (field(1, 2, field(1, 2, field(1, 2, b"host.name")))
            + b"".join(field(2, 2, s) for s in scopes)
            + field(3, 2, field(2, 2, record(0))))


good = (field(1, 2, resource_logs(scope_logs(0, 3)))
        + field(7, 1, struct.pack("<Q", 1))
        + field(1, 2, resource_logs(scope_logs(3, 1), scope_logs(4, 1))))
one = field(1, 2, resource_logs(scope_logs(0, 1)))
# A record whose body says it is longer than the record.
bad_record = field(1, 2, field(2, 2, field(2, 2, field(5, 2, b"ab")[:-1])))
proto = {"Content-Type": "application/x-protobuf"}


def count():
    with open(work + "/count") as f:
        return f.read()


conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)


def post(what, body, headers=proto, path="/v1/logs", **kw):
    conn.request("POST", path, body, headers, **kw)
    r = conn.getresponse()
    r.read()
    print(what, r.status, r.getheader("Content-Length"), count())


post("two resources", good)
sock = conn.sock
post("empty", b"")
post("truncated", good[:-3])
# A group, well formed as proto2 had them; proto3 has none.
post("a group", good + field(9, 3, b"") + field(1, 0, varint(1)) + field(9, 4, b""))
post("a varint past the end", good + b"\x08\xff")
post("a record's field past its end", bad_record)
post("json", good, {"Content-Type": "application/json"})
post("gzip", good, dict(proto, **{"Content-Encoding": "gzip"}))
post("another path", good, path="/v1/traces")
print("kept alive", conn.sock is sock)
post("chunked", iter([good]), encode_chunked=True, headers=dict(proto, **{"Transfer-Encoding": "chunked"}))
print("closed after", conn.sock is None)
post("a new connection", one)
s = socket.create_connection(("127.0.0.1", port), timeout=10)
s.sendall(b"POST /v1/logs HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-protobuf\r\n\r\n")
print("no length", s.recv(100).split(b"\r\n")[0].decode(), count())
EOF
cat >"$T/want" <<'EOF'
two resources 200 0 5
empty 200 0 5
truncated 400 0 5
a group 400 0 5
a varint past the end 400 0 5
a record's field past its end 400 0 5
json 415 0 5
gzip 415 0 5
another path 404 0 5
kept alive True
chunked 411 0 5
closed after True
a new connection 200 0 6
no length HTTP/1.1 411 Length Required 6
EOF
expect_same "the answers and counts" "$T/want" "$T/got"
checks=$((checks + 1))
kill -0 "$pid" 2>/dev/null || fail "otlp_count is gone"
# Not "Terminated" in the log: SIGTERM is how it ends.
{ kill "$pid" && wait "$pid"; } 2>/dev/null
expect_empty receiver-err
finish
