#!/usr/bin/env python3
"""Events per second and CPU per event of `ehsyslog export` against a
local receiver, beside `ehsyslog tail --json > /dev/null` in the same run
(the baseline): run where user_events work, through scripts/kernel-test
(with top_builddir, where make check or make bench built
tests/cli/kernel_logger and tests/export/otlp_count):

  scripts/kernel-test /usr/bin/python3 tests/export/bench_export.py [N] [REPS]

(the system python3, not a pyenv shim).
scripts/bench (make bench) runs it so in every full run.

Each rep: the reader starts, N syslog calls are made by one program
under the preload, and the clock stops when the reader has them all
(tail: has printed N lines and exited; export: the receiver has counted N
records).  CPU is the reader's user + system time over the whole run.
The reader is pinned to one CPU, the logger and the receiver to the
others (where there are others): the rate is what one core sustains.
The receiver is tests/export/otlp_count, which only walks each request's
framing down to the log records and counts them: where there is one CPU
(the guest), it shares it with export, and a receiver decoding every
record cost about as much per event as export did.
Prints one line per rep and reader, then the medians and the ratio, then
the same as "FACT " lines in scripts/bench's facts.csv form.
"""
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
from clients_listen import lo_up  # noqa: E402

top = os.environ.get("top_builddir", ".")
tool = os.path.join(top, "ehsyslog")
logger = os.path.join(top, "tests/cli/kernel_logger")
lib = os.path.join(top, ".libs/libehsyslog.so")
receiver = os.path.join(top, "tests/export/otlp_count")
inst = "/sys/kernel/tracing/instances"


def enabled(pid):
    for d in os.listdir(inst):
        if d.startswith("ehsyslog-tail-%d-" % pid):
            try:
                with open(os.path.join(inst, d, "events/user_events/Syslog_L5K800000/enable")) as f:
                    return f.read().strip() == "1"
            except OSError:
                return False
    return False


cpus = sorted(os.sched_getaffinity(0))
reader_cpu = {cpus[0]}
other_cpus = set(cpus[1:]) or reader_cpu


def on(cpus_set):
    return lambda: os.sched_setaffinity(0, cpus_set)


def wait_for(what, ok, seconds):
    end = time.monotonic() + seconds
    while not ok():
        if time.monotonic() > end:
            raise SystemExit("bench: %s did not happen within %d s" % (what, seconds))
        time.sleep(0.01)


def wait_enabled(pid):
    wait_for("reader %d enabling its tracepoints" % pid, lambda: enabled(pid), 60)


def log(n):
    env = dict(os.environ, LD_PRELOAD=lib)
    subprocess.run([logger, "bench", "1", "6", str(n), "bench message"], env=env, check=True,
                   preexec_fn=on(other_cpus))


def reap(p):
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return ru.ru_utime + ru.ru_stime


def tail_rep(n):
    # --timeout: should the buffer lose events, tail never counts N.
    p = subprocess.Popen([tool, "tail", "--json", "--count", str(n), "--timeout", "300"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         preexec_fn=on(reader_cpu))
    wait_enabled(p.pid)
    t0 = time.monotonic()
    log(n)
    err = p.stderr.read().decode()
    cpu = reap(p)
    if err:
        raise SystemExit("bench: tail did not read all %d: %s" % (n, err))
    return time.monotonic() - t0, cpu


def export_rep(n, work, on_disk=False):
    count = os.path.join(work, "count")
    for f in (count, os.path.join(work, "port")):
        if os.path.exists(f):
            os.unlink(f)
    r = subprocess.Popen([receiver, work], preexec_fn=on(other_cpus))
    wait_for("the receiver starting", lambda: os.path.exists(os.path.join(work, "port")), 60)
    with open(os.path.join(work, "port")) as f:
        url = "http://127.0.0.1:" + f.read().strip()
    args = [tool, "export", "--endpoint", url, "--batch-delay", "100", "--queue-size", str(2 * n)]
    if on_disk:
        # A new queue directory each run: the packaged unit's set-up.
        spool = os.path.join(work, "queue")
        shutil.rmtree(spool, ignore_errors=True)
        args += ["--queue-dir", spool]
    p = subprocess.Popen(args, stderr=subprocess.PIPE, preexec_fn=on(reader_cpu))
    wait_enabled(p.pid)
    t0 = time.monotonic()
    log(n)
    def counted():
        try:
            with open(count) as f:
                return int(f.read() or 0) >= n
        except (OSError, ValueError):
            return False

    wait_for("the receiver counting %d records" % n, counted, 300)
    wall = time.monotonic() - t0
    p.send_signal(signal.SIGTERM)
    err = p.stderr.read().decode()
    cpu = reap(p)
    r.kill()
    r.wait()
    if "%d records sent, 0 dropped" % n not in err:
        raise SystemExit("export did not send all %d: %s" % (n, err))
    return wall, cpu


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    work = "/tmp/bench-export"
    os.makedirs(work, exist_ok=True)
    # Export's counters for status: not into the machine's /run.
    os.environ["EHSYSLOG_RUNTIME_DIR"] = os.path.join(work, "run")
    # The guest's loopback is down; otlp_count, unlike otlp_receiver.py,
    # does not bring it up.
    lo_up()
    res = {"tail --json": [], "export": [], "export --queue-dir": []}
    for rep in range(1, reps + 1):
        for name, fn in (("tail --json", lambda: tail_rep(n)), ("export", lambda: export_rep(n, work)),
                         ("export --queue-dir", lambda: export_rep(n, work, True))):
            wall, cpu = fn()
            res[name].append((n / wall, cpu / n * 1e6))
            print("rep %d %-18s %9.0f events/s %8.2f us CPU/event" % (rep, name, n / wall, cpu / n * 1e6))
    med = {k: (statistics.median(r for r, _ in v), statistics.median(c for _, c in v))
           for k, v in res.items()}
    for k, (r, c) in med.items():
        print("median %-18s %9.0f events/s %8.2f us CPU/event" % (k, r, c))
    rate = med["export"][0] / med["tail --json"][0]
    cpu = med["export"][1] / med["tail --json"][1]
    disk_rate = med["export --queue-dir"][0] / med["tail --json"][0]
    disk_cpu = med["export --queue-dir"][1] / med["tail --json"][1]
    print("export / tail --json: %.2f x the rate, %.2f x the CPU per event" % (rate, cpu))
    print("export --queue-dir / tail --json: %.2f x the rate, %.2f x the CPU per event" % (
        disk_rate, disk_cpu))
    how = "median of %d runs of %d events; reader on CPU %d of %d" % (
        reps, n, cpus[0], len(cpus))
    for key, name, what in (("export", "export", "ehsyslog export to a local OTLP/HTTP receiver"),
                            ("export --queue-dir", "export_disk",
                             "ehsyslog export with its queue on disk (--queue-dir) to a local OTLP/HTTP receiver"),
                            ("tail --json", "tail_json", "ehsyslog tail --json > /dev/null")):
        print("FACT %s.events_per_s,%.0f,events/s,,,%s: %s" % (name, med[key][0], what, how))
        print("FACT %s.cpu_per_event,%.2f,us CPU/event,,,%s: user + system time / events" % (
            name, med[key][1], what))
    print("FACT export.rate_over_tail_json,%.2f,ratio,,,export events/s over tail --json's" % rate)
    print("FACT export.cpu_over_tail_json,%.2f,ratio,,,export CPU per event over tail --json's" % cpu)
    # The target: export with the queue on disk keeps up with tail.
    print("FACT export_disk.rate_over_tail_json,%.2f,ratio,>= 1.00,%s,export --queue-dir events/s over tail --json's" % (
        disk_rate, "met" if disk_rate >= 1.0 else "MISSED"))
    print("FACT export_disk.cpu_over_tail_json,%.2f,ratio,,,export --queue-dir CPU per event over tail --json's" % disk_cpu)


if __name__ == "__main__":
    main()
