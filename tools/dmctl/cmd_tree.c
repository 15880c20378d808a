// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_tree.c -- dmctl tree [PATH]: the device hierarchy of one snapshot,
 * drawn with ASCII tree characters as `udevadm info --tree` draws sysfs,
 * each device with its bus, class, driver, power and runtime PM state.
 * PATH (a DEVPATH, a tree path or a unique device name) shows its subtree.
 */
#include <stdlib.h>
#include <string.h>

#include "dmctl.h"

void help_tree(void)
{
	static const char text[] =
"usage: dmctl tree [PATH] [--json]\n"
"\n"
"The device hierarchy from the snapshot file: one line per device, its\n"
"children below it ('|-- ', '`-- '), with bus=, class=, driver= ('-' for\n"
"none), power= (on|suspended) and runtime= (runtime PM state).\n"
"PATH limits the output to one device's subtree: a DEVPATH\n"
"(/devices/soc0), a tree path (devices/soc0) or a unique device name.\n"
"The first line names the snapshot's generation and seqnum.\n"
"--json: {generation, seqnum, devices: [{path, name, bus, class, driver,\n"
"power, runtime, children: [...]}]}.\n";

	fputs(text, stdout);
}

static const struct snapshot *S;

static int cmp_child(const void *a, const void *b)
{
	return strcmp(S->devs[*(const int *)a].name, S->devs[*(const int *)b].name);
}

static int cmp_root(const void *a, const void *b)
{
	return strcmp(S->devs[*(const int *)a].path, S->devs[*(const int *)b].path);
}

static void print_attrs(const struct dev *d)
{
	printf("  bus=%s class=%s driver=%s power=%s runtime=%s\n", esc(d->bus),
	       esc(d->class), esc(d->driver), esc(d->power), esc(d->runtime));
}

static void print_children(int idx, const char *prefix)
{
	const struct dev *d = &S->devs[idx];
	size_t pl = strlen(prefix);
	char *sub = xmalloc(pl + 5);
	int i, last, c;

	qsort(d->children, d->nchildren, sizeof(int), cmp_child);
	for (i = 0; i < d->nchildren; i++) {
		c = d->children[i];
		last = i == d->nchildren - 1;
		printf("%s%s%s", prefix, last ? "`-- " : "|-- ", esc(S->devs[c].name));
		print_attrs(&S->devs[c]);
		memcpy(sub, prefix, pl);
		memcpy(sub + pl, last ? "    " : "|   ", 5);
		print_children(c, sub);
	}
	free(sub);
}

static void json_dev(int idx)
{
	const struct dev *d = &S->devs[idx];
	int i;

	qsort(d->children, d->nchildren, sizeof(int), cmp_child);
	j_obj(NULL);
	j_str("path", d->path);
	j_str("name", d->name);
	j_str("bus", d->bus);
	j_str("class", d->class);
	j_str("driver", d->driver);
	j_str("power", d->power);
	j_str("runtime", d->runtime);
	j_arr("children");
	for (i = 0; i < d->nchildren; i++)
		json_dev(d->children[i]);
	j_end();
	j_end();
}

int cmd_tree(int argc, char **argv)
{
	const char *path = NULL;
	struct snapshot *s;
	int i, n, *roots, nroots = 0, idx;

	for (i = 1; i < argc; ) {
		n = common_option(argc, argv, i, help_tree);
		if (n) {
			i += n;
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1])
			usage_error("tree: unknown option '%s'", argv[i]);
		if (path)
			usage_error("tree: more than one PATH ('%s')", argv[i]);
		path = argv[i++];
	}
	s = snapshot_load();
	S = s;
	roots = xmalloc(sizeof(int) * (s->ndevs + 1));
	if (path) {
		idx = lookup_dev(s, path);
		roots[nroots++] = idx;
	} else {
		for (i = 0; i < s->ndevs; i++)
			if (s->devs[i].parent_idx < 0)
				roots[nroots++] = i;
		qsort(roots, nroots, sizeof(int), cmp_root);
	}
	if (g_json) {
		j_obj(NULL);
		j_unum("generation", s->generation);
		j_unum("seqnum", s->seqnum);
		j_num("count", s->ndevs);
		j_arr("devices");
		for (i = 0; i < nroots; i++)
			json_dev(roots[i]);
		j_end();
		j_end();
		j_done();
		return 0;
	}
	if (path) {
		printf("%s", esc(s->devs[roots[0]].path));
		print_attrs(&s->devs[roots[0]]);
		print_children(roots[0], "");
		return 0;
	}
	printf("/devices  (generation %llu, seqnum %llu, %d devices)\n",
	       s->generation, s->seqnum, s->ndevs);
	for (i = 0; i < nroots; i++) {
		const struct dev *d = &s->devs[roots[i]];
		int last = i == nroots - 1;

		/* A root's name is its path under /devices (virtual/tty/x). */
		printf("%s%s", last ? "`-- " : "|-- ",
		       esc(strncmp(d->path, "/devices/", 9) ? d->path : d->path + 9));
		print_attrs(d);
		print_children(roots[i], last ? "    " : "|   ");
	}
	return 0;
}
