// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore-deferred: deferred probing, one rule per case.
 *
 * A probe that waits for a named device or driver (dmc_probe_defer()) is
 * retried when that name binds or registers, and only then; an unnamed
 * deferral is retried after any bind; chains resolve in one pass; driver
 * unregister and device removal take a device off the list, also when
 * they run at once on two CPUs. Retries run
 * on a workqueue, so every case waits with dmc_wait_for_device_probe()
 * before it looks. Names are "df<N>-<name>".
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <dmcore/invariants.h>
#include "model_util.h"

#define DF_REASON_LEN	64

static const char *df_reason(struct kunit *test, struct dmm_dev *d)
{
	char *buf = kunit_kzalloc(test, DF_REASON_LEN, GFP_KERNEL);
	const char *r;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	r = dmc_device_deferred_reason(d->dev, buf, DF_REASON_LEN);
	return r ?: "(null)";
}

/* A bus with driver "d" (which @a, @b... want) */
struct df_world {
	struct dmm_bus *b;
	struct dmm_drv *d;
};

static void df_world(struct kunit *test, struct df_world *w)
{
	w->b = dmm_bus_new(test, "bus");
	w->d = dmm_drv_new(test, w->b, "d");
}

/* A device on the world's bus wanting "d", waiting for @dep to be bound. */
static struct dmm_dev *df_waiter(struct kunit *test, struct df_world *w,
				 const char *name, struct dmm_dev *dep)
{
	struct dmm_dev *a = dmm_dev_alloc(test, name);

	a->dev->bus = &w->b->bus;
	dmm_dev_want(a, w->d);
	a->wait_dev = dep;
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	dmc_wait_for_device_probe();
	return a;
}

static void deferred_named_probe_defers_with_reason(struct kunit *test)
{
	struct df_world w;
	struct dmm_dev *b, *a;

	df_world(test, &w);
	b = dmm_dev_new(test, "b", w.b, NULL, NULL);
	a = df_waiter(test, &w, "a", b);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 1);
	KUNIT_EXPECT_EQ(test, a->last_defer_ret, -EPROBE_DEFER);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_deferred(a->dev));
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_NULL(test, a->dev->driver);
	KUNIT_EXPECT_STREQ(test, df_reason(test, a), b->name);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_deferred(b->dev));
	dmm_dev_unregister(a);
	dmm_dev_unregister(b);
}

static void deferred_retried_when_named_device_binds(struct kunit *test)
{
	struct df_world w;
	struct dmm_dev *b, *a;
	struct dmm_drv *e;

	df_world(test, &w);
	b = dmm_dev_new(test, "b", w.b, NULL, NULL);
	a = df_waiter(test, &w, "a", b);
	e = dmm_drv_alloc(test, w.b, "e");
	dmm_dev_want(b, e);
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, e), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(b->dev));
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_FALSE(test, dmc_device_is_deferred(a->dev));
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 2);
	DMM_EXPECT_LOG(test, "probe:a:d probe:b:e probe:a:d");
	dmm_dev_unregister(a);
	dmm_dev_unregister(b);
}

static void deferred_retried_when_named_device_attached_by_hand(struct kunit *test)
{
	struct df_world w;
	struct dmm_dev *b, *a;
	struct dmm_drv *e;

	df_world(test, &w);
	e = dmm_drv_new(test, w.b, "e");
	b = dmm_dev_new(test, "b", w.b, NULL, NULL);
	a = df_waiter(test, &w, "a", b);
	dmm_dev_want(b, e);
	KUNIT_EXPECT_EQ(test, dmc_device_driver_attach(&e->drv, b->dev), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 2);
	dmm_dev_unregister(a);
	dmm_dev_unregister(b);
}

static void deferred_retried_when_named_driver_registers(struct kunit *test)
{
	struct df_world w;
	struct dmm_drv *x;
	struct dmm_dev *a;

	df_world(test, &w);
	x = dmm_drv_alloc(test, w.b, "x");
	a = dmm_dev_alloc(test, "a");
	a->dev->bus = &w.b->bus;
	dmm_dev_want(a, w.d);
	a->wait_drv = x->name;
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, dmc_device_is_deferred(a->dev));
	KUNIT_EXPECT_STREQ(test, df_reason(test, a), x->name);

	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, x), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_PTR_EQ(test, a->dev->driver, &w.d->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 2);
	dmm_dev_unregister(a);
}

static void deferred_only_waiters_on_the_name_are_retried(struct kunit *test)
{
	struct df_world w;
	struct dmm_dev *b, *y, *a, *c;
	struct dmm_drv *e;

	df_world(test, &w);
	b = dmm_dev_new(test, "b", w.b, NULL, NULL);
	y = dmm_dev_new(test, "y", w.b, NULL, NULL);
	a = df_waiter(test, &w, "a", b);
	c = df_waiter(test, &w, "c", y);
	e = dmm_drv_new(test, w.b, "e");
	dmm_dev_want(b, e);
	KUNIT_EXPECT_EQ(test, dmc_device_attach(b->dev), 1);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 2);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(c->dev));
	KUNIT_EXPECT_EQ(test, atomic_read(&c->probes), 1);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_deferred(c->dev));
	KUNIT_EXPECT_STREQ(test, df_reason(test, c), y->name);

	/* and c's turn comes with y */
	dmm_dev_want(y, e);
	KUNIT_EXPECT_EQ(test, dmc_device_attach(y->dev), 1);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(c->dev));
	KUNIT_EXPECT_EQ(test, atomic_read(&c->probes), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 2);
	dmm_dev_unregister(c);
	dmm_dev_unregister(a);
	dmm_dev_unregister(y);
	dmm_dev_unregister(b);
}

static void deferred_named_driver_waiter_ignores_other_drivers(struct kunit *test)
{
	struct df_world w;
	struct dmm_drv *x, *other;
	struct dmm_dev *a;

	df_world(test, &w);
	x = dmm_drv_alloc(test, w.b, "x");
	a = dmm_dev_alloc(test, "a");
	a->dev->bus = &w.b->bus;
	dmm_dev_want(a, w.d);
	a->wait_drv = x->name;
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	other = dmm_drv_new(test, w.b, "other");
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 1);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_deferred(a->dev));
	KUNIT_EXPECT_EQ(test, atomic_read(&other->probes), 0);
	dmm_dev_unregister(a);
}

static void deferred_named_waiter_ignores_unrelated_binds(struct kunit *test)
{
	struct df_world w;
	struct dmm_dev *b, *a, *z;

	df_world(test, &w);
	b = dmm_dev_new(test, "b", w.b, NULL, NULL);
	a = df_waiter(test, &w, "a", b);
	z = dmm_dev_new(test, "z", w.b, NULL, w.d);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(z->dev));
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 1);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_deferred(a->dev));
	dmm_dev_unregister(z);
	dmm_dev_unregister(a);
	dmm_dev_unregister(b);
}

static void deferred_unnamed_reason_is_unnamed(struct kunit *test)
{
	struct df_world w;
	struct dmm_dev *a;

	df_world(test, &w);
	a = dmm_dev_alloc(test, "a");
	a->dev->bus = &w.b->bus;
	dmm_dev_want(a, w.d);
	a->defer_left = 1;
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, dmc_device_is_deferred(a->dev));
	KUNIT_EXPECT_STREQ(test, df_reason(test, a), "unnamed");
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	dmm_dev_unregister(a);
}

static void deferred_unnamed_retried_after_any_bind(struct kunit *test)
{
	struct df_world w;
	struct dmm_dev *a, *z;

	df_world(test, &w);
	a = dmm_dev_alloc(test, "a");
	a->dev->bus = &w.b->bus;
	dmm_dev_want(a, w.d);
	a->defer_left = 1;
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 1);

	z = dmm_dev_new(test, "z", w.b, NULL, w.d);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_FALSE(test, dmc_device_is_deferred(a->dev));
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 2);
	dmm_dev_unregister(z);
	dmm_dev_unregister(a);
}

static void deferred_match_defer_is_unnamed_and_retried(struct kunit *test)
{
	struct df_world w;
	struct dmm_dev *a, *z;

	df_world(test, &w);
	a = dmm_dev_alloc(test, "a");
	a->dev->bus = &w.b->bus;
	dmm_dev_want(a, w.d);
	a->match_ret = -EPROBE_DEFER;
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, dmc_device_is_deferred(a->dev));
	KUNIT_EXPECT_STREQ(test, df_reason(test, a), "unnamed");
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 0);

	a->match_ret = 0;	/* the match says yes from now on */
	z = dmm_dev_new(test, "z", w.b, NULL, w.d);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 1);
	dmm_dev_unregister(z);
	dmm_dev_unregister(a);
}

static void deferred_chain_resolves_in_one_pass(struct kunit *test)
{
	struct df_world w;
	struct dmm_dev *a, *b, *c;

	df_world(test, &w);
	c = dmm_dev_new(test, "c", w.b, NULL, NULL);	/* no driver yet */
	b = df_waiter(test, &w, "b", c);
	a = df_waiter(test, &w, "a", b);
	KUNIT_EXPECT_STREQ(test, df_reason(test, a), b->name);
	KUNIT_EXPECT_STREQ(test, df_reason(test, b), c->name);

	dmm_dev_want(c, w.d);
	KUNIT_EXPECT_EQ(test, dmc_device_attach(c->dev), 1);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(b->dev));
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->probes), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->probes), 1);
	DMM_EXPECT_LOG(test,
		       "probe:b:d probe:a:d probe:c:d probe:b:d probe:a:d");
	dmm_dev_unregister(a);
	dmm_dev_unregister(b);
	dmm_dev_unregister(c);
}

static void deferred_chain_of_named_drivers_resolves(struct kunit *test)
{
	struct df_world w;
	struct dmm_drv *x;
	struct dmm_dev *a, *b;

	df_world(test, &w);
	x = dmm_drv_alloc(test, w.b, "x");
	b = dmm_dev_alloc(test, "b");
	b->dev->bus = &w.b->bus;
	dmm_dev_want(b, w.d);
	b->wait_drv = x->name;
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, b), 0);
	a = df_waiter(test, &w, "a", b);
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, x), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(b->dev));
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->probes), 2);
	dmm_dev_unregister(a);
	dmm_dev_unregister(b);
}

static void deferred_many_waiters_on_one_name_all_bind(struct kunit *test)
{
	struct dmm_dev *b, *ws[5];
	struct df_world w;
	unsigned int i, ok = 0;

	df_world(test, &w);
	b = dmm_dev_new(test, "b", w.b, NULL, NULL);
	for (i = 0; i < ARRAY_SIZE(ws); i++)
		ws[i] = df_waiter(test, &w, dmm_str(test, "w%u", i), b);
	/* Five parked under one name: the index holds each where it belongs. */
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
	dmm_dev_want(b, w.d);
	KUNIT_EXPECT_EQ(test, dmc_device_attach(b->dev), 1);
	dmc_wait_for_device_probe();
	for (i = 0; i < ARRAY_SIZE(ws); i++)
		if (dmc_device_is_bound(ws[i]->dev) &&
		    atomic_read(&ws[i]->probes) == 2)
			ok++;
	KUNIT_EXPECT_EQ(test, ok, (unsigned int)ARRAY_SIZE(ws));
	for (i = 0; i < ARRAY_SIZE(ws); i++)
		dmm_dev_unregister(ws[i]);
	dmm_dev_unregister(b);
}

static void deferred_retry_deferring_again_gets_new_reason(struct kunit *test)
{
	struct df_world w;
	struct dmm_dev *b, *a;
	struct dmm_drv *x;

	df_world(test, &w);
	x = dmm_drv_alloc(test, w.b, "x");
	b = dmm_dev_new(test, "b", w.b, NULL, NULL);
	a = dmm_dev_alloc(test, "a");
	a->dev->bus = &w.b->bus;
	dmm_dev_want(a, w.d);
	a->wait_dev = b;
	a->wait_drv = x->name;
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_STREQ(test, df_reason(test, a), b->name);

	dmm_dev_want(b, w.d);
	KUNIT_EXPECT_EQ(test, dmc_device_attach(b->dev), 1);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 2);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_deferred(a->dev));
	KUNIT_EXPECT_STREQ(test, df_reason(test, a), x->name);

	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, x), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 3);
	dmm_dev_unregister(a);
	dmm_dev_unregister(b);
}

/*
 * A device parked under a name is offered to another driver (one that
 * matches everything) and binds there: its name must leave the index of
 * named waiters before it is cleared. The fuzzer's "driver add r0
 * probe=defer:zzz; device add d0; driver add r1" crashed here (strlen of
 * the cleared name while unhashing it).
 */
static void deferred_named_waiter_bound_by_another_driver(struct kunit *test)
{
	struct df_world w;
	struct dmm_dev *b, *a;
	struct dmm_drv *e;

	df_world(test, &w);
	b = dmm_dev_new(test, "b", w.b, NULL, NULL);
	a = df_waiter(test, &w, "a", b);
	KUNIT_ASSERT_TRUE(test, dmc_device_is_deferred(a->dev));
	WRITE_ONCE(a->wait_dev, NULL);	/* a no longer needs b */
	/*
	 * Nor does it match d any more: e binds b too, which retries a from
	 * the deferred worker, racing e's own walk to a; either way a must
	 * end on e (it ended on d under kunit-delayed).
	 */
	WRITE_ONCE(a->want, NULL);
	e = dmm_drv_alloc(test, w.b, "e");
	e->match_ret = 1;
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, e), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_PTR_EQ(test, a->dev->driver, &e->drv);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_deferred(a->dev));
	dmm_dev_unregister(a);
	dmm_dev_unregister(b);
}

/*
 * A parked named waiter re-offered and deferring again under another name:
 * the index must hash it under the new name only, so that the new name's
 * appearance retries it and the old name's does not.
 */
static void deferred_named_waiter_redefers_under_new_name(struct kunit *test)
{
	struct df_world w;
	struct dmm_dev *b, *c, *a;
	struct dmm_drv *e, *f;

	df_world(test, &w);
	b = dmm_dev_new(test, "b", w.b, NULL, NULL);
	c = dmm_dev_new(test, "c", w.b, NULL, NULL);
	a = df_waiter(test, &w, "a", b);
	KUNIT_ASSERT_STREQ(test, df_reason(test, a), b->name);
	WRITE_ONCE(a->wait_dev, c);
	e = dmm_drv_alloc(test, w.b, "e");
	e->match_ret = 1;
	e->probe_ret = -ENODEV;	/* only a's own deferral can keep it */
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, e), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, dmc_device_is_deferred(a->dev));
	KUNIT_EXPECT_STREQ(test, df_reason(test, a), c->name);
	/* (e stays: its unregistration would drop the deferral it caused.) */

	/* c binds: a is retried (through d) and, c being bound, binds. */
	f = dmm_drv_alloc(test, w.b, "f");
	dmm_dev_want(c, f);
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, f), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(c->dev));
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_FALSE(test, dmc_device_is_deferred(a->dev));
	dmm_dev_unregister(a);
	dmm_dev_unregister(c);
	dmm_dev_unregister(b);
}

static void deferred_driver_unregister_takes_device_off_list(struct kunit *test)
{
	struct df_world w;
	struct dmm_dev *b, *a;

	df_world(test, &w);
	b = dmm_dev_new(test, "b", w.b, NULL, NULL);
	a = df_waiter(test, &w, "a", b);
	KUNIT_ASSERT_TRUE(test, dmc_device_is_deferred(a->dev));
	dmm_drv_unregister(test, w.d);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_FALSE(test, dmc_device_is_deferred(a->dev));

	/* b binding now brings no retry: a's driver is gone */
	dmm_dev_want(b, dmm_drv_new(test, w.b, "e"));
	KUNIT_EXPECT_EQ(test, dmc_device_attach(b->dev), 1);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 1);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	dmm_dev_unregister(a);
	dmm_dev_unregister(b);
}

/*
 * A driver's unregistration drops the deferrals its probe asked for
 * (dmc_deferred_drop_driver()) on the other CPU while this one deletes
 * the deferred devices (dmc_deferred_probe_del(), which trusts
 * ->deferred_held read without the mutex). The lists' reference on each
 * device is dropped exactly once, by whichever side takes it off them: a
 * double put is a refcount warning or a KASAN report, a missed one a
 * device never released. Half the devices wait for a name (the named
 * index, all under one name), half for any bind (the unnamed list).
 */
#define DF_RACE_DEVS	100
#define DF_RACE_ROUNDS	5

struct df_race {
	struct dmm_drv *d;
	atomic_t go;
	struct completion done;
};

static int df_race_fn(void *data)
{
	struct df_race *r = data;

	while (!atomic_read(&r->go))
		cond_resched();
	dmc_driver_unregister(&r->d->drv);
	complete(&r->done);
	return 0;
}

static void deferred_driver_drop_races_device_removal(struct kunit *test)
{
	struct dmm_dev **devs = kunit_kcalloc(test, DF_RACE_DEVS, sizeof(*devs), GFP_KERNEL);
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	unsigned int round, i, unreleased = 0;
	struct task_struct *t;
	struct df_race r;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	KUNIT_ASSERT_NOT_NULL(test, devs);
	dmm_ctx(test)->log_mask = 0;
	for (round = 0; round < DF_RACE_ROUNDS; round++) {
		r.d = dmm_drv_alloc(test, b, dmm_str(test, "d%u", round));
		KUNIT_ASSERT_EQ(test, dmc_driver_register(&r.d->drv), 0);
		for (i = 0; i < DF_RACE_DEVS; i++) {
			devs[i] = dmm_dev_alloc(test, dmm_str(test, "r%u-%u", round, i));
			devs[i]->dev->bus = &b->bus;
			dmm_dev_want(devs[i], r.d);
			if (i % 2)
				devs[i]->defer_left = INT_MAX;
			else
				devs[i]->wait_drv = "df-nobody";
			KUNIT_ASSERT_EQ(test, dmm_dev_add(test, devs[i]), 0);
		}
		dmc_wait_for_device_probe();
		for (i = 0; i < DF_RACE_DEVS; i++)
			KUNIT_ASSERT_TRUE(test, dmc_device_is_deferred(devs[i]->dev));

		atomic_set(&r.go, 0);
		init_completion(&r.done);
		t = kthread_create(df_race_fn, &r, "df-race");
		KUNIT_ASSERT_FALSE(test, IS_ERR(t));
		kthread_bind(t, cpumask_any_but(cpu_online_mask, raw_smp_processor_id()));
		wake_up_process(t);
		/* Nothing that can end the test early until the thread is done. */
		atomic_set(&r.go, 1);
		for (i = 0; i < DF_RACE_DEVS; i++)
			dmm_dev_unregister(devs[i]);
		wait_for_completion(&r.done);
		dmc_wait_for_device_probe();
		dmc_kobject_flush_releases();
		for (i = 0; i < DF_RACE_DEVS; i++)
			unreleased += devs[i]->released != 1;
	}
	KUNIT_EXPECT_EQ(test, unreleased, 0U);
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
}

static void deferred_device_removal_takes_it_off_list(struct kunit *test)
{
	unsigned long before;
	struct df_world w;
	struct dmm_dev *b, *a;

	df_world(test, &w);
	b = dmm_dev_new(test, "b", w.b, NULL, NULL);
	a = df_waiter(test, &w, "a", b);
	KUNIT_ASSERT_TRUE(test, dmc_device_is_deferred(a->dev));
	dmm_dev_unregister(a);
	dmc_wait_for_device_probe();
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, a->released, 1U);

	before = dmc_probe_count();
	dmm_dev_want(b, w.d);
	KUNIT_EXPECT_EQ(test, dmc_device_attach(b->dev), 1);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 1);
	KUNIT_EXPECT_EQ(test, dmc_probe_count() - before, 1UL);
	dmm_dev_unregister(b);
}

static void deferred_parent_removal_takes_child_off_list(struct kunit *test)
{
	struct df_world w;
	struct dmm_dev *b, *p, *a;

	df_world(test, &w);
	b = dmm_dev_new(test, "b", w.b, NULL, NULL);
	p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	a = dmm_dev_alloc(test, "a");
	a->dev->bus = &w.b->bus;
	a->dev->parent = p->dev;
	dmm_dev_want(a, w.d);
	a->wait_dev = b;
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	dmc_wait_for_device_probe();
	KUNIT_ASSERT_TRUE(test, dmc_device_is_deferred(a->dev));
	dmm_dev_unregister(p);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_deferred(a->dev));
	dmm_dev_want(b, w.d);
	KUNIT_EXPECT_EQ(test, dmc_device_attach(b->dev), 1);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 1);
	dmm_dev_unregister(a);
	dmm_dev_unregister(b);
}

static void deferred_async_driver_retries_and_binds(struct kunit *test)
{
	struct dmm_bus *bus = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_alloc(test, bus, "d");
	struct dmm_dev *b = dmm_dev_new(test, "b", bus, NULL, NULL);
	struct dmm_dev *a = dmm_dev_alloc(test, "a");

	d->drv.probe_type = DMC_PROBE_PREFER_ASYNCHRONOUS;
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, d), 0);
	a->dev->bus = &bus->bus;
	dmm_dev_want(a, d);
	a->wait_dev = b;
	a->probe_sleep_ms = 10;
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, dmc_device_is_deferred(a->dev));

	dmm_dev_want(b, d);
	b->probe_sleep_ms = 10;
	KUNIT_EXPECT_GE(test, dmc_device_attach(b->dev), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(b->dev));
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 2);
	dmm_dev_unregister(a);
	dmm_dev_unregister(b);
}

static void deferred_not_reported_for_plain_or_bound_devices(struct kunit *test)
{
	struct df_world w;
	struct dmm_dev *a, *x;

	df_world(test, &w);
	a = dmm_dev_new(test, "a", w.b, NULL, w.d);
	x = dmm_dev_new(test, "x", w.b, NULL, NULL);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_FALSE(test, dmc_device_is_deferred(a->dev));
	KUNIT_EXPECT_FALSE(test, dmc_device_is_deferred(x->dev));
	dmm_dev_unregister(x);
	dmm_dev_unregister(a);
}

static int deferred_test_init(struct kunit *test)
{
	return dmm_init(test, "df");
}

/*
 * dmc_dev_err_probe(): a deferral's message is kept as its reason, with
 * the driver's name, until the next probe begins; another error is only
 * returned (and logged).
 */
static void deferred_err_probe_message_is_the_reason(struct kunit *test)
{
	struct df_world w;
	struct dmm_dev *a;
	char want[DF_REASON_LEN];
	struct dmc_device *orphan;

	df_world(test, &w);
	a = dmm_dev_alloc(test, "a");
	a->dev->bus = &w.b->bus;
	dmm_dev_want(a, w.d);
	a->defer_left = 1;
	a->defer_msg = "no clock yet";
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	dmc_wait_for_device_probe();
	KUNIT_ASSERT_TRUE(test, dmc_device_is_deferred(a->dev));
	snprintf(want, sizeof(want), "unnamed; %s: no clock yet", w.d->name);
	KUNIT_EXPECT_STREQ(test, df_reason(test, a), want);

	/* The next probe begins without it, and binds: no reason left. */
	KUNIT_EXPECT_EQ(test, dmc_device_attach(a->dev), 1);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_deferred(a->dev));
	KUNIT_EXPECT_STREQ(test, df_reason(test, a), "");

	/* Not a deferral: returned as is; no device at all: no crash. */
	KUNIT_EXPECT_EQ(test, dmc_dev_err_probe(a->dev, -EIO, "broken %d\n", 1), -EIO);
	KUNIT_EXPECT_EQ(test, dmc_dev_err_probe(NULL, -EPROBE_DEFER, "x"), -EPROBE_DEFER);
	orphan = kunit_kzalloc(test, sizeof(*orphan), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, orphan);
	KUNIT_EXPECT_EQ(test, dmc_dev_err_probe(orphan, -EPROBE_DEFER, "y"), -EPROBE_DEFER);
	dmm_dev_unregister(a);
}

static struct kunit_case deferred_test_cases[] = {
	KUNIT_CASE(deferred_err_probe_message_is_the_reason),
	KUNIT_CASE(deferred_named_probe_defers_with_reason),
	KUNIT_CASE(deferred_retried_when_named_device_binds),
	KUNIT_CASE(deferred_retried_when_named_device_attached_by_hand),
	KUNIT_CASE(deferred_retried_when_named_driver_registers),
	KUNIT_CASE(deferred_only_waiters_on_the_name_are_retried),
	KUNIT_CASE(deferred_named_driver_waiter_ignores_other_drivers),
	KUNIT_CASE(deferred_named_waiter_ignores_unrelated_binds),
	KUNIT_CASE(deferred_unnamed_reason_is_unnamed),
	KUNIT_CASE(deferred_unnamed_retried_after_any_bind),
	KUNIT_CASE(deferred_match_defer_is_unnamed_and_retried),
	KUNIT_CASE(deferred_chain_resolves_in_one_pass),
	KUNIT_CASE(deferred_chain_of_named_drivers_resolves),
	KUNIT_CASE(deferred_many_waiters_on_one_name_all_bind),
	KUNIT_CASE(deferred_retry_deferring_again_gets_new_reason),
	KUNIT_CASE(deferred_named_waiter_bound_by_another_driver),
	KUNIT_CASE(deferred_named_waiter_redefers_under_new_name),
	KUNIT_CASE(deferred_driver_unregister_takes_device_off_list),
	KUNIT_CASE(deferred_driver_drop_races_device_removal),
	KUNIT_CASE(deferred_device_removal_takes_it_off_list),
	KUNIT_CASE(deferred_parent_removal_takes_child_off_list),
	KUNIT_CASE(deferred_async_driver_retries_and_binds),
	KUNIT_CASE(deferred_not_reported_for_plain_or_bound_devices),
	{}
};

static struct kunit_suite deferred_test_suite = {
	.name = "dmcore-deferred",
	.init = deferred_test_init,
	.exit = dmct_exit,
	.test_cases = deferred_test_cases,
};

kunit_test_suites(&deferred_test_suite);
