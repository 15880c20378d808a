// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the model in one read (snapshot.c, model_lock.c). What a
 * snapshot shows of a small model, its escaping, its generation; that a
 * change waits for a snapshot being taken and a snapshot does not wait
 * for a probe; and that snapshots taken while another thread adds, binds,
 * moves, renames and deletes devices are each one consistent state.
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <dmcore/invariants.h>
#include <dmcore/snapshot.h>
#include "model_util.h"

static void sn_release(struct dmc_device *dev)
{
	kfree(dev);
}

/* A snapshot's text, NUL-terminated, owned by the test (kunit_kfree). */
static char *sn_take(struct kunit *test)
{
	size_t len = 0;
	char *text = dmc_model_snapshot(&len), *copy;

	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(text));
	copy = kunit_kmalloc(test, len + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, copy);
	memcpy(copy, text, len);
	copy[len] = '\0';
	kvfree(text);
	return copy;
}

/* The line of @text starting with @prefix followed by a space, or NULL. */
static const char *sn_line(const char *text, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *l = text;

	while (l && *l) {
		if (!strncmp(l, prefix, n) && (l[n] == ' ' || l[n] == '\n'))
			return l;
		l = strchr(l, '\n');
		if (l)
			l++;
	}
	return NULL;
}

/* Does the line at @l hold the field @field (" key=value")? */
static bool sn_has(const char *l, const char *field)
{
	const char *end = l ? strchr(l, '\n') : NULL;
	size_t n = strlen(field);
	const char *p;

	if (!end)
		return false;
	for (p = strchr(l, ' '); p && p < end; p = strchr(p + 1, ' '))
		if (!strncmp(p + 1, field, n) && (p[n + 1] == ' ' || p[n + 1] == '\n'))
			return true;
	return false;
}

static u64 sn_generation(const char *text)
{
	const char *l = sn_line(text, "generation");
	u64 g = 0;

	if (l && sscanf(l, "generation %llu", &g) == 1)
		return g;
	return U64_MAX;
}

/* The model part's text: from the top to the end of the "end" line. */
static size_t sn_model_len(const char *text)
{
	const char *l = sn_line(text, "end");
	const char *nl = l ? strchr(l, '\n') : NULL;

	return nl ? nl + 1 - text : 0;
}

static const char *sn_dev(struct kunit *test, const char *text, struct dmm_dev *d)
{
	return sn_line(text, dmm_str(test, "device %s", dmm_path(test, d)));
}

/* A small model, as its lines show it. */
static void snapshot_shows_model(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "drv");
	struct dmm_class *c = dmm_class_new(test, "cls");
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	struct dmm_dev *a = dmm_dev_new(test, "a", b, p, d);
	struct dmm_dev *u = dmm_dev_new(test, "u", b, p, NULL);
	struct dmm_dev *m = dmm_cdev_new(test, "m", c, p);
	struct dmc_device_link *link;
	const char *text, *l;

	dmc_wait_for_device_probe();
	link = dmc_device_link_add(u->dev, a->dev, DMC_DL_FLAG_STATELESS);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(link));
	text = sn_take(test);

	KUNIT_EXPECT_EQ(test, strncmp(text, "dmcore-snapshot 1\ngeneration ", 29), 0);
	KUNIT_EXPECT_NOT_NULL(test, sn_line(text, "seqnum"));
	l = sn_line(text, dmm_str(test, "bus %s", b->name));
	KUNIT_EXPECT_TRUE(test, sn_has(l, "devices=2"));
	KUNIT_EXPECT_TRUE(test, sn_has(l, "drivers=1"));
	KUNIT_EXPECT_TRUE(test, sn_has(l, "autoprobe=1"));
	l = sn_line(text, dmm_str(test, "class %s", c->name));
	KUNIT_EXPECT_TRUE(test, sn_has(l, "devices=1"));
	l = sn_line(text, dmm_str(test, "driver %s %s", b->name, d->name));
	KUNIT_EXPECT_TRUE(test, sn_has(l, "devices=1"));

	l = sn_dev(test, text, a);
	KUNIT_EXPECT_TRUE(test, sn_has(l, dmm_str(test, "parent=%s", dmm_path(test, p))));
	KUNIT_EXPECT_TRUE(test, sn_has(l, dmm_str(test, "bus=%s", b->name)));
	KUNIT_EXPECT_TRUE(test, sn_has(l, dmm_str(test, "driver=%s", d->name)));
	KUNIT_EXPECT_TRUE(test, sn_has(l, "class=-"));
	KUNIT_EXPECT_TRUE(test, sn_has(l, "power=on"));
	KUNIT_EXPECT_TRUE(test, sn_has(l, "probe=ok"));
	KUNIT_EXPECT_TRUE(test, sn_has(l, "probes=1"));
	l = sn_dev(test, text, u);
	KUNIT_EXPECT_TRUE(test, sn_has(l, "driver=-"));
	KUNIT_EXPECT_TRUE(test, sn_has(l, "probe=none"));
	KUNIT_EXPECT_TRUE(test, sn_has(l, "waits=-"));
	l = sn_dev(test, text, m);
	KUNIT_EXPECT_TRUE(test, sn_has(l, dmm_str(test, "class=%s", c->name)));
	KUNIT_EXPECT_TRUE(test, sn_has(l, "bus=-"));
	l = sn_dev(test, text, p);
	KUNIT_EXPECT_TRUE(test, sn_has(l, "parent=-"));
	/* Parents first. */
	KUNIT_EXPECT_PTR_NE(test, sn_dev(test, text, p), (const char *)NULL);
	KUNIT_EXPECT_TRUE(test, sn_dev(test, text, p) < sn_dev(test, text, a));

	/* @u consumes from @a: "link SUPPLIER CONSUMER". */
	l = sn_line(text, dmm_str(test, "link %s %s", dmm_path(test, a), dmm_path(test, u)));
	KUNIT_EXPECT_TRUE(test, sn_has(l, "status=none"));
	KUNIT_EXPECT_TRUE(test, sn_has(l, "flags=stateless"));
	/* The unbound device is offered to the bus's driver: no match. */
	l = dmm_str(test, "match %s %s 0", dmm_path(test, u), d->name);
	KUNIT_EXPECT_NOT_NULL(test, sn_line(text, l));
	KUNIT_EXPECT_NULL(test, sn_line(text, dmm_str(test, "match %s", dmm_path(test, a))));
	l = sn_line(text, "end");
	KUNIT_EXPECT_NOT_NULL(test, l);
	/* The text ends with the count of its match lines. */
	l = sn_line(text, "done");
	KUNIT_EXPECT_NOT_NULL(test, l);
	KUNIT_EXPECT_TRUE(test, l && !strchr(l, '\n')[1]);
	dmc_device_link_del(link);
}

/* Unchanged model, same generation and text; a change moves it on. */
static void snapshot_generation_counts_changes(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "drv");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, NULL);
	const char *t1, *t2, *t3;
	size_t n1;

	dmc_wait_for_device_probe();
	t1 = sn_take(test);
	t2 = sn_take(test);
	n1 = sn_model_len(t1);
	KUNIT_EXPECT_GT(test, n1, (size_t)0);
	KUNIT_EXPECT_EQ(test, sn_generation(t1), sn_generation(t2));
	KUNIT_EXPECT_EQ(test, n1, sn_model_len(t2));
	KUNIT_EXPECT_EQ(test, memcmp(t1, t2, n1), 0);

	dmm_dev_want(a, d);
	KUNIT_ASSERT_EQ(test, dmc_device_attach(a->dev), 1);
	t3 = sn_take(test);
	KUNIT_EXPECT_GT(test, sn_generation(t3), sn_generation(t1));
	KUNIT_EXPECT_TRUE(test, sn_has(sn_dev(test, t3, a), dmm_str(test, "driver=%s", d->name)));
	KUNIT_EXPECT_EQ(test, dmc_model_generation(), sn_generation(t3));
}

/* Spaces, backslashes and bytes past '~' are written \xHH. */
static void snapshot_escapes_names(struct kunit *test)
{
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	char name[48];
	const char *text, *want;
	struct dmc_device *dev;

	snprintf(name, sizeof(name), "%s x\\\xe9", dmm_name(test, "e"));
	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, dev);
	dmc_device_initialize(dev);
	dev->parent = p->dev;
	dev->release = sn_release;
	KUNIT_ASSERT_EQ(test, dmc_device_set_name(dev, "%s", name), 0);
	KUNIT_ASSERT_EQ(test, dmc_device_add(dev), 0);
	text = sn_take(test);
	want = dmm_str(test, "device %s/%s\\x20x\\x5c\\xe9 parent=", dmm_path(test, p),
		       dmm_name(test, "e"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, want));
	KUNIT_EXPECT_NULL(test, strstr(text, " x\\\xe9"));
	dmc_device_unregister(dev);
}

/* ---- what waits for what ------------------------------------------------ */

static struct {
	struct completion frozen, go;
	bool timed_out;
} sn_hook;

static void sn_hook_fn(void)
{
	complete(&sn_hook.frozen);
	if (!wait_for_completion_timeout(&sn_hook.go, 10 * HZ))
		sn_hook.timed_out = true;
}

struct sn_thread {
	struct kunit *test;
	struct completion done;
	struct dmm_dev *dev;
	char *text;
	size_t len;
	int err;
};

static int sn_snap_fn(void *data)
{
	struct sn_thread *t = data;

	t->text = dmc_model_snapshot(&t->len);
	complete(&t->done);
	return 0;
}

static int sn_add_fn(void *data)
{
	struct sn_thread *t = data;

	t->err = dmc_device_add(t->dev->dev);
	complete(&t->done);
	return 0;
}

/*
 * A device's add, begun while a snapshot is taken, waits for it: the
 * snapshot does not show the device and its generation is before the
 * add's.
 */
static void snapshot_change_waits_for_snapshot(struct kunit *test)
{
	struct dmm_dev *x = dmm_dev_alloc(test, "x");
	struct sn_thread *snap, *add;
	struct task_struct *k;
	const char *head;
	u64 gen;

	snap = kunit_kzalloc(test, sizeof(*snap), GFP_KERNEL);
	add = kunit_kzalloc(test, sizeof(*add), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, snap);
	KUNIT_ASSERT_NOT_NULL(test, add);
	init_completion(&snap->done);
	init_completion(&add->done);
	init_completion(&sn_hook.frozen);
	init_completion(&sn_hook.go);
	sn_hook.timed_out = false;
	add->dev = x;
	WRITE_ONCE(dmc_snapshot_test_hook, sn_hook_fn);
	k = kthread_run(sn_snap_fn, snap, "sn-snap");
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&sn_hook.frozen, 10 * HZ));
	WRITE_ONCE(dmc_snapshot_test_hook, NULL);
	gen = dmc_model_generation();
	k = kthread_run(sn_add_fn, add, "sn-add");
	if (IS_ERR(k))
		complete(&sn_hook.go);
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	/* The add is held at its section while the model is frozen. */
	KUNIT_EXPECT_FALSE(test, wait_for_completion_timeout(&add->done, HZ / 5));
	KUNIT_EXPECT_EQ(test, dmc_model_generation(), gen);
	complete(&sn_hook.go);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&snap->done, 10 * HZ));
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&add->done, 10 * HZ));
	KUNIT_EXPECT_FALSE(test, sn_hook.timed_out);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(snap->text));
	KUNIT_EXPECT_EQ(test, add->err, 0);
	x->added = !add->err;
	KUNIT_EXPECT_NULL(test, strnstr(snap->text, dmm_path(test, x), snap->len));
	head = dmm_str(test, "dmcore-snapshot 1\ngeneration %llu\n", gen);
	KUNIT_EXPECT_TRUE(test, snap->len > strlen(head) &&
			  !strncmp(snap->text, head, strlen(head)));
	KUNIT_EXPECT_GT(test, dmc_model_generation(), gen);
	kvfree(snap->text);
}

/*
 * A snapshot does not wait for a probe under way (the model lock is never
 * held across a callback): the device shows without its driver.
 */
static void snapshot_does_not_wait_for_probe(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "drv");
	struct dmm_dev *a = dmm_dev_alloc(test, "a");
	struct sn_thread *snap, *add;
	struct task_struct *k;

	snap = kunit_kzalloc(test, sizeof(*snap), GFP_KERNEL);
	add = kunit_kzalloc(test, sizeof(*add), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, snap);
	KUNIT_ASSERT_NOT_NULL(test, add);
	init_completion(&snap->done);
	init_completion(&add->done);
	a->dev->bus = &b->bus;
	dmm_dev_want(a, d);
	a->probe_sleep_ms = 1500;
	add->dev = a;
	/* The add probes, synchronously, in a thread of its own. */
	k = kthread_run(sn_add_fn, add, "sn-add");
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	msleep(300);	/* the probe is asleep */
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 1);
	k = kthread_run(sn_snap_fn, snap, "sn-snap");
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&snap->done, HZ));
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(snap->text));
	snap->text[snap->len - 1] = '\0';
	KUNIT_EXPECT_TRUE(test, sn_has(sn_dev(test, snap->text, a), "driver=-"));
	kvfree(snap->text);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&add->done, 10 * HZ));
	KUNIT_EXPECT_EQ(test, add->err, 0);
	a->added = !add->err;
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
}

/* ---- consistency under churn --------------------------------------------- */

/*
 * The churn's own bus and driver: the bus matches every device, the
 * driver binds it (bare devices: the test world's bus reads a struct
 * dmm_dev around each device).
 */
static int sn_bus_match(struct dmc_device *dev, const struct dmc_driver *drv)
{
	return 1;
}

static int sn_drv_probe(struct dmc_device *dev)
{
	return 0;
}

struct sn_churn {
	struct kunit *test;
	struct dmc_bus_type bus;
	struct dmc_driver drv;
	struct dmm_dev *p1, *p2;
	struct completion done;
	bool stop;
	unsigned int rounds, bound;
};

/* Add under p1, bind, move to p2, rename, unbind, delete: again and again. */
static int sn_churn_fn(void *data)
{
	struct sn_churn *c = data;
	struct dmc_device *dev;
	unsigned int i = 0;

	while (!READ_ONCE(c->stop) && i < 2000) {
		dev = kzalloc(sizeof(*dev), GFP_KERNEL);
		if (!dev)
			break;
		dmc_device_initialize(dev);
		dev->parent = c->p1->dev;
		dev->bus = &c->bus;
		dev->release = sn_release;
		if (dmc_device_set_name(dev, "snc-%u", i) || dmc_device_add(dev)) {
			dmc_device_put(dev);
			break;
		}
		c->bound += dmc_device_is_bound(dev);
		dmc_device_move(dev, c->p2->dev, DMC_DPM_ORDER_DEV_AFTER_PARENT);
		dmc_device_rename(dev, i & 1 ? "snc-odd" : "snc-even");
		dmc_device_release_driver(dev);
		dmc_device_unregister(dev);
		i++;
	}
	c->rounds = i;
	complete(&c->done);
	return 0;
}

/* The value of " key=" in the line [@l, @end), and its length. */
static const char *sn_val(const char *l, const char *end, const char *key, int *len)
{
	size_t n = strlen(key);
	const char *p = strnstr(l, key, end - l), *sp;

	if (!p)
		return NULL;
	p += n;
	sp = memchr(p, ' ', end - p);
	*len = (sp ? sp : end) - p;
	return p;
}

/*
 * Is @text one state? Every parent= is a device listed before; every
 * driver= a driver of the device's bus listed before; both ends of every
 * link are listed devices; the counts of "end" are the lines'. Returns
 * the number of problems found.
 */
static unsigned int sn_check(struct kunit *test, const char *text)
{
	unsigned int devs = 0, drvs = 0, links = 0, bad = 0, eb, ec;
	unsigned int e_devs = ~0U, e_drvs = ~0U, e_links = ~0U;
	const char *l = text, *end, *v, *w, *sp;
	int n, m;
	char want[320];

	for (; *l; l = end + 1) {
		end = strchr(l, '\n');
		if (!end)
			break;
		if (!strncmp(l, "device ", 7)) {
			devs++;
			v = sn_val(l, end, " parent=", &n);
			if (!v) {
				bad++;
			} else if (strncmp(v, "-", n)) {
				snprintf(want, sizeof(want), "\ndevice %.*s ", n, v);
				bad += !strnstr(text, want, l - text + 1);
				/* Its path is under its parent's: no half-done move. */
				bad += strncmp(l + 7, v, n) || l[7 + n] != '/';
			}
			v = sn_val(l, end, " bus=", &n);
			w = sn_val(l, end, " driver=", &m);
			if (v && strncmp(v, "-", n)) {
				snprintf(want, sizeof(want), "\nbus %.*s ", n, v);
				bad += !strnstr(text, want, l - text + 1);
			}
			if (!v || !w) {
				bad++;
			} else if (strncmp(w, "-", m)) {
				snprintf(want, sizeof(want), "\ndriver %.*s %.*s ", n, v, m, w);
				bad += !strnstr(text, want, l - text + 1);
			}
		} else if (!strncmp(l, "driver ", 7)) {
			drvs++;
		} else if (!strncmp(l, "link ", 5)) {
			links++;
			v = l + 5;
			sp = memchr(v, ' ', end - v);
			w = sp ? sp + 1 : NULL;
			sp = w ? memchr(w, ' ', end - w) : NULL;
			if (!sp) {
				bad++;
				continue;
			}
			snprintf(want, sizeof(want), "\ndevice %.*s ", (int)(w - 1 - v), v);
			bad += !strnstr(text, want, l - text + 1);
			snprintf(want, sizeof(want), "\ndevice %.*s ", (int)(sp - w), w);
			bad += !strnstr(text, want, l - text + 1);
		} else if (!strncmp(l, "end ", 4)) {
			if (sscanf(l, "end buses=%u classes=%u drivers=%u devices=%u links=%u",
				   &eb, &ec, &e_drvs, &e_devs, &e_links) != 5)
				bad++;
			break;
		}
	}
	if (devs != e_devs || drvs != e_drvs || links != e_links)
		bad++;
	if (bad)
		kunit_info(test, "inconsistent snapshot (%u problems)\n", bad);
	return bad;
}

/*
 * During churn: the generation when the devices were collected, then a
 * pause that gives the churn thread time to change the model if it
 * could; the header, written after, must show the same generation.
 */
static u64 sn_churn_gen;

static void sn_churn_hook(void)
{
	WRITE_ONCE(sn_churn_gen, dmc_model_generation());
	mdelay(2);
}

static void snapshot_consistent_under_churn(struct kunit *test)
{
	struct sn_churn *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	unsigned int i, bad = 0, taken = 0, stale = 0;
	struct task_struct *k;
	u64 last = 0, g;
	char *text;

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->bus.name = dmm_name(test, "cb");
	c->bus.match = sn_bus_match;
	c->drv.name = dmm_name(test, "cd");
	c->drv.bus = &c->bus;
	c->drv.probe = sn_drv_probe;
	KUNIT_ASSERT_EQ(test, dmc_bus_register(&c->bus), 0);
	if (dmc_driver_register(&c->drv)) {
		dmc_bus_unregister(&c->bus);
		KUNIT_FAIL(test, "driver register");
		return;
	}
	c->p1 = dmm_dev_new(test, "p1", NULL, NULL, NULL);
	c->p2 = dmm_dev_new(test, "p2", NULL, NULL, NULL);
	init_completion(&c->done);
	k = kthread_run(sn_churn_fn, c, "sn-churn");
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	for (i = 0; i < 60; i++) {
		/* Every other one pauses while frozen: nothing may change then. */
		WRITE_ONCE(sn_churn_gen, U64_MAX);
		WRITE_ONCE(dmc_snapshot_test_hook, i & 1 ? sn_churn_hook : NULL);
		text = sn_take(test);
		WRITE_ONCE(dmc_snapshot_test_hook, NULL);
		g = sn_generation(text);
		if (i & 1)
			stale += g != READ_ONCE(sn_churn_gen);
		KUNIT_EXPECT_GE(test, g, last);
		last = g;
		bad += sn_check(test, text);
		taken++;
		kunit_kfree(test, text);
	}
	WRITE_ONCE(c->stop, true);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&c->done, 60 * HZ));
	KUNIT_EXPECT_EQ(test, bad, 0U);
	KUNIT_EXPECT_EQ(test, stale, 0U);
	KUNIT_EXPECT_GT(test, c->rounds, 0U);
	KUNIT_EXPECT_EQ(test, c->bound, c->rounds);
	kunit_info(test, "%u snapshots during %u rounds of add/bind/move/rename/del\n",
		   taken, c->rounds);
	dmc_driver_unregister(&c->drv);
	dmc_bus_unregister(&c->bus);
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(DMC_INV_QUIESCENT), 0U);
}

/* ---- review: races the cases above do not try -------------------------- */

struct sn_race {
	struct kunit *test;
	struct dmc_device *dev;
	struct dmm_bus *b;
	struct completion done;
	bool stop;
	unsigned int n;
};

/*
 * Run @fn in a kthread on another CPU than the test's, which stays on its
 * own (a new kthread wakes on its creator's CPU, and a non-preemptible
 * test thread that never sleeps would keep it from running at all).
 */
static struct task_struct *sn_run_apart(struct kunit *test, int (*fn)(void *),
					void *data, const char *name)
{
	unsigned int here, other;
	struct task_struct *k;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	here = raw_smp_processor_id();
	set_cpus_allowed_ptr(current, cpumask_of(here));
	other = cpumask_any_but(cpu_online_mask, here);
	k = kthread_create(fn, data, "%s", name);
	if (IS_ERR(k))
		return k;
	kthread_bind(k, other);
	wake_up_process(k);
	return k;
}

static void sn_run_apart_end(void)
{
	set_cpus_allowed_ptr(current, cpu_possible_mask);
}

/* driver_override set again and again, each a new kmalloc()ed string. */
static int sn_override_fn(void *data)
{
	struct sn_race *r = data;
	static char name[3000];

	/* Long, and each byte escaped to four: a long read of the string. */
	memset(name, 0xff, sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	while (!READ_ONCE(r->stop) && r->n < 200000) {
		name[0] = 'a' + r->n % 26;
		dmc_device_set_driver_override(r->dev, name);
		if (!(++r->n & 63))
			cond_resched();
	}
	complete(&r->done);
	return 0;
}

/*
 * The snapshot prints p->driver_override under the model lock, which a
 * store of driver_override does not take: the store frees the old string
 * after the device lock. KASAN reports a use after free (and fails this
 * case, run in the test's thread) if the read is not protected.
 */
static void snapshot_override_store_races_read(struct kunit *test)
{
	struct dmm_dev *a = dmm_dev_new(test, "a", NULL, NULL, NULL);
	struct sn_race *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct task_struct *k;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, r);
	init_completion(&r->done);
	r->dev = a->dev;
	k = sn_run_apart(test, sn_override_fn, r, "sn-override");
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	for (i = 0; i < 600 && !completion_done(&r->done); i++)
		kunit_kfree(test, sn_take(test));
	WRITE_ONCE(r->stop, true);
	sn_run_apart_end();
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&r->done, 60 * HZ));
	kunit_info(test, "%u snapshots during %u override stores\n", i, r->n);
	dmc_device_set_driver_override(a->dev, "");
}

static int sn_bus_unreg_fn(void *data)
{
	struct sn_race *r = data;

	dmc_bus_unregister(&r->b->bus);
	complete(&r->done);
	return 0;
}

/* Holds the first device deletion of the bus's unregistration a while. */
static struct {
	struct notifier_block nb;
	struct completion in, go;
} sn_busdel;

static int sn_busdel_notify(struct notifier_block *nb, unsigned long action,
			    void *data)
{
	if (action == DMC_BUS_NOTIFY_DEL_DEVICE && !completion_done(&sn_busdel.in)) {
		complete(&sn_busdel.in);
		wait_for_completion_timeout(&sn_busdel.go, 5 * HZ);
	}
	return NOTIFY_DONE;
}

/* Every device line's bus=X has a "bus X" line before it. */
static unsigned int sn_check_buses(struct kunit *test, const char *text)
{
	const char *l, *end, *v;
	unsigned int bad = 0;
	char want[320];
	int n;

	for (l = text; *l; l = end + 1) {
		end = strchr(l, '\n');
		if (!end)
			break;
		if (strncmp(l, "device ", 7))
			continue;
		v = sn_val(l, end, " bus=", &n);
		if (!v || !strncmp(v, "-", n))
			continue;
		snprintf(want, sizeof(want), "\nbus %.*s ", n, v);
		bad += !strnstr(text, want, l - text + 1);
	}
	return bad;
}

/*
 * A bus being unregistered: dmc_bus_unregister() clears priv->bus first
 * (outside any section) and deletes the bus's devices after. A snapshot
 * taken while the first deletion is under way (held by a bus notifier)
 * lists the bus's devices, bound: it must list the bus and its driver too.
 */
static void snapshot_bus_unregister_consistent(struct kunit *test)
{
	struct sn_race *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	unsigned int i, bad, bad_bus;
	struct task_struct *k;
	struct dmm_drv *d;
	char *text;

	KUNIT_ASSERT_NOT_NULL(test, r);
	init_completion(&r->done);
	init_completion(&sn_busdel.in);
	init_completion(&sn_busdel.go);
	sn_busdel.nb.notifier_call = sn_busdel_notify;
	r->b = dmm_bus_new(test, "bus");
	d = dmm_drv_new(test, r->b, "drv");
	for (i = 0; i < 4; i++)
		dmm_dev_new(test, dmm_str(test, "d%u", i), r->b, NULL, d);
	dmc_wait_for_device_probe();
	KUNIT_ASSERT_EQ(test, dmc_bus_register_notifier(&r->b->bus, &sn_busdel.nb), 0);
	k = kthread_run(sn_bus_unreg_fn, r, "sn-bus-unreg");
	if (IS_ERR(k))
		dmc_bus_unregister_notifier(&r->b->bus, &sn_busdel.nb);
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&sn_busdel.in, 10 * HZ));
	text = sn_take(test);
	complete(&sn_busdel.go);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&r->done, 60 * HZ));
	r->b->registered = false;
	bad_bus = sn_check_buses(test, text);
	bad = sn_check(test, text);
	kunit_info(test, "during the unregistration: %u device lines without their bus, %u problems\n",
		   bad_bus, bad);
	KUNIT_EXPECT_EQ(test, bad_bus, 0U);
	KUNIT_EXPECT_EQ(test, bad, 0U);
}

static int sn_snap_loop_fn(void *data)
{
	struct sn_race *r = data;
	size_t len;
	char *text;

	while (!READ_ONCE(r->stop) && r->n < 2000) {
		text = dmc_model_snapshot(&len);
		if (!IS_ERR_OR_NULL(text))
			kvfree(text);
		r->n++;
	}
	complete(&r->done);
	return 0;
}

/*
 * Two readers at once (two dmctl runs): each snapshot's match lines must
 * still name every unbound device of the bus, by its path. The match
 * lines are made after the locks, from p->snap_mark and p->snap_idx,
 * which the other reader's snapshot rewrites meanwhile.
 */
static void snapshot_concurrent_readers_keep_matches(struct kunit *test)
{
	struct sn_race *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	unsigned int i, short_ = 0, dash = 0, taken = 0, want = 24, got;
	const char *prefix, *l;
	struct task_struct *k;
	char *text;

	KUNIT_ASSERT_NOT_NULL(test, r);
	dmm_drv_new(test, b, "drv");
	for (i = 0; i < want; i++)
		dmm_dev_new(test, dmm_str(test, "u%u", i), b, NULL, NULL);
	dmc_wait_for_device_probe();
	prefix = dmm_str(test, "match /devices/%s", dmm_name(test, "u"));
	init_completion(&r->done);
	k = kthread_run(sn_snap_loop_fn, r, "sn-reader");
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	for (i = 0; i < 150; i++) {
		text = sn_take(test);
		got = 0;
		for (l = text; l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
			if (!strncmp(l, prefix, strlen(prefix)))
				got++;
			if (!strncmp(l, "match - ", 8))
				dash++;
		}
		short_ += got != want;
		taken++;
		kunit_kfree(test, text);
	}
	WRITE_ONCE(r->stop, true);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&r->done, 60 * HZ));
	kunit_info(test, "%u snapshots (other reader: %u): %u short of match lines, %u 'match -'\n",
		   taken, r->n, short_, dash);
	KUNIT_EXPECT_EQ(test, short_, 0U);
	KUNIT_EXPECT_EQ(test, dash, 0U);
}

/* A listener that holds the "remove" event of one devpath for a while. */
static struct {
	struct dmc_listener l;
	const char *devpath;
	u64 seqnum;
	struct completion in, go;
} sn_rm;

static void sn_rm_uevent(struct dmc_listener *l, const struct dmc_uevent *ev)
{
	const char *a = dmc_uevent_var(ev, "ACTION");
	const char *p = dmc_uevent_var(ev, "DEVPATH");
	const char *s = dmc_uevent_var(ev, "SEQNUM");

	if (!a || !p || !s || strcmp(a, "remove") || strcmp(p, sn_rm.devpath))
		return;
	if (kstrtou64(s, 10, &sn_rm.seqnum))
		sn_rm.seqnum = 0;
	complete(&sn_rm.in);
	wait_for_completion_timeout(&sn_rm.go, 5 * HZ);
}

static int sn_del_fn(void *data)
{
	struct sn_thread *t = data;

	dmm_dev_del(t->dev);
	complete(&t->done);
	return 0;
}

/*
 * docs/snapshot.md: "a tool that reads events from seqnum+1 on sees every
 * change after the snapshot". A snapshot that still lists a device must
 * have a seqnum below that of the device's "remove" event.
 */
static void snapshot_seqnum_before_remove_event(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");	/* a device with events */
	struct dmm_dev *x = dmm_dev_new(test, "x", b, NULL, NULL);
	struct sn_thread *del = kunit_kzalloc(test, sizeof(*del), GFP_KERNEL);
	struct task_struct *k;
	const char *text, *l;
	u64 seq = 0;
	int got;
	bool listed;

	KUNIT_ASSERT_NOT_NULL(test, del);
	memset(&sn_rm, 0, sizeof(sn_rm));
	sn_rm.devpath = dmm_path(test, x);
	sn_rm.l.uevent = sn_rm_uevent;
	init_completion(&sn_rm.in);
	init_completion(&sn_rm.go);
	init_completion(&del->done);
	del->dev = x;
	KUNIT_ASSERT_EQ(test, dmc_listener_register(&sn_rm.l), 0);
	k = kthread_run(sn_del_fn, del, "sn-del");
	if (IS_ERR(k))
		dmc_listener_unregister(&sn_rm.l);
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&sn_rm.in, 10 * HZ));
	text = sn_take(test);
	complete(&sn_rm.go);
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&del->done, 10 * HZ));
	dmc_listener_unregister(&sn_rm.l);
	l = sn_line(text, "seqnum");
	KUNIT_ASSERT_NOT_NULL(test, l);
	got = sscanf(l, "seqnum %llu", &seq);
	KUNIT_ASSERT_EQ(test, got, 1);
	listed = sn_line(text, dmm_str(test, "device %s", sn_rm.devpath));
	kunit_info(test, "remove event %llu, snapshot seqnum %llu, device %slisted\n",
		   sn_rm.seqnum, seq, listed ? "" : "not ");
	KUNIT_EXPECT_FALSE(test, listed && seq >= sn_rm.seqnum);
}

/*
 * The text's buffer is tried at 16 KiB and grown 4 times by 4: past
 * 16 MiB the snapshot fails (-ENOMEM) whatever the memory. A model of
 * 1100 devices whose driver_override is 4000 bytes (each escaped to four)
 * needs about 17 MiB: it must still be taken.
 */
static void snapshot_large_text_is_taken(struct kunit *test)
{
	static char name[4001];
	struct dmm_dev *d;
	size_t len = 0;
	unsigned int i;
	char *text;

	memset(name, 0xff, sizeof(name) - 1);
	for (i = 0; i < 1100; i++) {
		d = dmm_dev_new(test, dmm_str(test, "l%u", i), NULL, NULL, NULL);
		KUNIT_ASSERT_EQ(test, dmc_device_set_driver_override(d->dev, name), 0);
	}
	text = dmc_model_snapshot(&len);
	KUNIT_EXPECT_FALSE_MSG(test, IS_ERR_OR_NULL(text), "snapshot: %ld",
			       IS_ERR(text) ? PTR_ERR(text) : 0L);
	if (!IS_ERR_OR_NULL(text)) {
		kunit_info(test, "%zu bytes\n", len);
		kvfree(text);
	}
}

static int snapshot_test_init(struct kunit *test)
{
	return dmm_init(test, "sn");
}

static struct kunit_case snapshot_test_cases[] = {
	KUNIT_CASE(snapshot_shows_model),
	KUNIT_CASE(snapshot_generation_counts_changes),
	KUNIT_CASE(snapshot_escapes_names),
	KUNIT_CASE(snapshot_change_waits_for_snapshot),
	KUNIT_CASE(snapshot_does_not_wait_for_probe),
	KUNIT_CASE(snapshot_consistent_under_churn),
	KUNIT_CASE(snapshot_override_store_races_read),
	KUNIT_CASE(snapshot_bus_unregister_consistent),
	KUNIT_CASE(snapshot_concurrent_readers_keep_matches),
	KUNIT_CASE(snapshot_seqnum_before_remove_event),
	KUNIT_CASE(snapshot_large_text_is_taken),
	{}
};

static struct kunit_suite snapshot_test_suite = {
	.name = "dmcore-snapshot",
	.init = snapshot_test_init,
	.exit = dmm_exit,
	.test_cases = snapshot_test_cases,
};

kunit_test_suites(&snapshot_test_suite);
