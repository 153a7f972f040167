# tests/bridge: see Makefile.am
