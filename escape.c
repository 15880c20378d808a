// SPDX-License-Identifier: GPL-2.0
/*
 * Names and free text in the root's line-oriented files (stats, the
 * snapshot file): escaped so that a value is one word, as
 * docs/snapshot.md says. No Linux counterpart of its own (udev encodes
 * names the same way; lib/string_helpers.c's string_escape_mem() has no
 * mode for exactly this set).
 */

#include <linux/kernel.h>
#include <linux/seq_file.h>

#include "base.h"

/**
 * dmc_seq_escape() - print a name or text as one escaped word
 * @m: the seq_file
 * @s: the string; NULL or "" prints "-" (docs/snapshot.md's "none")
 *
 * Every byte below 0x21 or above 0x7e, and '\\', is printed as "\\xHH"
 * (two lowercase hex digits); the rest as is. So the word holds no space,
 * newline or control character; and "-" alone always means "none": a
 * name that is just "-" (control and the core allow it) is "\\x2d".
 *
 * Context: any in which @m may be written.
 */
void dmc_seq_escape(struct seq_file *m, const char *s)
{
	unsigned char c;

	if (!s || !*s) {
		seq_putc(m, '-');
		return;
	}
	if (!strcmp(s, "-")) {		/* a name "-", not "none" */
		seq_puts(m, "\\x2d");
		return;
	}
	for (; (c = *s); s++) {
		if (c < 0x21 || c > 0x7e || c == '\\') {
			seq_putc(m, '\\');
			seq_putc(m, 'x');
			seq_putc(m, hex_asc_hi(c));
			seq_putc(m, hex_asc_lo(c));
		} else {
			seq_putc(m, c);
		}
	}
}
