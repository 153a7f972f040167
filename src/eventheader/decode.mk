# src/eventheader: the decoder, part of the wire-format convenience
# library defined in local.mk.
EH_DECODE_SOURCES = \
	src/eventheader/decode.h \
	src/eventheader/decode_event.c \
	src/eventheader/decode_out.c \
	src/eventheader/json_string.c \
	src/eventheader/decode_value.c \
	src/eventheader/decode_format.c
src_eventheader_libeventheader_la_SOURCES += $(EH_DECODE_SOURCES)
