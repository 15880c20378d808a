// SPDX-License-Identifier: GPL-2.0
/*
 * dmc-fuzz: a grammar-aware fuzzer of dmcore's control file, and a holder
 * of open files for lifetime tests. A static user-space program, built on
 * the host (gcc -static -pthread) and run in the guest by
 * tests/guest/fuzz.sh and tests/guest/lifetime.sh.
 *
 *   dmc-fuzz [-s SEED] [-n WRITES] [-t THREADS] [-x CLASS,...] [-r FILE] [-k]
 *	Several writer threads write generated commands to
 *	dmcore/control, one command per write(): valid commands over a
 *	small pool of names (so that adds, deletes, links and parents hit
 *	each other), most of them mutated (tokens dropped, doubled,
 *	swapped; long names, bad numbers, control characters, no newline,
 *	two lines, writes over 4 KiB, random bytes, ...). Writer i draws
 *	from its own generator seeded with SEED + i, so a seed replays the
 *	same command streams (the interleaving differs unless -t 1). A
 *	walker thread reads the tree, stats and events meanwhile. Then:
 *	  errno    every write is accepted (returns its length) or fails
 *		   with an errno of README's control table; "suspend"
 *		   may also fail with an errno below 512 that an accepted
 *		   suspend=fail: configured. Anything else (ERESTART*,
 *		   EPROBE_DEFER, ENOMEM, ENODEV, EINTR, a short write) fails.
 *	  ledger   for every bus, class and driver name, present in the
 *		   tree exactly when its accepted adds outnumber its accepted
 *		   deletes (they cannot be removed any other way), and never
 *		   by more than one; for every device name present, an
 *		   accepted add; a device never added with parent= is present
 *		   exactly when its adds outnumber its deletes.
 *	  tree     the tree's directories, classified by place (bus, driver,
 *		   kset, class, device, dir), equal stats' objects_<type>
 *		   counts and objects_live (retried for up to 20 s while
 *		   deferred work finishes).
 *	  teardown deleting every object the run made (devices by depth,
 *		   then drivers, classes, buses) succeeds, and afterwards
 *		   the tree and every stats count are as before the run.
 *	Results go to stdout and to FILE (-r) as lines "ok TEXT" or
 *	"notok TEXT", for the guest script's TAP. Exit status 0 when all
 *	are ok.
 *	-x turns off classes of input, to get past a known defect:
 *	  treenames  names that are also names of tree entries (power,
 *		     uevent, driver, subsystem, ...) and attribute keys that
 *		     are device names;
 *	  bigerrno   ERRNO values of 512..4095 in probe=fail:/suspend=fail:
 *		     (kernel-internal codes such as ERESTARTSYS, 512);
 *	  suspend    the suspend and resume commands;
 *	  random     writes of random bytes;
 *	  defer      probe=defer:NAME (named deferrals).
 *	-k copies every command, before it is written, to the kernel log
 *	(/dev/kmsg; boot with printk.devkmsg=on), so that a crash's report
 *	follows the commands that led to it.
 *
 *   dmc-fuzz hold [-T SECONDS] [-w DATA] [-e ERRNO,...] FILE...
 *	Opens every FILE once (read-write, read-only or write-only, as its
 *	mode allows) and, until SECONDS pass or SIGTERM/SIGINT comes, reads
 *	each (from the start only once: the files do not seek) and writes
 *	DATA to the writable ones. Prints per file the reads, writes and
 *	errnos seen and the longest call; exits 1 when an errno not in the
 *	list (names such as ENODEV, or numbers) was seen or a call took
 *	more than 10 s, 2 when a file cannot be opened.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define DMC_DIR		"/sys/kernel/debug/dmcore"
#define CMD_MAX		9000	/* longer than a page, for E2BIG */
#define NAME_MAX_DMC	255
#define MAX_THREADS	16
#define HIST		8	/* accepted commands remembered per name */
#define MAX_UNEXPECTED	30	/* examples printed, 3 per errno */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const char *dmc_dir = DMC_DIR;

/* ---- small helpers ---------------------------------------------------- */

struct rng {
	unsigned long long s;
};

static unsigned long long rnd(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545F4914F6CDD1DULL;
}

static unsigned int below(struct rng *r, unsigned int n)
{
	return n ? (unsigned int)(rnd(r) % n) : 0;
}

/* True with probability pct percent. */
static int chance(struct rng *r, unsigned int pct)
{
	return below(r, 100) < pct;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *xmalloc(size_t n)
{
	void *p = calloc(1, n);

	if (!p) {
		perror("dmc-fuzz: calloc");
		exit(3);
	}
	return p;
}

static char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p) {
		perror("dmc-fuzz: strdup");
		exit(3);
	}
	return p;
}

/* Print at most @max bytes of @s with C escapes, for the log. */
static void print_escaped(FILE *f, const char *s, size_t len, size_t max)
{
	size_t i;

	for (i = 0; i < len && i < max; i++) {
		unsigned char c = s[i];

		if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c == '\\')
			fputs("\\\\", f);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	if (len > max)
		fprintf(f, "...(%zu bytes)", len);
}

static const struct {
	int e;
	const char *name;
} errnames[] = {
	{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { EINTR, "EINTR" },
	{ EIO, "EIO" }, { E2BIG, "E2BIG" }, { EAGAIN, "EAGAIN" },
	{ ENOMEM, "ENOMEM" }, { EFAULT, "EFAULT" }, { EBUSY, "EBUSY" },
	{ EEXIST, "EEXIST" }, { ENODEV, "ENODEV" }, { EINVAL, "EINVAL" },
	{ ENOSPC, "ENOSPC" }, { ESPIPE, "ESPIPE" }, { ERANGE, "ERANGE" },
	{ ENAMETOOLONG, "ENAMETOOLONG" }, { ENXIO, "ENXIO" },
	{ EACCES, "EACCES" }, { ENOTDIR, "ENOTDIR" }, { EISDIR, "EISDIR" },
	{ ETIMEDOUT, "ETIMEDOUT" }, { EOPNOTSUPP, "EOPNOTSUPP" },
	{ 512, "ERESTARTSYS" }, { 513, "ERESTARTNOINTR" },
	{ 514, "ERESTARTNOHAND" }, { 516, "ERESTART_RESTARTBLOCK" },
	{ 517, "EPROBE_DEFER" }, { 524, "ENOTSUPP" },
};

static const char *errname(int e)
{
	static __thread char buf[16];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(errnames); i++)
		if (errnames[i].e == e)
			return errnames[i].name;
	snprintf(buf, sizeof(buf), "errno%d", e);
	return buf;
}

static int errnum(const char *s)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(errnames); i++)
		if (!strcmp(errnames[i].name, s))
			return errnames[i].e;
	return atoi(s);
}

/* ---- results ---------------------------------------------------------- */

static FILE *result_file;
static int results_failed;

static void result(int good, const char *fmt, ...)
{
	va_list ap;
	char buf[1024];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	printf("RESULT %s %s\n", good ? "ok" : "notok", buf);
	if (result_file) {
		fprintf(result_file, "%s %s\n", good ? "ok" : "notok", buf);
		fflush(result_file);
	}
	if (!good)
		results_failed++;
	fflush(stdout);
}

/* ---- the ledger: accepted adds and deletes by kind and name ------------ */

enum kind { K_BUS, K_CLASS, K_DRIVER, K_DEVICE, K_NR };
static const char * const kind_names[K_NR] = { "bus", "class", "driver", "device" };

struct entry {
	struct entry *next;
	enum kind kind;
	char *name;
	unsigned long adds, dels;
	int parent_add;		/* a device once added with parent= */
	char *path;		/* a device's path at its last accepted add */
	char *hist[HIST];	/* the last accepted commands naming it */
	unsigned int nhist;
};

#define LEDGER_BUCKETS 1024
static struct entry *ledger[LEDGER_BUCKETS];
static pthread_mutex_t ledger_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned int hash(enum kind k, const char *s)
{
	unsigned int h = 2166136261u ^ k;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h % LEDGER_BUCKETS;
}

/* The entry of (@k, @name), made on first use; ledger_lock held. */
static struct entry *ledger_get(enum kind k, const char *name, int create)
{
	unsigned int h = hash(k, name);
	struct entry *e;

	for (e = ledger[h]; e; e = e->next)
		if (e->kind == k && !strcmp(e->name, name))
			return e;
	if (!create)
		return NULL;
	e = xmalloc(sizeof(*e));
	e->kind = k;
	e->name = xstrdup(name);
	e->next = ledger[h];
	ledger[h] = e;
	return e;
}

/* A device's last known path, for generating commands; or NULL. */
static char *known_path(const char *name, char *buf, size_t size)
{
	struct entry *e;
	char *ret = NULL;

	pthread_mutex_lock(&ledger_lock);
	e = ledger_get(K_DEVICE, name, 0);
	if (e && e->path) {
		snprintf(buf, size, "%s", e->path);
		ret = buf;
	}
	pthread_mutex_unlock(&ledger_lock);
	return ret;
}

/* Errnos an accepted suspend=fail: configured (below 512), by bit. */
static unsigned char suspend_errs[512];

/*
 * Record an accepted command (a copy of its bytes, without the newline):
 * which object it added or deleted.
 */
static void remember(struct entry *e, const char *cmd, size_t len, int writer)
{
	char *h = xmalloc(160);
	FILE *m = fmemopen(h, 159, "w");

	if (m) {
		fprintf(m, "w%d: ", writer);
		print_escaped(m, cmd, len, 120);
		fclose(m);
	}
	free(e->hist[e->nhist % HIST]);
	e->hist[e->nhist++ % HIST] = h;
}

static void ledger_accept(const char *cmd, size_t len, int writer)
{
	char *buf = xmalloc(len + 1), *tok[40], *p, *parent = NULL, *cls = NULL;
	char *bus = NULL, *path, *save = NULL;
	int n = 0, i, k = -1;
	struct entry *e;

	memcpy(buf, cmd, len);
	buf[len] = '\0';
	/* strtok_r(): four writers parse at once, outside ledger_lock. */
	for (p = strtok_r(buf, " \t\n", &save); p && n < 40;
	     p = strtok_r(NULL, " \t\n", &save))
		tok[n++] = p;
	if (n < 3)
		goto out;
	for (i = 0; i < K_NR; i++)
		if (!strcmp(tok[0], kind_names[i]))
			k = i;
	if (k < 0)
		goto out;
	pthread_mutex_lock(&ledger_lock);
	if (!strcmp(tok[1], "del")) {
		if (k == K_DEVICE) {
			p = tok[2] + strlen(tok[2]);
			while (p > tok[2] && p[-1] == '/')
				*--p = '\0';
			p = strrchr(tok[2], '/');
			p = p ? p + 1 : tok[2];
		} else {
			p = tok[2];
		}
		e = ledger_get(k, p, 1);
		e->dels++;
		remember(e, cmd, len, writer);
	} else if (!strcmp(tok[1], "add")) {
		e = ledger_get(k, tok[2], 1);
		e->adds++;
		remember(e, cmd, len, writer);
		for (i = 3; i < n; i++) {
			if (!strncmp(tok[i], "parent=", 7))
				parent = tok[i] + 7;
			else if (!strncmp(tok[i], "class=", 6))
				cls = tok[i] + 6;
			else if (!strncmp(tok[i], "bus=", 4))
				bus = tok[i] + 4;
			else if (k == K_DRIVER &&
				 !strncmp(tok[i], "suspend=fail:", 13) &&
				 atoi(tok[i] + 13) > 0 && atoi(tok[i] + 13) < 512)
				__atomic_store_n(&suspend_errs[atoi(tok[i] + 13)], 1,
						 __ATOMIC_RELAXED);
		}
		if (k == K_DEVICE) {
			path = xmalloc(strlen(tok[2]) + (parent ? strlen(parent) : 0) +
				       (cls ? strlen(cls) : 0) + 32);
			if (parent) {
				e->parent_add = 1;
				sprintf(path, "%s%s/%s", *parent == '/' ? "" : "/",
					parent, tok[2]);
			} else if (cls && !bus) {
				sprintf(path, "/devices/virtual/%s/%s", cls, tok[2]);
			} else {
				sprintf(path, "/devices/%s", tok[2]);
			}
			free(e->path);
			e->path = path;
		}
	}
	pthread_mutex_unlock(&ledger_lock);
out:
	free(buf);
}

/* ---- the generator ---------------------------------------------------- */

static int opt_treenames = 1, opt_bigerrno = 1, opt_suspend = 1, opt_random = 1;
static int opt_defer = 1, opt_kmsg;
static int kmsg_fd = -1;

static const char * const bus_pool[] = { "b0", "b1", "b2", "b3" };
static const char * const class_pool[] = { "c0", "c1", "c2" };
static const char * const drv_pool[] = { "r0", "r1", "r2", "r3", "r4", "r5" };
static const char * const dev_pool[] = {
	"d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11",
};

/* Names of tree entries: directories, files and links the export makes. */
static const char * const tree_pool[] = {
	"power", "uevent", "driver", "subsystem", "devices", "drivers", "virtual",
	"bus", "class", "state", "bind", "unbind", "drivers_probe",
	"drivers_autoprobe", "platform", "pci", "control", "stats", "events",
	".removed",
};

static const char *pick(struct rng *r, const char * const *pool, size_t n)
{
	if (opt_treenames && chance(r, 4))
		return tree_pool[below(r, ARRAY_SIZE(tree_pool))];
	return pool[below(r, n)];
}

#define BUSNAME(r)	pick(r, bus_pool, ARRAY_SIZE(bus_pool))
#define CLASSNAME(r)	pick(r, class_pool, ARRAY_SIZE(class_pool))
#define DRVNAME(r)	pick(r, drv_pool, ARRAY_SIZE(drv_pool))
#define DEVNAME(r)	pick(r, dev_pool, ARRAY_SIZE(dev_pool))

/* A command being built: its bytes and its tokens' starts. */
struct cmd {
	char b[CMD_MAX + 64];
	size_t len;
};

static void add(struct cmd *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (c->len >= CMD_MAX)
		return;
	va_start(ap, fmt);
	n = vsnprintf(c->b + c->len, CMD_MAX - c->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		c->len += (size_t)n < CMD_MAX - c->len ? (size_t)n : CMD_MAX - c->len - 1;
}

/* A device path: known, or guessed from the pool. */
static const char *gen_path(struct rng *r, char *buf, size_t size)
{
	const char *d = DEVNAME(r);
	const char *p;

	if (chance(r, 75)) {
		p = known_path(d, buf, size);
		if (p) {
			if (chance(r, 10))
				return p + 1;	/* without the leading '/' */
			return p;
		}
	}
	switch (below(r, 4)) {
	case 0:
		snprintf(buf, size, "/devices/%s/%s", d, DEVNAME(r));
		break;
	case 1:
		snprintf(buf, size, "/devices/virtual/%s/%s", CLASSNAME(r), d);
		break;
	case 2:
		snprintf(buf, size, "/devices/platform/%s", d);
		break;
	default:
		snprintf(buf, size, "/devices/%s", d);
		break;
	}
	return buf;
}

static unsigned int gen_errno(struct rng *r)
{
	static const unsigned int small[] = { 5, 22, 12, 19, 6, 16, 110, 95, 1, 2 };

	if (opt_bigerrno && chance(r, 8))
		return 512 + below(r, 20);
	if (chance(r, 5))
		return 517;		/* EPROBE_DEFER: an unnamed deferral */
	return small[below(r, ARRAY_SIZE(small))];
}

/* Is the command "suspend", with blanks around it as the grammar allows? */
static int is_suspend(const char *b, size_t len)
{
	size_t i = 0;

	while (i < len && (b[i] == ' ' || b[i] == '\t'))
		i++;
	if (len - i < 8 || memcmp(b + i, "suspend", 7))
		return 0;
	for (i += 7; i < len && b[i] != '\n'; i++)
		if (b[i] != ' ' && b[i] != '\t')
			return 0;
	return 1;
}

/* A suspend= errno; one below 512 is then allowed from "suspend". */
static unsigned int suspend_errno(struct rng *r)
{
	unsigned int e = gen_errno(r);

	if (e < 512)
		__atomic_store_n(&suspend_errs[e], 1, __ATOMIC_RELAXED);
	return e;
}

static void gen_valid(struct rng *r, struct cmd *c)
{
	char path[600], path2[600];
	unsigned int i, n;

	c->len = 0;
	switch (below(r, 100)) {
	case 0 ... 7:
		add(c, "bus add %s", BUSNAME(r));
		break;
	case 8 ... 11:
		add(c, "bus del %s", BUSNAME(r));
		break;
	case 12 ... 16:
		add(c, "class add %s", CLASSNAME(r));
		break;
	case 17 ... 19:
		add(c, "class del %s", CLASSNAME(r));
		break;
	case 20 ... 31:
		add(c, "driver add %s bus=%s", DRVNAME(r), BUSNAME(r));
		if (chance(r, 40))
			add(c, " match=%s", chance(r, 50) ? "d*" :
			    chance(r, 50) ? DEVNAME(r) : "*[13579]");
		if (chance(r, 50)) {
			switch (below(r, 3)) {
			case 0:
				add(c, " probe=ok");
				break;
			case 1:
				add(c, " probe=fail:%u", gen_errno(r));
				break;
			default:
				if (opt_defer)
					add(c, " probe=defer:%s", chance(r, 50) ?
					    DEVNAME(r) : DRVNAME(r));
				break;
			}
		}
		if (chance(r, 20))
			add(c, " delay_ms=%u", below(r, 3));
		if (chance(r, 20))
			add(c, " async");
		if (chance(r, 20)) {
			if (chance(r, 50))
				add(c, " suspend=ok");
			else
				add(c, " suspend=fail:%u", suspend_errno(r));
		}
		break;
	case 32 ... 36:
		add(c, "driver del %s", DRVNAME(r));
		break;
	case 37 ... 64:
		add(c, "device add %s", DEVNAME(r));
		if (chance(r, 50))
			add(c, " bus=%s", BUSNAME(r));
		if (chance(r, 35))
			add(c, " parent=%s", gen_path(r, path, sizeof(path)));
		if (chance(r, 30))
			add(c, " class=%s", CLASSNAME(r));
		n = chance(r, 30) ? below(r, 4) : 0;
		for (i = 0; i < n; i++)
			add(c, " attr=%s=%s", opt_treenames && chance(r, 20) ?
			    DEVNAME(r) : chance(r, 50) ? "a0" : "a1",
			    chance(r, 50) ? "v" : "x=y");
		break;
	case 65 ... 79:
		add(c, "device del %s", gen_path(r, path, sizeof(path)));
		break;
	case 80 ... 89:
		add(c, "link add %s %s", gen_path(r, path, sizeof(path)),
		    gen_path(r, path2, sizeof(path2)));
		break;
	case 90 ... 95:
		add(c, "link del %s %s", gen_path(r, path, sizeof(path)),
		    gen_path(r, path2, sizeof(path2)));
		break;
	case 96 ... 98:
		if (opt_suspend) {
			add(c, chance(r, 50) ? "suspend" : "resume");
			break;
		}
		add(c, "device del %s", gen_path(r, path, sizeof(path)));
		break;
	default:
		add(c, "settle");
		break;
	}
	c->b[c->len++] = '\n';
}

/* Token boundaries of a command: start and end of each. */
static int tokens(struct cmd *c, size_t *st, size_t *en, int max)
{
	size_t i = 0;
	int n = 0;

	while (i < c->len && n < max) {
		while (i < c->len && (c->b[i] == ' ' || c->b[i] == '\t' ||
				      c->b[i] == '\n'))
			i++;
		if (i >= c->len)
			break;
		st[n] = i;
		while (i < c->len && c->b[i] != ' ' && c->b[i] != '\t' &&
		       c->b[i] != '\n')
			i++;
		en[n++] = i;
	}
	return n;
}

/* Replace bytes [s, e) with @rep of @rlen bytes. */
static void cmd_splice(struct cmd *c, size_t s, size_t e, const char *rep, size_t rlen)
{
	if (c->len - (e - s) + rlen > CMD_MAX)
		return;
	memmove(c->b + s + rlen, c->b + e, c->len - e);
	memcpy(c->b + s, rep, rlen);
	c->len = c->len - (e - s) + rlen;
}

static void mutate(struct rng *r, struct cmd *c)
{
	size_t st[40], en[40], len, i;
	char tmp[CMD_MAX];
	int n = tokens(c, st, en, 40), a, b;
	struct cmd other;

	switch (below(r, 18)) {
	case 0:		/* drop a token */
		if (n) {
			a = below(r, n);
			cmd_splice(c, st[a], en[a], "", 0);
		}
		break;
	case 1:		/* duplicate a token */
		if (n) {
			a = below(r, n);
			len = en[a] - st[a];
			tmp[0] = ' ';
			memcpy(tmp + 1, c->b + st[a], len);
			cmd_splice(c, en[a], en[a], tmp, len + 1);
		}
		break;
	case 2:		/* swap two tokens */
		if (n >= 2) {
			a = below(r, n);
			b = below(r, n);
			if (a > b) {
				int t = a;

				a = b;
				b = t;
			}
			if (a != b) {
				char ta[CMD_MAX], tb[CMD_MAX];
				size_t la = en[a] - st[a], lb = en[b] - st[b];

				memcpy(ta, c->b + st[a], la);
				memcpy(tb, c->b + st[b], lb);
				cmd_splice(c, st[b], en[b], ta, la);
				cmd_splice(c, st[a], en[a], tb, lb);
			}
		}
		break;
	case 3:		/* a long name: around the 255-byte limit */
		if (n >= 3) {
			a = 2 + below(r, n - 2);
			len = 250 + below(r, 12);
			if (chance(r, 20))
				len = 300 + below(r, 4000);
			if (len > sizeof(tmp))
				len = sizeof(tmp);
			memset(tmp, 'n', len);
			if (chance(r, 50)) {	/* keep the option's key */
				char *eq = memchr(c->b + st[a], '=', en[a] - st[a]);

				if (eq)
					st[a] = eq + 1 - c->b;
			}
			cmd_splice(c, st[a], en[a], tmp, len);
		}
		break;
	case 4: {	/* a bad number */
		static const char * const bad[] = {
			"-1", "0", "10001", "99999999999999999999", "0x10", "1e3",
			"4096", "4095", "", "+5", " 5", "5a", "00005",
		};
		char *p = memmem(c->b, c->len, "delay_ms=", 9);
		size_t off;

		if (!p)
			p = memmem(c->b, c->len, "fail:", 5);
		if (!p)
			break;
		off = p - c->b + (p[0] == 'd' ? 9 : 5);
		for (i = off; i < c->len && c->b[i] >= '0' && c->b[i] <= '9'; i++)
			;
		a = below(r, ARRAY_SIZE(bad));
		/*
		 * 4095 is valid for fail: (-x bigerrno leaves it out), never
		 * for delay_ms (a 10 s probe would stall every writer).
		 */
		if (!strcmp(bad[a], "4095") && (p[0] == 'd' || !opt_bigerrno))
			a = 0;
		cmd_splice(c, off, i, bad[a], strlen(bad[a]));
		break;
	}
	case 5:		/* a control character */
		tmp[0] = chance(r, 20) ? 0x7f : below(r, 32);
		i = below(r, c->len + 1);
		cmd_splice(c, i, i, tmp, 1);
		break;
	case 6:		/* no trailing newline */
		if (c->len && c->b[c->len - 1] == '\n')
			c->len--;
		break;
	case 7:		/* two commands in one write */
		gen_valid(r, &other);
		if (c->len + other.len < CMD_MAX) {
			memcpy(c->b + c->len, other.b, other.len);
			c->len += other.len;
		}
		break;
	case 8:		/* a write of a page or more */
		len = 4090 + below(r, 20);
		if (chance(r, 30))
			len = 4096 + below(r, CMD_MAX - 4200);
		if (c->len && c->b[c->len - 1] == '\n')
			c->len--;
		while (c->len < len - 1)
			c->b[c->len++] = chance(r, 50) ? ' ' : '\t';
		c->b[c->len++] = '\n';
		break;
	case 9:		/* flip a byte */
		if (c->len) {
			i = below(r, c->len);
			c->b[i] = (char)rnd(r);
		}
		break;
	case 10:	/* '/' or '=' or "." in a name */
		if (n >= 3) {
			static const char * const bad[] = { "/", "=", ".", "..", "a/b", "x=" };

			a = 2 + below(r, n - 2);
			b = below(r, ARRAY_SIZE(bad));
			if (b < 2)
				cmd_splice(c, en[a], en[a], bad[b], 1);
			else
				cmd_splice(c, st[a], en[a], bad[b], strlen(bad[b]));
		}
		break;
	case 11:	/* an unknown option or verb */
		i = n ? en[n - 1] : 0;
		cmd_splice(c, i, i, chance(r, 50) ? " foo=1" : " bogus", 6);
		if (chance(r, 30))
			cmd_splice(c, 0, n ? en[0] : 0, "dev", 3);
		break;
	case 12:	/* more than 16 attributes, or a value over 255 bytes */
		if (c->len && c->b[c->len - 1] == '\n')
			c->len--;
		if (chance(r, 50)) {
			for (a = 0; a < 17; a++)
				add(c, " attr=k%d=v", a);
		} else {
			add(c, " attr=k=");
			len = 250 + below(r, 10);
			while (len--)
				add(c, "v");
		}
		c->b[c->len++] = '\n';
		break;
	case 13:	/* extra spaces and tabs (still valid) */
		for (a = n - 1; a >= 0; a--)
			if (chance(r, 50))
				cmd_splice(c, st[a], st[a], chance(r, 50) ? "\t " : "  ", 2);
		break;
	case 14:	/* truncate the write anywhere */
		c->len = below(r, c->len + 1);
		break;
	case 15:	/* an empty value: bus= class= parent= */
		if (n >= 3) {
			char *eq;

			a = 2 + below(r, n - 2);
			eq = memchr(c->b + st[a], '=', en[a] - st[a]);
			if (eq)
				cmd_splice(c, eq + 1 - c->b, en[a], "", 0);
		}
		break;
	case 16:	/* high bytes in a name */
		if (n >= 3) {
			a = 2 + below(r, n - 2);
			tmp[0] = (char)(0x80 | below(r, 128));
			cmd_splice(c, en[a], en[a], tmp, 1);
		}
		break;
	default:	/* a path with an empty or odd component */
		if (n >= 3) {
			static const char * const bad[] = {
				"/devices//d0", "devices", "/", "//", "/bus/b0",
				"/devices/d0/", "/devices/./d0", "/class/c0/d0",
			};

			a = 2 + below(r, n - 2);
			b = below(r, ARRAY_SIZE(bad));
			cmd_splice(c, st[a], en[a], bad[b], strlen(bad[b]));
		}
		break;
	}
}

static void gen(struct rng *r, struct cmd *c)
{
	unsigned int m;

	if (opt_random && chance(r, 5)) {
		c->len = below(r, chance(r, 10) ? CMD_MAX : 300);
		for (m = 0; m < c->len; m++)
			c->b[m] = (char)rnd(r);
		if (chance(r, 50) && c->len)
			c->b[c->len - 1] = '\n';
		return;
	}
	gen_valid(r, c);
	if (chance(r, 35))
		return;		/* as generated */
	m = 1 + below(r, 3);
	while (m--)
		mutate(r, c);
}

/* ---- the writers ------------------------------------------------------ */

/* README's control table: what any rejected command may fail with. */
static int table_errno(int e)
{
	return e == E2BIG || e == EINVAL || e == ENAMETOOLONG || e == ENOENT ||
	       e == EEXIST || e == EPERM || e == EBUSY;
}

struct writer {
	pthread_t th;
	int id;
	struct rng rng;
	unsigned long writes, accepted, rejected, unexpected;
	unsigned long by_errno[4096];
};

static unsigned long total_writes;
static unsigned long writes_done;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long unexpected_shown;
static unsigned char shown_by_errno[4096];
static int stop_walk;	/* __atomic */
static unsigned long long seed;

static void report_unexpected(struct writer *w, unsigned long idx,
			      const struct cmd *c, ssize_t ret, int e)
{
	pthread_mutex_lock(&out_lock);
	if (unexpected_shown < MAX_UNEXPECTED && (ret >= 0 || e <= 0 || e >= 4096 ||
						  shown_by_errno[e]++ < 3)) {
		unexpected_shown++;
		printf("UNEXPECTED writer %d write %lu: ", w->id, idx);
		if (ret < 0)
			printf("%s (%d)", errname(e), e);
		else
			printf("returned %zd of %zu", ret, c->len);
		printf(" for '");
		print_escaped(stdout, c->b, c->len, 300);
		printf("'\n");
		fflush(stdout);
	}
	pthread_mutex_unlock(&out_lock);
}

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	static struct cmd cmds[MAX_THREADS];
	struct cmd *c = &cmds[w->id];
	char path[256];
	unsigned long idx;
	ssize_t ret;
	int fd, e;

	snprintf(path, sizeof(path), "%s/control", dmc_dir);
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		perror(path);
		return NULL;
	}
	for (;;) {
		idx = __atomic_fetch_add(&writes_done, 1, __ATOMIC_RELAXED);
		if (idx >= total_writes)
			break;
		if (idx && !(idx % 10000))
			printf("dmc-fuzz: %lu writes\n", idx);
		gen(&w->rng, c);
		if (kmsg_fd >= 0) {
			char line[400];
			int k = snprintf(line, sizeof(line), "dmc-fuzz: w%d #%lu: ",
					 w->id, idx);
			FILE *m = fmemopen(line + k, sizeof(line) - k, "w");

			if (m) {
				print_escaped(m, c->b, c->len, 200);
				fclose(m);
			}
			if (write(kmsg_fd, line, strlen(line)) < 0)
				kmsg_fd = -1;
		}
		ret = write(fd, c->b, c->len);
		e = errno;
		w->writes++;
		if (ret >= 0 && (size_t)ret == c->len) {
			w->accepted++;
			if (c->len)
				ledger_accept(c->b, c->len, w->id);
			continue;
		}
		if (ret >= 0) {
			w->unexpected++;
			report_unexpected(w, idx, c, ret, 0);
			continue;
		}
		w->rejected++;
		if (e > 0 && e < 4096)
			w->by_errno[e]++;
		if (table_errno(e))
			continue;
		/*
		 * "suspend" (leading blanks allowed, as the grammar does) may
		 * fail with what a driver's suspend= returns.
		 */
		if (e > 0 && e < 512 && is_suspend(c->b, c->len) &&
		    __atomic_load_n(&suspend_errs[e], __ATOMIC_RELAXED))
			continue;
		w->unexpected++;
		report_unexpected(w, idx, c, ret, e);
	}
	close(fd);
	return NULL;
}

/*
 * Meanwhile: walk the tree and read its files, read stats, and read the
 * event log without blocking, checking that SEQNUMs only grow.
 */
static unsigned long walk_reads, walk_errors, ev_records, ev_bad;

static void walk_read(const char *dir, int depth)
{
	char p[4096], buf[4096];
	struct dirent *de;
	struct stat st;
	DIR *d;
	int fd;

	if (depth > 40 || __atomic_load_n(&stop_walk, __ATOMIC_RELAXED))
		return;
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d)) && !__atomic_load_n(&stop_walk, __ATOMIC_RELAXED)) {
		if (de->d_name[0] == '.')
			continue;
		if (depth == 0 && (!strcmp(de->d_name, "events") ||
				   !strcmp(de->d_name, "control")))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
		if (lstat(p, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			walk_read(p, depth + 1);
		} else if (S_ISREG(st.st_mode) && (st.st_mode & 0444)) {
			fd = open(p, O_RDONLY | O_NONBLOCK);
			if (fd < 0)
				continue;
			if (read(fd, buf, sizeof(buf)) < 0 && errno != ENODEV &&
			    errno != EIO)
				walk_errors++;
			walk_reads++;
			close(fd);
		}
	}
	closedir(d);
}

/*
 * One line of the events file: count a record at its SEQNUM= line and
 * check that SEQNUMs grow. Lines are whole: a record may be split
 * across two reads, so the caller keeps what follows the last newline.
 */
static void walker_line(const char *line, unsigned long long *last)
{
	unsigned long long s;

	if (strncmp(line, "SEQNUM=", 7))
		return;
	s = strtoull(line + 7, NULL, 10);
	if (s <= *last)
		ev_bad++;
	*last = s;
	ev_records++;
}

static void *walker_main(void *arg)
{
	char path[256], buf[65536 + 1];
	unsigned long long last = 0;
	size_t have = 0;	/* bytes of an unfinished line at buf[0] */
	char *line, *nl;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/events", dmc_dir);
	fd = open(path, O_RDONLY | O_NONBLOCK);
	while (!__atomic_load_n(&stop_walk, __ATOMIC_RELAXED)) {
		walk_read(dmc_dir, 0);
		usleep(200000);
		if (fd < 0)
			continue;
		while ((n = read(fd, buf + have, sizeof(buf) - 1 - have)) > 0) {
			have += n;
			buf[have] = '\0';
			line = buf;
			while ((nl = strchr(line, '\n'))) {
				*nl = '\0';
				walker_line(line, &last);
				line = nl + 1;
			}
			have -= line - buf;
			if (have == sizeof(buf) - 1)
				have = 0;	/* a line longer than the buffer: drop it */
			memmove(buf, line, have);
		}
		usleep(20000);
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* ---- the tree and stats ----------------------------------------------- */

enum otype { T_KSET, T_DIR, T_BUS, T_DRIVER, T_DEVICE, T_CLASS, T_NR };
static const char * const otype_names[T_NR] = {
	"kset", "dir", "bus", "driver", "device", "class",
};

/* A directory of the tree that is a kobject. */
struct obj {
	char *path;		/* relative to dmc_dir, e.g. "bus/b0" */
	enum otype type;
	int depth;
};

struct tree {
	struct obj *o;
	size_t n, cap;
	unsigned long counts[T_NR];
	unsigned long unknown;	/* directories of no known kind */
};

static void tree_add(struct tree *t, const char *path, enum otype type, int depth)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->o = realloc(t->o, t->cap * sizeof(*t->o));
		if (!t->o) {
			perror("dmc-fuzz: realloc");
			exit(3);
		}
	}
	t->o[t->n].path = xstrdup(path);
	t->o[t->n].type = type;
	t->o[t->n].depth = depth;
	t->n++;
	t->counts[type]++;
}

static void tree_free(struct tree *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->o[i].path);
	free(t->o);
	memset(t, 0, sizeof(*t));
}

static int has_file(const char *dir, const char *name)
{
	char p[8192];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s/%s", dmc_dir, dir, name);
	return !lstat(p, &st) && S_ISREG(st.st_mode);
}

/*
 * Walk @rel (a directory relative to dmc_dir) and classify its
 * subdirectories by place: devices/ holds devices (a "uevent" file) with
 * their "power" group directories, and glue directories ("dir");
 * bus/<bus>/ has the ksets devices/ and drivers/, and drivers/<drv>/;
 * class/<class>/ holds only links.
 */
static void tree_walk(struct tree *t, const char *rel, int depth, int area)
{
	char p[8192], sub[4096];
	struct dirent *de;
	struct stat st;
	enum otype type;
	DIR *d;

	snprintf(p, sizeof(p), "%s/%s", dmc_dir, rel);
	d = opendir(p);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (depth == 0 && !strcmp(de->d_name, ".removed"))
			continue;
		snprintf(sub, sizeof(sub), "%s%s%s", rel, *rel ? "/" : "", de->d_name);
		snprintf(p, sizeof(p), "%s/%s", dmc_dir, sub);
		if (lstat(p, &st) || !S_ISDIR(st.st_mode))
			continue;
		if (depth == 0) {
			/* devices, bus, class: the roots */
			type = T_KSET;
			area = !strcmp(de->d_name, "devices") ? 1 :
			       !strcmp(de->d_name, "bus") ? 2 :
			       !strcmp(de->d_name, "class") ? 3 : 0;
			if (!area) {
				t->unknown++;
				printf("tree: unknown directory %s\n", sub);
				continue;
			}
		} else if (area == 1) {
			if (has_file(sub, "uevent"))
				type = T_DEVICE;
			else if (!strcmp(de->d_name, "power") && has_file(rel, "uevent"))
				continue;	/* a device's power group */
			else
				type = T_DIR;
		} else if (area == 2) {
			if (depth == 1) {
				type = T_BUS;
			} else if (depth == 2 && (!strcmp(de->d_name, "devices") ||
						  !strcmp(de->d_name, "drivers"))) {
				type = T_KSET;
			} else if (depth == 3 && !strcmp(strrchr(rel, '/') + 1, "drivers")) {
				type = T_DRIVER;
			} else {
				t->unknown++;
				printf("tree: unknown directory %s\n", sub);
				continue;
			}
		} else {
			if (depth == 1) {
				type = T_CLASS;
			} else {
				t->unknown++;
				printf("tree: unknown directory %s\n", sub);
				continue;
			}
		}
		tree_add(t, sub, type, depth);
		tree_walk(t, sub, depth + 1, area);
	}
	closedir(d);
}

static void tree_read(struct tree *t)
{
	memset(t, 0, sizeof(*t));
	tree_walk(t, "", 0, 0);
}

struct stats {
	unsigned long live, counts[T_NR], other, misuse;
	int ok;
};

static void stats_read(struct stats *s)
{
	char path[256], line[256], key[128];
	unsigned long v;
	FILE *f;
	int i;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "%s/stats", dmc_dir);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%127s %lu", key, &v) != 2)
			continue;
		if (!strcmp(key, "objects_live")) {
			s->live = v;
			s->ok = 1;
		} else if (!strcmp(key, "misuse_reports")) {
			s->misuse = v;
		} else if (!strncmp(key, "objects_", 8)) {
			for (i = 0; i < T_NR; i++)
				if (!strcmp(key + 8, otype_names[i]))
					break;
			if (i < T_NR)
				s->counts[i] = v;
			else
				s->other += v;
		}
	}
	fclose(f);
}

static void stats_print(const char *what, const struct stats *s)
{
	int i;

	printf("%s: live %lu", what, s->live);
	for (i = 0; i < T_NR; i++)
		printf(" %s %lu", otype_names[i], s->counts[i]);
	printf(" other %lu misuse %lu\n", s->other, s->misuse);
}

static void tree_print(const char *what, const struct tree *t)
{
	unsigned long sum = 0;
	int i;

	printf("%s: dirs", what);
	for (i = 0; i < T_NR; i++) {
		printf(" %s %lu", otype_names[i], t->counts[i]);
		sum += t->counts[i];
	}
	printf(" (sum %lu) unknown %lu\n", sum, t->unknown);
}

/* The tree's objects agree with stats, by type and in total. */
static int tree_matches_stats(const struct tree *t, const struct stats *s)
{
	unsigned long sum = 0;
	int i;

	if (!s->ok || t->unknown || s->other)
		return 0;
	for (i = 0; i < T_NR; i++) {
		if (t->counts[i] != s->counts[i])
			return 0;
		sum += t->counts[i];
	}
	return sum == s->live;
}

/* Wait (up to @secs) for the tree and stats to agree; leaves both read. */
static int settle_compare(struct tree *t, struct stats *s, int secs)
{
	double end = now_s() + secs;

	for (;;) {
		tree_read(t);
		stats_read(s);
		if (tree_matches_stats(t, s) || now_s() > end)
			return tree_matches_stats(t, s);
		tree_free(t);
		usleep(250000);
	}
}

static int ctl_write(const char *fmt, ...)
{
	char path[256], buf[CMD_MAX];
	va_list ap;
	ssize_t ret;
	int fd, n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/control", dmc_dir);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	ret = write(fd, buf, n);
	n = ret < 0 ? errno : 0;
	close(fd);
	return n;
}

static int in_tree(const struct tree *t, const char *path)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->o[i].path, path))
			return 1;
	return 0;
}

static const char *basename_of(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static int by_depth(const void *a, const void *b)
{
	const struct obj *x = a, *y = b;

	return x->depth - y->depth;
}

/* ---- the checks after the writers ------------------------------------- */

static void print_hist(const struct entry *e)
{
	unsigned int i = e->nhist > HIST ? e->nhist - HIST : 0;

	for (; i < e->nhist; i++)
		printf("ledger:   accepted: %s\n", e->hist[i % HIST]);
}

static void complain(const struct entry *e, unsigned long present)
{
	printf("ledger: %s '%.40s': %lu accepted adds%s, %lu deletes, %lu in the tree\n",
	       kind_names[e->kind], e->name, e->adds,
	       e->parent_add ? " (some with parent=)" : "", e->dels, present);
	print_hist(e);
}

static void check_ledger(const struct tree *base, const struct tree *t)
{
	unsigned long bad = 0, checked = 0, present;
	struct entry *e;
	size_t i;
	int h;
	long diff;

	for (h = 0; h < LEDGER_BUCKETS; h++) {
		for (e = ledger[h]; e; e = e->next) {
			present = 0;
			for (i = 0; i < t->n; i++) {
				const struct obj *o = &t->o[i];

				if (strcmp(basename_of(o->path), e->name) ||
				    in_tree(base, o->path))
					continue;
				if ((e->kind == K_BUS && o->type == T_BUS) ||
				    (e->kind == K_CLASS && o->type == T_CLASS) ||
				    (e->kind == K_DRIVER && o->type == T_DRIVER) ||
				    (e->kind == K_DEVICE && o->type == T_DEVICE))
					present++;
			}
			diff = (long)e->adds - (long)e->dels;
			checked++;
			if (e->kind == K_DEVICE && e->parent_add) {
				if (present > 1 || (present && !e->adds) ||
				    e->dels > e->adds || present > (unsigned long)diff) {
					bad++;
					complain(e, present);
				}
				continue;
			}
			if (diff < 0 || diff > 1 || present != (unsigned long)diff) {
				bad++;
				complain(e, present);
			}
		}
	}
	/* And every non-baseline object of the tree comes from an accepted add. */
	result(!bad, "fuzz: the tree holds what the accepted commands imply (%lu names, %lu wrong)",
	       checked, bad);
}

static void teardown(const struct tree *base, struct tree *now)
{
	struct obj *o;
	size_t i, ndev = 0;
	int err, bad = 0, pass;
	struct tree after;
	char path[4096];
	struct stat st;

	/* Devices, shallowest first: a parent's deletion takes its children. */
	o = xmalloc((now->n + 1) * sizeof(*o));
	for (i = 0; i < now->n; i++)
		if (now->o[i].type == T_DEVICE && !in_tree(base, now->o[i].path))
			o[ndev++] = now->o[i];
	qsort(o, ndev, sizeof(*o), by_depth);
	for (i = 0; i < ndev; i++) {
		err = ctl_write("device del /%s\n", o[i].path);
		snprintf(path, sizeof(path), "%s/%s", dmc_dir, o[i].path);
		if (err == ENOENT && lstat(path, &st))
			continue;	/* went with its parent */
		if (err) {
			bad++;
			printf("clean-up: device del /%s: %s\n", o[i].path, errname(err));
		}
	}
	free(o);
	/* Then drivers, classes, buses. */
	for (pass = 0; pass < 3; pass++) {
		static const enum otype order[] = { T_DRIVER, T_CLASS, T_BUS };
		static const char * const verb[] = { "driver", "class", "bus" };

		for (i = 0; i < now->n; i++) {
			if (now->o[i].type != order[pass] || in_tree(base, now->o[i].path))
				continue;
			err = ctl_write("%s del %s\n", verb[pass], basename_of(now->o[i].path));
			if (err) {
				bad++;
				printf("clean-up: %s del %s: %s\n", verb[pass],
				       basename_of(now->o[i].path), errname(err));
			}
		}
	}
	result(!bad, "fuzz: deleting everything the run made succeeds (%d failed)", bad);

	/* The tree is the one before the run, path for path. */
	tree_read(&after);
	bad = 0;
	for (i = 0; i < after.n; i++)
		if (!in_tree(base, after.o[i].path)) {
			if (bad++ < 10)
				printf("clean-up: still there: %s\n", after.o[i].path);
		}
	for (i = 0; i < base->n; i++)
		if (!in_tree(&after, base->o[i].path)) {
			if (bad++ < 20)
				printf("clean-up: gone: %s\n", base->o[i].path);
		}
	result(!bad, "fuzz: after the clean-up the tree is as before the run (%d differences)",
	       bad);
	tree_free(&after);
}

static int fuzz_main(int argc, char **argv)
{
	unsigned long nthreads = 4, i, accepted = 0, rejected = 0, unexpected = 0;
	unsigned long by_errno[4096] = { 0 };
	struct stats s0, s1, s2;
	struct tree t0, t1, t2;
	struct writer *w;
	pthread_t walker;
	double t_start;
	char *opt, *tok, excluded[64];
	int c, ok, e;

	seed = (unsigned long long)time(NULL) ^ ((unsigned long long)getpid() << 20);
	total_writes = 100000;
	while ((c = getopt(argc, argv, "s:n:t:x:r:d:k")) != -1) {
		switch (c) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			total_writes = strtoul(optarg, NULL, 0);
			break;
		case 't':
			nthreads = strtoul(optarg, NULL, 0);
			if (nthreads < 1 || nthreads > MAX_THREADS) {
				fprintf(stderr, "dmc-fuzz: -t 1..%d\n", MAX_THREADS);
				return 2;
			}
			break;
		case 'x':
			opt = xstrdup(optarg);
			for (tok = strtok(opt, ","); tok; tok = strtok(NULL, ",")) {
				if (!strcmp(tok, "treenames")) {
					opt_treenames = 0;
				} else if (!strcmp(tok, "bigerrno")) {
					opt_bigerrno = 0;
				} else if (!strcmp(tok, "suspend")) {
					opt_suspend = 0;
				} else if (!strcmp(tok, "random")) {
					opt_random = 0;
				} else if (!strcmp(tok, "defer")) {
					opt_defer = 0;
				} else {
					fprintf(stderr, "dmc-fuzz: -x %s\n",
						"treenames,bigerrno,suspend,random,defer");
					return 2;
				}
			}
			free(opt);
			break;
		case 'r':
			result_file = fopen(optarg, "w");
			if (!result_file) {
				perror(optarg);
				return 2;
			}
			break;
		case 'd':
			dmc_dir = optarg;
			break;
		case 'k':
			opt_kmsg = 1;
			kmsg_fd = open("/dev/kmsg", O_WRONLY);
			break;
		default:
			fprintf(stderr, "usage: dmc-fuzz [-s SEED] [-n WRITES] [-t THREADS] %s\n",
				"[-x CLASS,...] [-r FILE] [-k]");
			return 2;
		}
	}
	snprintf(excluded, sizeof(excluded), "%s%s%s%s%s",
		 opt_treenames ? "" : "treenames,", opt_bigerrno ? "" : "bigerrno,",
		 opt_suspend ? "" : "suspend,", opt_random ? "" : "random,",
		 opt_defer ? "" : "defer,");
	if (*excluded)
		excluded[strlen(excluded) - 1] = '\0';
	printf("dmc-fuzz: seed=%llu writes=%lu threads=%lu excluded=%s\n",
	       seed, total_writes, nthreads, *excluded ? excluded : "none");
	printf("dmc-fuzz: replay the command streams with: dmc-fuzz -s %llu -n %lu -t %lu%s%s\n",
	       seed, total_writes, nthreads, *excluded ? " -x " : "", excluded);
	fflush(stdout);

	tree_read(&t0);
	stats_read(&s0);
	tree_print("before", &t0);
	stats_print("before", &s0);
	if (!s0.ok) {
		result(0, "fuzz: %s/stats is readable", dmc_dir);
		return 1;
	}
	result(tree_matches_stats(&t0, &s0), "fuzz: before the run, the tree agrees with stats");

	w = xmalloc(nthreads * sizeof(*w));
	t_start = now_s();
	pthread_create(&walker, NULL, walker_main, NULL);
	for (i = 0; i < nthreads; i++) {
		w[i].id = i;
		w[i].rng.s = (seed + i) * 0x9E3779B97F4A7C15ULL | 1;
		pthread_create(&w[i].th, NULL, writer_main, &w[i]);
	}
	for (i = 0; i < nthreads; i++) {
		pthread_join(w[i].th, NULL);
		accepted += w[i].accepted;
		rejected += w[i].rejected;
		unexpected += w[i].unexpected;
		for (e = 0; e < 4096; e++)
			by_errno[e] += w[i].by_errno[e];
	}
	__atomic_store_n(&stop_walk, 1, __ATOMIC_RELAXED);
	pthread_join(walker, NULL);
	printf("dmc-fuzz: %lu writes in %.1f s: %lu accepted, %lu rejected, %lu unexpected\n",
	       accepted + rejected, now_s() - t_start, accepted, rejected, unexpected);
	printf("dmc-fuzz: rejections:");
	for (e = 0; e < 4096; e++)
		if (by_errno[e])
			printf(" %s=%lu", errname(e), by_errno[e]);
	printf("\ndmc-fuzz: walker: %lu reads (%lu odd errors), %lu events (%lu out of order)\n",
	       walk_reads, walk_errors, ev_records, ev_bad);
	result(accepted + rejected == total_writes && accepted > total_writes / 50,
	       "fuzz: %lu writes done by %lu writers, %lu accepted", accepted + rejected,
	       nthreads, accepted);
	result(!unexpected, "fuzz: every rejection is an errno of README's control table (%lu not)",
	       unexpected);
	result(!walk_errors && !ev_bad,
	       "fuzz: reading the tree and events during the run (%lu reads, %lu records; %lu errors, %lu out of order)",
	       walk_reads, ev_records, walk_errors, ev_bad);

	/* Let async probes and the export's reaper finish. */
	ctl_write("settle\n");
	ok = settle_compare(&t1, &s1, 20);
	tree_print("after", &t1);
	stats_print("after", &s1);
	result(ok, "fuzz: after the run, the tree's objects equal stats' counts by type");
	check_ledger(&t0, &t1);

	teardown(&t0, &t1);
	ok = settle_compare(&t2, &s2, 20);
	tree_print("end", &t2);
	stats_print("end", &s2);
	ok = ok && !memcmp(s2.counts, s0.counts, sizeof(s0.counts)) &&
	     s2.live == s0.live && s2.other == s0.other;
	result(ok, "fuzz: after the clean-up, stats' live counts are as before the run");
	result(s2.misuse == s0.misuse, "fuzz: no misuse reports (%lu before, %lu after)",
	       s0.misuse, s2.misuse);
	tree_free(&t0);
	tree_free(&t1);
	tree_free(&t2);
	free(w);
	return results_failed ? 1 : 0;
}

/* ---- hold: files held open while their objects go --------------------- */

static int hold_stop;	/* __atomic: set by the signal handler */

static void on_signal(int sig)
{
	__atomic_store_n(&hold_stop, 1, __ATOMIC_RELAXED);
}

struct held {
	const char *path;
	int fd, rd, wr;
	unsigned long reads, eofs, writes, errs[4096];
	double slowest;
};

static int hold_main(int argc, char **argv)
{
	const char *data = NULL;
	unsigned char allowed[4096] = { 0 };
	double secs = 0, end, t, dt, slowest = 0;
	struct held *h;
	char buf[4096], *opt, *tok;
	int c, i, n, bad = 0, e;
	struct sigaction sa;
	struct stat st;
	ssize_t r;

	optind = 1;
	while ((c = getopt(argc, argv, "T:w:e:")) != -1) {
		switch (c) {
		case 'T':
			secs = atof(optarg);
			break;
		case 'w':
			data = optarg;
			break;
		case 'e':
			opt = xstrdup(optarg);
			for (tok = strtok(opt, ","); tok; tok = strtok(NULL, ","))
				if (errnum(tok) > 0 && errnum(tok) < 4096)
					allowed[errnum(tok)] = 1;
			free(opt);
			break;
		default:
			fprintf(stderr, "usage: dmc-fuzz hold [-T SECONDS] [-w DATA] %s\n",
				"[-e ERRNO,...] FILE...");
			return 2;
		}
	}
	n = argc - optind;
	if (n <= 0) {
		fprintf(stderr, "dmc-fuzz hold: no files\n");
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	h = xmalloc(n * sizeof(*h));
	for (i = 0; i < n; i++) {
		h[i].path = argv[optind + i];
		/* root may open anything: follow the mode bits instead. */
		if (stat(h[i].path, &st)) {
			printf("hold: no %s: %s\n", h[i].path, errname(errno));
			return 2;
		}
		h[i].rd = !!(st.st_mode & 0444);
		h[i].wr = data && (st.st_mode & 0222);
		h[i].fd = open(h[i].path, h[i].rd && h[i].wr ? O_RDWR :
			       h[i].wr ? O_WRONLY : O_RDONLY | O_NONBLOCK);
		if (h[i].fd < 0) {
			printf("hold: cannot open %s: %s\n", h[i].path, errname(errno));
			return 2;
		}
	}
	printf("hold: %d files open\n", n);
	fflush(stdout);
	end = now_s() + (secs > 0 ? secs : 1e9);
	while (!__atomic_load_n(&hold_stop, __ATOMIC_RELAXED) && now_s() < end) {
		for (i = 0; i < n && !__atomic_load_n(&hold_stop, __ATOMIC_RELAXED); i++) {
			if (h[i].rd) {
				t = now_s();
				r = read(h[i].fd, buf, sizeof(buf));
				e = errno;
				dt = now_s() - t;
				if (dt > h[i].slowest)
					h[i].slowest = dt;
				if (r > 0)
					h[i].reads++;
				else if (!r)
					h[i].eofs++;
				else if (e > 0 && e < 4096 && e != EAGAIN)
					h[i].errs[e]++;
			}
			if (h[i].wr) {
				t = now_s();
				r = write(h[i].fd, data, strlen(data));
				e = errno;
				dt = now_s() - t;
				if (dt > h[i].slowest)
					h[i].slowest = dt;
				if (r >= 0)
					h[i].writes++;
				else if (e > 0 && e < 4096)
					h[i].errs[e]++;
			}
		}
		usleep(1000);
	}
	for (i = 0; i < n; i++) {
		printf("hold: %s: %lu reads, %lu at end, %lu writes", h[i].path,
		       h[i].reads, h[i].eofs, h[i].writes);
		for (e = 1; e < 4096; e++) {
			if (!h[i].errs[e])
				continue;
			printf(", %s %lu", errname(e), h[i].errs[e]);
			if (!allowed[e]) {
				printf(" (unexpected)");
				bad++;
			}
		}
		printf("; slowest call %.3f s\n", h[i].slowest);
		if (h[i].slowest > slowest)
			slowest = h[i].slowest;
		close(h[i].fd);
	}
	if (slowest > 10) {
		printf("hold: a call took %.1f s\n", slowest);
		bad++;
	}
	free(h);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && !strcmp(argv[1], "hold"))
		return hold_main(argc - 1, argv + 1);
	return fuzz_main(argc, argv);
}
