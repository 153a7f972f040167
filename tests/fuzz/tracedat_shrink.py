#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tracedat_shrink.py IN OUT: rewrites IN, a little-endian version 6
trace.dat from trace-cmd record, as a small one for the fuzz corpus:
no ftrace formats, kallsyms or printk formats, only the user_events
event system, no CPU statistics, and only the CPU data pages that hold
events.  Made once, by hand (tests/fuzz/corpus/tracedat/README); make
check does not run it.  Version 7 seeds: trace-cmd convert of the result."""
import struct
import sys


def main():
    d = open(sys.argv[1], 'rb').read()
    i = 10
    assert d[:i] == b'\x17\x08\x44tracing' and d[i:i + 2] == b'6\0', 'not a v6 trace.dat'
    i += 2
    assert d[i] == 0, 'big-endian'
    long_size = d[i + 1]
    page_size, = struct.unpack_from('<I', d, i + 2)
    i += 6
    head = bytearray(d[:i])

    def sized(width):
        nonlocal i
        n, = struct.unpack_from('<I' if width == 4 else '<Q', d, i)
        blob = d[i:i + width + n]
        i += width + n
        return blob

    for name in (b'header_page\0', b'header_event\0'):
        assert d[i:i + len(name)] == name
        i += len(name)
        head += name + sized(8)
    n, = struct.unpack_from('<I', d, i)
    i += 4
    for _ in range(n):
        sized(8)
    head += struct.pack('<I', 0)
    nsys, = struct.unpack_from('<I', d, i)
    i += 4
    keep = []
    for _ in range(nsys):
        end = d.index(b'\0', i)
        name = d[i:end + 1]
        i = end + 1
        n, = struct.unpack_from('<I', d, i)
        i += 4
        files = [sized(8) for _ in range(n)]
        if name == b'user_events\0':
            keep.append(name + struct.pack('<I', n) + b''.join(files))
    head += struct.pack('<I', len(keep)) + b''.join(keep)
    sized(4)
    sized(4)
    head += struct.pack('<II', 0, 0)
    head += sized(8)  # command lines
    cpus, = struct.unpack_from('<I', d, i)
    i += 4
    head += struct.pack('<I', cpus)
    has_clock = False
    if d[i:i + 10] == b'options  \0':
        head += d[i:i + 10]
        i += 10
        while True:
            oid, = struct.unpack_from('<H', d, i)
            if oid == 0:
                head += d[i:i + 2]
                i += 2
                break
            size, = struct.unpack_from('<I', d, i + 2)
            has_clock = has_clock or oid == 4  # TRACECLOCK: its text follows the CPU list
            if oid != 2:  # CPUSTAT: text nobody reads here
                head += d[i:i + 6 + size]
            i += 6 + size
    assert d[i:i + 10] == b'flyrecord\0', 'not a flyrecord trace'
    i += 10
    head += b'flyrecord\0'
    cpu_pages = []
    for cpu in range(cpus):
        off, size = struct.unpack_from('<QQ', d, i)
        i += 16
        pages = [d[p:p + page_size] for p in range(off, off + size, page_size)]
        # commit (a long after the u64 time stamp) is 0 on an empty page
        commit = lambda pg: int.from_bytes(pg[8:8 + long_size], 'little') & ((1 << 27) - 1)
        cpu_pages.append([pg for pg in pages if commit(pg)])
    clock = sized(8) if has_clock else b''
    at = len(head) + 16 * cpus + len(clock)
    at = (at + page_size - 1) // page_size * page_size
    table, data = b'', b''
    for pages in cpu_pages:
        size = page_size * len(pages)
        table += struct.pack('<QQ', at if size else 0, size)
        data += b''.join(pages)
        at += size
    out = bytes(head) + table + clock
    out += b'\0' * (-len(out) % page_size) + data
    open(sys.argv[2], 'wb').write(out)


main()
