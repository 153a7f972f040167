# src/bridge: see Makefile.am
