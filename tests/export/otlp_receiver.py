#!/usr/bin/env python3
"""A test OTLP/HTTP logs receiver for ehsyslog export's tests.

usage: otlp_receiver.py --proto DIR --work DIR [--answers S,S,...]
                        [--retry-after SECONDS] [--never] [--since NS]
                        [--tls CERT KEY] [--encoding protobuf|json]
                        [--compression none|gzip]
                        [--partial-success REJECTED MESSAGE]
                        [--status-message MESSAGE] [--big-answer]
                        [--path PATH] [--delay-ms MS]

Compiles the vendored opentelemetry-proto files under DIR with protoc
(--python_out) into --work, and decodes every request body with the
generated ExportLogsServiceRequest: the official definitions, not ours.
A body is gunzipped when its Content-Encoding is gzip, and read as
OTLP/JSON (google.protobuf.json_format, which refuses unknown keys) when
its Content-Type is application/json; --encoding and --compression say
which the request must use (default protobuf, none).
--partial-success answers the first request it answers 200 with a
partial_success rejecting REJECTED records with MESSAGE, in the
request's encoding.  --status-message gives each answer other than 200
a google.rpc.Status body (code 3, MESSAGE) in the request's encoding; a
3xx has a Location header too (/elsewhere, which export must not follow).
--big-answer answers the first request it answers 200 with a body of
over 100 KiB: an ExportLogsServiceResponse whose partial_success rejects
1 record with a 100 KiB message.  --path: the path requests must use
(default /v1/logs).  --delay-ms: each answer waits this long after its
request was read and written down (a slow collector).
Listens on 127.0.0.1 (the port goes to WORK/port); request number i
(from 0) is answered with the i-th of --answers, 200 once they run out
(503s with Retry-After when given).  --never accepts and reads requests
but never answers.  --tls serves https with CERT and KEY (PEM).
Writes WORK/requests, one line per request:
"STATUS RECORDS FIRST-BODY" (and " authorization=VALUE" when the
header came, anything unexpected about path, content type or content
encoding), to
WORK/arrivals when it came (CLOCK_REALTIME, ns), to WORK/sizes its
body's bytes as sent (compressed, if it was), and for each record of an answered-200
request one line to WORK/records:
  R: resource attributes | S: number text | B: body | A: attributes | T: time
with attributes sorted by key, strings JSON-quoted; T is "ok" when
since <= time_unix_nano <= observed_time_unix_nano <= when it arrived,
else says which does not hold; and for each such request one line to
WORK/resources: the number of records of each of its ResourceLogs, in
order ("3 1": two resources, of 3 and 1 records).
"""
import argparse
import gzip
import http.server
import json
import os
import ssl
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
from clients_listen import lo_up  # noqa: E402  the guest's loopback is down


def compile_proto(proto, work):
    # google/protobuf/ is Python protobuf's own (any_pb2): not compiled.
    files = [os.path.relpath(os.path.join(d, f), proto)
             for d, _, fs in os.walk(os.path.join(proto, "opentelemetry"))
             for f in fs if f.endswith(".proto")] + ["google/rpc/status.proto"]
    subprocess.run(["protoc", "-I" + proto, "--python_out=" + work] + sorted(files),
                   check=True)
    sys.path.insert(0, work)
    from opentelemetry.proto.collector.logs.v1 import logs_service_pb2
    from google.rpc import status_pb2
    return logs_service_pb2, status_pb2


def value(v):
    kind = v.WhichOneof("value")
    if kind == "string_value":
        return json.dumps(v.string_value, ensure_ascii=False)
    if kind == "int_value":
        return str(v.int_value)
    if kind == "bytes_value":
        return "bytes:" + v.bytes_value.hex()
    return "%s:%s" % (kind, getattr(v, kind) if kind else "")


def pairs(kvs):
    return " ".join("%s=%s" % (kv.key, value(kv.value)) for kv in sorted(kvs, key=lambda kv: kv.key))


def time_check(rec, since, arrived):
    t, o = rec.time_unix_nano, rec.observed_time_unix_nano
    if not since <= t:
        return "time %d before the test began (%d)" % (t, since)
    if not t <= o:
        return "time %d after observed %d" % (t, o)
    if not o <= arrived:
        return "observed %d after arrival %d" % (o, arrived)
    return "ok"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--proto", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--answers", default="")
    ap.add_argument("--retry-after")
    ap.add_argument("--never", action="store_true")
    ap.add_argument("--since", type=int, default=0)
    ap.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    ap.add_argument("--encoding", choices=("protobuf", "json"), default="protobuf")
    ap.add_argument("--compression", choices=("none", "gzip"), default="none")
    ap.add_argument("--partial-success", nargs=2, metavar=("REJECTED", "MESSAGE"))
    ap.add_argument("--status-message")
    ap.add_argument("--big-answer", action="store_true")
    ap.add_argument("--path", default="/v1/logs")
    ap.add_argument("--delay-ms", type=int, default=0)
    args = ap.parse_args()
    pb, rpc = compile_proto(args.proto, args.work)
    from google.protobuf import json_format
    types = {"protobuf": "application/x-protobuf", "json": "application/json"}
    partial = [args.partial_success]
    big = [args.big_answer]
    answers = [int(a) for a in args.answers.split(",") if a]
    count = [0]
    records = open(os.path.join(args.work, "records"), "a", encoding="utf-8")
    requests = open(os.path.join(args.work, "requests"), "a", encoding="utf-8")
    arrivals = open(os.path.join(args.work, "arrivals"), "a", encoding="utf-8")
    resources = open(os.path.join(args.work, "resources"), "a", encoding="utf-8")
    sizes = open(os.path.join(args.work, "sizes"), "a", encoding="utf-8")

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):
            pass

        def do_POST(self):
            arrived = time.time_ns()
            body = self.rfile.read(int(self.headers["Content-Length"]))
            sizes.write("%d\n" % len(body))
            sizes.flush()
            if args.never:
                time.sleep(3600)
            i = count[0]
            count[0] += 1
            status = answers[i] if i < len(answers) else 200
            bad = ""
            if self.headers.get("Content-Encoding") == "gzip":
                body = gzip.decompress(body)
            if self.headers.get("Content-Encoding", "none") != args.compression:
                bad += " content-encoding=" + str(self.headers.get("Content-Encoding"))
            req = pb.ExportLogsServiceRequest()
            is_json = self.headers["Content-Type"] == types["json"]
            if is_json:
                json_format.Parse(body.decode("utf-8"), req)
            else:
                req.ParseFromString(body)
            recs = [(rl, r) for rl in req.resource_logs for sl in rl.scope_logs
                    for r in sl.log_records]
            if self.path != args.path:
                bad += " path=" + self.path
            if self.headers["Content-Type"] != types[args.encoding]:
                bad += " content-type=" + str(self.headers["Content-Type"])
            if self.headers.get("Authorization") is not None:
                bad += " authorization=" + self.headers["Authorization"]
            first = recs[0][1].body.string_value if recs else ""
            requests.write("%d %d %s%s\n" % (status, len(recs), json.dumps(first), bad))
            requests.flush()
            arrivals.write("%d\n" % arrived)
            arrivals.flush()
            if status == 200:
                for rl, sl in ((rl, sl) for rl in req.resource_logs for sl in rl.scope_logs):
                    if sl.scope.name != "ehsyslog":
                        records.write("scope %r\n" % sl.scope.name)
                    for r in sl.log_records:
                        records.write("R: %s | S: %d %s | B: %s | A: %s | T: %s\n" % (
                            pairs(rl.resource.attributes), r.severity_number,
                            r.severity_text, value(r.body), pairs(r.attributes),
                            time_check(r, args.since, arrived)))
                records.flush()
                resources.write(" ".join(str(sum(len(sl.log_records) for sl in rl.scope_logs))
                                         for rl in req.resource_logs) + "\n")
                resources.flush()
            time.sleep(args.delay_ms / 1000)
            self.send_response(status)
            if status != 200 and args.retry_after is not None:
                self.send_header("Retry-After", args.retry_after)
            if 300 <= status < 400:
                self.send_header("Location", "/elsewhere")
            # Empty: an ExportLogsServiceResponse without partial success.
            reply = b""
            resp = None
            if status == 200 and partial[0] is not None:
                resp = pb.ExportLogsServiceResponse()
                resp.partial_success.rejected_log_records = int(partial[0][0])
                resp.partial_success.error_message = partial[0][1]
                partial[0] = None
            elif status == 200 and big[0]:
                resp = pb.ExportLogsServiceResponse()
                resp.partial_success.rejected_log_records = 1
                resp.partial_success.error_message = "x" * 102400
                big[0] = False
            elif status != 200 and args.status_message is not None:
                resp = rpc.Status(code=3, message=args.status_message)
            if resp is not None:
                reply = (json_format.MessageToJson(resp).encode("utf-8") if is_json
                         else resp.SerializeToString())
            self.send_header("Content-Type", types["json"] if is_json else types["protobuf"])
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

    lo_up()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    if args.tls:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(*args.tls)
        server.socket = ctx.wrap_socket(server.socket, server_side=True)
    with open(os.path.join(args.work, "port.tmp"), "w") as f:
        f.write("%d\n" % server.server_address[1])
    os.rename(os.path.join(args.work, "port.tmp"), os.path.join(args.work, "port"))
    server.serve_forever()


if __name__ == "__main__":
    main()
