# tests/cli/read.mk: tests of ehsyslog decode and tail (see src/cli/read.mk).
