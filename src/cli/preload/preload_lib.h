/* SPDX-License-Identifier: MIT */
#ifndef CLI_PRELOAD_LIB_H
#define CLI_PRELOAD_LIB_H

/*
 * Checks that lib may go into /etc/ld.so.preload, where a broken entry
 * makes every program on the machine print an error and a writable one
 * lets its owner run code in every process: an absolute path to a regular
 * file owned by root and not writable by group or others, in directories
 * that are root-owned and not writable by group or others (sticky ones
 * included), both along the path as given and along its real path, and
 * that ld.so preloads into /bin/true without a word.
 * Returns 0, or prints cmd's error and returns an exit code.
 */
int preload_lib_verify(const char *cmd, const char *lib);

#endif /* CLI_PRELOAD_LIB_H */
