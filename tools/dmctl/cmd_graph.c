// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_graph.c -- dmctl graph [--dot|--json]: the model as a graph, from
 * one read of the snapshot. Nodes: devices, buses, drivers, classes.
 * Edges: parent -> child ("parent"), device -> its bus and driver -> its
 * bus ("bus"), device -> its driver ("bound"), device -> its class
 * ("class"), supplier -> consumer ("link"). The snapshot is checked
 * first (end counts, every reference resolves, every count agrees):
 * a truncated or inconsistent one fails with exit 1.
 */
#include <stdlib.h>
#include <string.h>

#include "dmctl.h"

void help_graph(void)
{
	static const char text[] =
"usage: dmctl graph [--dot | --json]\n"
"\n"
"The model as a graph, from one read of the snapshot file.\n"
"Nodes: device:DEVPATH, bus:NAME, driver:BUS/NAME, class:NAME.\n"
"Edges: parent (parent -> child), bus (device or driver -> its bus),\n"
"bound (device -> its driver), class (device -> its class),\n"
"link (supplier -> consumer, with its status).\n"
"Default output: a summary and one line per node and per edge.\n"
"--dot: Graphviz input (dot -Tsvg renders it).\n"
"--json: {generation, seqnum, node_count, edge_count, nodes: [{id, kind,\n"
"name, ...}], edges: [{from, to, kind}]}.\n"
"The snapshot is checked first (its end counts, every reference, every\n"
"count): a truncated or inconsistent one exits 1.\n";

	fputs(text, stdout);
}

struct edge {
	char *from, *to;
	const char *kind, *label;
};

static struct edge *edges;
static int nedges;

static char *id_of(const char *kind, const char *a, const char *b)
{
	size_t n = strlen(kind) + strlen(a) + (b ? strlen(b) + 1 : 0) + 2;
	char *p = xmalloc(n);

	if (b)
		snprintf(p, n, "%s:%s/%s", kind, a, b);
	else
		snprintf(p, n, "%s:%s", kind, a);
	return p;
}

static void add_edge(char *from, char *to, const char *kind, const char *label)
{
	edges = xrealloc(edges, sizeof(*edges) * (nedges + 1));
	edges[nedges].from = from;
	edges[nedges].to = to;
	edges[nedges].kind = kind;
	edges[nedges].label = label;
	nedges++;
}

static void dot_str(const char *s)
{
	s = esc(s);
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		putchar(*s);
	}
	putchar('"');
}

int cmd_graph(int argc, char **argv)
{
	struct snapshot *s;
	char why[512];
	int i, n, dot = 0, nnodes;
	const struct dev *d;

	for (i = 1; i < argc; ) {
		n = common_option(argc, argv, i, help_graph);
		if (n) {
			i += n;
			continue;
		}
		if (!strcmp(argv[i], "--dot")) {
			dot = 1;
			i++;
			continue;
		}
		if (argv[i][0] == '-')
			usage_error("graph: unknown option '%s'", argv[i]);
		usage_error("graph: unexpected argument '%s'", argv[i]);
	}
	if (dot && g_json)
		usage_error("graph: --dot and --json exclude each other");
	s = snapshot_load();
	if (snapshot_check(s, why, sizeof(why)))
		fail("%s/snapshot: inconsistent snapshot: %s", g_root, why);

	for (i = 0; i < s->ndevs; i++) {
		d = &s->devs[i];
		if (d->parent)
			add_edge(id_of("device", d->parent, NULL), id_of("device", d->path, NULL),
				 "parent", NULL);
		if (d->bus)
			add_edge(id_of("device", d->path, NULL), id_of("bus", d->bus, NULL),
				 "bus", NULL);
		if (d->driver)
			add_edge(id_of("device", d->path, NULL),
				 id_of("driver", d->bus, d->driver), "bound", NULL);
		if (d->class)
			add_edge(id_of("device", d->path, NULL), id_of("class", d->class, NULL),
				 "class", NULL);
	}
	for (i = 0; i < s->ndrivers; i++)
		add_edge(id_of("driver", s->drivers[i].bus, s->drivers[i].name),
			 id_of("bus", s->drivers[i].bus, NULL), "bus", NULL);
	for (i = 0; i < s->nlinks; i++)
		add_edge(id_of("device", s->links[i].supplier, NULL),
			 id_of("device", s->links[i].consumer, NULL), "link",
			 s->links[i].status);
	nnodes = s->ndevs + s->nbuses + s->ndrivers + s->nclasses;

	if (g_json) {
		j_obj(NULL);
		j_unum("generation", s->generation);
		j_unum("seqnum", s->seqnum);
		j_num("node_count", nnodes);
		j_num("edge_count", nedges);
		j_obj("counts");
		j_num("devices", s->ndevs);
		j_num("buses", s->nbuses);
		j_num("drivers", s->ndrivers);
		j_num("classes", s->nclasses);
		j_num("links", s->nlinks);
		j_end();
		j_arr("nodes");
		for (i = 0; i < s->nbuses; i++) {
			j_obj(NULL);
			j_raw_str("id", id_of("bus", s->buses[i].name, NULL));
			j_str("kind", "bus");
			j_raw_str("name", s->buses[i].name);
			j_bool("autoprobe", s->buses[i].autoprobe);
			j_end();
		}
		for (i = 0; i < s->nclasses; i++) {
			j_obj(NULL);
			j_raw_str("id", id_of("class", s->classes[i].name, NULL));
			j_str("kind", "class");
			j_raw_str("name", s->classes[i].name);
			j_end();
		}
		for (i = 0; i < s->ndrivers; i++) {
			j_obj(NULL);
			j_raw_str("id", id_of("driver", s->drivers[i].bus, s->drivers[i].name));
			j_str("kind", "driver");
			j_raw_str("name", s->drivers[i].name);
			j_raw_str("bus", s->drivers[i].bus);
			j_end();
		}
		for (i = 0; i < s->ndevs; i++) {
			d = &s->devs[i];
			j_obj(NULL);
			j_raw_str("id", id_of("device", d->path, NULL));
			j_str("kind", "device");
			j_raw_str("name", d->name);
			j_raw_str("path", d->path);
			j_str("power", d->power);
			j_str("probe", d->probe);
			j_end();
		}
		j_end();
		j_arr("edges");
		for (i = 0; i < nedges; i++) {
			j_obj(NULL);
			j_raw_str("from", edges[i].from);
			j_raw_str("to", edges[i].to);
			j_str("kind", edges[i].kind);
			if (edges[i].label)
				j_str("status", edges[i].label);
			j_end();
		}
		j_end();
		j_end();
		j_done();
		return 0;
	}
	if (dot) {
		printf("digraph dmcore {\n\trankdir=LR;\n");
		printf("\tlabel=\"dmcore generation %llu, seqnum %llu\";\n",
		       s->generation, s->seqnum);
		for (i = 0; i < s->nbuses; i++) {
			putchar('\t');
			dot_str(id_of("bus", s->buses[i].name, NULL));
			printf(" [shape=ellipse, style=filled, fillcolor=lightblue, label=");
			dot_str(id_of("bus", s->buses[i].name, NULL));
			printf("];\n");
		}
		for (i = 0; i < s->nclasses; i++) {
			putchar('\t');
			dot_str(id_of("class", s->classes[i].name, NULL));
			printf(" [shape=hexagon, style=filled, fillcolor=lightyellow, label=");
			dot_str(id_of("class", s->classes[i].name, NULL));
			printf("];\n");
		}
		for (i = 0; i < s->ndrivers; i++) {
			putchar('\t');
			dot_str(id_of("driver", s->drivers[i].bus, s->drivers[i].name));
			printf(" [shape=component, style=filled, fillcolor=palegreen, label=");
			dot_str(s->drivers[i].name);
			printf("];\n");
		}
		for (i = 0; i < s->ndevs; i++) {
			d = &s->devs[i];
			putchar('\t');
			dot_str(id_of("device", d->path, NULL));
			printf(" [shape=box%s, label=", d->driver ? ", style=bold" : "");
			dot_str(d->name);
			printf(", tooltip=");
			dot_str(d->path);
			printf("];\n");
		}
		for (i = 0; i < nedges; i++) {
			putchar('\t');
			dot_str(edges[i].from);
			printf(" -> ");
			dot_str(edges[i].to);
			if (!strcmp(edges[i].kind, "parent")) {
				printf(" [color=black];\n");
			} else if (!strcmp(edges[i].kind, "link")) {
				printf(" [color=red, style=bold, label=");
				dot_str(edges[i].label ? edges[i].label : "link");
				printf("];\n");
			} else {
				printf(" [style=dashed, color=gray40, label=");
				dot_str(edges[i].kind);
				printf("];\n");
			}
		}
		printf("}\n");
		return 0;
	}
	printf("generation %llu seqnum %llu: ", s->generation, s->seqnum);
	printf("%d nodes (%d devices, %d buses, %d drivers, %d classes), %d edges (%d links)\n",
	       nnodes, s->ndevs, s->nbuses, s->ndrivers,
	       s->nclasses, nedges, s->nlinks);
	for (i = 0; i < s->nbuses; i++)
		printf("node bus:%s\n", esc(s->buses[i].name));
	for (i = 0; i < s->nclasses; i++)
		printf("node class:%s\n", esc(s->classes[i].name));
	for (i = 0; i < s->ndrivers; i++)
		printf("node driver:%s/%s\n", esc(s->drivers[i].bus), esc(s->drivers[i].name));
	for (i = 0; i < s->ndevs; i++)
		printf("node device:%s\n", esc(s->devs[i].path));
	for (i = 0; i < nedges; i++)
		printf("edge %s %s -> %s%s%s\n", edges[i].kind, esc(edges[i].from),
		       esc(edges[i].to), edges[i].label ? " " : "",
		       edges[i].label ? esc(edges[i].label) : "");
	return 0;
}
