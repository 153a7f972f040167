# src/eventheader: the decoder (see Makefile.am).
#
# TEMPORARY until the builder branch is merged: the convenience library
# src/eventheader/libeventheader.la is defined by the builder's local.mk,
# which this branch does not have.  At merge, replace this block by
#   src_eventheader_libeventheader_la_SOURCES += $(EH_DECODE_SOURCES)
# and link the decoder tests against that library instead (see
# tests/eventheader/decode.mk).
EH_DECODE_SOURCES = \
	src/eventheader/decode.h \
	src/eventheader/decode_event.c \
	src/eventheader/decode_out.c \
	src/eventheader/decode_value.c \
	src/eventheader/decode_format.c
