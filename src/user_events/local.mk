# src/user_events: see Makefile.am
