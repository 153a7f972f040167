# tests/eventheader: see Makefile.am
