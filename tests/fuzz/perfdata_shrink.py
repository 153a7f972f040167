#!/usr/bin/env python3
# perfdata_shrink.py IN OUT NSAMPLES: a perf.data (file mode) cut to the first
# NSAMPLES samples of each event, at most 2 of each other record type,
# every compressed record (they hold one zstd stream), and only the
# hostname, event-description and clock-data features.
# The samples must start with their id (PERF_SAMPLE_IDENTIFIER).
import struct, sys
src, dst, nsamples = sys.argv[1], sys.argv[2], int(sys.argv[3])
b = open(src, 'rb').read()
hs, asz, aoff, asize, doff, dsize = struct.unpack_from('<6Q', b, 8)
bm = bytearray(b[72:104])
bits = [i for i in range(256) if bm[i // 8] >> (i % 8) & 1]
at = doff + dsize
feats = {}
for bit in bits:
    o, s = struct.unpack_from('<QQ', b, at)
    at += 16
    feats[bit] = b[o:o + s]
keep = [3, 12, 29]
data = bytearray()
counts = {}
event_of = {}
for i in range(asize // asz):
    a = aoff + i * asz
    ids_at, ids_size = struct.unpack_from('<QQ', b, a + asz - 16)
    for k in range(ids_size // 8):
        event_of[struct.unpack_from('<Q', b, ids_at + 8 * k)[0]] = i
at = doff
while at < doff + dsize:
    t, m, sz = struct.unpack_from('<IHH', b, at)
    key = ('sample', event_of.get(struct.unpack_from('<Q', b, at + 8)[0])) if t == 9 else t
    n = counts.get(key, 0)
    if t in (81, 83) or n < (nsamples if t == 9 else 2):
        data += b[at:at + sz]
    counts[key] = n + 1
    at += sz
out = bytearray(b[:doff]) + data
newbm = bytearray(32)
for bit in keep:
    if bit in feats:
        newbm[bit // 8] |= 1 << (bit % 8)
sect_at = len(out)
body_at = sect_at + 16 * sum(1 for k in keep if k in feats)
table, bodies = bytearray(), bytearray()
for bit in keep:
    if bit in feats:
        table += struct.pack('<QQ', body_at + len(bodies), len(feats[bit]))
        bodies += feats[bit]
out += table + bodies
struct.pack_into('<Q', out, 48, len(data))
out[72:104] = newbm
open(dst, 'wb').write(out)
