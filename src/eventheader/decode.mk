# src/eventheader: see Makefile.am
