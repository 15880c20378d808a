// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot.c -- the parser of dmcore's `snapshot` root file (format:
 * docs/snapshot.md). One read of the file, one record per line, fields
 * separated by one space, fixed fields first, then key=value; every
 * name and value \xHH-escaped. Unknown records and keys are ignored.
 * The `end` record's counts must agree with the records read, and the
 * `done` record's with the match lines after it, or the snapshot is
 * refused (exit 1): a reader never works on a cut-off one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dmctl.h"

static const struct {
	const char *type;
	int nfix;
} rec_types[] = {
	{ "dmcore-snapshot", 1 }, { "generation", 1 }, { "seqnum", 1 },
	{ "bus", 1 }, { "class", 1 }, { "driver", 2 }, { "device", 1 },
	{ "link", 2 }, { "match", 3 }, { "end", 0 }, { "done", 0 },
};

const char *rec_get(const struct rec *r, const char *key)
{
	int i;

	for (i = 0; i < r->nkv; i++)
		if (!strcmp(r->kv[i].key, key))
			return r->kv[i].val;
	return NULL;
}

const char *const dmctl_none = "-";

/* A value, NULL for "-" (none) or absent. */
static const char *opt_get(const struct rec *r, const char *key)
{
	const char *v = rec_get(r, key);

	return v != dmctl_none ? v : NULL;
}

static long long num_get(const struct rec *r, const char *key, long long dflt)
{
	const char *v = rec_get(r, key);
	char *end;
	long long n;

	if (!v || !*v)
		return dflt;
	n = strtoll(v, &end, 10);
	return *end ? dflt : n;
}

static int split_rec(char *line, struct rec *r)
{
	char *w[256];
	int nw = 0, i, j;
	char *p = line, *eq;

	while (*p && nw < 256) {
		w[nw++] = p;
		p = strchr(p, ' ');
		if (!p)
			break;
		*p++ = '\0';
	}
	if (!nw)
		return -1;
	memset(r, 0, sizeof(*r));
	r->type = w[0];
	r->nfix = -1;
	for (i = 0; i < (int)ARRAY_SIZE(rec_types); i++)
		if (!strcmp(rec_types[i].type, w[0]))
			r->nfix = rec_types[i].nfix;
	if (r->nfix < 0)
		return 1;		/* unknown: ignored */
	if (nw - 1 < r->nfix)
		return -1;
	for (i = 0; i < r->nfix; i++)
		r->fix[i] = unescape(w[1 + i]);
	r->kv = xmalloc(sizeof(*r->kv) * (nw - 1 - r->nfix + 1));
	for (j = 1 + r->nfix; j < nw; j++) {
		eq = strchr(w[j], '=');
		if (!eq)
			continue;
		*eq = '\0';
		r->kv[r->nkv].key = w[j];
		/* "-" is none; a name "-" is written "\x2d". */
		r->kv[r->nkv].val = strcmp(eq + 1, "-") ? unescape(eq + 1) : (char *)dmctl_none;
		r->nkv++;
	}
	return 0;
}

/* Room for one more element after the N in ARR. */
static void *grow(void *arr, size_t size, int n)
{
	return xrealloc(arr, size * (n + 1));
}

static int cmp_path_idx(const void *a, const void *b, void *ctx);

/* Device index sorted by path, for find_dev_path(). */
static const struct snapshot *sort_ctx;
static int *path_index;

static int cmp_idx(const void *a, const void *b)
{
	return cmp_path_idx(a, b, (void *)sort_ctx);
}

static int cmp_path_idx(const void *a, const void *b, void *ctx)
{
	const struct snapshot *s = ctx;

	return strcmp(s->devs[*(const int *)a].path, s->devs[*(const int *)b].path);
}

int find_dev_path(const struct snapshot *s, const char *path)
{
	int lo = 0, hi = s->ndevs - 1, mid, c;

	while (lo <= hi) {
		mid = (lo + hi) / 2;
		c = strcmp(s->devs[path_index[mid]].path, path);
		if (!c)
			return path_index[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

int snapshot_parse(struct snapshot *s, char *text, const char **why)
{
	char *line = text, *nl;
	struct rec *r;
	int rc, i, p;
	struct dev *d;

	memset(s, 0, sizeof(*s));
	s->text = text;
	s->len = strlen(text);
	if (s->len && text[s->len - 1] != '\n') {
		*why = "the last line has no newline (truncated)";
		return -1;
	}
	while (*line) {
		nl = strchr(line, '\n');
		*nl = '\0';
		r = xmalloc(sizeof(*r));
		rc = split_rec(line, r);
		line = nl + 1;
		if (rc == 1)
			continue;
		if (rc < 0) {
			*why = "a record is missing fields";
			return -1;
		}
		/* After `end` only the match lines (taken after the model part). */
		if (s->has_done) {
			*why = "a record after `done`";
			return -1;
		}
		if (s->has_end && strcmp(r->type, "match") && strcmp(r->type, "done")) {
			*why = "a record other than `match` after `end`";
			return -1;
		}
		if (!s->version && strcmp(r->type, "dmcore-snapshot")) {
			*why = "no `dmcore-snapshot` header on the first line";
			return -1;
		}
		if (!strcmp(r->type, "dmcore-snapshot")) {
			s->version = atoi(r->fix[0]);
			if (s->version < 1) {
				*why = "bad version in the header";
				return -1;
			}
		} else if (!strcmp(r->type, "generation")) {
			s->generation = strtoull(r->fix[0], NULL, 10);
			s->has_generation = 1;
		} else if (!strcmp(r->type, "seqnum")) {
			s->seqnum = strtoull(r->fix[0], NULL, 10);
			s->has_seqnum = 1;
		} else if (!strcmp(r->type, "bus")) {
			s->buses = grow(s->buses, sizeof(*s->buses), s->nbuses);
			s->buses[s->nbuses].rec = r;
			s->buses[s->nbuses].name = r->fix[0];
			s->buses[s->nbuses].autoprobe = num_get(r, "autoprobe", 1);
			s->buses[s->nbuses].devices = num_get(r, "devices", -1);
			s->buses[s->nbuses].drivers = num_get(r, "drivers", -1);
			s->nbuses++;
		} else if (!strcmp(r->type, "class")) {
			s->classes = grow(s->classes, sizeof(*s->classes), s->nclasses);
			s->classes[s->nclasses].rec = r;
			s->classes[s->nclasses].name = r->fix[0];
			s->classes[s->nclasses].devices = num_get(r, "devices", -1);
			s->nclasses++;
		} else if (!strcmp(r->type, "driver")) {
			s->drivers = grow(s->drivers, sizeof(*s->drivers), s->ndrivers);
			s->drivers[s->ndrivers].rec = r;
			s->drivers[s->ndrivers].bus = r->fix[0];
			s->drivers[s->ndrivers].name = r->fix[1];
			s->drivers[s->ndrivers].devices = num_get(r, "devices", -1);
			s->drivers[s->ndrivers].probes = num_get(r, "probes", -1);
			s->drivers[s->ndrivers].removing = num_get(r, "removing", 0);
			s->ndrivers++;
		} else if (!strcmp(r->type, "device")) {
			s->devs = grow(s->devs, sizeof(*s->devs), s->ndevs);
			d = &s->devs[s->ndevs++];
			memset(d, 0, sizeof(*d));
			d->rec = r;
			d->path = r->fix[0];
			d->name = strrchr(d->path, '/') ? strrchr(d->path, '/') + 1 : d->path;
			d->parent = opt_get(r, "parent");
			d->bus = opt_get(r, "bus");
			d->class = opt_get(r, "class");
			d->driver = opt_get(r, "driver");
			d->power = rec_get(r, "power");
			d->runtime = rec_get(r, "runtime");
			d->probe = rec_get(r, "probe");
			d->has_probe = !!d->probe;
			d->waits = opt_get(r, "waits");
			d->reason = opt_get(r, "reason");
			d->override = opt_get(r, "override");
			d->err = num_get(r, "errno", 0);
			d->probes = num_get(r, "probes", 0);
			d->probe_ns = num_get(r, "probe_ns", 0);
			d->autoprobe = num_get(r, "autoprobe", 1);
		} else if (!strcmp(r->type, "link")) {
			s->links = grow(s->links, sizeof(*s->links), s->nlinks);
			s->links[s->nlinks].rec = r;
			s->links[s->nlinks].supplier = r->fix[0];
			s->links[s->nlinks].consumer = r->fix[1];
			s->links[s->nlinks].status = rec_get(r, "status");
			s->links[s->nlinks].flags = opt_get(r, "flags");
			s->nlinks++;
		} else if (!strcmp(r->type, "match")) {
			s->matches = grow(s->matches, sizeof(*s->matches), s->nmatches);
			s->matches[s->nmatches].path = r->fix[0];
			s->matches[s->nmatches].driver = r->fix[1];
			s->matches[s->nmatches].ok = atoi(r->fix[2]);
			s->nmatches++;
		} else if (!strcmp(r->type, "done")) {
			if (!s->has_end) {
				*why = "`done` before `end`";
				return -1;
			}
			s->has_done = 1;
			s->done_matches = num_get(r, "matches", -1);
		} else if (!strcmp(r->type, "end")) {
			s->has_end = 1;
			s->end_buses = num_get(r, "buses", -1);
			s->end_classes = num_get(r, "classes", -1);
			s->end_drivers = num_get(r, "drivers", -1);
			s->end_devices = num_get(r, "devices", -1);
			s->end_links = num_get(r, "links", -1);
		}
	}
	if (!s->version) {
		*why = "empty, no `dmcore-snapshot` header";
		return -1;
	}
	if (!s->has_end) {
		*why = "no `end` record (truncated)";
		return -1;
	}
	if (s->end_buses != s->nbuses || s->end_classes != s->nclasses ||
	    s->end_drivers != s->ndrivers || s->end_devices != s->ndevs ||
	    s->end_links != s->nlinks) {
		static char msg[256];

		snprintf(msg, sizeof(msg),
			 "`end` says buses=%ld classes=%ld drivers=%ld devices=%ld links=%ld, read %d %d %d %d %d",
			 s->end_buses, s->end_classes, s->end_drivers, s->end_devices,
			 s->end_links, s->nbuses, s->nclasses, s->ndrivers, s->ndevs, s->nlinks);
		*why = msg;
		return -1;
	}
	if (!s->has_done) {
		*why = "no `done` record after the match lines (truncated)";
		return -1;
	}
	if (s->done_matches != s->nmatches) {
		static char msg[96];

		snprintf(msg, sizeof(msg), "`done` says matches=%ld, read %d",
			 s->done_matches, s->nmatches);
		*why = msg;
		return -1;
	}
	/* The path index, the parent indices and the children lists. */
	path_index = xmalloc(sizeof(int) * (s->ndevs + 1));
	for (i = 0; i < s->ndevs; i++)
		path_index[i] = i;
	sort_ctx = s;
	qsort(path_index, s->ndevs, sizeof(int), cmp_idx);
	for (i = 0; i < s->ndevs; i++) {
		d = &s->devs[i];
		d->parent_idx = d->parent ? find_dev_path(s, d->parent) : -1;
		p = d->parent_idx;
		if (p >= 0) {
			struct dev *up = &s->devs[p];

			up->children = grow(up->children, sizeof(int), up->nchildren);
			up->children[up->nchildren++] = i;
		}
	}
	return 0;
}

struct snapshot *snapshot_load(void)
{
	char *path = root_path("snapshot");
	struct snapshot *s = xmalloc(sizeof(*s));
	const char *why;
	char *text;

	text = read_file(path, NULL);
	if (!text)
		fail("cannot read %s: %s", path, strerror(errno));
	if (snapshot_parse(s, text, &why))
		fail("%s: bad snapshot: %s", path, why);
	return s;
}

struct bus *find_bus(const struct snapshot *s, const char *name)
{
	int i;

	for (i = 0; name && i < s->nbuses; i++)
		if (!strcmp(s->buses[i].name, name))
			return &s->buses[i];
	return NULL;
}

struct drv *find_drv(const struct snapshot *s, const char *bus, const char *name)
{
	int i;

	for (i = 0; name && i < s->ndrivers; i++)
		if ((!bus || !strcmp(s->drivers[i].bus, bus)) &&
		    !strcmp(s->drivers[i].name, name))
			return &s->drivers[i];
	return NULL;
}

static struct cls *find_cls(const struct snapshot *s, const char *name)
{
	int i;

	for (i = 0; i < s->nclasses; i++)
		if (!strcmp(s->classes[i].name, name))
			return &s->classes[i];
	return NULL;
}

/*
 * Every reference names a record of the same snapshot, and the counts
 * of bus, class and driver records agree with the devices that name them.
 */
int snapshot_check(const struct snapshot *s, char *buf, size_t size)
{
	long *bdev = calloc(s->nbuses + 1, sizeof(long));
	long *bdrv = calloc(s->nbuses + 1, sizeof(long));
	long *cdev = calloc(s->nclasses + 1, sizeof(long));
	long *ddev = calloc(s->ndrivers + 1, sizeof(long));
	const struct dev *d;
	struct bus *b;
	struct drv *dr;
	struct cls *c;
	int i, rc = -1;

	if (!bdev || !bdrv || !cdev || !ddev)
		fail("out of memory");
	for (i = 0; i < s->ndrivers; i++) {
		b = find_bus(s, s->drivers[i].bus);
		if (!b) {
			snprintf(buf, size, "driver %s names bus %s, not in the snapshot",
				 s->drivers[i].name, s->drivers[i].bus);
			goto out;
		}
		/* A driver being removed has left its bus's list already. */
		if (!s->drivers[i].removing)
			bdrv[b - s->buses]++;
	}
	for (i = 0; i < s->ndevs; i++) {
		d = &s->devs[i];
		if (i && find_dev_path(s, d->path) != i) {
			snprintf(buf, size, "device %s appears twice", d->path);
			goto out;
		}
		if (d->parent && (d->parent_idx < 0 || d->parent_idx >= i)) {
			snprintf(buf, size, "device %s: parent %s %s", d->path, d->parent,
				 d->parent_idx < 0 ? "is not in the snapshot" : "comes after it");
			goto out;
		}
		if (d->bus) {
			b = find_bus(s, d->bus);
			if (!b) {
				snprintf(buf, size, "device %s: bus %s is not in the snapshot",
					 d->path, d->bus);
				goto out;
			}
			bdev[b - s->buses]++;
		}
		if (d->class) {
			c = find_cls(s, d->class);
			if (!c) {
				snprintf(buf, size, "device %s: class %s is not in the snapshot",
					 d->path, d->class);
				goto out;
			}
			cdev[c - s->classes]++;
		}
		if (d->driver) {
			dr = find_drv(s, d->bus, d->driver);
			if (!dr || !d->bus) {
				snprintf(buf, size,
					 "device %s: driver %s is not a driver of its bus",
					 d->path, d->driver);
				goto out;
			}
			ddev[dr - s->drivers]++;
		}
	}
	for (i = 0; i < s->nlinks; i++) {
		if (find_dev_path(s, s->links[i].supplier) < 0 ||
		    find_dev_path(s, s->links[i].consumer) < 0) {
			snprintf(buf, size, "link %s -> %s: a device is not in the snapshot",
				 s->links[i].supplier, s->links[i].consumer);
			goto out;
		}
	}
	for (i = 0; i < s->nbuses; i++) {
		if ((s->buses[i].devices >= 0 && s->buses[i].devices != bdev[i]) ||
		    (s->buses[i].drivers >= 0 && s->buses[i].drivers != bdrv[i])) {
			snprintf(buf, size,
				 "bus %s says devices=%ld drivers=%ld, the records have %ld and %ld",
				 s->buses[i].name, s->buses[i].devices, s->buses[i].drivers,
				 bdev[i], bdrv[i]);
			goto out;
		}
	}
	for (i = 0; i < s->nclasses; i++) {
		if (s->classes[i].devices >= 0 && s->classes[i].devices != cdev[i]) {
			snprintf(buf, size, "class %s says devices=%ld, the records have %ld",
				 s->classes[i].name, s->classes[i].devices, cdev[i]);
			goto out;
		}
	}
	for (i = 0; i < s->ndrivers; i++) {
		if (s->drivers[i].devices >= 0 && s->drivers[i].devices != ddev[i]) {
			snprintf(buf, size, "driver %s %s says devices=%ld, %ld devices name it",
				 s->drivers[i].bus, s->drivers[i].name, s->drivers[i].devices,
				 ddev[i]);
			goto out;
		}
	}
	rc = 0;
out:
	free(bdev);
	free(bdrv);
	free(cdev);
	free(ddev);
	return rc;
}

int lookup_dev(const struct snapshot *s, const char *arg)
{
	size_t rl = strlen(g_root), n = 0, len;
	char *p = NULL, *list;
	int i, idx, found = -1;

	if (!*arg)
		fail("no device ''");
	if (!strncmp(arg, g_root, rl) && arg[rl] == '/')
		arg += rl;
	if (!strncmp(arg, "/devices/", 9)) {
		p = xstrdup(arg);
	} else if (!strncmp(arg, "devices/", 8)) {
		p = xmalloc(strlen(arg) + 2);
		sprintf(p, "/%s", arg);
	} else if (strchr(arg, '/')) {
		p = xmalloc(strlen(arg) + 10);
		sprintf(p, "/devices/%s", arg);
	}
	if (p) {
		len = strlen(p);
		while (len > 1 && p[len - 1] == '/')
			p[--len] = '\0';
		idx = find_dev_path(s, p);
		if (idx < 0)
			fail("no device %s in the snapshot", p);
		return idx;
	}
	for (i = 0; i < s->ndevs; i++) {
		if (strcmp(s->devs[i].name, arg))
			continue;
		n++;
		if (found < 0)
			found = i;
	}
	if (!n)
		fail("no device named '%s' in the snapshot", arg);
	if (n > 1) {
		len = 0;
		for (i = 0; i < s->ndevs; i++)
			if (!strcmp(s->devs[i].name, arg))
				len += strlen(s->devs[i].path) + 1;
		list = xmalloc(len + 1);
		list[0] = '\0';
		for (i = 0; i < s->ndevs; i++)
			if (!strcmp(s->devs[i].name, arg)) {
				if (*list)
					strcat(list, " ");
				strcat(list, s->devs[i].path);
			}
		fail("device name '%s' is ambiguous: %s", arg, list);
	}
	return found;
}

int find_match(const struct snapshot *s, const char *path, const char *driver)
{
	int k, m = -1;

	for (k = 0; k < s->nmatches; k++)
		if (!strcmp(s->matches[k].path, path) &&
		    !strcmp(s->matches[k].driver, driver))
			m = s->matches[k].ok;
	return m;
}
