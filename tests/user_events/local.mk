# tests/user_events: see Makefile.am
