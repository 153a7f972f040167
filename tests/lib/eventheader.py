# SPDX-License-Identifier: MIT
"""EventHeader events decoded for the Python checks (tests/e2e/*_check.py),
independently of the project's C decoder: header, extension blocks,
metadata, then each scalar, string or binary field's bytes.

parse(data, at) reads the event that starts at data[at] (after the
tracepoint's common fields) and returns an Event.  It raises ValueError
(or struct.error on a truncated header) for anything it cannot read.
"""
import struct
from collections import namedtuple

FLAGS_LE64_EXT = 0x07
EXT_METADATA = 1
# Encodings: fixed sizes, then the ones with a u16 length before the bytes.
VALUE8, VALUE16, VALUE32, VALUE64, STRING16, BINARY16 = 2, 3, 4, 5, 10, 13
SIZES = {VALUE8: 1, VALUE16: 2, VALUE32: 4, VALUE64: 8}
COUNTED = (STRING16, BINARY16)

# fields: (name, encoding, format byte as written, bytes) in metadata
# order; end: the offset in data just after the last field.
Event = namedtuple("Event", "flags version id tag opcode level name fields end")


def cstr(b, at):
    end = b.index(b"\0", at)
    return b[at:end], end + 1


def parse(data, at=0):
    flags, version, eid, tag, opcode, level = struct.unpack_from("<BBHHBB", data, at)
    if flags != FLAGS_LE64_EXT:
        raise ValueError(f"eventheader flags {flags:#x}")
    at, meta = at + 8, None
    while True:
        size, kind = struct.unpack_from("<HH", data, at)
        if kind & 0x7FFF == EXT_METADATA:
            meta = data[at + 4:at + 4 + size]
        at += 4 + size
        if not kind & 0x8000:
            break
    if meta is None:
        raise ValueError("no metadata block")
    name, m = cstr(meta, 0)
    fields = []
    while m < len(meta):
        fname, m = cstr(meta, m)
        enc, fmt = meta[m], 0
        m += 1
        if enc & 0x80:
            fmt = meta[m]
            m += 1
            if fmt & 0x80:
                m += 2
        enc &= 0x7F
        if enc & 0x60:
            raise ValueError(f"array field {fname!r}")
        if enc in SIZES:
            n = SIZES[enc]
            value = data[at:at + n]
            at += n
        elif enc in COUNTED:
            n, = struct.unpack_from("<H", data, at)
            value = data[at + 2:at + 2 + n]
            at += 2 + n
        else:
            raise ValueError(f"encoding {enc} of {fname!r}")
        fields.append((fname.decode(), enc, fmt, bytes(value)))
    if at > len(data):
        raise ValueError("payload past the event's end")
    return Event(flags, version, eid, tag, opcode, level, name.decode(), fields, at)


def value(enc, b):
    """A scalar field's bytes as a number (VALUE32 signed, as errno is)."""
    return int.from_bytes(b, "little", signed=(enc == VALUE32))
