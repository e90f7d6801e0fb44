/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Names from outside (host, NIC, switch, group names; fabric addresses):
 * MPI's processor names, Slurm's node name, --topology and --baseline
 * files. Every output carries them (text, CSV, OpenMetrics, JSON, the
 * HTML report), each escaping what its format needs; a name no output
 * can carry as it is, is refused where it comes in (docs/security.md):
 *
 *   empty; longer than its field; not UTF-8 (also overlong forms and
 *   UTF-16 surrogates); a control character (U+0000-U+001F, U+007F,
 *   U+0080-U+009F); a line or paragraph separator (U+2028, U+2029); a
 *   bidirectional embedding, override or isolate (U+202A-U+202E,
 *   U+2066-U+2069), which make a line read otherwise than it is.
 *
 * Markup, quotes, backslashes, commas, spaces, '%' and all other
 * printable text are names like any other. cxi_archive applies the same
 * rule to documents (tools/cxi_archive_db.py, name_problem).
 */
#ifndef CXD_BASE_NAMES_H
#define CXD_BASE_NAMES_H

#include <stddef.h>

/* The room every name field has (struct cxd_sweep_rank's host, the
 * topology's names): 255 bytes and the NUL. */
#define CXD_NAME_MAX 255

/* 0 when name can be carried (at most max bytes); else -EINVAL and why
 * in words ("a control character (0x1b) at byte 4"). */
int cxd_name_check(const char *name, size_t max, char *why, size_t len);

/* name as a message shows it, whatever its bytes: printable ASCII and
 * valid UTF-8 that the rule allows as they are, every other byte as
 * \xHH, a backslash doubled; longer than about 48 bytes: its head, "...",
 * and its length. */
void cxd_name_show(const char *name, char *out, size_t len);

/* A message (len bytes of room) made safe to print whatever it quotes:
 * each byte the rule refuses (a control, a stray byte) as \xHH, the
 * rest as it is; cut to fit. For the readers' errors, which may quote
 * a file's text as they found it. */
void cxd_name_sanitize(char *msg, size_t len);

/* Shown name buffers: room for 48 bytes written as \xHH and the tail. */
#define CXD_NAME_SHOW_LEN 256

#endif
