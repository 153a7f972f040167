# tests/kernel: see Makefile.am
