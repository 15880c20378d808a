// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_device.c -- the commands about one device:
 *   dmctl why DEVICE    why it is or is not bound, verdict first
 *   dmctl info DEVICE   its snapshot record and its directory's files
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dmctl.h"

void help_why(void)
{
	static const char text[] =
"usage: dmctl why DEVICE [--json]\n"
"\n"
"Why DEVICE is or is not bound to a driver, from the snapshot file.\n"
"The first line is the verdict; then the facts it rests on: its bus and\n"
"the bus's drivers_autoprobe, its driver_override, every driver of its\n"
"bus with the bus's match() result, its last probe (result, errno by\n"
"name, probe calls and duration), a deferral (what it waits for and the\n"
"driver's reason) and its suppliers through device links (flagged when\n"
"not bound).\n"
"DEVICE: a DEVPATH, a tree path or a unique device name.\n";

	fputs(text, stdout);
}

void help_info(void)
{
	static const char text[] =
"usage: dmctl info DEVICE [--json]\n"
"\n"
"Every field of DEVICE's record in the snapshot file, then the files at\n"
"the top level of its directory in the tree (uevent and its attributes:\n"
"their contents; links: their targets; subdirectories by name). Files\n"
"are only read, never written; one that cannot be read says why.\n"
"DEVICE: a DEVPATH, a tree path or a unique device name.\n";

	fputs(text, stdout);
}

static const char *one_device(int argc, char **argv, void (*help)(void), const char *cmd)
{
	const char *dev = NULL;
	int i, n;

	for (i = 1; i < argc; ) {
		n = common_option(argc, argv, i, help);
		if (n) {
			i += n;
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1])
			usage_error("%s: unknown option '%s'", cmd, argv[i]);
		if (dev)
			usage_error("%s: more than one DEVICE ('%s')", cmd, argv[i]);
		dev = argv[i++];
	}
	if (!dev)
		usage_error("%s: missing DEVICE", cmd);
	return dev;
}

static void fmt_ns(char *buf, size_t size, unsigned long long ns)
{
	if (ns >= 1000000000ULL)
		snprintf(buf, size, "%.3f s", ns / 1e9);
	else if (ns >= 1000000ULL)
		snprintf(buf, size, "%.3f ms", ns / 1e6);
	else
		snprintf(buf, size, "%.1f us", ns / 1e3);
}

/*
 * A snapshot without per-device probe records (a module before them):
 * the root file devices_deferred ("NAME\tWAITS\tREASON" lines) still
 * says whether the device is deferred, on what and why.
 */
static void deferred_fallback(struct dev *d)
{
	char *path = root_path("devices_deferred"), *text, *line, *nl, *f2, *f3;
	size_t nl_len = strlen(d->name);

	text = read_file(path, NULL);
	if (!text)
		return;
	for (line = text; line && *line; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		if (strncmp(line, d->name, nl_len) || line[nl_len] != '\t')
			continue;
		f2 = line + nl_len + 1;
		f3 = strchr(f2, '\t');
		if (f3)
			*f3++ = '\0';
		d->probe = "deferred";
		d->waits = strcmp(f2, "unnamed") ? f2 : NULL;
		d->reason = f3 && *f3 ? f3 : NULL;
		return;
	}
}

int cmd_why(int argc, char **argv)
{
	const char *arg = one_device(argc, argv, help_why, "why");
	char verdict[1024], took[64], *matching;
	struct snapshot *s = snapshot_load();
	struct dev *d = &s->devs[lookup_dev(s, arg)];
	const struct bus *b = d->bus ? find_bus(s, d->bus) : NULL;
	int i, ndrv = 0, nmatch = 0, nmrec = 0, override_ok = 0, autoprobe;
	size_t mlen = 1;

	for (i = 0; b && i < s->ndrivers; i++) {
		if (strcmp(s->drivers[i].bus, b->name))
			continue;
		ndrv++;
		if (d->override && !strcmp(d->override, s->drivers[i].name))
			override_ok = 1;
	}
	for (i = 0; i < s->nmatches; i++)
		if (!strcmp(s->matches[i].path, d->path)) {
			nmrec++;
			mlen += strlen(s->matches[i].driver) + 2;
		}
	matching = xmalloc(mlen);
	matching[0] = '\0';
	for (i = 0; i < s->nmatches; i++)
		if (!strcmp(s->matches[i].path, d->path) && s->matches[i].ok) {
			if (nmatch++)
				strcat(matching, ", ");
			strcat(matching, s->matches[i].driver);
		}
	if (!d->has_probe && !d->driver)
		deferred_fallback(d);
	autoprobe = d->autoprobe && (!b || b->autoprobe);
	fmt_ns(took, sizeof(took), d->probe_ns);

	if (d->driver && !d->has_probe)
		snprintf(verdict, sizeof(verdict), "bound to driver %s (bus %s)",
			 d->driver, d->bus ? d->bus : "-");
	else if (d->driver)
		snprintf(verdict, sizeof(verdict), "bound to driver %s (bus %s); its probe took %s",
			 d->driver, d->bus ? d->bus : "-", took);
	else if (!d->bus)
		snprintf(verdict, sizeof(verdict),
			 "not bound: it is on no bus (only a device on a bus is bound to a driver)");
	else if (!b || !ndrv)
		snprintf(verdict, sizeof(verdict),
			 "not bound: bus %s has no driver at all", d->bus);
	else if (d->probe && !strcmp(d->probe, "deferred"))
		snprintf(verdict, sizeof(verdict), "not bound: its probe was deferred%s%s%s%s%s",
			 d->waits ? ", waiting for " : "", d->waits ? d->waits : "",
			 d->reason ? " (reason: " : "", d->reason ? d->reason : "",
			 d->reason ? ")" : "");
	else if (d->probe && !strcmp(d->probe, "failed"))
		snprintf(verdict, sizeof(verdict),
			 "not bound: its last probe failed with %s (errno %ld)",
			 errno_name(d->err), d->err);
	else if (d->override && !override_ok)
		snprintf(verdict, sizeof(verdict),
			 "not bound: driver_override is %s, and bus %s has no driver of that name",
			 d->override, d->bus);
	else if (nmrec && !nmatch)
		snprintf(verdict, sizeof(verdict),
			 "not bound: no driver of bus %s matches it (%d driver(s) tried)",
			 d->bus, nmrec);
	else if (!autoprobe)
		snprintf(verdict, sizeof(verdict),
			 "not bound: autoprobe is off on bus %s (write its name to bus/%s/drivers_probe)",
			 d->bus, d->bus);
	else if (d->probe && !strcmp(d->probe, "ok"))
		snprintf(verdict, sizeof(verdict),
			 "not bound: its last probe succeeded, it has been unbound since");
	else if (nmatch && !d->has_probe)
		snprintf(verdict, sizeof(verdict),
			 "not bound: it matches %s, and no probe bound it (this snapshot has no probe results)",
			 matching);
	else if (nmatch)
		snprintf(verdict, sizeof(verdict),
			 "not bound: it matches %s but has not been probed", matching);
	else if (!nmrec)
		snprintf(verdict, sizeof(verdict),
			 "not bound: the snapshot has no match records for it (a probe was under way when it was taken: ask again)");
	else
		snprintf(verdict, sizeof(verdict), "not bound: no reason found in the snapshot");

	if (g_json) {
		j_obj(NULL);
		j_raw_str("device", d->path);
		j_bool("bound", !!d->driver);
		j_str("driver", d->driver);
		j_raw_str("verdict", verdict);
		j_str("bus", d->bus);
		if (b)
			j_bool("bus_autoprobe", b->autoprobe);
		else
			j_null("bus_autoprobe");
		j_bool("autoprobe", d->autoprobe);
		j_str("override", d->override);
		j_arr("drivers");
		for (i = 0; b && i < s->ndrivers; i++) {
			int m;

			if (strcmp(s->drivers[i].bus, b->name))
				continue;
			m = find_match(s, d->path, s->drivers[i].name);
			j_obj(NULL);
			j_raw_str("name", s->drivers[i].name);
			if (m < 0)
				j_null("match");
			else
				j_bool("match", m);
			j_end();
		}
		j_end();
		j_obj("probe");
		j_str("result", d->probe);
		j_num("errno", d->err);
		if (d->err)
			j_str("errno_name", errno_name(d->err));
		else
			j_null("errno_name");
		j_unum("probes", d->probes);
		j_unum("probe_ns", d->probe_ns);
		j_end();
		j_obj("deferral");
		j_str("waits", d->waits);
		j_str("reason", d->reason);
		j_end();
		j_arr("suppliers");
		for (i = 0; i < s->nlinks; i++) {
			int si;

			if (strcmp(s->links[i].consumer, d->path))
				continue;
			si = find_dev_path(s, s->links[i].supplier);
			j_obj(NULL);
			j_raw_str("path", s->links[i].supplier);
			j_str("status", s->links[i].status);
			j_str("flags", s->links[i].flags);
			j_bool("bound", si >= 0 && s->devs[si].driver);
			j_end();
		}
		j_end();
		j_end();
		j_done();
		return 0;
	}

	printf("%s: %s\n", esc(d->name), verdict);
	printf("  device:     %s\n", esc(d->path));
	if (b)
		printf("  bus:        %s (drivers_autoprobe=%d)%s\n", b->name, b->autoprobe,
		       b->autoprobe ? "" : ": new devices are not probed by themselves");
	else
		printf("  bus:        %s\n", d->bus ? d->bus : "- (none)");
	if (!d->autoprobe && (!b || b->autoprobe))
		printf("  autoprobe:  0 for this device\n");
	printf("  override:   %s\n", d->override ? d->override : "- (none)");
	if (d->override && !override_ok)
		printf("              (no driver of bus %s is called %s)\n",
		       d->bus ? d->bus : "-", d->override);
	if (b && d->driver) {
		printf("  drivers of bus %s: %d (bound to %s)\n", b->name, ndrv, d->driver);
	} else if (b) {
		printf("  drivers of bus %s:%s\n", b->name, ndrv ? "" : " none");
		for (i = 0; i < s->ndrivers; i++) {
			int m;

			if (strcmp(s->drivers[i].bus, b->name))
				continue;
			m = find_match(s, d->path, s->drivers[i].name);
			printf("    %-20s %s\n", s->drivers[i].name,
			       d->driver && !strcmp(d->driver, s->drivers[i].name) ? "bound" :
			       m < 0 ? "(no match record)" : m ? "matches" : "does not match");
		}
	}
	if (!d->has_probe)
		printf("  last probe: %s%s\n",
		       "not in this snapshot (a module without per-device probe records)",
		       d->probe ? "; devices_deferred lists it" : "");
	else
		printf("  last probe: %s", d->probe ? d->probe : "-");
	if (d->has_probe) {
		if (d->err)
			printf(", errno %ld (%s)", d->err, errno_name(d->err));
		printf(", %llu probe call(s)", d->probes);
		if (d->probe_ns)
			printf(", the last took %s", took);
		putchar('\n');
	}
	if (d->waits || d->reason || (d->probe && !strcmp(d->probe, "deferred")))
		printf("  deferral:   waits for %s; reason: %s\n", d->waits ? d->waits : "-",
		       d->reason ? d->reason : "-");
	for (i = 0; i < s->nlinks; i++) {
		int si;

		if (strcmp(s->links[i].consumer, d->path))
			continue;
		si = find_dev_path(s, s->links[i].supplier);
		printf("  supplier:   %s (link %s%s%s): %s\n", esc(s->links[i].supplier),
		       s->links[i].status ? s->links[i].status : "-",
		       s->links[i].flags ? ", " : "", s->links[i].flags ? s->links[i].flags : "",
		       si >= 0 && s->devs[si].driver ? "bound" : "NOT bound");
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A regular file's value: one line inline, several indented below. */
static void print_file(const char *name, const char *path)
{
	char *val = read_file(path, NULL), *nl, *p;
	size_t l;

	if (!val) {
		printf("    %s: (not readable: %s)\n", name, strerror(errno));
		return;
	}
	l = strlen(val);
	if (l && val[l - 1] == '\n')
		val[--l] = '\0';
	nl = strchr(val, '\n');
	if (!nl) {
		printf("    %s = %s\n", name, val);
	} else {
		printf("    %s:\n      ", name);
		for (p = val; *p; p++) {
			putchar(*p);
			if (*p == '\n')
				fputs("      ", stdout);
		}
		putchar('\n');
	}
	free(val);
}

int cmd_info(int argc, char **argv)
{
	const char *arg = one_device(argc, argv, help_info, "info");
	struct snapshot *s = snapshot_load();
	const struct dev *d = &s->devs[lookup_dev(s, arg)];
	char *dir = root_path(d->path + 1), **names = NULL, *p, *val;
	int i, n = 0, direrr = 0;
	struct dirent *e;
	struct stat st;
	DIR *dh;

	dh = opendir(dir);
	if (dh) {
		while ((e = readdir(dh))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			names = xrealloc(names, sizeof(*names) * (n + 1));
			names[n++] = xstrdup(e->d_name);
		}
		closedir(dh);
		qsort(names, n, sizeof(*names), cmp_str);
	} else {
		direrr = errno;
	}

	if (g_json) {
		j_obj(NULL);
		j_raw_str("path", d->path);
		j_raw_str("name", d->name);
		j_obj("record");
		for (i = 0; i < d->rec->nkv; i++)
			j_raw_str(d->rec->kv[i].key, d->rec->kv[i].val);
		j_end();
		j_raw_str("directory", dir);
		if (direrr)
			j_raw_str("directory_error", strerror(direrr));
		j_obj("files");
		for (i = 0; i < n; i++) {
			p = xmalloc(strlen(dir) + strlen(names[i]) + 2);
			sprintf(p, "%s/%s", dir, names[i]);
			if (lstat(p, &st) || !S_ISREG(st.st_mode))
				continue;
			val = read_file(p, NULL);
			if (val) {
				size_t l = strlen(val);

				/* One value per file, as sysfs: its newline dropped. */
				if (l && val[l - 1] == '\n')
					val[l - 1] = '\0';
				j_raw_str(names[i], val);
			} else {
				j_obj(names[i]);
				j_raw_str("error", strerror(errno));
				j_end();
			}
		}
		j_end();
		j_obj("links");
		for (i = 0; i < n; i++) {
			char t[4096];
			ssize_t l;

			p = xmalloc(strlen(dir) + strlen(names[i]) + 2);
			sprintf(p, "%s/%s", dir, names[i]);
			if (lstat(p, &st) || !S_ISLNK(st.st_mode))
				continue;
			l = readlink(p, t, sizeof(t) - 1);
			t[l < 0 ? 0 : l] = '\0';
			j_raw_str(names[i], t);
		}
		j_end();
		j_arr("directories");
		for (i = 0; i < n; i++) {
			p = xmalloc(strlen(dir) + strlen(names[i]) + 2);
			sprintf(p, "%s/%s", dir, names[i]);
			if (!lstat(p, &st) && S_ISDIR(st.st_mode))
				j_raw_str(NULL, names[i]);
		}
		j_end();
		j_end();
		j_done();
		return 0;
	}

	printf("%s\n", esc(d->path));
	printf("  record (snapshot generation %llu):\n", s->generation);
	for (i = 0; i < d->rec->nkv; i++)
		printf("    %s=%s\n", d->rec->kv[i].key, esc(d->rec->kv[i].val));
	if (direrr) {
		printf("  directory %s: %s\n", dir, strerror(direrr));
		return 0;
	}
	printf("  files in %s:\n", dir);
	for (i = 0; i < n; i++) {
		p = xmalloc(strlen(dir) + strlen(names[i]) + 2);
		sprintf(p, "%s/%s", dir, names[i]);
		if (lstat(p, &st)) {
			printf("    %s: %s\n", names[i], strerror(errno));
		} else if (S_ISLNK(st.st_mode)) {
			char t[4096];
			ssize_t l = readlink(p, t, sizeof(t) - 1);

			t[l < 0 ? 0 : l] = '\0';
			printf("    %s -> %s\n", names[i], t);
		} else if (S_ISDIR(st.st_mode)) {
			printf("    %s/\n", names[i]);
		} else {
			print_file(names[i], p);
		}
	}
	return 0;
}
