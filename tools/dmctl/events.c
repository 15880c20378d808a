// SPDX-License-Identifier: GPL-2.0
/*
 * events.c -- the reader of dmcore's `events` root file. A record is a
 * header line "SEQNUM=n ACTION=a DEVPATH=p SUBSYSTEM=s", one line per
 * further variable, then a blank line; a reader that fell behind the log
 * first gets a record "MISSED=n". The file blocks when there is nothing
 * new; poll() bounds the wait (a deadline), and a regular file (a test
 * fixture) ends at its end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dmctl.h"

struct events_reader {
	int fd;
	int eof;
	char *buf;
	size_t len, size;
	char *rec;		/* the record handed out last */
};

long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

struct events_reader *events_open(const char *path)
{
	struct events_reader *r = xmalloc(sizeof(*r));

	memset(r, 0, sizeof(*r));
	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0) {
		free(r);
		return NULL;
	}
	r->size = 65536;
	r->buf = xmalloc(r->size);
	return r;
}

const char *event_var(const struct event *ev, const char *key)
{
	size_t kl = strlen(key);
	int i;

	for (i = 0; i < ev->nvars; i++)
		if (!strncmp(ev->vars[i], key, kl) && ev->vars[i][kl] == '=')
			return ev->vars[i] + kl + 1;
	return NULL;
}

static void add_var(struct event *ev, char *v)
{
	ev->vars = xrealloc(ev->vars, sizeof(char *) * (ev->nvars + 1));
	ev->vars[ev->nvars++] = v;
}

/* Parse one record (its text, NUL-terminated, without the blank line). */
static int parse_record(char *text, struct event *ev)
{
	char *line = text, *nl, *a, *p, *s;

	memset(ev, 0, sizeof(*ev));
	nl = strchr(line, '\n');
	if (nl)
		*nl = '\0';
	if (!strncmp(line, "MISSED=", 7)) {
		ev->is_missed = 1;
		ev->missed = strtoull(line + 7, NULL, 10);
		return 0;
	}
	if (strncmp(line, "SEQNUM=", 7))
		return -1;
	a = strstr(line, " ACTION=");
	p = a ? strstr(a + 1, " DEVPATH=") : NULL;
	s = NULL;
	if (p) {
		/* The last " SUBSYSTEM=": a path could hold the words. */
		char *t = p;

		while ((t = strstr(t + 1, " SUBSYSTEM=")))
			s = t;
	}
	if (!a || !p || !s)
		return -1;
	*a = '\0';
	*p = '\0';
	*s = '\0';
	ev->seqnum = strtoull(line + 7, NULL, 10);
	add_var(ev, a + 1);
	add_var(ev, p + 1);
	add_var(ev, s + 1);
	add_var(ev, line);
	ev->action = a + 8;
	ev->devpath = p + 9;
	ev->subsystem = s + 11;
	while (nl) {
		line = nl + 1;
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (*line)
			add_var(ev, line);
	}
	return 0;
}

int events_next(struct events_reader *r, struct event *ev, long long deadline_ms)
{
	struct pollfd pfd;
	char *end;
	long long left;
	ssize_t n;
	size_t rl;
	int pr;

	free(r->rec);
	r->rec = NULL;
	for (;;) {
		end = r->len ? memmem(r->buf, r->len, "\n\n", 2) : NULL;
		if (end || (r->eof && r->len)) {
			rl = end ? (size_t)(end - r->buf) + 1 : r->len;
			r->rec = xstrndup(r->buf, rl);
			if (end)
				rl++;
			memmove(r->buf, r->buf + rl, r->len - rl);
			r->len -= rl;
			if (parse_record(r->rec, ev))
				continue;	/* not a record: skipped */
			return 1;
		}
		if (r->eof)
			return 0;
		if (deadline_ms >= 0) {
			left = deadline_ms - now_ms();
			if (left <= 0)
				return -2;
			pfd.fd = r->fd;
			pfd.events = POLLIN;
			pr = poll(&pfd, 1, left > 1000000 ? 1000000 : (int)left);
			if (pr < 0 && errno != EINTR)
				return -1;
			if (pr <= 0)
				continue;
		}
		if (r->size - r->len < 4096) {
			r->size *= 2;
			r->buf = xrealloc(r->buf, r->size);
		}
		n = read(r->fd, r->buf + r->len, r->size - r->len);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -1;
		}
		if (n == 0)
			r->eof = 1;
		r->len += n;
	}
}
