#!/usr/bin/env python3
"""What the output stream tests have a service print: journal_service.py
TAG writes lines starting with TAG to standard output and error in the
ways programs do (buffered, flushed, a line in two writes, two lines in
one, a NUL, a line over journald's LineMax, "<N>" prefixes, empty
lines, a last line left unfinished).  journal_lib.sh's service_entries TAG spells out the entries
journald makes of them."""
import os, sys
tag = sys.argv[1]
print(tag, "buffered one")
print(tag, "buffered two")
sys.stdout.flush()
print(tag, "unbuffered", flush=True)
print("<3>" + tag, "an error", flush=True)
print("<7>" + tag, "debug", flush=True)
print("<006>" + tag, "zero-padded info", flush=True)
print("<9>" + tag, "not a prefix", flush=True)
print("<3>", flush=True)
print("", flush=True)
sys.stdout.write(tag + " started here, ")
sys.stdout.flush()
sys.stdout.write("finished later\n")
sys.stdout.flush()
os.write(1, (tag + " two lines\n" + tag + " in one write\n").encode())
os.write(1, (tag + " cut at a NUL\0" + tag + " after it\n").encode())
head = tag + " long "
os.write(1, (head + "x" * (49152 - len(head)) + tag + " past LineMax\n").encode())
sys.stderr.write("<4>" + tag + " on stderr\n")
sys.stderr.flush()
# The last line unfinished: journald ends it at the stream's end.
sys.stdout.write(tag + " end")
sys.stdout.flush()
