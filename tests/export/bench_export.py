#!/usr/bin/env python3
"""Events per second and CPU per event of `ehsyslog export` against a
local receiver, beside `ehsyslog tail --json > /dev/null` in the same run
(the baseline): run where user_events work, through scripts/kernel-test:

  scripts/kernel-test /usr/bin/python3 tests/export/bench_export.py [N] [REPS]

(the system python3, which has python3-protobuf, not a pyenv shim).

Each rep: the reader starts, N syslog calls are made by one program
under the preload, and the clock stops when the reader has them all
(tail: has printed N lines and exited; export: the receiver has counted N
records).  CPU is the reader's user + system time over the whole run.
Prints one line per rep and reader, then the medians and the ratio.
"""
import os
import signal
import statistics
import subprocess
import sys
import time

top = os.environ.get("top_builddir", ".")
src = os.environ.get("top_srcdir", ".")
tool = os.path.join(top, "ehsyslog")
logger = os.path.join(top, "tests/cli/kernel_logger")
lib = os.path.join(top, ".libs/libehsyslog.so")
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
    subprocess.run([logger, "bench", "1", "6", str(n), "bench message"], env=env, check=True)


def reap(p):
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return ru.ru_utime + ru.ru_stime


def tail_rep(n):
    # --timeout: should the buffer lose events, tail never counts N.
    p = subprocess.Popen([tool, "tail", "--json", "--count", str(n), "--timeout", "300"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_enabled(p.pid)
    t0 = time.monotonic()
    log(n)
    err = p.stderr.read().decode()
    cpu = reap(p)
    if err:
        raise SystemExit("bench: tail did not read all %d: %s" % (n, err))
    return time.monotonic() - t0, cpu


def export_rep(n, work):
    count = os.path.join(work, "count")
    for f in (count, os.path.join(work, "port")):
        if os.path.exists(f):
            os.unlink(f)
    r = subprocess.Popen([sys.executable, os.path.join(src, "tests/export/otlp_receiver.py"),
                          "--proto", os.path.join(src, "proto"), "--work", work, "--count-only"])
    wait_for("the receiver starting", lambda: os.path.exists(os.path.join(work, "port")), 60)
    with open(os.path.join(work, "port")) as f:
        url = "http://127.0.0.1:" + f.read().strip()
    p = subprocess.Popen([tool, "export", "--endpoint", url, "--batch-delay", "100",
                          "--queue-size", str(2 * n)], stderr=subprocess.PIPE)
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
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    work = "/tmp/bench-export"
    os.makedirs(work, exist_ok=True)
    res = {"tail --json": [], "export": []}
    for rep in range(1, reps + 1):
        for name, fn in (("tail --json", lambda: tail_rep(n)), ("export", lambda: export_rep(n, work))):
            wall, cpu = fn()
            res[name].append((n / wall, cpu / n * 1e6))
            print("rep %d %-12s %9.0f events/s %8.2f us CPU/event" % (rep, name, n / wall, cpu / n * 1e6))
    med = {k: (statistics.median(r for r, _ in v), statistics.median(c for _, c in v))
           for k, v in res.items()}
    for k, (r, c) in med.items():
        print("median %-12s %9.0f events/s %8.2f us CPU/event" % (k, r, c))
    print("export / tail --json: %.2f x the rate, %.2f x the CPU per event" % (
        med["export"][0] / med["tail --json"][0], med["export"][1] / med["tail --json"][1]))


if __name__ == "__main__":
    main()
