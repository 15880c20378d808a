// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore-bus: buses, one rule per case.
 *
 * Registration and its refusals, the bus's directories, what unregister
 * does to the devices and drivers still on the bus, lookups (also among
 * thousands), the walks and their early stop, autoprobe, the notifier's
 * sequences and the bus's refcount. Names are "bs<N>-<name>".
 */
#include <kunit/test.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <dmcore/invariants.h>
#include "model_util.h"

/* registration */

static void bus_register_null_fails_einval(struct kunit *test)
{
	int err = 0;

	DMM_TOLERATE_MISUSE(test, err = dmc_bus_register(NULL));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
}

static void bus_register_without_name_fails_einval(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_alloc(test, "bus");
	int err = 0;

	b->bus.name = NULL;
	DMM_TOLERATE_MISUSE(test, err = dmm_bus_register(test, b));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	KUNIT_EXPECT_FALSE(test, dmc_bus_is_registered(&b->bus));
}

static void bus_register_duplicate_name_fails_eexist(struct kunit *test)
{
	struct dmm_bus *b1 = dmm_bus_new(test, "bus");
	struct dmm_bus *b2 = dmm_bus_alloc(test, "bus2");
	int err = 0;

	b2->bus.name = b1->name;
	DMM_TOLERATE_MISUSE(test, err = dmm_bus_register(test, b2));
	KUNIT_EXPECT_EQ(test, err, -EEXIST);
	KUNIT_EXPECT_FALSE(test, dmc_bus_is_registered(&b2->bus));
	KUNIT_EXPECT_PTR_EQ(test, dmc_bus_find(b1->name), &b1->bus);
}

static void bus_register_twice_fails_and_keeps_bus(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a;
	int err = 0;

	DMM_TOLERATE_MISUSE(test, err = dmc_bus_register(&b->bus));
	KUNIT_EXPECT_LT(test, err, 0);
	KUNIT_EXPECT_TRUE(test, dmc_bus_is_registered(&b->bus));
	KUNIT_EXPECT_PTR_EQ(test, dmc_bus_find_driver(&b->bus, d->name),
			    &d->drv);
	a = dmm_dev_new(test, "a", b, NULL, d);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	dmm_dev_unregister(a);
}

static void bus_register_makes_devices_and_drivers_dirs(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmc_kobject *bk = dmm_bus_kobj(b->name);
	struct dmc_kobject *devs, *drvs;

	KUNIT_ASSERT_NOT_NULL(test, bk);
	dmct_expect_path(test, bk, dmm_str(test, "/bus/%s", b->name));
	devs = dmc_kobject_find_child(bk, "devices");
	drvs = dmc_kobject_find_child(bk, "drivers");
	KUNIT_EXPECT_NOT_NULL(test, devs);
	KUNIT_EXPECT_NOT_NULL(test, drvs);
	if (devs)
		dmct_expect_path(test, devs,
				 dmm_str(test, "/bus/%s/devices", b->name));
	if (drvs)
		dmct_expect_path(test, drvs,
				 dmm_str(test, "/bus/%s/drivers", b->name));
	dmc_kobject_put(devs);
	dmc_kobject_put(drvs);
	dmc_kobject_put(bk);
}

static void bus_unregister_removes_dirs_and_name(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_bus *again;
	struct dmc_kobject *k;

	KUNIT_EXPECT_TRUE(test, dmc_bus_is_registered(&b->bus));
	dmm_bus_unregister(test, b);
	KUNIT_EXPECT_FALSE(test, dmc_bus_is_registered(&b->bus));
	KUNIT_EXPECT_NULL(test, dmc_bus_find(b->name));
	k = dmm_bus_kobj(b->name);
	KUNIT_EXPECT_NULL(test, k);
	dmc_kobject_put(k);
	/* the name is free again */
	again = dmm_bus_alloc(test, "again");
	again->bus.name = b->name;
	KUNIT_EXPECT_EQ(test, dmm_bus_register(test, again), 0);
}

static void bus_find_returns_registered_bus_without_reference(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	unsigned int refs = dmm_bus_refs(b);
	struct dmc_bus_type *found = NULL;

	KUNIT_EXPECT_PTR_EQ(test, dmc_bus_find(b->name), &b->bus);
	KUNIT_EXPECT_EQ(test, dmm_bus_refs(b), refs);
	KUNIT_EXPECT_NULL(test, dmc_bus_find(dmm_name(test, "nope")));
	DMM_TOLERATE_MISUSE(test, found = dmc_bus_find(NULL));
	KUNIT_EXPECT_NULL(test, found);
}

/* unregister with what remains */

static void bus_unregister_deletes_devices_unbinding_first(struct kunit *test)
{
	struct dmct_ctx *ct = dmct_ctx(test);
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);
	struct dmm_dev *x = dmm_dev_new(test, "x", b, NULL, NULL);
	const char *ap = dmm_path(test, a), *xp = dmm_path(test, x);

	dmct_listen(test);
	dmm_bus_unregister(test, b);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_registered(a->dev));
	KUNIT_EXPECT_FALSE(test, dmc_device_is_registered(x->dev));
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	KUNIT_EXPECT_GE(test, dmct_ev_index(ct, DMC_KOBJ_UNBIND, ap), 0);
	KUNIT_EXPECT_GT(test, dmct_ev_index(ct, DMC_KOBJ_REMOVE, ap),
			dmct_ev_index(ct, DMC_KOBJ_UNBIND, ap));
	KUNIT_EXPECT_EQ(test, dmm_ev_count(test, DMC_KOBJ_REMOVE, xp), 1U);
	KUNIT_EXPECT_EQ(test, a->released, 0U);

	/* now unregister only drops the test's reference */
	dmm_dev_unregister(a);
	dmm_dev_unregister(x);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, a->released, 1U);
	KUNIT_EXPECT_EQ(test, x->released, 1U);
	KUNIT_EXPECT_EQ(test, dmm_ev_count(test, DMC_KOBJ_REMOVE, ap), 1U);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	DMM_EXPECT_LOG(test, "probe:a:d remove:a:d");
}

static void bus_unregister_detaches_drivers(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_drv *e = dmm_drv_new(test, b, "e");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);

	dmm_bus_unregister(test, b);
	KUNIT_EXPECT_FALSE(test, dmc_driver_is_registered(&d->drv));
	KUNIT_EXPECT_FALSE(test, dmc_driver_is_registered(&e->drv));
	KUNIT_EXPECT_EQ(test, atomic_read(&d->removes), 1);

	/* a no-op now */
	dmm_drv_unregister(test, d);
	dmm_drv_unregister(test, e);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->removes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	dmm_dev_unregister(a);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, a->released, 1U);
}

static void bus_unregister_keeps_parents_off_the_bus(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	unsigned int refs = dmm_dev_refs(p);
	struct dmm_dev *c = dmm_dev_new(test, "c", b, p, NULL);

	dmm_bus_unregister(test, b);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_registered(c->dev));
	KUNIT_EXPECT_TRUE(test, dmc_device_is_registered(p->dev));
	KUNIT_EXPECT_NULL(test, dmc_device_find_child_by_name(p->dev, c->name));
	dmm_dev_unregister(c);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, c->released, 1U);
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(p), refs);
	dmm_dev_unregister(p);
}

static void bus_unregister_never_registered_is_noop(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_alloc(test, "bus");

	DMM_TOLERATE_MISUSE(test, dmc_bus_unregister(&b->bus));
	DMM_TOLERATE_MISUSE(test, dmc_bus_unregister(NULL));
	KUNIT_EXPECT_FALSE(test, dmc_bus_is_registered(&b->bus));
	KUNIT_EXPECT_NULL(test, dmc_bus_find(b->name));
	/* and it can still be registered afterwards */
	KUNIT_EXPECT_EQ(test, dmm_bus_register(test, b), 0);
}

/* lookups */

static void bus_find_device_by_name_is_referenced(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, NULL);
	struct dmm_dev *z = dmm_dev_new(test, "z", NULL, NULL, NULL);
	unsigned int refs = dmm_dev_refs(a);
	struct dmc_device *found;

	found = dmc_bus_find_device_by_name(&b->bus, a->name);
	KUNIT_EXPECT_PTR_EQ(test, found, a->dev);
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(a), refs + 1);
	dmm_put_found(found);
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(a), refs);
	/* a device on no bus is not found on this one */
	KUNIT_EXPECT_NULL(test, dmc_bus_find_device_by_name(&b->bus, z->name));
	KUNIT_EXPECT_NULL(test, dmc_bus_find_device_by_name(&b->bus, "nope"));
	dmm_dev_unregister(z);
	dmm_dev_unregister(a);
}

#define BS_MANY_DEVS	500
#define BS_MANY_DRVS	300

static void bus_find_device_by_name_among_hundreds(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev **devs;
	struct dmc_device *found;
	unsigned int i, wrong = 0;

	devs = kunit_kcalloc(test, BS_MANY_DEVS, sizeof(*devs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, devs);
	for (i = 0; i < BS_MANY_DEVS; i++) {
		devs[i] = dmm_dev_new(test, dmm_str(test, "n%u", i), b, NULL,
				      NULL);
		cond_resched();	/* thousands under KASAN: no soft lockup */
	}
	KUNIT_EXPECT_EQ(test, dmc_bus_device_count(&b->bus), BS_MANY_DEVS);

	for (i = 0; i < BS_MANY_DEVS; i++) {
		found = dmc_bus_find_device_by_name(&b->bus, devs[i]->name);
		if (found != devs[i]->dev)
			wrong++;
		dmm_put_found(found);
	}
	KUNIT_EXPECT_EQ(test, wrong, 0U);
	found = dmc_bus_find_device_by_name(&b->bus, dmm_name(test, "n"));
	KUNIT_EXPECT_NULL(test, found);
	dmm_put_found(found);

	/* every other one goes; the rest are still found */
	for (i = 0; i < BS_MANY_DEVS; i += 2)
		dmm_dev_unregister(devs[i]);
	for (i = 0; i < BS_MANY_DEVS; i++) {
		found = dmc_bus_find_device_by_name(&b->bus, devs[i]->name);
		if ((i & 1) ? found != devs[i]->dev : !!found)
			wrong++;
		dmm_put_found(found);
	}
	KUNIT_EXPECT_EQ(test, wrong, 0U);
	KUNIT_EXPECT_EQ(test, dmc_bus_device_count(&b->bus), BS_MANY_DEVS / 2);
	for (i = 1; i < BS_MANY_DEVS; i += 2)
		dmm_dev_unregister(devs[i]);
}

static void bus_find_driver_among_hundreds(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv **drvs;
	unsigned int i, wrong = 0;

	drvs = kunit_kcalloc(test, BS_MANY_DRVS, sizeof(*drvs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, drvs);
	for (i = 0; i < BS_MANY_DRVS; i++)
		drvs[i] = dmm_drv_new(test, b, dmm_str(test, "d%u", i));
	for (i = 0; i < BS_MANY_DRVS; i++)
		if (dmc_bus_find_driver(&b->bus, drvs[i]->name) != &drvs[i]->drv)
			wrong++;
	KUNIT_EXPECT_EQ(test, wrong, 0U);
	KUNIT_EXPECT_NULL(test, dmc_bus_find_driver(&b->bus, "nope"));

	for (i = 0; i < BS_MANY_DRVS; i += 2)
		dmm_drv_unregister(test, drvs[i]);
	for (i = 0; i < BS_MANY_DRVS; i++) {
		struct dmc_driver *found;

		found = dmc_bus_find_driver(&b->bus, drvs[i]->name);
		if ((i & 1) ? found != &drvs[i]->drv : !!found)
			wrong++;
	}
	KUNIT_EXPECT_EQ(test, wrong, 0U);
}

/* walks */

struct bs_walk {
	unsigned int calls;
	unsigned int stop_at;	/* 1-based call that returns 42; 0: none */
	void *seen[8];
};

static int bs_walk_dev(struct dmc_device *dev, void *data)
{
	struct bs_walk *w = data;

	if (w->calls < ARRAY_SIZE(w->seen))
		w->seen[w->calls] = dev;
	if (++w->calls == w->stop_at)
		return 42;
	return 0;
}

static int bs_walk_drv(struct dmc_driver *drv, void *data)
{
	struct bs_walk *w = data;

	if (w->calls < ARRAY_SIZE(w->seen))
		w->seen[w->calls] = drv;
	if (++w->calls == w->stop_at)
		return 42;
	return 0;
}

static bool bs_seen(struct bs_walk *w, void *p)
{
	unsigned int i;

	for (i = 0; i < min_t(unsigned int, w->calls, ARRAY_SIZE(w->seen)); i++)
		if (w->seen[i] == p)
			return true;
	return false;
}

static void bus_device_walk_visits_every_device(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_bus *other = dmm_bus_new(test, "other");
	struct dmm_dev *p = dmm_dev_new(test, "p", b, NULL, NULL);
	struct dmm_dev *c = dmm_dev_new(test, "c", b, p, NULL);
	struct dmm_dev *o = dmm_dev_new(test, "o", other, NULL, NULL);
	struct dmm_dev *n = dmm_dev_new(test, "n", NULL, NULL, NULL);
	struct bs_walk w = {};

	KUNIT_EXPECT_EQ(test, dmc_bus_walk_devices(&b->bus, &w, bs_walk_dev), 0);
	KUNIT_EXPECT_EQ(test, w.calls, 2U);
	KUNIT_EXPECT_TRUE(test, bs_seen(&w, p->dev));
	KUNIT_EXPECT_TRUE(test, bs_seen(&w, c->dev));
	dmm_dev_unregister(n);
	dmm_dev_unregister(o);
	dmm_dev_unregister(c);
	dmm_dev_unregister(p);
}

static void bus_device_walk_stops_at_first_nonzero(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *d1 = dmm_dev_new(test, "d1", b, NULL, NULL);
	struct dmm_dev *d2 = dmm_dev_new(test, "d2", b, NULL, NULL);
	struct dmm_dev *d3 = dmm_dev_new(test, "d3", b, NULL, NULL);
	struct bs_walk w = { .stop_at = 2 };

	KUNIT_EXPECT_EQ(test, dmc_bus_walk_devices(&b->bus, &w, bs_walk_dev), 42);
	KUNIT_EXPECT_EQ(test, w.calls, 2U);
	dmm_dev_unregister(d3);
	dmm_dev_unregister(d2);
	dmm_dev_unregister(d1);
}

static void bus_driver_walk_visits_all_and_stops_early(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d1 = dmm_drv_new(test, b, "d1");
	struct dmm_drv *d2 = dmm_drv_new(test, b, "d2");
	struct dmm_drv *d3 = dmm_drv_new(test, b, "d3");
	struct bs_walk w = {};

	KUNIT_EXPECT_EQ(test, dmc_bus_walk_drivers(&b->bus, &w, bs_walk_drv), 0);
	KUNIT_EXPECT_EQ(test, w.calls, 3U);
	KUNIT_EXPECT_TRUE(test, bs_seen(&w, &d1->drv));
	KUNIT_EXPECT_TRUE(test, bs_seen(&w, &d2->drv));
	KUNIT_EXPECT_TRUE(test, bs_seen(&w, &d3->drv));

	memset(&w, 0, sizeof(w));
	w.stop_at = 1;
	KUNIT_EXPECT_EQ(test, dmc_bus_walk_drivers(&b->bus, &w, bs_walk_drv), 42);
	KUNIT_EXPECT_EQ(test, w.calls, 1U);
}

static void bus_device_count_follows_add_and_del(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *a, *c;

	KUNIT_EXPECT_EQ(test, dmc_bus_device_count(&b->bus), 0U);
	a = dmm_dev_new(test, "a", b, NULL, NULL);
	c = dmm_dev_new(test, "c", b, a, NULL);
	KUNIT_EXPECT_EQ(test, dmc_bus_device_count(&b->bus), 2U);
	dmm_dev_unregister(c);
	KUNIT_EXPECT_EQ(test, dmc_bus_device_count(&b->bus), 1U);
	dmm_dev_unregister(a);
	KUNIT_EXPECT_EQ(test, dmc_bus_device_count(&b->bus), 0U);
}

/* autoprobe */

static void bus_autoprobe_is_on_by_default(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");

	KUNIT_EXPECT_TRUE(test, dmc_bus_get_autoprobe(&b->bus));
	KUNIT_EXPECT_EQ(test, dmc_bus_set_autoprobe(&b->bus, false), 0);
	KUNIT_EXPECT_FALSE(test, dmc_bus_get_autoprobe(&b->bus));
	KUNIT_EXPECT_EQ(test, dmc_bus_set_autoprobe(&b->bus, true), 0);
	KUNIT_EXPECT_TRUE(test, dmc_bus_get_autoprobe(&b->bus));
}

static void bus_autoprobe_off_new_device_binds_on_attach(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a;

	KUNIT_ASSERT_EQ(test, dmc_bus_set_autoprobe(&b->bus, false), 0);
	a = dmm_dev_new(test, "a", b, NULL, d);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 0);
	KUNIT_EXPECT_EQ(test, dmc_device_attach(a->dev), 1);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	DMM_EXPECT_LOG(test, "probe:a:d");
	dmm_dev_unregister(a);
}

static void bus_autoprobe_off_new_driver_binds_on_rescan(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_alloc(test, b, "d");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);
	struct dmm_dev *c = dmm_dev_new(test, "c", b, NULL, d);

	KUNIT_ASSERT_EQ(test, dmc_bus_set_autoprobe(&b->bus, false), 0);
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, d), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_EQ(test, atomic_read(&d->probes), 0);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_GE(test, dmc_bus_rescan_devices(&b->bus), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(c->dev));
	KUNIT_EXPECT_EQ(test, dmc_driver_device_count(&d->drv), 2U);
	dmm_dev_unregister(c);
	dmm_dev_unregister(a);
}

static void bus_autoprobe_back_on_binds_new_devices(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a;

	KUNIT_ASSERT_EQ(test, dmc_bus_set_autoprobe(&b->bus, false), 0);
	KUNIT_ASSERT_EQ(test, dmc_bus_set_autoprobe(&b->bus, true), 0);
	a = dmm_dev_new(test, "a", b, NULL, d);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	dmm_dev_unregister(a);
}

/* notifier */

static void bus_notifier_successful_bind_sequence(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a;

	dmm_bus_notify_log(test, b);
	a = dmm_dev_new(test, "a", b, NULL, d);
	DMM_EXPECT_LOG(test, "n-add:a n-bind:a probe:a:d n-bound:a");
	dmm_dev_unregister(a);
}

static void bus_notifier_failed_probe_sequence(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a;

	d->probe_ret = -EIO;
	dmm_bus_notify_log(test, b);
	a = dmm_dev_new(test, "a", b, NULL, d);
	DMM_EXPECT_LOG(test, "n-add:a n-bind:a probe:a:d n-notbound:a");
	dmm_dev_unregister(a);
}

static void bus_notifier_unbind_sequence(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);

	dmm_bus_notify_log(test, b);
	dmm_log_clear(test);
	dmc_device_release_driver(a->dev);
	DMM_EXPECT_LOG(test, "n-unbind:a remove:a:d n-unbound:a");
	dmm_dev_unregister(a);
}

static void bus_notifier_removal_of_bound_device_sequence(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);
	struct dmm_dev *x = dmm_dev_new(test, "x", b, NULL, NULL);

	dmm_bus_notify_log(test, b);
	dmm_log_clear(test);
	dmm_dev_unregister(a);
	DMM_EXPECT_LOG(test, "n-del:a n-unbind:a remove:a:d n-unbound:a");
	dmm_log_clear(test);
	dmm_dev_unregister(x);
	DMM_EXPECT_LOG(test, "n-del:x");
}

static void bus_notifier_unregistered_hears_nothing(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a;

	dmm_bus_notify_log(test, b);
	dmm_bus_notify_unlog(test, b);
	a = dmm_dev_new(test, "a", b, NULL, d);
	dmm_dev_unregister(a);
	DMM_EXPECT_LOG(test, "probe:a:d remove:a:d");
}

/* refcounts, misuse, bus callbacks */

static void bus_refcount_back_after_devices_and_drivers_go(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	unsigned int refs = dmm_bus_refs(b);
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);
	struct dmm_dev *c = dmm_dev_new(test, "c", b, a, NULL);
	struct dmc_device *found;

	found = dmc_bus_find_device_by_name(&b->bus, c->name);
	dmm_put_found(found);
	dmm_dev_unregister(c);
	dmm_dev_unregister(a);
	dmm_drv_unregister(test, d);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, dmm_bus_refs(b), refs);
}

static int bs_nop_dev(struct dmc_device *dev, void *data)
{
	return 0;
}

static int bs_nop_drv(struct dmc_driver *drv, void *data)
{
	return 0;
}

static void bus_null_arguments_fail_without_crash(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmc_device *dev = (void *)1;
	struct dmc_driver *drv = (void *)1;
	struct notifier_block nb = {};
	unsigned int n = 1;
	bool yes = true;
	int ret = 0;

	DMM_TOLERATE_MISUSE(test,
			    ret = dmc_bus_walk_devices(NULL, NULL, bs_nop_dev));
	KUNIT_EXPECT_LT(test, ret, 0);
	DMM_TOLERATE_MISUSE(test,
			    ret = dmc_bus_walk_devices(&b->bus, NULL, NULL));
	KUNIT_EXPECT_LT(test, ret, 0);
	DMM_TOLERATE_MISUSE(test,
			    ret = dmc_bus_walk_drivers(NULL, NULL, bs_nop_drv));
	KUNIT_EXPECT_LT(test, ret, 0);
	DMM_TOLERATE_MISUSE(test,
			    ret = dmc_bus_walk_drivers(&b->bus, NULL, NULL));
	KUNIT_EXPECT_LT(test, ret, 0);
	DMM_TOLERATE_MISUSE(test, ret = dmc_bus_register_notifier(NULL, &nb));
	KUNIT_EXPECT_LT(test, ret, 0);
	DMM_TOLERATE_MISUSE(test, ret = dmc_bus_register_notifier(&b->bus, NULL));
	KUNIT_EXPECT_LT(test, ret, 0);
	DMM_TOLERATE_MISUSE(test, ret = dmc_bus_set_autoprobe(NULL, true));
	KUNIT_EXPECT_LT(test, ret, 0);
	DMM_TOLERATE_MISUSE(test, ret = dmc_bus_rescan_devices(NULL));
	KUNIT_EXPECT_LT(test, ret, 0);
	DMM_TOLERATE_MISUSE(test, dev = dmc_bus_find_device_by_name(NULL, "x"));
	KUNIT_EXPECT_NULL(test, dev);
	dev = (void *)1;
	DMM_TOLERATE_MISUSE(test,
			    dev = dmc_bus_find_device_by_name(&b->bus, NULL));
	KUNIT_EXPECT_NULL(test, dev);
	DMM_TOLERATE_MISUSE(test, drv = dmc_bus_find_driver(NULL, "x"));
	KUNIT_EXPECT_NULL(test, drv);
	drv = (void *)1;
	DMM_TOLERATE_MISUSE(test, drv = dmc_bus_find_driver(&b->bus, NULL));
	KUNIT_EXPECT_NULL(test, drv);
	DMM_TOLERATE_MISUSE(test, n = dmc_bus_device_count(NULL));
	KUNIT_EXPECT_EQ(test, n, 0U);
	DMM_TOLERATE_MISUSE(test, yes = dmc_bus_is_registered(NULL));
	KUNIT_EXPECT_FALSE(test, yes);
}

static void bus_without_match_matches_every_driver(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_alloc(test, "bus");
	struct dmm_drv *d;
	struct dmm_dev *a;

	b->bus.match = NULL;
	KUNIT_ASSERT_EQ(test, dmm_bus_register(test, b), 0);
	d = dmm_drv_new(test, b, "d");
	a = dmm_dev_new(test, "a", b, NULL, NULL);	/* wants nothing */
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_PTR_EQ(test, a->dev->driver, &d->drv);
	dmm_dev_unregister(a);
}

static int bs_bus_probe(struct dmc_device *dev)
{
	struct dmm_dev *t = dmm_dev_of(dmct_current()->test, dev);

	if (t)
		dmm_log(t->ctx, DMM_LOG_PROBE, "busprobe:%s", t->short_name);
	return 0;
}

static void bs_bus_remove(struct dmc_device *dev)
{
	struct dmm_dev *t = dmm_dev_of(dmct_current()->test, dev);

	if (t)
		dmm_log(t->ctx, DMM_LOG_REMOVE, "busremove:%s", t->short_name);
}

static void bus_probe_and_remove_replace_the_drivers(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_alloc(test, "bus");
	struct dmm_drv *d;
	struct dmm_dev *a;

	b->bus.probe = bs_bus_probe;
	b->bus.remove = bs_bus_remove;
	KUNIT_ASSERT_EQ(test, dmm_bus_register(test, b), 0);
	d = dmm_drv_new(test, b, "d");
	a = dmm_dev_new(test, "a", b, NULL, d);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	dmc_device_release_driver(a->dev);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	DMM_EXPECT_LOG(test, "busprobe:a busremove:a");
	KUNIT_EXPECT_EQ(test, atomic_read(&d->probes), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->removes), 0);
	dmm_dev_unregister(a);
}

static int bus_test_init(struct kunit *test)
{
	return dmm_init(test, "bs");
}

/*
 * The invariant checker sees an index member filed under a wrong hash:
 * with DMC_INV_SELFTEST it spoils, under their locks, the kept hash of
 * one object of the tree and of one member of an indexed klist (here at
 * least the bus's device list has one), and counts exactly those two;
 * the model is sound again afterwards.
 */
static void bus_invariant_checker_sees_spoiled_indexes(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, NULL);
	struct dmc_device *found;

	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(DMC_INV_SELFTEST), 2U);
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
	found = dmc_bus_find_device_by_name(&b->bus, a->name);
	KUNIT_EXPECT_PTR_EQ(test, found, a->dev);
	dmm_put_found(found);
	dmm_dev_unregister(a);
}

static struct kunit_case bus_test_cases[] = {
	KUNIT_CASE(bus_register_null_fails_einval),
	KUNIT_CASE(bus_register_without_name_fails_einval),
	KUNIT_CASE(bus_register_duplicate_name_fails_eexist),
	KUNIT_CASE(bus_register_twice_fails_and_keeps_bus),
	KUNIT_CASE(bus_register_makes_devices_and_drivers_dirs),
	KUNIT_CASE(bus_unregister_removes_dirs_and_name),
	KUNIT_CASE(bus_find_returns_registered_bus_without_reference),
	KUNIT_CASE(bus_unregister_deletes_devices_unbinding_first),
	KUNIT_CASE(bus_unregister_detaches_drivers),
	KUNIT_CASE(bus_unregister_keeps_parents_off_the_bus),
	KUNIT_CASE(bus_unregister_never_registered_is_noop),
	KUNIT_CASE(bus_find_device_by_name_is_referenced),
	KUNIT_CASE(bus_find_device_by_name_among_hundreds),
	KUNIT_CASE(bus_find_driver_among_hundreds),
	KUNIT_CASE(bus_device_walk_visits_every_device),
	KUNIT_CASE(bus_device_walk_stops_at_first_nonzero),
	KUNIT_CASE(bus_driver_walk_visits_all_and_stops_early),
	KUNIT_CASE(bus_device_count_follows_add_and_del),
	KUNIT_CASE(bus_autoprobe_is_on_by_default),
	KUNIT_CASE(bus_autoprobe_off_new_device_binds_on_attach),
	KUNIT_CASE(bus_autoprobe_off_new_driver_binds_on_rescan),
	KUNIT_CASE(bus_autoprobe_back_on_binds_new_devices),
	KUNIT_CASE(bus_notifier_successful_bind_sequence),
	KUNIT_CASE(bus_notifier_failed_probe_sequence),
	KUNIT_CASE(bus_notifier_unbind_sequence),
	KUNIT_CASE(bus_notifier_removal_of_bound_device_sequence),
	KUNIT_CASE(bus_notifier_unregistered_hears_nothing),
	KUNIT_CASE(bus_refcount_back_after_devices_and_drivers_go),
	KUNIT_CASE(bus_null_arguments_fail_without_crash),
	KUNIT_CASE(bus_without_match_matches_every_driver),
	KUNIT_CASE(bus_probe_and_remove_replace_the_drivers),
	KUNIT_CASE(bus_invariant_checker_sees_spoiled_indexes),
	{}
};

static struct kunit_suite bus_test_suite = {
	.name = "dmcore-bus",
	.init = bus_test_init,
	.exit = dmct_exit,
	.test_cases = bus_test_cases,
};

kunit_test_suites(&bus_test_suite);
