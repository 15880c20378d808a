// SPDX-License-Identifier: GPL-2.0
/*
 * json.c -- dmctl's JSON writer: objects and arrays nested to a fixed
 * depth, two-space indentation, strings escaped as RFC 8259 requires
 * (quote, backslash, control characters as \uXXXX; bytes >= 0x80 that
 * are not valid UTF-8 as \u00XX of the byte, so the output stays valid).
 */
#include <stdlib.h>
#include <string.h>

#include "dmctl.h"

#define J_DEPTH 64

int j_compact;
static int depth;
static int count[J_DEPTH];	/* members written at each level */
static char closer[J_DEPTH];

static void indent(void)
{
	int i;

	if (j_compact) {
		if (count[depth] > 1)
			putchar(' ');
		return;
	}
	putchar('\n');
	for (i = 0; i < depth; i++)
		fputs("  ", stdout);
}

/* A UTF-8 sequence's length at s, or 0 when it is not valid. */
static int utf8_len(const unsigned char *s)
{
	int n, i;
	unsigned int c = s[0], cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

void j_escape(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	int n;

	fputc('"', f);
	while (*s) {
		if (*s == '"' || *s == '\\') {
			fputc('\\', f);
			fputc(*s++, f);
		} else if (*s == '\n') {
			fputs("\\n", f);
			s++;
		} else if (*s == '\t') {
			fputs("\\t", f);
			s++;
		} else if (*s < 0x20 || *s == 0x7f) {
			fprintf(f, "\\u%04x", *s++);
		} else if (*s < 0x80) {
			fputc(*s++, f);
		} else {
			n = utf8_len(s);
			if (n > 0) {
				fwrite(s, 1, n, f);
				s += n;
			} else {
				fprintf(f, "\\u%04x", *s++);
			}
		}
	}
	fputc('"', f);
}

static void member(const char *key)
{
	if (depth > 0) {
		if (count[depth])
			putchar(',');
		count[depth]++;
		indent();
	}
	if (key) {
		j_escape(stdout, key);
		fputs(": ", stdout);
	}
}

static void open_(const char *key, char o, char c)
{
	member(key);
	putchar(o);
	if (depth + 1 >= J_DEPTH)
		fail("JSON nested too deep");
	depth++;
	count[depth] = 0;
	closer[depth] = c;
}

void j_obj(const char *key)
{
	open_(key, '{', '}');
}

void j_arr(const char *key)
{
	open_(key, '[', ']');
}

void j_end(void)
{
	int had = count[depth];
	char c = closer[depth];

	depth--;
	if (had && !j_compact)
		indent();
	putchar(c);
}

void j_raw_str(const char *key, const char *val)
{
	member(key);
	if (!val)
		fputs("null", stdout);
	else
		j_escape(stdout, val);
}

void j_str(const char *key, const char *val)
{
	j_raw_str(key, val != dmctl_none ? val : NULL);
}

void j_num(const char *key, long long val)
{
	member(key);
	printf("%lld", val);
}

void j_unum(const char *key, unsigned long long val)
{
	member(key);
	printf("%llu", val);
}

void j_dbl(const char *key, double val)
{
	member(key);
	printf("%.3f", val);
}

void j_bool(const char *key, int val)
{
	member(key);
	fputs(val ? "true" : "false", stdout);
}

void j_null(const char *key)
{
	member(key);
	fputs("null", stdout);
}

void j_done(void)
{
	putchar('\n');
	fflush(stdout);
}
