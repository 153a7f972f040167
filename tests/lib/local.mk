# tests/lib: helpers shared by the tests of several layers, not tests
# themselves.  KERNEL_FILES: the real-kernel tests' /proc/self/fd and
# tracefs reads and writes, compiled into each program that uses them.
KERNEL_FILES = tests/lib/kernel_files.c tests/lib/kernel_files.h
