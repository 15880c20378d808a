/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dmctl -- look at dmcore's model from user space (issue 14).
 * Shared declarations of the tool's files:
 *   main.c        global options, subcommand dispatch, --help
 *   util.c        reading files, errno names, messages, numbers
 *   json.c        the JSON writer (--json)
 *   snapshot.c    the parser of the root file `snapshot` (docs/snapshot.md)
 *   events.c      the reader of the root file `events`
 *   cmd_tree.c    dmctl tree
 *   cmd_graph.c   dmctl graph
 *   cmd_device.c  dmctl why, dmctl info
 *   cmd_monitor.c dmctl monitor
 *   cmd_stats.c   dmctl stats
 */
#ifndef DMCTL_H
#define DMCTL_H

#include <stddef.h>
#include <stdio.h>

#define DMCTL_DEFAULT_ROOT "/sys/kernel/debug/dmcore"

/* The kernel's spellings of these, for user space. */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define __noreturn __attribute__((noreturn))

/* Global options (main.c). */
extern const char *g_root;	/* --root, DMCTL_ROOT, or the default */
extern int g_json;		/* --json */

/* util.c */
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *root_path(const char *name);		/* g_root "/" name */
/* Read a whole file; NULL and errno set on failure. */
char *read_file(const char *path, size_t *len);
/* Exit 2 with "dmctl: MSG" (a usage error). */
__printf(1, 2) __noreturn void usage_error(const char *fmt, ...);
/* Exit 1 with "dmctl: MSG" (a failure). */
__printf(1, 2) __noreturn void fail(const char *fmt, ...);
/* A decimal number for option OPT, else a usage error. */
unsigned long long parse_number(const char *opt, const char *s);
/* "ENODEV" for 19; "E?" for an unknown one (never NULL). */
const char *errno_name(long e);
/* Decode \xHH escapes (docs/snapshot.md) into a new string. */
char *unescape(const char *s);
/* The snapshot's escaping again, for text output ("-" for NULL). */
const char *esc(const char *s);
/*
 * Generic per-subcommand option handling: --json, --root DIR, --help.
 * Returns the number of argv entries consumed (0: not a global option).
 */
int common_option(int argc, char **argv, int i, void (*help)(void));

extern int j_compact;	/* no newlines: one document per line */
/* json.c: a streaming writer with indentation; key is NULL in arrays. */
void j_obj(const char *key);
void j_arr(const char *key);
void j_end(void);		/* closes the innermost object or array */
void j_str(const char *key, const char *val);	/* NULL or "-" -> null */
void j_raw_str(const char *key, const char *val);	/* NULL -> null, "-" kept */
void j_num(const char *key, long long val);
void j_unum(const char *key, unsigned long long val);
void j_dbl(const char *key, double val);
void j_bool(const char *key, int val);
void j_null(const char *key);
void j_done(void);		/* ends the document with a newline */
void j_escape(FILE *f, const char *s);

/* snapshot.c */
/* A snapshot value written "-": none (a name "-" is written "\x2d"). */
extern const char *const dmctl_none;

struct kv {
	char *key;
	char *val;	/* unescaped */
};

struct rec {
	char *type;
	int nfix;
	char *fix[3];	/* the fixed fields, unescaped */
	int nkv;
	struct kv *kv;
};

struct dev {
	struct rec *rec;
	const char *path;	/* "/devices/soc0/uart0" */
	const char *name;	/* "uart0" */
	const char *parent, *bus, *class, *driver;	/* NULL: none */
	const char *power, *runtime, *probe, *waits, *reason, *override;
	long err;
	unsigned long long probes, probe_ns;
	int autoprobe;
	int has_probe;	/* the record has probe=: per-device probe info */
	int parent_idx;		/* -1: a root of the tree */
	int *children, nchildren;
};

struct bus {
	struct rec *rec;
	const char *name;
	int autoprobe;
	long devices, drivers;
};

struct drv {
	struct rec *rec;
	const char *bus, *name;
	long devices, probes;
	int removing;	/* removing=1: off its bus's list, still bound */
};

struct cls {
	struct rec *rec;
	const char *name;
	long devices;
};

struct link {
	struct rec *rec;
	const char *supplier, *consumer, *status, *flags;
};

struct match {
	const char *path, *driver;
	int ok;
};

struct snapshot {
	int version;
	unsigned long long generation, seqnum;
	int has_generation, has_seqnum, has_end, has_done;
	struct bus *buses; int nbuses;
	struct cls *classes; int nclasses;
	struct drv *drivers; int ndrivers;
	struct dev *devs; int ndevs;
	struct link *links; int nlinks;
	struct match *matches; int nmatches;
	long end_buses, end_classes, end_drivers, end_devices, end_links;
	long done_matches;
	char *text;		/* the raw text */
	size_t len;
};

/*
 * Read and parse ROOT/snapshot; exits 1 with a message on a failure to
 * read, a bad header, or a missing or disagreeing `end`.
 */
struct snapshot *snapshot_load(void);
/* Parse TEXT (for tests); 0 or -1 with *why set. */
int snapshot_parse(struct snapshot *s, char *text, const char **why);
/*
 * Cross-check references and per-object counts; 0 or -1 with a message
 * written into buf.
 */
int snapshot_check(const struct snapshot *s, char *buf, size_t size);
const char *rec_get(const struct rec *r, const char *key);
int find_dev_path(const struct snapshot *s, const char *path);
/* The match record of (@path, @driver): 1, 0, or -1 for none. */
int find_match(const struct snapshot *s, const char *path, const char *driver);
/*
 * Resolve a DEVPATH, tree path or unique name; exits 1 when unknown or
 * ambiguous (listing candidates).
 */
int lookup_dev(const struct snapshot *s, const char *arg);
struct bus *find_bus(const struct snapshot *s, const char *name);
struct drv *find_drv(const struct snapshot *s, const char *bus, const char *name);

/* events.c */
struct event {
	unsigned long long seqnum;
	unsigned long long missed;	/* a MISSED= record: how many */
	int is_missed;
	const char *action, *devpath, *subsystem;
	int nvars;
	char **vars;	/* "KEY=VALUE", the header's four first */
};

struct events_reader;
struct events_reader *events_open(const char *path);
/*
 * Next record: 1 got one, 0 end of file, -2 timed out (deadline_ms < 0:
 * none), -1 error (errno).
 */
int events_next(struct events_reader *r, struct event *ev, long long deadline_ms);
const char *event_var(const struct event *ev, const char *key);
long long now_ms(void);

/* subcommands */
int cmd_tree(int argc, char **argv);
int cmd_graph(int argc, char **argv);
int cmd_why(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_monitor(int argc, char **argv);
int cmd_stats(int argc, char **argv);

void help_main(void);
void help_tree(void);
void help_graph(void);
void help_why(void);
void help_info(void);
void help_monitor(void);
void help_stats(void);

#endif
