# preload: see Makefile.am
