// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_stats.c -- dmctl stats: the `stats` root file, its "KEY VALUE"
 * lines as they are, and its probe_hist lines (docs/snapshot.md) as a
 * per-driver table (count, results, mean, the buckets holding the median
 * and the 99th percentile) and a histogram of the buckets in use.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dmctl.h"

void help_stats(void)
{
	static const char text[] =
"usage: dmctl stats [--json]\n"
"\n"
"The stats file: live objects, events, probes, misuse reports, as KEY\n"
"VALUE lines; then, from its probe_hist lines, one row per driver with\n"
"its probe count, ok/failed/deferred, the mean duration and the buckets\n"
"of the median (p50) and the 99th percentile (p99), shown by their upper\n"
"bound ('<16us': under 16 us), and a histogram of each driver's probes.\n"
"--json: {stats: {KEY: VALUE}, probe_hist_bounds_us: [...],\n"
"probe_hist: [{bus, driver, count, ok, failed, deferred, total_us,\n"
"mean_us, p50_below_us, p99_below_us, buckets: [...]}]}\n"
"(a bound of inf is null).\n";

	fputs(text, stdout);
}

#define NB_MAX 64

struct hist {
	char *bus, *driver;
	unsigned long long count, ok, failed, deferred, total_us;
	unsigned long long b[NB_MAX];
	int nb;
};

static long long bounds[NB_MAX];	/* -1: inf */
static int nbounds;

static unsigned long long kvnum(char **w, int nw, const char *key)
{
	size_t l = strlen(key);
	int i;

	for (i = 0; i < nw; i++)
		if (!strncmp(w[i], key, l) && w[i][l] == '=')
			return strtoull(w[i] + l + 1, NULL, 10);
	return 0;
}

/* The bucket holding the q-th fraction of the probes: its index, or -1. */
static int pct_bucket(const struct hist *h, double q)
{
	unsigned long long need, cum = 0, total = 0;
	int i;

	for (i = 0; i < h->nb; i++)
		total += h->b[i];
	if (!total)
		return -1;
	need = (unsigned long long)(q * total + 0.999999);
	if (need < 1)
		need = 1;
	for (i = 0; i < h->nb; i++) {
		cum += h->b[i];
		if (cum >= need)
			return i;
	}
	return h->nb - 1;
}

static void bound_text(char *buf, size_t size, int i)
{
	if (i < 0)
		snprintf(buf, size, "-");
	else if (i >= nbounds || bounds[i] < 0)
		snprintf(buf, size, ">=%lldus", i > 0 && i - 1 < nbounds ? bounds[i - 1] : 0);
	else
		snprintf(buf, size, "<%lldus", bounds[i]);
}

int cmd_stats(int argc, char **argv)
{
	char *path, *text, *line, *nl, *w[NB_MAX + 16], *sp;
	struct hist *hs = NULL;
	int i, n, nh = 0, nw, k;
	char **keys = NULL, **vals = NULL;
	int nkv = 0;

	for (i = 1; i < argc; ) {
		n = common_option(argc, argv, i, help_stats);
		if (n) {
			i += n;
			continue;
		}
		if (argv[i][0] == '-')
			usage_error("stats: unknown option '%s'", argv[i]);
		usage_error("stats: unexpected argument '%s'", argv[i]);
	}
	path = root_path("stats");
	text = read_file(path, NULL);
	if (!text)
		fail("cannot read %s: %s", path, strerror(errno));
	for (line = text; line && *line; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		if (!*line)
			continue;
		nw = 0;
		for (sp = strtok(line, " "); sp && nw < NB_MAX + 16; sp = strtok(NULL, " "))
			w[nw++] = sp;
		if (!nw)
			continue;
		if (!strcmp(w[0], "probe_hist_bounds_us")) {
			nbounds = 0;
			for (k = 1; k < nw && nbounds < NB_MAX; k++)
				bounds[nbounds++] =
					strcmp(w[k], "inf") ? strtoll(w[k], NULL, 10) : -1;
		} else if (!strcmp(w[0], "probe_hist") && nw >= 3) {
			struct hist *h;

			hs = xrealloc(hs, sizeof(*hs) * (nh + 1));
			h = &hs[nh++];
			memset(h, 0, sizeof(*h));
			h->bus = w[1];
			h->driver = w[2];
			h->count = kvnum(w, nw, "count");
			h->ok = kvnum(w, nw, "ok");
			h->failed = kvnum(w, nw, "failed");
			h->deferred = kvnum(w, nw, "deferred");
			h->total_us = kvnum(w, nw, "total_us");
			for (k = 3; k < nw && h->nb < NB_MAX; k++)
				if (!strchr(w[k], '='))
					h->b[h->nb++] = strtoull(w[k], NULL, 10);
		} else {
			keys = xrealloc(keys, sizeof(char *) * (nkv + 1));
			vals = xrealloc(vals, sizeof(char *) * (nkv + 1));
			keys[nkv] = w[0];
			/* The rest of the line, rejoined. */
			{
				size_t l = 1;
				char *v;

				for (k = 1; k < nw; k++)
					l += strlen(w[k]) + 1;
				v = xmalloc(l);
				v[0] = '\0';
				for (k = 1; k < nw; k++) {
					if (k > 1)
						strcat(v, " ");
					strcat(v, w[k]);
				}
				vals[nkv] = v;
			}
			nkv++;
		}
	}

	if (g_json) {
		j_obj(NULL);
		j_obj("stats");
		for (i = 0; i < nkv; i++) {
			char *end;
			unsigned long long v;

			errno = 0;
			v = strtoull(vals[i], &end, 10);
			if (*vals[i] >= '0' && *vals[i] <= '9' && !*end && !errno)
				j_unum(keys[i], v);
			else
				j_raw_str(keys[i], vals[i]);
		}
		j_end();
		j_arr("probe_hist_bounds_us");
		for (i = 0; i < nbounds; i++) {
			if (bounds[i] < 0)
				j_null(NULL);
			else
				j_num(NULL, bounds[i]);
		}
		j_end();
		j_arr("probe_hist");
		for (i = 0; i < nh; i++) {
			int p50 = pct_bucket(&hs[i], 0.5), p99 = pct_bucket(&hs[i], 0.99);

			j_obj(NULL);
			/* Names are escaped in stats as in the snapshot. */
			j_raw_str("bus", unescape(hs[i].bus));
			j_raw_str("driver", unescape(hs[i].driver));
			j_unum("count", hs[i].count);
			j_unum("ok", hs[i].ok);
			j_unum("failed", hs[i].failed);
			j_unum("deferred", hs[i].deferred);
			j_unum("total_us", hs[i].total_us);
			if (hs[i].count)
				j_dbl("mean_us", (double)hs[i].total_us / hs[i].count);
			else
				j_null("mean_us");
			if (p50 < 0 || p50 >= nbounds || bounds[p50] < 0)
				j_null("p50_below_us");
			else
				j_num("p50_below_us", bounds[p50]);
			if (p99 < 0 || p99 >= nbounds || bounds[p99] < 0)
				j_null("p99_below_us");
			else
				j_num("p99_below_us", bounds[p99]);
			j_arr("buckets");
			for (k = 0; k < hs[i].nb; k++)
				j_unum(NULL, hs[i].b[k]);
			j_end();
			j_end();
		}
		j_end();
		j_end();
		j_done();
		return 0;
	}

	for (i = 0; i < nkv; i++)
		printf("%-24s %s\n", keys[i], vals[i]);
	if (!nh && !nbounds) {
		printf("\n(no probe_hist lines in %s: no per-driver probe times)\n", path);
		return 0;
	}
	printf("\nprobe latency per driver (%d driver%s):\n", nh, nh == 1 ? "" : "s");
	printf("  %-12s %-16s %7s %6s %6s %8s %10s %10s %10s\n", "BUS", "DRIVER", "COUNT",
	       "OK", "FAILED", "DEFERRED", "MEAN_US", "P50", "P99");
	for (i = 0; i < nh; i++) {
		char p50[32], p99[32], mean[32];

		bound_text(p50, sizeof(p50), pct_bucket(&hs[i], 0.5));
		bound_text(p99, sizeof(p99), pct_bucket(&hs[i], 0.99));
		if (hs[i].count)
			snprintf(mean, sizeof(mean), "%.1f", (double)hs[i].total_us / hs[i].count);
		else
			snprintf(mean, sizeof(mean), "-");
		printf("  %-12s %-16s %7llu %6llu %6llu %8llu %10s %10s %10s\n", hs[i].bus,
		       hs[i].driver, hs[i].count, hs[i].ok, hs[i].failed, hs[i].deferred, mean,
		       p50, p99);
	}
	for (i = 0; i < nh; i++) {
		unsigned long long max = 0;
		int bars;

		for (k = 0; k < hs[i].nb; k++)
			if (hs[i].b[k] > max)
				max = hs[i].b[k];
		if (!max)
			continue;
		printf("\n  %s/%s: %llu probe(s)\n", hs[i].bus, hs[i].driver, hs[i].count);
		for (k = 0; k < hs[i].nb; k++) {
			char lo[32], hi[32];

			if (!hs[i].b[k])
				continue;
			snprintf(lo, sizeof(lo), "%lld",
				 k > 0 && k - 1 < nbounds ? bounds[k - 1] : 0);
			if (k < nbounds && bounds[k] >= 0)
				snprintf(hi, sizeof(hi), "%lld", bounds[k]);
			else
				snprintf(hi, sizeof(hi), "inf");
			bars = (int)((hs[i].b[k] * 40 + max - 1) / max);
			printf("    [%8s, %8s) us %7llu ", lo, hi, hs[i].b[k]);
			while (bars--)
				putchar('#');
			putchar('\n');
		}
	}
	return 0;
}
