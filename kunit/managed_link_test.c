// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore-managed-links: the flags and states of device links, and the
 * suppliers' sync_state() (link.c, link_state.c), one rule per case, then
 * the races: a supplier's unbind against a consumer's probe, a delete
 * against an autoremove, sync_state() against a consumer's unbind.
 * Names are "ml<N>-<name>".
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <dmcore/invariants.h>
#include "model_util.h"

#define ST(x)	DMC_DL_STATE_##x
#define FL(x)	DMC_DL_FLAG_##x

/* What the hooked callbacks do; one test at a time. */
static struct ml_hooks {
	int (*probe)(struct dmc_device *dev);	/* the model's */
	void (*remove)(struct dmc_device *dev);
	struct dmc_device_link *watch;	/* its state seen in a probe */
	int state_in_probe;
	struct dmc_device *park_probe;	/* park this device's probe */
	struct dmc_device *park_remove;
	bool park_sync;
	struct completion parked, release;
	atomic_t syncs;			/* sync_state() calls */
	struct dmc_device *synced;	/* the last device synced */
	bool sync_saw_driver;
} ml;

static int ml_probe(struct dmc_device *dev)
{
	if (ml.watch)
		ml.state_in_probe = dmc_device_link_status(ml.watch);
	if (dev == READ_ONCE(ml.park_probe)) {
		complete(&ml.parked);
		wait_for_completion(&ml.release);
	}
	return ml.probe(dev);
}

static void ml_remove(struct dmc_device *dev)
{
	if (dev == READ_ONCE(ml.park_remove)) {
		complete(&ml.parked);
		wait_for_completion(&ml.release);
	}
	ml.remove(dev);
}

static void ml_sync_state(struct dmc_device *dev)
{
	ml.synced = dev;
	ml.sync_saw_driver = !!dev->driver;
	atomic_inc(&ml.syncs);
	if (READ_ONCE(ml.park_sync)) {
		complete(&ml.parked);
		wait_for_completion(&ml.release);
	}
}

static int ml_init(struct kunit *test)
{
	memset(&ml, 0, sizeof(ml));
	init_completion(&ml.parked);
	init_completion(&ml.release);
	return dmm_init(test, "ml");
}

/* A driver with the hooks (and sync_state() if @sync); registered if @reg. */
static struct dmm_drv *ml_drv(struct kunit *test, struct dmm_bus *b,
			      const char *name, bool sync, bool reg)
{
	struct dmm_drv *d = dmm_drv_alloc(test, b, name);

	ml.probe = d->drv.probe;
	ml.remove = d->drv.remove;
	d->drv.probe = ml_probe;
	d->drv.remove = ml_remove;
	if (sync)
		d->drv.sync_state = ml_sync_state;
	if (reg)
		KUNIT_ASSERT_EQ(test, dmm_drv_register(test, d), 0);
	return d;
}

/* Supplier s (driver ds, with sync_state) and consumer c (driver dc). */
struct ml_pair {
	struct dmm_bus *b;
	struct dmm_drv *dc, *ds;
	struct dmm_dev *c, *s;
};

static void ml_pair(struct kunit *test, struct ml_pair *p, bool s_drv, bool c_drv)
{
	p->b = dmm_bus_new(test, "bus");
	p->ds = ml_drv(test, p->b, "ds", true, s_drv);
	p->dc = ml_drv(test, p->b, "dc", false, c_drv);
	p->s = dmm_dev_new(test, "s", p->b, NULL, p->ds);
	p->c = dmm_dev_new(test, "c", p->b, NULL, p->dc);
	dmc_wait_for_device_probe();
}

static struct dmc_device_link *ml_add(struct kunit *test, struct ml_pair *p, u32 flags)
{
	struct dmc_device_link *link = dmc_device_link_add(p->c->dev, p->s->dev, flags);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, link);
	return link;
}

static bool ml_bound(struct dmm_dev *d)
{
	return dmc_device_is_bound(d->dev);
}

/* Bind @d now (its driver registered); expect success. */
static void ml_attach(struct kunit *test, struct dmm_dev *d)
{
	KUNIT_EXPECT_EQ(test, dmc_device_attach(d->dev), 1);
	dmc_wait_for_device_probe();
}

/* ---- flags -------------------------------------------------------------- */

static void ml_invalid_flags_fail_einval(struct kunit *test)
{
	static const u32 bad[] = {
		FL(STATELESS) | FL(AUTOREMOVE_CONSUMER),
		FL(STATELESS) | FL(AUTOREMOVE_SUPPLIER),
		FL(STATELESS) | FL(AUTOPROBE_CONSUMER),
		FL(STATELESS) | FL(SYNC_STATE_ONLY),
		FL(SYNC_STATE_ONLY) | FL(AUTOREMOVE_CONSUMER),
		FL(SYNC_STATE_ONLY) | FL(PM_RUNTIME),
		FL(AUTOPROBE_CONSUMER) | FL(AUTOREMOVE_CONSUMER),
		FL(AUTOPROBE_CONSUMER) | FL(AUTOREMOVE_SUPPLIER),
		FL(MANAGED),
		BIT(8),
		BIT(31),
	};
	struct ml_pair p;
	unsigned int i;

	ml_pair(test, &p, true, true);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct dmc_device_link *l = dmc_device_link_add(p.c->dev, p.s->dev, bad[i]);

		KUNIT_EXPECT_EQ_MSG(test, IS_ERR(l) ? PTR_ERR(l) : 0L, (long)-EINVAL,
				    "flags %#x", bad[i]);
		KUNIT_EXPECT_NULL(test, dmc_device_link_find(p.c->dev, p.s->dev));
	}
	/* Nothing changed: both still bound, a valid add still works. */
	KUNIT_EXPECT_TRUE(test, ml_bound(p.c) && ml_bound(p.s));
	ml_add(test, &p, 0);
}

static void ml_pm_runtime_flags_stored(struct kunit *test)
{
	struct ml_pair p;
	struct dmc_device_link *l;

	ml_pair(test, &p, false, false);
	l = ml_add(test, &p, FL(PM_RUNTIME) | FL(RPM_ACTIVE));
	KUNIT_EXPECT_EQ(test, dmc_device_link_flags(l),
			FL(PM_RUNTIME) | FL(RPM_ACTIVE) | FL(MANAGED));
	dmc_device_link_del(l);
	/* RPM_ACTIVE without PM_RUNTIME: ignored, as Linux. */
	l = ml_add(test, &p, FL(RPM_ACTIVE));
	KUNIT_EXPECT_EQ(test, dmc_device_link_flags(l), FL(MANAGED));
	dmc_device_link_del(l);
}

/* ---- stateless ------------------------------------------------------------ */

static void ml_stateless_link_orders_nothing(struct kunit *test)
{
	struct ml_pair p;
	struct dmc_device_link *l;

	ml_pair(test, &p, false, false);
	l = ml_add(test, &p, FL(STATELESS));
	KUNIT_EXPECT_EQ(test, (int)dmc_device_link_status(l), (int)ST(NONE));
	KUNIT_EXPECT_EQ(test, dmc_device_link_flags(l), FL(STATELESS));
	/* The consumer binds with its supplier unbound. */
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, p.dc), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, ml_bound(p.c));
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, p.ds), 0);
	dmc_wait_for_device_probe();
	/* Its unbind leaves the consumer bound. */
	dmc_device_release_driver(p.s->dev);
	KUNIT_EXPECT_TRUE(test, ml_bound(p.c));
	KUNIT_EXPECT_EQ(test, (int)dmc_device_link_status(l), (int)ST(NONE));
	KUNIT_EXPECT_PTR_EQ(test, dmc_device_link_find(p.c->dev, p.s->dev), l);
	dmc_device_link_del(l);
	KUNIT_EXPECT_NULL(test, dmc_device_link_find(p.c->dev, p.s->dev));
}

static void ml_stateless_add_twice_takes_two_references(struct kunit *test)
{
	struct ml_pair p;
	struct dmc_device_link *l;
	unsigned int refs;

	ml_pair(test, &p, false, false);
	refs = dmm_dev_refs(p.s);
	l = ml_add(test, &p, FL(STATELESS));
	KUNIT_EXPECT_PTR_EQ(test, ml_add(test, &p, FL(STATELESS)), l);
	dmc_device_link_del(l);
	KUNIT_EXPECT_PTR_EQ(test, dmc_device_link_find(p.c->dev, p.s->dev), l);
	KUNIT_EXPECT_EQ(test, dmc_device_link_remove(p.c->dev, p.s->dev), 0);
	KUNIT_EXPECT_NULL(test, dmc_device_link_find(p.c->dev, p.s->dev));
	KUNIT_EXPECT_EQ(test, dmc_device_link_remove(p.c->dev, p.s->dev), -ENOENT);
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(p.s), refs);
}

static void ml_stateless_reference_on_managed_link(struct kunit *test)
{
	struct ml_pair p;
	struct dmc_device_link *l;

	ml_pair(test, &p, true, true);
	l = ml_add(test, &p, 0);
	KUNIT_EXPECT_PTR_EQ(test, ml_add(test, &p, FL(STATELESS)), l);
	KUNIT_EXPECT_EQ(test, dmc_device_link_flags(l), FL(STATELESS) | FL(MANAGED));
	KUNIT_EXPECT_EQ(test, (int)dmc_device_link_status(l), (int)ST(ACTIVE));
	/* The delete drops the stateless reference: still managed. */
	dmc_device_link_del(l);
	KUNIT_EXPECT_PTR_EQ(test, dmc_device_link_find(p.c->dev, p.s->dev), l);
	KUNIT_EXPECT_EQ(test, dmc_device_link_flags(l), FL(MANAGED));
	dmc_device_link_del(l);
	KUNIT_EXPECT_NULL(test, dmc_device_link_find(p.c->dev, p.s->dev));
}

static void ml_managed_add_on_stateless_link_makes_it_managed(struct kunit *test)
{
	struct ml_pair p;
	struct dmc_device_link *l;

	ml_pair(test, &p, true, false);
	l = ml_add(test, &p, FL(STATELESS));
	KUNIT_EXPECT_PTR_EQ(test, ml_add(test, &p, FL(AUTOREMOVE_SUPPLIER)), l);
	KUNIT_EXPECT_EQ(test, dmc_device_link_flags(l) & FL(MANAGED), FL(MANAGED));
	KUNIT_EXPECT_EQ(test, (int)dmc_device_link_status(l), (int)ST(AVAILABLE));
	dmc_device_link_del(l);		/* the stateless reference */
	dmc_device_link_del(l);		/* the managed one */
	KUNIT_EXPECT_NULL(test, dmc_device_link_find(p.c->dev, p.s->dev));
}

/* ---- states --------------------------------------------------------------- */

static void ml_initial_state_follows_bindings(struct kunit *test)
{
	struct ml_pair p;
	struct dmc_device_link *l;

	ml_pair(test, &p, false, false);
	l = ml_add(test, &p, 0);
	KUNIT_EXPECT_EQ(test, (int)dmc_device_link_status(l), (int)ST(DORMANT));
	dmc_device_link_del(l);

	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, p.ds), 0);
	dmc_wait_for_device_probe();
	l = ml_add(test, &p, 0);
	KUNIT_EXPECT_EQ(test, (int)dmc_device_link_status(l), (int)ST(AVAILABLE));
	dmc_device_link_del(l);

	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, p.dc), 0);
	dmc_wait_for_device_probe();
	l = ml_add(test, &p, 0);
	KUNIT_EXPECT_EQ(test, (int)dmc_device_link_status(l), (int)ST(ACTIVE));
	dmc_device_link_del(l);

	/* Consumer bound, supplier not: dormant, and the consumer stays. */
	dmc_device_release_driver(p.s->dev);
	l = ml_add(test, &p, 0);
	KUNIT_EXPECT_EQ(test, (int)dmc_device_link_status(l), (int)ST(DORMANT));
	KUNIT_EXPECT_TRUE(test, ml_bound(p.c));
}

static void ml_states_follow_probe_and_unbind(struct kunit *test)
{
	struct ml_pair p;
	struct dmc_device_link *l;

	ml_pair(test, &p, false, false);
	l = ml_add(test, &p, 0);
	ml.watch = l;
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, p.dc), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_FALSE(test, ml_bound(p.c));	/* deferred */
	KUNIT_EXPECT_EQ(test, (int)dmc_device_link_status(l), (int)ST(DORMANT));
	ml.state_in_probe = -2;
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, p.ds), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, ml_bound(p.c));
	/* The last probe was the consumer's, which saw CONSUMER_PROBE. */
	KUNIT_EXPECT_EQ(test, ml.state_in_probe, (int)ST(CONSUMER_PROBE));
	KUNIT_EXPECT_EQ(test, (int)dmc_device_link_status(l), (int)ST(ACTIVE));
	dmc_device_release_driver(p.c->dev);
	KUNIT_EXPECT_EQ(test, (int)dmc_device_link_status(l), (int)ST(AVAILABLE));
	ml_attach(test, p.c);
	KUNIT_EXPECT_EQ(test, (int)dmc_device_link_status(l), (int)ST(ACTIVE));
	dmc_device_release_driver(p.s->dev);
	KUNIT_EXPECT_FALSE(test, ml_bound(p.c));
	KUNIT_EXPECT_LT(test, dmm_log_index(test, "remove:c:dc"),
			dmm_log_index(test, "remove:s:ds"));
	KUNIT_EXPECT_EQ(test, (int)dmc_device_link_status(l), (int)ST(DORMANT));
	/* No AUTOPROBE_CONSUMER: the consumer is not probed again. */
	ml_attach(test, p.s);
	KUNIT_EXPECT_FALSE(test, ml_bound(p.c));
	KUNIT_EXPECT_EQ(test, (int)dmc_device_link_status(l), (int)ST(AVAILABLE));
}

static void ml_consumer_probe_failure_returns_link_to_available(struct kunit *test)
{
	struct ml_pair p;
	struct dmc_device_link *l;

	ml_pair(test, &p, true, false);
	l = ml_add(test, &p, 0);
	p.c->fail_left = 1;
	p.c->fail_ret = -EIO;
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, p.dc), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_FALSE(test, ml_bound(p.c));
	KUNIT_EXPECT_EQ(test, (int)dmc_device_link_status(l), (int)ST(AVAILABLE));
	ml_attach(test, p.c);
	KUNIT_EXPECT_EQ(test, (int)dmc_device_link_status(l), (int)ST(ACTIVE));
}

/* ---- autoremove, autoprobe --------------------------------------------------- */

static void ml_autoremove_consumer_goes_with_consumer_unbind(struct kunit *test)
{
	struct ml_pair p;
	unsigned int refs;

	ml_pair(test, &p, true, true);
	refs = dmm_dev_refs(p.s);
	ml_add(test, &p, FL(AUTOREMOVE_CONSUMER));
	dmc_device_release_driver(p.c->dev);
	KUNIT_EXPECT_NULL(test, dmc_device_link_find(p.c->dev, p.s->dev));
	dmc_wait_for_device_probe();	/* frees the link */
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(p.s), refs);
	/* Through the supplier's unbind too. */
	ml_attach(test, p.c);
	ml_add(test, &p, FL(AUTOREMOVE_CONSUMER));
	dmc_device_release_driver(p.s->dev);
	KUNIT_EXPECT_FALSE(test, ml_bound(p.c));
	KUNIT_EXPECT_NULL(test, dmc_device_link_find(p.c->dev, p.s->dev));
}

static void ml_autoremove_supplier_goes_with_supplier_unbind(struct kunit *test)
{
	struct ml_pair p;
	struct dmc_device_link *l;

	ml_pair(test, &p, true, true);
	/* Both asked: AUTOREMOVE_SUPPLIER wins, as Linux. */
	l = ml_add(test, &p, FL(AUTOREMOVE_SUPPLIER) | FL(AUTOREMOVE_CONSUMER));
	KUNIT_EXPECT_EQ(test, dmc_device_link_flags(l),
			FL(AUTOREMOVE_SUPPLIER) | FL(MANAGED));
	dmc_device_release_driver(p.c->dev);
	KUNIT_EXPECT_PTR_EQ(test, dmc_device_link_find(p.c->dev, p.s->dev), l);
	ml_attach(test, p.c);
	dmc_device_release_driver(p.s->dev);
	KUNIT_EXPECT_FALSE(test, ml_bound(p.c));
	KUNIT_EXPECT_NULL(test, dmc_device_link_find(p.c->dev, p.s->dev));
}

static void ml_add_existing_merges_lifetime_flags(struct kunit *test)
{
	struct ml_pair p;
	struct dmc_device_link *l;

	ml_pair(test, &p, true, true);
	l = ml_add(test, &p, FL(AUTOREMOVE_CONSUMER));
	/* A longer lifetime asked: the link keeps it. */
	KUNIT_EXPECT_PTR_EQ(test, ml_add(test, &p, FL(AUTOREMOVE_SUPPLIER)), l);
	KUNIT_EXPECT_EQ(test, dmc_device_link_flags(l),
			FL(AUTOREMOVE_SUPPLIER) | FL(MANAGED));
	KUNIT_EXPECT_PTR_EQ(test, ml_add(test, &p, 0), l);
	KUNIT_EXPECT_EQ(test, dmc_device_link_flags(l), FL(MANAGED));
	/* Shorter ones do not shorten it. */
	KUNIT_EXPECT_PTR_EQ(test, ml_add(test, &p, FL(AUTOREMOVE_CONSUMER)), l);
	KUNIT_EXPECT_EQ(test, dmc_device_link_flags(l), FL(MANAGED));
	dmc_device_release_driver(p.s->dev);
	KUNIT_EXPECT_PTR_EQ(test, dmc_device_link_find(p.c->dev, p.s->dev), l);
}

static void ml_autoprobe_consumer_probed_when_supplier_binds(struct kunit *test)
{
	struct ml_pair p;
	struct dmc_device_link *l;

	ml_pair(test, &p, true, true);
	l = ml_add(test, &p, FL(AUTOPROBE_CONSUMER));
	dmc_device_release_driver(p.s->dev);
	KUNIT_EXPECT_FALSE(test, ml_bound(p.c));
	KUNIT_EXPECT_FALSE(test, dmc_device_is_deferred(p.c->dev));
	ml_attach(test, p.s);
	KUNIT_EXPECT_TRUE(test, ml_bound(p.c));
	KUNIT_EXPECT_EQ(test, (int)dmc_device_link_status(l), (int)ST(ACTIVE));
	KUNIT_EXPECT_EQ(test, atomic_read(&p.c->probes), 2);
}

/* ---- sync_state ------------------------------------------------------------ */

static void ml_sync_state_once_all_consumers_bound(struct kunit *test)
{
	struct ml_pair p;
	struct dmm_dev *c2, *c3;

	ml_pair(test, &p, false, false);
	c2 = dmm_dev_new(test, "c2", p.b, NULL, p.dc);
	ml_add(test, &p, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dmc_device_link_add(c2->dev, p.s->dev, 0));
	/* A stateless consumer does not count. */
	c3 = dmm_dev_new(test, "c3", NULL, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dmc_device_link_add(c3->dev, p.s->dev,
							       FL(STATELESS)));
	p.c->fail_left = 1;
	p.c->fail_ret = -EIO;
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, p.ds), 0);
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, p.dc), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, ml_bound(p.s) && ml_bound(c2));
	KUNIT_EXPECT_FALSE(test, ml_bound(p.c));
	KUNIT_EXPECT_EQ(test, atomic_read(&ml.syncs), 0);
	KUNIT_EXPECT_FALSE(test, dmc_dev_state_synced(p.s->dev));
	ml_attach(test, p.c);
	KUNIT_EXPECT_EQ(test, atomic_read(&ml.syncs), 1);
	KUNIT_EXPECT_PTR_EQ(test, ml.synced, p.s->dev);
	KUNIT_EXPECT_TRUE(test, ml.sync_saw_driver);
	KUNIT_EXPECT_TRUE(test, dmc_dev_state_synced(p.s->dev));
	/* Once per binding: a consumer's rebind does not call it again. */
	dmc_device_release_driver(c2->dev);
	ml_attach(test, c2);
	KUNIT_EXPECT_EQ(test, atomic_read(&ml.syncs), 1);
	/* A new binding: again once every consumer is bound. */
	dmc_device_release_driver(p.s->dev);
	KUNIT_EXPECT_FALSE(test, dmc_dev_state_synced(p.s->dev));
	ml_attach(test, p.s);
	KUNIT_EXPECT_EQ(test, atomic_read(&ml.syncs), 1);
	ml_attach(test, p.c);
	ml_attach(test, c2);
	KUNIT_EXPECT_EQ(test, atomic_read(&ml.syncs), 2);
}

static void ml_sync_state_at_bind_without_consumers(struct kunit *test)
{
	struct ml_pair p;

	ml_pair(test, &p, true, false);
	KUNIT_EXPECT_EQ(test, atomic_read(&ml.syncs), 1);
	KUNIT_EXPECT_TRUE(test, dmc_dev_state_synced(p.s->dev));
	KUNIT_EXPECT_FALSE(test, dmc_dev_state_synced(p.c->dev));
}

static void ml_sync_state_pause_holds_calls_until_resume(struct kunit *test)
{
	struct ml_pair p;

	dmc_device_links_supplier_sync_state_pause();
	dmc_device_links_supplier_sync_state_pause();
	ml_pair(test, &p, true, true);
	KUNIT_EXPECT_EQ(test, atomic_read(&ml.syncs), 0);
	dmc_device_links_supplier_sync_state_resume();
	KUNIT_EXPECT_EQ(test, atomic_read(&ml.syncs), 0);
	dmc_device_links_supplier_sync_state_resume();
	KUNIT_EXPECT_EQ(test, atomic_read(&ml.syncs), 1);
	KUNIT_EXPECT_TRUE(test, dmc_dev_state_synced(p.s->dev));
	/* A resume without a pause is a misuse that changes nothing. */
	DMM_TOLERATE_MISUSE(test, dmc_device_links_supplier_sync_state_resume());
	KUNIT_EXPECT_EQ(test, atomic_read(&ml.syncs), 1);
}

static void ml_sync_state_only_link(struct kunit *test)
{
	struct ml_pair p;
	struct dmc_device_link *l;

	ml_pair(test, &p, false, false);
	l = ml_add(test, &p, FL(SYNC_STATE_ONLY));
	/* No probe ordering: the consumer binds first. */
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, p.dc), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, ml_bound(p.c));
	/* Its binding ended the link. */
	KUNIT_EXPECT_NULL(test, dmc_device_link_find(p.c->dev, p.s->dev));
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, p.ds), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_EQ(test, atomic_read(&ml.syncs), 1);
	/* Of no use to a consumer that probed. */
	l = dmc_device_link_add(p.c->dev, p.s->dev, FL(SYNC_STATE_ONLY));
	KUNIT_EXPECT_EQ(test, IS_ERR(l) ? PTR_ERR(l) : 0L, (long)-EINVAL);
}

static void ml_sync_state_only_link_holds_sync_state(struct kunit *test)
{
	struct ml_pair p;

	ml_pair(test, &p, false, false);
	ml_add(test, &p, FL(SYNC_STATE_ONLY));
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, p.ds), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, ml_bound(p.s));
	KUNIT_EXPECT_EQ(test, atomic_read(&ml.syncs), 0);
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, p.dc), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_EQ(test, atomic_read(&ml.syncs), 1);
}

/* ---- races ------------------------------------------------------------------- */

struct ml_thread {
	struct completion done;
	struct dmc_device *dev;
	struct dmc_device_link *link;
	int what;
};

static int ml_release_fn(void *data)
{
	struct ml_thread *t = data;

	if (t->what)
		dmc_device_link_del(t->link);
	else
		dmc_device_release_driver(t->dev);
	complete(&t->done);
	return 0;
}

static void ml_start(struct kunit *test, struct ml_thread *t)
{
	struct task_struct *k;

	init_completion(&t->done);
	k = kthread_run(ml_release_fn, t, "ml-race");
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
}

/* The supplier's unbind waits for a consumer probe under way, then unbinds it. */
static void ml_race_supplier_unbind_vs_consumer_probe(struct kunit *test)
{
	struct ml_pair p;
	struct ml_thread t = {};
	struct dmc_device_link *l;

	ml_pair(test, &p, false, false);
	l = ml_add(test, &p, 0);
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, p.dc), 0);
	dmc_wait_for_device_probe();	/* the consumer deferred */
	ml.park_probe = p.c->dev;
	/* The supplier binds; the deferred worker probes the consumer, parked. */
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, p.ds), 0);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&ml.parked, 10 * HZ));
	KUNIT_EXPECT_EQ(test, (int)dmc_device_link_status(l), (int)ST(CONSUMER_PROBE));
	t.dev = p.s->dev;
	ml_start(test, &t);
	/* The unbind cannot finish while the consumer probes. */
	KUNIT_EXPECT_FALSE(test, wait_for_completion_timeout(&t.done, HZ / 5));
	KUNIT_EXPECT_TRUE(test, ml_bound(p.s));
	complete(&ml.release);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&t.done, 10 * HZ));
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_FALSE(test, ml_bound(p.s));
	KUNIT_EXPECT_FALSE(test, ml_bound(p.c));
	KUNIT_EXPECT_LT(test, dmm_log_index(test, "remove:c:dc"),
			dmm_log_index(test, "remove:s:ds"));
	KUNIT_EXPECT_EQ(test, (int)dmc_device_link_status(l), (int)ST(DORMANT));
}

/* A delete of the stateless reference while the autoremove is under way. */
static void ml_race_link_del_vs_autoremove(struct kunit *test)
{
	struct ml_pair p;
	struct ml_thread t = {}, d = {};
	struct dmc_device_link *l;
	unsigned int refs;

	ml_pair(test, &p, true, true);
	refs = dmm_dev_refs(p.s);
	l = ml_add(test, &p, FL(AUTOREMOVE_CONSUMER));
	KUNIT_ASSERT_PTR_EQ(test, ml_add(test, &p, FL(STATELESS)), l);
	ml.park_remove = p.c->dev;
	t.dev = p.c->dev;
	ml_start(test, &t);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&ml.parked, 10 * HZ));
	/* The consumer's remove runs: the delete drops the stateless reference. */
	d.what = 1;
	d.link = l;
	ml_start(test, &d);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&d.done, 10 * HZ));
	KUNIT_EXPECT_PTR_EQ(test, dmc_device_link_find(p.c->dev, p.s->dev), l);
	complete(&ml.release);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&t.done, 10 * HZ));
	KUNIT_EXPECT_NULL(test, dmc_device_link_find(p.c->dev, p.s->dev));
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(p.s), refs);
}

/* Free-running: link_remove against the autoremove; exactly one wins. */
struct ml_rm {
	struct completion done, go;
	struct dmc_device *c, *s;
	int ret;
};

static int ml_rm_fn(void *data)
{
	struct ml_rm *r = data;

	wait_for_completion(&r->go);
	r->ret = dmc_device_link_remove(r->c, r->s);
	complete(&r->done);
	return 0;
}

static void ml_race_link_remove_vs_autoremove_loop(struct kunit *test)
{
	struct ml_pair p;
	struct task_struct *k;
	struct ml_rm r;
	unsigned int i, won = 0, lost = 0, refs;

	ml_pair(test, &p, true, true);
	refs = dmm_dev_refs(p.s);
	for (i = 0; i < 200; i++) {
		ml_add(test, &p, FL(AUTOREMOVE_CONSUMER));
		init_completion(&r.done);
		init_completion(&r.go);
		r.c = p.c->dev;
		r.s = p.s->dev;
		k = kthread_run(ml_rm_fn, &r, "ml-rm");
		KUNIT_ASSERT_FALSE(test, IS_ERR(k));
		complete(&r.go);
		udelay(i % 20);
		dmc_device_release_driver(p.c->dev);
		wait_for_completion(&r.done);
		if (r.ret)
			lost++;
		else
			won++;
		KUNIT_EXPECT_TRUE(test, r.ret == 0 || r.ret == -ENOENT);
		KUNIT_EXPECT_NULL(test, dmc_device_link_find(p.c->dev, p.s->dev));
		ml_attach(test, p.c);
	}
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(p.s), refs);
	kunit_info(test, "removed by the call: %u, by the unbind: %u\n", won, lost);
}

/* sync_state() parked: a consumer's unbind waits, the call is not repeated. */
/*
 * A consumer's binding makes its supplier's sync_state() due: it runs in
 * the probe worker under the supplier's lock alone. The consumer's unbind
 * does not wait for it; the supplier's unbind does.
 */
static void ml_race_sync_state_vs_unbinds(struct kunit *test)
{
	struct ml_pair p;
	struct ml_thread tc = {}, ts = {};
	bool tc_done;

	ml_pair(test, &p, false, false);
	ml_add(test, &p, 0);
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, p.dc), 0);
	dmc_wait_for_device_probe();	/* the consumer deferred */
	ml.park_sync = true;
	/* The consumer's binding, in the deferred worker, makes it due. */
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, p.ds), 0);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&ml.parked, 10 * HZ));
	KUNIT_EXPECT_TRUE(test, ml.sync_saw_driver);
	KUNIT_EXPECT_TRUE(test, ml_bound(p.c));
	/* The consumer's lock is free: its unbind goes through. */
	tc.dev = p.c->dev;
	ml_start(test, &tc);
	tc_done = wait_for_completion_timeout(&tc.done, 10 * HZ);
	KUNIT_EXPECT_TRUE(test, tc_done);
	KUNIT_EXPECT_FALSE(test, ml_bound(p.c));
	/* The supplier's unbind waits for its sync_state(). */
	ts.dev = p.s->dev;
	ml_start(test, &ts);
	KUNIT_EXPECT_FALSE(test, wait_for_completion_timeout(&ts.done, HZ / 5));
	KUNIT_EXPECT_TRUE(test, ml_bound(p.s));
	WRITE_ONCE(ml.park_sync, false);
	complete(&ml.release);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&ts.done, 10 * HZ));
	/* If tc waited for the sync_state() after all, it is done now. */
	if (!tc_done)
		KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&tc.done, 10 * HZ));
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_FALSE(test, ml_bound(p.s));
	KUNIT_EXPECT_EQ(test, atomic_read(&ml.syncs), 1);
	KUNIT_EXPECT_FALSE(test, dmc_dev_state_synced(p.s->dev));
	/* Bound again, consumer too: one call for the new binding. */
	ml_attach(test, p.s);
	ml_attach(test, p.c);
	KUNIT_EXPECT_EQ(test, atomic_read(&ml.syncs), 2);
	KUNIT_EXPECT_TRUE(test, dmc_dev_state_synced(p.s->dev));
}

struct ml_move {
	struct completion done;
	struct dmc_device *dev, *parent;
	int ret;
};

static int ml_move_fn(void *data)
{
	struct ml_move *m = data;

	m->ret = dmc_device_move(m->dev, m->parent, DMC_DPM_ORDER_DEV_AFTER_PARENT);
	complete(&m->done);
	return 0;
}

/*
 * The consumer's probe ends while the consumer is being moved under its
 * supplier: the move holds the supplier's lock and waits for the
 * consumer's; the probe, holding the consumer's, makes the supplier's
 * sync_state() due. Called there, it would wait for the supplier's lock
 * (ABBA); from the worker, both finish.
 */
static void ml_race_move_under_supplier_vs_consumer_probe(struct kunit *test)
{
	struct ml_pair p;
	struct ml_move m = {};
	struct task_struct *k;

	ml_pair(test, &p, false, false);
	ml_add(test, &p, 0);
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, p.dc), 0);
	dmc_wait_for_device_probe();	/* the consumer deferred */
	ml.park_probe = p.c->dev;
	/* The supplier binds; the deferred worker probes the consumer, parked. */
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, p.ds), 0);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&ml.parked, 10 * HZ));
	KUNIT_ASSERT_EQ(test, atomic_read(&ml.syncs), 0);
	init_completion(&m.done);
	m.dev = p.c->dev;
	m.parent = p.s->dev;
	k = kthread_run(ml_move_fn, &m, "ml-move");
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	/* The move waits for the consumer's lock, the probe holds it. */
	KUNIT_EXPECT_FALSE(test, wait_for_completion_timeout(&m.done, HZ / 5));
	complete(&ml.release);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&m.done, 10 * HZ));
	KUNIT_EXPECT_EQ(test, m.ret, 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, ml_bound(p.c));
	KUNIT_EXPECT_PTR_EQ(test, p.c->dev->parent, p.s->dev);
	KUNIT_EXPECT_EQ(test, atomic_read(&ml.syncs), 1);
	KUNIT_EXPECT_PTR_EQ(test, ml.synced, p.s->dev);
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
}

static struct kunit_case ml_cases[] = {
	KUNIT_CASE(ml_invalid_flags_fail_einval),
	KUNIT_CASE(ml_pm_runtime_flags_stored),
	KUNIT_CASE(ml_stateless_link_orders_nothing),
	KUNIT_CASE(ml_stateless_add_twice_takes_two_references),
	KUNIT_CASE(ml_stateless_reference_on_managed_link),
	KUNIT_CASE(ml_managed_add_on_stateless_link_makes_it_managed),
	KUNIT_CASE(ml_initial_state_follows_bindings),
	KUNIT_CASE(ml_states_follow_probe_and_unbind),
	KUNIT_CASE(ml_consumer_probe_failure_returns_link_to_available),
	KUNIT_CASE(ml_autoremove_consumer_goes_with_consumer_unbind),
	KUNIT_CASE(ml_autoremove_supplier_goes_with_supplier_unbind),
	KUNIT_CASE(ml_add_existing_merges_lifetime_flags),
	KUNIT_CASE(ml_autoprobe_consumer_probed_when_supplier_binds),
	KUNIT_CASE(ml_sync_state_once_all_consumers_bound),
	KUNIT_CASE(ml_sync_state_at_bind_without_consumers),
	KUNIT_CASE(ml_sync_state_pause_holds_calls_until_resume),
	KUNIT_CASE(ml_sync_state_only_link),
	KUNIT_CASE(ml_sync_state_only_link_holds_sync_state),
	KUNIT_CASE(ml_race_supplier_unbind_vs_consumer_probe),
	KUNIT_CASE(ml_race_link_del_vs_autoremove),
	KUNIT_CASE(ml_race_link_remove_vs_autoremove_loop),
	KUNIT_CASE(ml_race_sync_state_vs_unbinds),
	KUNIT_CASE(ml_race_move_under_supplier_vs_consumer_probe),
	{}
};

static struct kunit_suite ml_suite = {
	.name = "dmcore-managed-links",
	.init = ml_init,
	.exit = dmct_exit,
	.test_cases = ml_cases,
};

kunit_test_suites(&ml_suite);
