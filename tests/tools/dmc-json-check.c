// SPDX-License-Identifier: GPL-2.0
/*
 * dmc-json-check -- a strict JSON (RFC 8259) validator for dmctl's tests,
 * with a tiny path language so tests compare numbers, not text by eye.
 *
 *   dmc-json-check [--lines] [--graph] [-f FILE] [EXPR]...
 *
 * Reads FILE (default stdin), which must be one JSON value (--lines: one
 * per non-empty line, each checked), and prints each EXPR's value on its
 * own line: a string raw, a number, true/false/null as written, an object
 * or array as its text. EXPR: "." the value; ".key" a member; "[N]" an
 * element; chained (".nodes[0].id"); a final "|length" gives the number
 * of elements, members, or a string's bytes.
 * --graph: the value is `dmctl graph --json`: node ids are unique, every
 * edge's from and to name a node, node_count and edge_count equal the
 * lengths of nodes and edges.
 * Exit status: 0 valid (and every EXPR found, every check passed), 1 not,
 * with one line on stderr saying where; 2 usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jv {
	int type;
	const char *start, *end;	/* the value's text */
	char *str;			/* J_STR: decoded */
	size_t slen;
	int n;				/* J_ARR/J_OBJ: elements */
	struct jv **items;
	char **keys;			/* J_OBJ */
};

static const char *src, *pos, *err_msg;
static int line_no;

static int fail_at(const char *msg)
{
	if (!err_msg)
		err_msg = msg;
	return -1;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fprintf(stderr, "dmc-json-check: out of memory\n");
		exit(2);
	}
	return p;
}

static void ws(void)
{
	while (*pos == ' ' || *pos == '\t' || *pos == '\n' || *pos == '\r')
		pos++;
}

static struct jv *parse_value(int depth);

static int hex4(const char *p, unsigned int *v)
{
	int i;

	*v = 0;
	for (i = 0; i < 4; i++) {
		char c = p[i];

		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			*v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			*v |= c - 'A' + 10;
		else
			return -1;
	}
	return 0;
}

static void put_utf8(char *out, size_t *o, unsigned int cp)
{
	if (cp < 0x80) {
		out[(*o)++] = cp;
	} else if (cp < 0x800) {
		out[(*o)++] = 0xc0 | (cp >> 6);
		out[(*o)++] = 0x80 | (cp & 0x3f);
	} else if (cp < 0x10000) {
		out[(*o)++] = 0xe0 | (cp >> 12);
		out[(*o)++] = 0x80 | ((cp >> 6) & 0x3f);
		out[(*o)++] = 0x80 | (cp & 0x3f);
	} else {
		out[(*o)++] = 0xf0 | (cp >> 18);
		out[(*o)++] = 0x80 | ((cp >> 12) & 0x3f);
		out[(*o)++] = 0x80 | ((cp >> 6) & 0x3f);
		out[(*o)++] = 0x80 | (cp & 0x3f);
	}
}

/* A valid UTF-8 sequence's length at p, 0 if invalid. */
static int utf8_len(const unsigned char *s)
{
	unsigned int c = s[0], cp;
	int n, i;

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

static int parse_string(char **out, size_t *len)
{
	const char *p = pos + 1;
	size_t cap = 64, o = 0;
	char *buf = xmalloc(cap);
	unsigned int cp, lo;
	int n;

	for (;;) {
		if (o + 8 > cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				exit(2);
		}
		unsigned char c = *p;

		if (c == '"')
			break;
		if (c == '\0')
			return fail_at("unterminated string");
		if (c < 0x20)
			return fail_at("control character in a string");
		if (c == '\\') {
			p++;
			switch (*p) {
			case '"':
			case '\\':
			case '/':
				buf[o++] = *p;
				break;
			case 'b':
				buf[o++] = '\b';
				break;
			case 'f':
				buf[o++] = '\f';
				break;
			case 'n':
				buf[o++] = '\n';
				break;
			case 'r':
				buf[o++] = '\r';
				break;
			case 't':
				buf[o++] = '\t';
				break;
			case 'u':
				if (hex4(p + 1, &cp))
					return fail_at("bad \\u escape");
				p += 4;
				if (cp >= 0xd800 && cp <= 0xdbff) {
					if (p[1] != '\\' || p[2] != 'u' || hex4(p + 3, &lo) ||
					    lo < 0xdc00 || lo > 0xdfff)
						return fail_at("lone high surrogate");
					cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
					p += 6;
				} else if (cp >= 0xdc00 && cp <= 0xdfff) {
					return fail_at("lone low surrogate");
				}
				put_utf8(buf, &o, cp);
				break;
			default:
				return fail_at("bad escape in a string");
			}
			p++;
			continue;
		}
		if (c < 0x80) {
			buf[o++] = c;
			p++;
			continue;
		}
		n = utf8_len((const unsigned char *)p);
		if (!n)
			return fail_at("invalid UTF-8 in a string");
		memcpy(buf + o, p, n);
		o += n;
		p += n;
	}
	buf[o] = '\0';
	*out = buf;
	*len = o;
	pos = p + 1;
	return 0;
}

static int parse_number(void)
{
	const char *p = pos;

	if (*p == '-')
		p++;
	if (*p == '0') {
		p++;
	} else if (*p >= '1' && *p <= '9') {
		while (*p >= '0' && *p <= '9')
			p++;
	} else {
		return fail_at("bad number");
	}
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return fail_at("bad number: no digit after '.'");
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (*p < '0' || *p > '9')
			return fail_at("bad number: no digit in the exponent");
		while (*p >= '0' && *p <= '9')
			p++;
	}
	pos = p;
	return 0;
}

static struct jv *parse_value(int depth)
{
	struct jv *v = xmalloc(sizeof(*v));
	char *key;
	size_t kl;

	memset(v, 0, sizeof(*v));
	if (depth > 512) {
		fail_at("nested too deep");
		return NULL;
	}
	ws();
	v->start = pos;
	if (*pos == '{' || *pos == '[') {
		int obj = *pos == '{';

		v->type = obj ? J_OBJ : J_ARR;
		pos++;
		ws();
		if (*pos == (obj ? '}' : ']')) {
			pos++;
			v->end = pos;
			return v;
		}
		for (;;) {
			ws();
			key = NULL;
			if (obj) {
				if (*pos != '"') {
					fail_at("an object key is not a string");
					return NULL;
				}
				if (parse_string(&key, &kl))
					return NULL;
				ws();
				if (*pos != ':') {
					fail_at("no ':' after an object key");
					return NULL;
				}
				pos++;
			}
			struct jv *e = parse_value(depth + 1);

			if (!e)
				return NULL;
			v->items = realloc(v->items, sizeof(*v->items) * (v->n + 1));
			v->keys = realloc(v->keys, sizeof(*v->keys) * (v->n + 1));
			if (!v->items || !v->keys)
				exit(2);
			v->items[v->n] = e;
			v->keys[v->n] = key;
			v->n++;
			ws();
			if (*pos == ',') {
				pos++;
				ws();
				if (*pos == '}' || *pos == ']') {
					fail_at("a trailing comma");
					return NULL;
				}
				continue;
			}
			if (*pos == (obj ? '}' : ']')) {
				pos++;
				break;
			}
			fail_at(obj ? "no ',' or '}' in an object" : "no ',' or ']' in an array");
			return NULL;
		}
	} else if (*pos == '"') {
		v->type = J_STR;
		if (parse_string(&v->str, &v->slen))
			return NULL;
	} else if (!strncmp(pos, "true", 4) || !strncmp(pos, "null", 4)) {
		v->type = *pos == 't' ? J_BOOL : J_NULL;
		pos += 4;
	} else if (!strncmp(pos, "false", 5)) {
		v->type = J_BOOL;
		pos += 5;
	} else if (*pos == '-' || (*pos >= '0' && *pos <= '9')) {
		v->type = J_NUM;
		if (parse_number())
			return NULL;
	} else {
		fail_at(*pos ? "an unexpected character" : "unexpected end of input");
		return NULL;
	}
	v->end = pos;
	return v;
}

/* One document in [text, text+len): NULL and a message on error. */
static struct jv *parse_doc(const char *text)
{
	struct jv *v;

	src = text;
	pos = text;
	err_msg = NULL;
	v = parse_value(0);
	if (v) {
		ws();
		if (*pos) {
			fail_at("text after the value");
			v = NULL;
		}
	}
	if (!v) {
		int l = 1, c = 1;
		const char *p;

		for (p = src; p < pos; p++) {
			if (*p == '\n') {
				l++;
				c = 1;
			} else {
				c++;
			}
		}
		fprintf(stderr, "dmc-json-check: invalid JSON at line %d, column %d: %s\n",
			line_no ? line_no : l, c, err_msg ? err_msg : "?");
	}
	return v;
}

static struct jv *member(const struct jv *v, const char *key)
{
	int i;

	if (!v || v->type != J_OBJ)
		return NULL;
	for (i = 0; i < v->n; i++)
		if (!strcmp(v->keys[i], key))
			return v->items[i];
	return NULL;
}

/* Evaluate EXPR; prints the result; 0 or -1 (not found). */
static int eval(const struct jv *v, const char *expr)
{
	const char *p = expr;
	char key[1024];
	size_t kl;
	int length = 0;
	char *bar = strstr(expr, "|length");

	if (bar && !strcmp(bar, "|length"))
		length = 1;
	if (*p == '.' && (p[1] == '\0' || p[1] == '|'))
		p++;
	while (*p && *p != '|') {
		if (*p == '.') {
			p++;
			kl = strcspn(p, ".[|");
			if (!kl || kl >= sizeof(key))
				return -1;
			memcpy(key, p, kl);
			key[kl] = '\0';
			p += kl;
			v = member(v, key);
		} else if (*p == '[') {
			char *end;
			long i = strtol(p + 1, &end, 10);

			if (*end != ']' || !v || v->type != J_ARR || i < 0 || i >= v->n)
				return -1;
			v = v->items[i];
			p = end + 1;
		} else {
			return -1;
		}
		if (!v)
			return -1;
	}
	if (*p && !length)
		return -1;
	if (length) {
		if (v->type == J_ARR || v->type == J_OBJ)
			printf("%d\n", v->n);
		else if (v->type == J_STR)
			printf("%zu\n", v->slen);
		else
			return -1;
	} else if (v->type == J_STR) {
		printf("%s\n", v->str);
	} else {
		printf("%.*s\n", (int)(v->end - v->start), v->start);
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int has_id(char **ids, int n, const char *id)
{
	return !!bsearch(&id, ids, n, sizeof(char *), cmp_str);
}

static int check_graph(const struct jv *g)
{
	const struct jv *nodes = member(g, "nodes"), *edges = member(g, "edges");
	const struct jv *nc = member(g, "node_count"), *ec = member(g, "edge_count");
	const struct jv *id, *from, *to;
	char **ids;
	int i;

	if (!nodes || nodes->type != J_ARR || !edges || edges->type != J_ARR) {
		fprintf(stderr, "dmc-json-check: graph: no nodes or edges array\n");
		return -1;
	}
	if (!nc || nc->type != J_NUM || atol(nc->start) != nodes->n ||
	    !ec || ec->type != J_NUM || atol(ec->start) != edges->n) {
		fprintf(stderr,
			"dmc-json-check: graph: node_count/edge_count (%ld/%ld) are not the lengths of nodes and edges (%d/%d)\n",
			nc ? atol(nc->start) : -1, ec ? atol(ec->start) : -1, nodes->n, edges->n);
		return -1;
	}
	ids = xmalloc(sizeof(char *) * (nodes->n + 1));
	for (i = 0; i < nodes->n; i++) {
		id = member(nodes->items[i], "id");
		if (!id || id->type != J_STR) {
			fprintf(stderr, "dmc-json-check: graph: node %d has no string id\n", i);
			return -1;
		}
		ids[i] = id->str;
	}
	qsort(ids, nodes->n, sizeof(char *), cmp_str);
	for (i = 1; i < nodes->n; i++) {
		if (!strcmp(ids[i - 1], ids[i])) {
			fprintf(stderr, "dmc-json-check: graph: node id %s twice\n", ids[i]);
			return -1;
		}
	}
	for (i = 0; i < edges->n; i++) {
		from = member(edges->items[i], "from");
		to = member(edges->items[i], "to");
		if (!from || from->type != J_STR || !to || to->type != J_STR) {
			fprintf(stderr, "dmc-json-check: graph: edge %d has no from/to\n", i);
			return -1;
		}
		if (!has_id(ids, nodes->n, from->str) || !has_id(ids, nodes->n, to->str)) {
			fprintf(stderr,
				"dmc-json-check: graph: edge %d (%s -> %s) names a node that is not there\n",
				i, from->str, to->str);
			return -1;
		}
	}
	free(ids);
	return 0;
}

static char *read_all(FILE *f, size_t *len)
{
	size_t cap = 65536, n = 0, r;
	char *buf = xmalloc(cap);

	while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (cap - n < 4096) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				exit(2);
		}
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

static int one(const char *text, char **exprs, int nexprs, int graph)
{
	struct jv *v = parse_doc(text);
	int i, rc = 0;

	if (!v)
		return 1;
	if (graph && check_graph(v))
		rc = 1;
	for (i = 0; i < nexprs; i++) {
		if (eval(v, exprs[i])) {
			fprintf(stderr, "dmc-json-check: %s: not found\n", exprs[i]);
			rc = 1;
		}
	}
	return rc;
}

int main(int argc, char **argv)
{
	const char *file = NULL;
	int lines = 0, graph = 0, nexprs = 0, i, rc = 0, ndocs = 0;
	char **exprs = xmalloc(sizeof(char *) * argc), *text, *l, *nl;
	size_t len;
	FILE *f = stdin;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--lines")) {
			lines = 1;
		} else if (!strcmp(argv[i], "--graph")) {
			graph = 1;
		} else if (!strcmp(argv[i], "-f") && i + 1 < argc) {
			file = argv[++i];
		} else if (argv[i][0] == '.' || argv[i][0] == '[') {
			exprs[nexprs++] = argv[i];
		} else {
			fprintf(stderr,
				"usage: dmc-json-check [--lines] [--graph] [-f FILE] [EXPR]...\n");
			return 2;
		}
	}
	if (file) {
		f = fopen(file, "r");
		if (!f) {
			fprintf(stderr, "dmc-json-check: %s: %s\n", file, strerror(errno));
			return 1;
		}
	}
	text = read_all(f, &len);
	if (strlen(text) != len) {
		fprintf(stderr, "dmc-json-check: a NUL byte in the input\n");
		return 1;
	}
	if (!lines)
		return one(text, exprs, nexprs, graph);
	for (l = text, line_no = 1; *l; l = nl, line_no++) {
		nl = strchr(l, '\n');
		if (nl)
			*nl++ = '\0';
		else
			nl = l + strlen(l);
		if (!*l)
			continue;
		ndocs++;
		rc |= one(l, exprs, nexprs, graph);
	}
	if (!ndocs) {
		fprintf(stderr, "dmc-json-check: no JSON document in the input\n");
		return 1;
	}
	return rc;
}
