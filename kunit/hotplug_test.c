// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: three smaller features of issue 15, on the model scaffolding
 * (model_util.h).
 *
 * dmcore-override: driver_override (dmc_driver_set_override(), the core's
 * match honouring it on every bus): parsing as Linux's, only the named
 * driver binds whatever the bus's match says, clearing falls back to the
 * bus, a device never added is refused, and a thread changing the
 * override while the device is reprobed (the swap under the device lock:
 * no match reads a freed name, KASAN on).
 *
 * dmcore-online: dmc_device_offline()/dmc_device_online() through the
 * bus's callbacks, their events and results, offline_disabled, a child
 * online keeping its parent online, and a bus without the callbacks.
 *
 * dmcore-shutdown: dmc_shutdown_all() (children before parents, the bus's
 * shutdown instead of the driver's, for bound and unbound devices),
 * probing blocked after it until dmc_device_unblock_probing(), and
 * dmc_device_block_probing() and dmc_shutdown_all() each racing a probe
 * parked in another thread: neither returns before the probe, and the
 * device it bound is shut down exactly once.
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <dmcore/device.h>
#include "model_util.h"

#define HP_TIMEOUT	(10 * HZ)
#define HP_LOG_CB	BIT(15)	/* this file's callbacks in the model log */

struct hp_park;
static struct hp_park *hp_park_cur;	/* the parked probe of dmcore-shutdown */

/* ---- dmcore-override ------------------------------------------------------ */

static void override_parses_as_linux(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *d = dmm_dev_new(test, "d", b, NULL, NULL);
	const char *ov = NULL;
	char *big;

	KUNIT_EXPECT_EQ(test, dmc_driver_set_override(d->dev, &ov, "abc\n", 4), 0);
	KUNIT_EXPECT_STREQ(test, ov, "abc");
	/* NULs after the name, as a writer may send: the name alone. */
	KUNIT_EXPECT_EQ(test, dmc_driver_set_override(d->dev, &ov, "xy\0zz", 5), 0);
	KUNIT_EXPECT_STREQ(test, ov, "xy");
	/* A lone newline clears, an empty string clears. */
	KUNIT_EXPECT_EQ(test, dmc_driver_set_override(d->dev, &ov, "\n", 1), 0);
	KUNIT_EXPECT_NULL(test, ov);
	KUNIT_EXPECT_EQ(test, dmc_driver_set_override(d->dev, &ov, "q", 1), 0);
	KUNIT_EXPECT_EQ(test, dmc_driver_set_override(d->dev, &ov, "", 0), 0);
	KUNIT_EXPECT_NULL(test, ov);
	/* Too long: -EINVAL, the old value kept. */
	big = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, big);
	memset(big, 'n', PAGE_SIZE - 1);
	KUNIT_EXPECT_EQ(test, dmc_driver_set_override(d->dev, &ov, "keep", 4), 0);
	KUNIT_EXPECT_EQ(test, dmc_driver_set_override(d->dev, &ov, big, PAGE_SIZE - 1),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, ov, "keep");
	/* The longest accepted: PAGE_SIZE - 2 bytes (a newline fits the page). */
	KUNIT_EXPECT_EQ(test, dmc_driver_set_override(d->dev, &ov, big, PAGE_SIZE - 2), 0);
	KUNIT_EXPECT_EQ(test, strlen(ov), PAGE_SIZE - 2);
	KUNIT_EXPECT_EQ(test, dmc_driver_set_override(d->dev, NULL, "a", 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_driver_set_override(d->dev, &ov, NULL, 1), -EINVAL);
	kfree(ov);
}

static void override_binds_only_the_named_driver(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *a = dmm_drv_new(test, b, "a");
	struct dmm_drv *o;
	struct dmm_dev *d;

	/* @d wants "a" (the bus's match), but is told to take "o". */
	dmc_bus_set_autoprobe(&b->bus, false);
	d = dmm_dev_new(test, "d", b, NULL, a);
	KUNIT_ASSERT_EQ(test, dmc_device_set_driver_override(d->dev, dmm_name(test, "o")), 0);
	dmc_bus_set_autoprobe(&b->bus, true);
	KUNIT_EXPECT_EQ(test, dmc_device_attach(d->dev), 0);	/* "a" may not */
	KUNIT_EXPECT_NULL(test, d->dev->driver);
	o = dmm_drv_new(test, b, "o");	/* the bus's match says no; bound anyway */
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_PTR_EQ(test, d->dev->driver, &o->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 0);
	/* Kept across an unbind: a reprobe takes "o" again. */
	KUNIT_EXPECT_EQ(test, dmc_device_reprobe(d->dev), 1);
	KUNIT_EXPECT_PTR_EQ(test, d->dev->driver, &o->drv);
	/* Cleared: the bus's match decides again. */
	KUNIT_ASSERT_EQ(test, dmc_device_set_driver_override(d->dev, "\n"), 0);
	KUNIT_EXPECT_EQ(test, dmc_device_reprobe(d->dev), 1);
	KUNIT_EXPECT_PTR_EQ(test, d->dev->driver, &a->drv);
}

static void override_on_a_keyed_bus_reaches_unlisted_driver(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_alloc(test, "bus");
	struct dmm_drv *k, *o;
	struct dmm_dev *d;

	dmm_bus_keyed(b);
	KUNIT_ASSERT_EQ(test, dmm_bus_register(test, b), 0);
	k = dmm_drv_alloc(test, b, "k");
	k->keys[0] = "K1";
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, k), 0);
	o = dmm_drv_alloc(test, b, "o");
	o->keys[0] = "OTHER";
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, o), 0);
	dmc_bus_set_autoprobe(&b->bus, false);
	d = dmm_dev_alloc(test, "d");
	d->dev->bus = &b->bus;
	d->key = "K1";
	dmm_dev_want(d, k);
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, d), 0);
	KUNIT_ASSERT_EQ(test, dmc_device_set_driver_override(d->dev, o->name), 0);
	dmc_bus_set_autoprobe(&b->bus, true);
	/* "o" does not list K1: the index alone would never offer it. */
	KUNIT_EXPECT_EQ(test, dmc_device_attach(d->dev), 1);
	KUNIT_EXPECT_PTR_EQ(test, d->dev->driver, &o->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&k->probes), 0);
}

static void override_of_a_device_never_added_is_refused(struct kunit *test)
{
	struct dmm_dev *d = dmm_dev_alloc(test, "d");

	KUNIT_EXPECT_EQ(test, dmc_device_set_driver_override(d->dev, "x"), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_device_set_driver_override(NULL, "x"), -EINVAL);
}

struct ov_race {
	struct dmm_dev *d;
	const char *names[2];
	struct completion started;
	bool stop;
	unsigned int sets;
};

static int ov_race_setter(void *data)
{
	struct ov_race *r = data;

	complete(&r->started);
	while (!READ_ONCE(r->stop)) {
		dmc_device_set_driver_override(r->d->dev, r->names[r->sets & 1]);
		r->sets++;
		cond_resched();
	}
	return 0;
}

/*
 * The override is freed and replaced while another thread's match reads
 * it: the swap under the device lock keeps every read whole (KASAN would
 * report a read of a freed name), and every binding is to one of the two
 * drivers it named.
 */
static void override_changed_while_reprobing(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *x = dmm_drv_new(test, b, "x");
	struct dmm_drv *y = dmm_drv_new(test, b, "y");
	struct task_struct *t;
	struct ov_race *r;
	unsigned int i, bad = 0;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	dmm_ctx(test)->log_mask = 0;	/* hundreds of probes */
	r->d = dmm_dev_new(test, "d", b, NULL, NULL);	/* the bus's match: none */
	r->names[0] = x->name;
	r->names[1] = y->name;
	init_completion(&r->started);
	t = kthread_run(ov_race_setter, r, "ov-setter");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	get_task_struct(t);
	wait_for_completion(&r->started);
	for (i = 0; i < 300; i++) {
		dmc_device_reprobe(r->d->dev);
		if (r->d->dev->driver && r->d->dev->driver != &x->drv &&
		    r->d->dev->driver != &y->drv)
			bad++;
	}
	WRITE_ONCE(r->stop, true);
	kthread_stop(t);
	put_task_struct(t);
	KUNIT_EXPECT_EQ(test, bad, 0);
	KUNIT_EXPECT_GT(test, r->sets, 0);
	KUNIT_EXPECT_GT(test, atomic_read(&x->probes) + atomic_read(&y->probes), 0);
}

static int hp_test_init(struct kunit *test)
{
	return dmm_init(test, "hp");
}

/* A case that failed half-way must not leave probing blocked for the next. */
static void hp_test_exit(struct kunit *test)
{
	WRITE_ONCE(hp_park_cur, NULL);
	dmc_device_unblock_probing();
	dmct_exit(test);
}

static struct kunit_case override_test_cases[] = {
	KUNIT_CASE(override_parses_as_linux),
	KUNIT_CASE(override_binds_only_the_named_driver),
	KUNIT_CASE(override_on_a_keyed_bus_reaches_unlisted_driver),
	KUNIT_CASE(override_of_a_device_never_added_is_refused),
	KUNIT_CASE(override_changed_while_reprobing),
	{}
};

static struct kunit_suite override_test_suite = {
	.name = "dmcore-override",
	.init = hp_test_init,
	.exit = hp_test_exit,
	.test_cases = override_test_cases,
};

/* ---- dmcore-online -------------------------------------------------------- */

static int hp_offline_ret;

static int hp_bus_offline(struct dmc_device *dev)
{
	struct dmm_ctx *ctx = dmct_current()->priv;

	dmm_log(ctx, HP_LOG_CB, "offline:%s", dmm_dev_of(ctx->test, dev)->short_name);
	return hp_offline_ret;
}

static int hp_bus_online(struct dmc_device *dev)
{
	struct dmm_ctx *ctx = dmct_current()->priv;

	dmm_log(ctx, HP_LOG_CB, "online:%s", dmm_dev_of(ctx->test, dev)->short_name);
	return 0;
}

static struct dmm_bus *hp_hotplug_bus(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_alloc(test, "bus");

	b->bus.online = hp_bus_online;
	b->bus.offline = hp_bus_offline;
	KUNIT_ASSERT_EQ(test, dmm_bus_register(test, b), 0);
	dmm_ctx(test)->log_mask = HP_LOG_CB;
	hp_offline_ret = 0;
	return b;
}

/* dmc_device_offline() under the hotplug lock, as its contract asks. */
static int hp_offline(struct dmm_dev *d)
{
	int ret;

	dmc_lock_device_hotplug();
	ret = dmc_device_offline(d->dev);
	dmc_unlock_device_hotplug();
	return ret;
}

static int hp_online(struct dmm_dev *d)
{
	int ret;

	dmc_lock_device_hotplug();
	ret = dmc_device_online(d->dev);
	dmc_unlock_device_hotplug();
	return ret;
}

static void online_offline_and_back_with_events(struct kunit *test)
{
	struct dmm_bus *b = hp_hotplug_bus(test);
	struct dmm_drv *a = dmm_drv_new(test, b, "a");
	struct dmm_dev *d = dmm_dev_new(test, "d", b, NULL, a);
	const char *path = dmm_path(test, d);

	dmct_listen(test);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_offline(d->dev));
	KUNIT_EXPECT_EQ(test, hp_online(d), 1);		/* online already */
	KUNIT_EXPECT_EQ(test, hp_offline(d), 0);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_offline(d->dev));
	KUNIT_EXPECT_PTR_EQ(test, d->dev->driver, &a->drv);	/* still bound */
	KUNIT_EXPECT_EQ(test, hp_offline(d), 1);	/* offline already */
	KUNIT_EXPECT_EQ(test, hp_online(d), 0);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_offline(d->dev));
	DMM_EXPECT_LOG(test, "offline:d online:d");
	KUNIT_EXPECT_EQ(test, dmm_ev_count(test, DMC_KOBJ_OFFLINE, path), 1);
	KUNIT_EXPECT_EQ(test, dmm_ev_count(test, DMC_KOBJ_ONLINE, path), 1);
}

static void offline_refused_by_bus_stays_online(struct kunit *test)
{
	struct dmm_bus *b = hp_hotplug_bus(test);
	struct dmm_dev *d = dmm_dev_new(test, "d", b, NULL, NULL);

	dmct_listen(test);
	hp_offline_ret = -EIO;
	KUNIT_EXPECT_EQ(test, hp_offline(d), -EIO);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_offline(d->dev));
	KUNIT_EXPECT_EQ(test, dmm_ev_count(test, DMC_KOBJ_OFFLINE, dmm_path(test, d)), 0);
}

static void offline_disabled_is_eperm(struct kunit *test)
{
	struct dmm_bus *b = hp_hotplug_bus(test);
	struct dmm_dev *d = dmm_dev_new(test, "d", b, NULL, NULL);

	KUNIT_EXPECT_EQ(test, dmc_device_set_offline_disabled(d->dev, true), 0);
	KUNIT_EXPECT_EQ(test, hp_offline(d), -EPERM);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_offline(d->dev));
	KUNIT_EXPECT_EQ(test, dmc_device_set_offline_disabled(d->dev, false), 0);
	KUNIT_EXPECT_EQ(test, hp_offline(d), 0);
	DMM_EXPECT_LOG(test, "offline:d");
}

static void offline_refused_while_a_descendant_is_online(struct kunit *test)
{
	struct dmm_bus *b = hp_hotplug_bus(test);
	struct dmm_dev *p = dmm_dev_new(test, "p", b, NULL, NULL);
	struct dmm_dev *m = dmm_dev_new(test, "m", NULL, p, NULL);	/* no bus */
	struct dmm_dev *g = dmm_dev_new(test, "g", b, m, NULL);

	/* The grandchild, under a child that cannot go offline, counts. */
	KUNIT_EXPECT_EQ(test, hp_offline(p), -EBUSY);
	KUNIT_EXPECT_EQ(test, hp_offline(g), 0);
	KUNIT_EXPECT_EQ(test, hp_offline(p), 0);
	DMM_EXPECT_LOG(test, "offline:g offline:p");
	KUNIT_EXPECT_EQ(test, hp_offline(m), 0);	/* no callbacks: nothing */
	KUNIT_EXPECT_FALSE(test, dmc_device_is_offline(m->dev));
}

static void online_file_only_on_a_bus_with_both(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *d = dmm_dev_new(test, "d", b, NULL, NULL);

	dmm_ctx(test)->log_mask = HP_LOG_CB;
	KUNIT_EXPECT_EQ(test, hp_offline(d), 0);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_offline(d->dev));
	KUNIT_EXPECT_EQ(test, dmc_device_offline(NULL), -EINVAL);
	DMM_EXPECT_LOG(test, "");
}

static struct kunit_case online_test_cases[] = {
	KUNIT_CASE(online_offline_and_back_with_events),
	KUNIT_CASE(offline_refused_by_bus_stays_online),
	KUNIT_CASE(offline_disabled_is_eperm),
	KUNIT_CASE(offline_refused_while_a_descendant_is_online),
	KUNIT_CASE(online_file_only_on_a_bus_with_both),
	{}
};

static struct kunit_suite online_test_suite = {
	.name = "dmcore-online",
	.init = hp_test_init,
	.exit = hp_test_exit,
	.test_cases = online_test_cases,
};

/* ---- dmcore-shutdown ------------------------------------------------------- */

static void hp_drv_shutdown(struct dmc_device *dev)
{
	struct dmm_ctx *ctx = dmct_current()->priv;

	dmm_log(ctx, HP_LOG_CB, "shutdown:%s", dmm_dev_of(ctx->test, dev)->short_name);
}

static void hp_bus_shutdown(struct dmc_device *dev)
{
	struct dmm_ctx *ctx = dmct_current()->priv;

	dmm_log(ctx, HP_LOG_CB, "bus-shutdown:%s", dmm_dev_of(ctx->test, dev)->short_name);
}

static struct dmm_drv *hp_shutdown_drv(struct kunit *test, struct dmm_bus *b,
				       const char *name)
{
	struct dmm_drv *d = dmm_drv_alloc(test, b, name);

	d->drv.shutdown = hp_drv_shutdown;
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, d), 0);
	return d;
}

/* Our devices' entries of the log, in order (others' devices log nothing). */
static void shutdown_children_before_parents_unbound_skipped(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *a = hp_shutdown_drv(test, b, "a");
	struct dmm_dev *p, *c, *u;

	dmm_ctx(test)->log_mask = HP_LOG_CB;
	p = dmm_dev_new(test, "p", b, NULL, a);
	c = dmm_dev_new(test, "c", b, p, a);
	u = dmm_dev_new(test, "u", b, p, NULL);	/* unbound */
	dmc_shutdown_all();
	dmc_device_unblock_probing();
	DMM_EXPECT_LOG(test, "shutdown:c shutdown:p");
	KUNIT_EXPECT_NULL(test, u->dev->driver);
	KUNIT_EXPECT_PTR_EQ(test, c->dev->driver, &a->drv);	/* not unbound */
}

static void shutdown_bus_callback_for_every_device(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_alloc(test, "bus");
	struct dmm_drv *a;

	b->bus.shutdown = hp_bus_shutdown;
	KUNIT_ASSERT_EQ(test, dmm_bus_register(test, b), 0);
	a = hp_shutdown_drv(test, b, "a");
	dmm_ctx(test)->log_mask = HP_LOG_CB;
	dmm_dev_new(test, "x", b, NULL, a);
	dmm_dev_new(test, "y", b, NULL, NULL);
	dmc_shutdown_all();
	dmc_device_unblock_probing();
	/* The bus's instead of the driver's, bound or not; newest first. */
	DMM_EXPECT_LOG(test, "bus-shutdown:y bus-shutdown:x");
}

static void probing_blocked_after_shutdown_until_unblocked(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *a = dmm_drv_new(test, b, "a");
	struct dmm_dev *d;
	char buf[128];

	dmc_shutdown_all();
	d = dmm_dev_new(test, "d", b, NULL, a);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_NULL(test, d->dev->driver);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 0);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_deferred(d->dev));
	KUNIT_EXPECT_NOT_NULL(test, strstr(dmc_device_deferred_reason(d->dev, buf,
								      sizeof(buf)) ?: "",
					   "probing is blocked"));
	dmc_device_unblock_probing();
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_PTR_EQ(test, d->dev->driver, &a->drv);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_deferred(d->dev));
}

/* A probe parked on completions, for the two races below. */
struct hp_park {
	struct dmm_dev *d;
	struct completion in_probe, go, added, blocked;
	bool shutdown;		/* the blocker runs dmc_shutdown_all() */
};

static int hp_park_probe(struct dmc_device *dev)
{
	struct hp_park *pk = READ_ONCE(hp_park_cur);

	if (pk) {
		complete(&pk->in_probe);
		wait_for_completion_timeout(&pk->go, HP_TIMEOUT);
	}
	return 0;
}

static int hp_park_adder(void *data)
{
	struct hp_park *pk = data;

	dmc_device_attach(pk->d->dev);
	complete(&pk->added);
	return 0;
}

static int hp_park_blocker(void *data)
{
	struct hp_park *pk = data;

	if (pk->shutdown)
		dmc_shutdown_all();
	else
		dmc_device_block_probing();
	complete(&pk->blocked);
	return 0;
}

/*
 * A probe parked in one thread, then the blocker in another: it must not
 * return while the probe runs (Linux's wait_for_device_probe() in
 * device_block_probing()); once the probe ends it does, the device bound,
 * and (for a shutdown) its driver's shutdown called once.
 */
static void hp_race_probe_and_block(struct kunit *test, bool shutdown)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *a = dmm_drv_alloc(test, b, "a");
	struct task_struct *t1, *t2;
	struct hp_park *pk;
	struct dmm_dev *late;

	a->drv.probe = hp_park_probe;
	a->drv.shutdown = hp_drv_shutdown;
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, a), 0);
	pk = kunit_kzalloc(test, sizeof(*pk), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pk);
	init_completion(&pk->in_probe);
	init_completion(&pk->go);
	init_completion(&pk->added);
	init_completion(&pk->blocked);
	pk->shutdown = shutdown;
	dmc_bus_set_autoprobe(&b->bus, false);
	pk->d = dmm_dev_new(test, "d", b, NULL, a);
	dmc_bus_set_autoprobe(&b->bus, true);
	dmm_ctx(test)->log_mask = HP_LOG_CB;
	WRITE_ONCE(hp_park_cur, pk);

	t1 = kthread_run(hp_park_adder, pk, "hp-adder");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t1));
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&pk->in_probe, HP_TIMEOUT));
	t2 = kthread_run(hp_park_blocker, pk, "hp-blocker");
	if (IS_ERR(t2)) {
		complete(&pk->go);
		wait_for_completion(&pk->added);
		KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(t2));
		return;
	}
	/* The blocker must wait for the parked probe. */
	KUNIT_EXPECT_FALSE(test, wait_for_completion_timeout(&pk->blocked, HZ / 5));
	complete(&pk->go);
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&pk->added, HP_TIMEOUT));
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&pk->blocked, HP_TIMEOUT));
	WRITE_ONCE(hp_park_cur, NULL);
	KUNIT_EXPECT_PTR_EQ(test, pk->d->dev->driver, &a->drv);
	DMM_EXPECT_LOG(test, shutdown ? "shutdown:d" : "");
	/* Blocked now: a new device defers until probing is unblocked. */
	late = dmm_dev_new(test, "late", b, NULL, a);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_NULL(test, late->dev->driver);
	dmc_device_unblock_probing();
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_PTR_EQ(test, late->dev->driver, &a->drv);
}

static void block_probing_waits_for_a_probe_under_way(struct kunit *test)
{
	hp_race_probe_and_block(test, false);
}

static void shutdown_waits_for_a_probe_under_way(struct kunit *test)
{
	hp_race_probe_and_block(test, true);
}

static struct kunit_case shutdown_test_cases[] = {
	KUNIT_CASE(shutdown_children_before_parents_unbound_skipped),
	KUNIT_CASE(shutdown_bus_callback_for_every_device),
	KUNIT_CASE(probing_blocked_after_shutdown_until_unblocked),
	KUNIT_CASE(block_probing_waits_for_a_probe_under_way),
	KUNIT_CASE(shutdown_waits_for_a_probe_under_way),
	{}
};

static struct kunit_suite shutdown_test_suite = {
	.name = "dmcore-shutdown",
	.init = hp_test_init,
	.exit = hp_test_exit,
	.test_cases = shutdown_test_cases,
};

kunit_test_suites(&override_test_suite, &online_test_suite, &shutdown_test_suite);
