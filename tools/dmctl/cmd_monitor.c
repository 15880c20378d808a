// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_monitor.c -- dmctl monitor: the events of the model as they come,
 * as `udevadm monitor` prints the kernel's:
 *     DMCORE [SEQNUM] ACTION DEVPATH (SUBSYSTEM)
 * By default from "now" on (the stats file's last_seqnum, or the
 * snapshot's seqnum, when the command starts); --seqnum N from N.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dmctl.h"

void help_monitor(void)
{
	static const char text[] =
"usage: dmctl monitor [--subsystem-match SUBSYSTEM[/DEVTYPE]]... [--action ACTION]...\n"
"                     [--property] [--seqnum N] [--count N] [--timeout SEC] [--json]\n"
"\n"
"Print the events of the events file as they come, one line each:\n"
"  DMCORE [SEQNUM] ACTION DEVPATH (SUBSYSTEM)\n"
"  --subsystem-match S   only events of subsystem S (S/T: and DEVTYPE T)\n"
"  --action A            only events with ACTION A (add, remove, bind, ...)\n"
"                        Each filter may repeat: an event passes when it\n"
"                        matches one value of each kind given.\n"
"  --property            print every variable of the event too, KEY=VALUE,\n"
"                        then a blank line\n"
"  --seqnum N            start at SEQNUM N instead of now (the last SEQNUM\n"
"                        the stats file names when dmctl starts); when the\n"
"                        log no longer has N, a line 'MISSED n (seqnum A..B)'\n"
"                        says how many events are lost\n"
"  --count N             stop after N events printed\n"
"  --timeout SEC         stop after SEC seconds (exit 0)\n"
"  --json                one JSON object per line and event:\n"
"                        {seqnum, action, devpath, subsystem, properties}\n"
"Without --count or --timeout it runs until interrupted. Output is flushed\n"
"after every event.\n";

	fputs(text, stdout);
}

static char **subs, **acts;
static int nsubs, nacts;

static void push(char ***arr, int *n, const char *v)
{
	*arr = xrealloc(*arr, sizeof(char *) * (*n + 1));
	(*arr)[(*n)++] = xstrdup(v);
}

static int passes(const struct event *ev)
{
	const char *devtype, *slash;
	int i, ok;

	if (nacts) {
		for (ok = 0, i = 0; i < nacts && !ok; i++)
			ok = !strcmp(acts[i], ev->action);
		if (!ok)
			return 0;
	}
	if (nsubs) {
		devtype = event_var(ev, "DEVTYPE");
		for (ok = 0, i = 0; i < nsubs && !ok; i++) {
			slash = strchr(subs[i], '/');
			if (!slash) {
				ok = !strcmp(subs[i], ev->subsystem);
				continue;
			}
			ok = strlen(ev->subsystem) == (size_t)(slash - subs[i]) &&
			     !strncmp(subs[i], ev->subsystem, slash - subs[i]) &&
			     devtype && !strcmp(devtype, slash + 1);
		}
		if (!ok)
			return 0;
	}
	return 1;
}

/* The last SEQNUM sent: stats' last_seqnum, else the snapshot's. */
static unsigned long long start_seqnum(void)
{
	char *path = root_path("stats"), *text, *p;
	struct snapshot *s;

	text = read_file(path, NULL);
	if (text) {
		static const char key[] = "last_seqnum ";

		p = strstr(text, key);
		if (p && (p == text || p[-1] == '\n'))
			return strtoull(p + strlen(key), NULL, 10);
	}
	s = snapshot_load();
	if (!s->has_seqnum)
		fail("%s/snapshot: no seqnum record", g_root);
	return s->seqnum;
}

static const char *optarg_of(int argc, char **argv, int *i, const char *name)
{
	size_t l = strlen(name);
	const char *a = argv[*i];

	if (!strncmp(a, name, l) && a[l] == '=') {
		(*i)++;
		return a + l + 1;
	}
	if (strcmp(a, name))
		return NULL;
	if (*i + 1 >= argc)
		usage_error("monitor: option %s needs an argument", name);
	*i += 2;
	return argv[*i - 1];
}

static void report_missed(unsigned long long n, unsigned long long a,
			  unsigned long long b)
{
	if (g_json) {
		j_obj(NULL);
		j_unum("missed", n);
		j_unum("first", a);
		j_unum("last", b);
		j_end();
		j_done();
	} else {
		printf("MISSED %llu (seqnum %llu..%llu are no longer in the event log)\n", n, a, b);
		fflush(stdout);
	}
}

int cmd_monitor(int argc, char **argv)
{
	unsigned long long from = 0, count = 0, printed = 0, pos = 1, lo;
	long long deadline = -1, timeout = -1;
	int i, n, property = 0, have_from = 0, rc, k;
	struct events_reader *r;
	const char *v;
	struct event ev;
	char *path;

	for (i = 1; i < argc; ) {
		n = common_option(argc, argv, i, help_monitor);
		if (n) {
			i += n;
			continue;
		}
		v = optarg_of(argc, argv, &i, "--subsystem-match");
		if (v) {
			if (!*v)
				usage_error("monitor: empty --subsystem-match");
			push(&subs, &nsubs, v);
			continue;
		}
		v = optarg_of(argc, argv, &i, "--action");
		if (v) {
			if (!*v)
				usage_error("monitor: empty --action");
			push(&acts, &nacts, v);
			continue;
		}
		v = optarg_of(argc, argv, &i, "--seqnum");
		if (v) {
			from = parse_number("--seqnum", v);
			have_from = 1;
			continue;
		}
		v = optarg_of(argc, argv, &i, "--count");
		if (v) {
			count = parse_number("--count", v);
			if (!count)
				usage_error("monitor: --count must be at least 1");
			continue;
		}
		v = optarg_of(argc, argv, &i, "--timeout");
		if (v) {
			timeout = parse_number("--timeout", v);
			continue;
		}
		if (!strcmp(argv[i], "--property") || !strcmp(argv[i], "-p")) {
			property = 1;
			i++;
			continue;
		}
		if (argv[i][0] == '-')
			usage_error("monitor: unknown option '%s'", argv[i]);
		usage_error("monitor: unexpected argument '%s'", argv[i]);
	}
	if (!have_from)
		from = start_seqnum() + 1;
	path = root_path("events");
	r = events_open(path);
	if (!r)
		fail("cannot open %s: %s", path, strerror(errno));
	if (timeout >= 0)
		deadline = now_ms() + timeout * 1000;
	j_compact = 1;
	for (;;) {
		if (count && printed >= count)
			break;
		rc = events_next(r, &ev, deadline);
		if (rc == 0 || rc == -2)
			break;
		if (rc < 0)
			fail("reading %s: %s", path, strerror(errno));
		if (ev.is_missed) {
			/* Events pos .. pos+missed-1 are gone from the log. */
			lo = pos > from ? pos : from;
			if (ev.missed && pos + ev.missed - 1 >= lo)
				report_missed(pos + ev.missed - lo, lo, pos + ev.missed - 1);
			pos += ev.missed;
			continue;
		}
		pos = ev.seqnum + 1;
		if (ev.seqnum < from || !passes(&ev))
			continue;
		printed++;
		if (g_json) {
			j_obj(NULL);
			j_unum("seqnum", ev.seqnum);
			j_raw_str("action", ev.action);
			j_raw_str("devpath", ev.devpath);
			j_raw_str("subsystem", ev.subsystem);
			j_obj("properties");
			for (k = 0; k < ev.nvars; k++) {
				char *eq = strchr(ev.vars[k], '=');
				size_t kl = eq ? (size_t)(eq - ev.vars[k]) : strlen(ev.vars[k]);
				char *key = xstrndup(ev.vars[k], kl);

				j_raw_str(key, eq ? eq + 1 : "");
				free(key);
			}
			j_end();
			j_end();
			j_done();
		} else {
			printf("DMCORE [%llu] %s %s (%s)\n", ev.seqnum, ev.action, ev.devpath,
			       ev.subsystem);
			if (property) {
				/* udevadm's order: ACTION, DEVPATH, SUBSYSTEM, SEQNUM, the rest. */
				for (k = 0; k < ev.nvars; k++)
					printf("%s\n", ev.vars[k]);
				putchar('\n');
			}
			fflush(stdout);
		}
		free(ev.vars);
	}
	return 0;
}
