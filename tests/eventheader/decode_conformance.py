#!/usr/bin/env python3
# Compares our decoder's JSON (one object per line, in record order) with
# Microsoft perf-decode's JSON for the same EventHeaderInterceptorLE64.dat,
# by parsed value: field names in order (duplicates kept), values, meta.
# Prints every difference; exits 1 unless each one is on the allow-list.
import json
import sys

# Known differences, each with its reason.  Key: (event "n", field name).
ALLOWED = {}
for prov in ("TestProviderC", "TestProviderCpp"):
    # UTF-32 values past U+10FFFF have no UTF-8 form.  perf-decode writes
    # them as obsolete 6- and 7-byte sequences (bytes FD/FE..., invalid
    # UTF-8, so its file is not valid JSON text); we write U+FFFD so our
    # output stays valid UTF-8.
    ALLOWED[(prov + ":u32ch", "FFFEFDFC")] = "code point > U+10FFFF: we print U+FFFD"
    ALLOWED[(prov + ":wch", "0x7fffffff")] = "code point > U+10FFFF: we print U+FFFD"


def pairs(items):
    return list(items)


def load_peer(path):
    raw = open(path, "rb").read()
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    # Not all of it is UTF-8: keep stray bytes as lone surrogates.
    text = raw.decode("utf-8", errors="surrogateescape")
    doc = json.loads("{" + text + "}", object_pairs_hook=pairs)
    return doc[0][1]


def diff(path, ours, peer, out):
    if isinstance(ours, list) and isinstance(peer, list):
        op = ours and isinstance(ours[0], tuple)
        pp = peer and isinstance(peer[0], tuple)
        if op or pp:  # objects: compare keys in order
            ok = [k for k, _ in ours] if op else []
            pk = [k for k, _ in peer] if pp else []
            if ok != pk:
                out.append((path, "keys %r != peer %r" % (ok, pk)))
                return
            for (k, a), (_, b) in zip(ours, peer):
                diff(path + [k], a, b, out)
            return
        if len(ours) != len(peer):
            out.append((path, "array length %d != peer %d" % (len(ours), len(peer))))
            return
        for i, (a, b) in enumerate(zip(ours, peer)):
            diff(path + [i], a, b, out)
        return
    if type(ours) != type(peer) or ours != peer:
        out.append((path, "%r != peer %r" % (ours, peer)))


def main():
    ours_path, peer_path = sys.argv[1], sys.argv[2]
    peer = load_peer(peer_path)
    ours = []
    with open(ours_path, "rb") as f:
        for line in f:
            ours.append(json.loads(line.decode("utf-8"), object_pairs_hook=pairs))
    failures = allowed = 0
    if len(ours) != len(peer):
        print("event count %d != peer %d" % (len(ours), len(peer)))
        failures += 1
    for i, (a, b) in enumerate(zip(ours, peer)):
        name = dict(b).get("n", "?")
        found = []
        diff([], a, b, found)
        for path, what in found:
            key = (name, path[0] if path else None)
            if key in ALLOWED and len(path) == 1 and dict(a).get(path[0]) == "\ufffd":
                allowed += 1
                print("allowed: event %d %s %s: %s (%s)" % (i, name, path, what, ALLOWED[key]))
            else:
                failures += 1
                print("DIFF: event %d %s %s: %s" % (i, name, path, what))
    print("%d events compared, %d differences, %d allowed" % (len(peer), failures, allowed))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
