// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore-driver: drivers and binding, one rule per case.
 *
 * Driver registration and its refusals, binding in both orders, what each
 * kind of match verdict does, probe failures and the next driver, unbind
 * on driver unregister, the manual attach and release calls and their
 * results, walks and counts, the device lock around probe and remove, and
 * asynchronous probing. Names are "dr<N>-<name>".
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "model_util.h"

/* registration */

static void driver_register_null_fails_einval(struct kunit *test)
{
	int err = 0;

	DMM_TOLERATE_MISUSE(test, err = dmc_driver_register(NULL));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
}

static void driver_register_without_name_fails_einval(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_alloc(test, b, "d");
	int err = 0;

	d->drv.name = NULL;
	DMM_TOLERATE_MISUSE(test, err = dmm_drv_register(test, d));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	KUNIT_EXPECT_FALSE(test, dmc_driver_is_registered(&d->drv));
}

static void driver_register_without_bus_fails_einval(struct kunit *test)
{
	struct dmm_drv *d = dmm_drv_alloc(test, NULL, "d");
	int err = 0;

	DMM_TOLERATE_MISUSE(test, err = dmm_drv_register(test, d));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	KUNIT_EXPECT_FALSE(test, dmc_driver_is_registered(&d->drv));
}

static void driver_register_on_unregistered_bus_fails_einval(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_alloc(test, "bus");
	struct dmm_drv *d = dmm_drv_alloc(test, b, "d");
	int err = 0;

	DMM_TOLERATE_MISUSE(test, err = dmm_drv_register(test, d));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	KUNIT_EXPECT_FALSE(test, dmc_driver_is_registered(&d->drv));
}

static void driver_register_duplicate_name_on_bus_fails_ebusy(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d1 = dmm_drv_new(test, b, "d");
	struct dmm_drv *d2 = dmm_drv_alloc(test, b, "d2");
	struct dmm_dev *a;
	int err = 0;

	d2->drv.name = d1->name;
	DMM_TOLERATE_MISUSE(test, err = dmm_drv_register(test, d2));
	KUNIT_EXPECT_EQ(test, err, -EBUSY);
	KUNIT_EXPECT_FALSE(test, dmc_driver_is_registered(&d2->drv));
	KUNIT_EXPECT_PTR_EQ(test, dmc_bus_find_driver(&b->bus, d1->name),
			    &d1->drv);
	/* the device goes to the registered one only */
	a = dmm_dev_new(test, "a", b, NULL, d1);
	KUNIT_EXPECT_PTR_EQ(test, a->dev->driver, &d1->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&d2->probes), 0);
	dmm_dev_unregister(a);
}

static void driver_same_name_on_two_buses_is_allowed(struct kunit *test)
{
	struct dmm_bus *b1 = dmm_bus_new(test, "bus1");
	struct dmm_bus *b2 = dmm_bus_new(test, "bus2");
	struct dmm_drv *d1 = dmm_drv_new(test, b1, "d");
	struct dmm_drv *d2 = dmm_drv_alloc(test, b2, "d2");

	d2->drv.name = d1->name;
	KUNIT_EXPECT_EQ(test, dmm_drv_register(test, d2), 0);
	KUNIT_EXPECT_PTR_EQ(test, dmc_bus_find_driver(&b1->bus, d1->name),
			    &d1->drv);
	KUNIT_EXPECT_PTR_EQ(test, dmc_bus_find_driver(&b2->bus, d1->name),
			    &d2->drv);
}

static void driver_register_twice_fails_and_keeps_driver(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a;
	int err = 0;

	DMM_TOLERATE_MISUSE(test, err = dmc_driver_register(&d->drv));
	KUNIT_EXPECT_LT(test, err, 0);
	KUNIT_EXPECT_TRUE(test, dmc_driver_is_registered(&d->drv));
	a = dmm_dev_new(test, "a", b, NULL, d);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	dmm_dev_unregister(a);
}

static void driver_unregister_never_registered_is_noop(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_alloc(test, b, "d");

	DMM_TOLERATE_MISUSE(test, dmc_driver_unregister(&d->drv));
	DMM_TOLERATE_MISUSE(test, dmc_driver_unregister(NULL));
	KUNIT_EXPECT_FALSE(test, dmc_driver_is_registered(&d->drv));
	KUNIT_EXPECT_NULL(test, dmc_bus_find_driver(&b->bus, d->name));
	KUNIT_EXPECT_EQ(test, dmm_drv_register(test, d), 0);
}

static void driver_kobj_is_under_bus_drivers(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmc_kobject *k = dmc_driver_kobj(&d->drv);

	KUNIT_ASSERT_NOT_NULL(test, k);
	dmct_expect_path(test, k, dmm_str(test, "/bus/%s/drivers/%s", b->name,
					  d->name));
	KUNIT_EXPECT_TRUE(test, dmc_driver_is_registered(&d->drv));
	dmm_drv_unregister(test, d);
	KUNIT_EXPECT_FALSE(test, dmc_driver_is_registered(&d->drv));
	KUNIT_EXPECT_NULL(test, dmc_bus_find_driver(&b->bus, d->name));
}

/* binding */

static void driver_binds_device_added_after_it(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);

	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_PTR_EQ(test, a->dev->driver, &d->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 1);
	dmm_dev_unregister(a);
	DMM_EXPECT_LOG(test, "probe:a:d remove:a:d");
}

static void driver_binds_devices_present_at_register(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_alloc(test, b, "d");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);
	struct dmm_dev *c = dmm_dev_new(test, "c", b, NULL, d);
	struct dmm_dev *x = dmm_dev_new(test, "x", b, NULL, NULL);

	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, d), 0);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(c->dev));
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(x->dev));
	KUNIT_EXPECT_EQ(test, dmc_driver_device_count(&d->drv), 2U);
	KUNIT_EXPECT_EQ(test, atomic_read(&x->probes), 0);
	dmm_dev_unregister(x);
	dmm_dev_unregister(c);
	dmm_dev_unregister(a);
}

static void driver_match_zero_skips_the_driver(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_alloc(test, b, "d");
	struct dmm_drv *e = dmm_drv_alloc(test, b, "e");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, e);

	dmm_ctx(test)->log_mask |= DMM_LOG_MATCH;
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, d), 0);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, e), 0);
	KUNIT_EXPECT_PTR_EQ(test, a->dev->driver, &e->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->probes), 0);
	DMM_EXPECT_LOG(test, "match:a:d match:a:e probe:a:e");
	dmm_dev_unregister(a);
}

static void driver_match_error_skips_to_next_driver(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_drv *e = dmm_drv_new(test, b, "e");
	struct dmm_dev *a;

	d->match_ret = -EIO;
	e->match_ret = 1;
	a = dmm_dev_new(test, "a", b, NULL, NULL);
	KUNIT_EXPECT_PTR_EQ(test, a->dev->driver, &e->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->probes), 0);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_deferred(a->dev));
	DMM_EXPECT_LOG(test, "probe:a:e");
	dmm_dev_unregister(a);
}

static void driver_match_defer_tries_no_further_driver(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_drv *e = dmm_drv_new(test, b, "e");
	struct dmm_dev *a = dmm_dev_alloc(test, "a");
	char buf[64];

	dmm_ctx(test)->log_mask |= DMM_LOG_MATCH;
	a->dev->bus = &b->bus;
	a->match_ret = -EPROBE_DEFER;
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_TRUE(test, dmc_device_is_deferred(a->dev));
	DMCT_EXPECT_STREQ(test, dmc_device_deferred_reason(a->dev, buf,
							   sizeof(buf)),
			  "unnamed");
	/* one match asked, then no other driver */
	KUNIT_EXPECT_EQ(test, dmm_log_count(test, "match:a:d") +
			dmm_log_count(test, "match:a:e"), 1U);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->probes) + atomic_read(&e->probes), 0);
	dmm_dev_unregister(a);
}

static void driver_probe_failure_then_second_driver_binds(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d1 = dmm_drv_new(test, b, "d1");
	struct dmm_drv *d2 = dmm_drv_new(test, b, "d2");
	struct dmm_dev *a;

	d1->match_ret = 1;
	d1->probe_ret = -ENODEV;
	d2->match_ret = 1;
	a = dmm_dev_new(test, "a", b, NULL, NULL);
	KUNIT_EXPECT_PTR_EQ(test, a->dev->driver, &d2->drv);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	DMM_EXPECT_LOG(test, "probe:a:d1 probe:a:d2");
	KUNIT_EXPECT_EQ(test, dmc_driver_device_count(&d1->drv), 0U);
	KUNIT_EXPECT_EQ(test, dmc_driver_device_count(&d2->drv), 1U);
	dmm_dev_unregister(a);
}

static void driver_failed_device_binds_to_later_driver(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d1 = dmm_drv_alloc(test, b, "d1");
	struct dmm_drv *d2 = dmm_drv_alloc(test, b, "d2");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, NULL);

	d1->match_ret = 1;
	d1->probe_ret = -EIO;
	d2->match_ret = 1;
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, d1), 0);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_FALSE(test, dmc_device_is_deferred(a->dev));
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, d2), 0);
	KUNIT_EXPECT_PTR_EQ(test, a->dev->driver, &d2->drv);
	DMM_EXPECT_LOG(test, "probe:a:d1 probe:a:d2");
	dmm_dev_unregister(a);
}

static void driver_probe_failure_leaves_no_driver_no_bind_event(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a = dmm_dev_alloc(test, "a");
	const char *path = dmm_str(test, "/devices/%s", a->name);

	d->probe_ret = -EIO;
	a->dev->bus = &b->bus;
	dmm_dev_want(a, d);
	dmct_listen(test);
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 1);
	KUNIT_EXPECT_NULL(test, a->dev->driver);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_EQ(test, dmc_driver_device_count(&d->drv), 0U);
	KUNIT_EXPECT_EQ(test, dmm_ev_count(test, DMC_KOBJ_BIND, path), 0U);
	KUNIT_EXPECT_EQ(test, dmm_ev_count(test, DMC_KOBJ_ADD, path), 1U);
	dmm_dev_unregister(a);
	/* no remove for a probe that failed */
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 0);
	KUNIT_EXPECT_EQ(test, dmm_ev_count(test, DMC_KOBJ_UNBIND, path), 0U);
}

static void driver_unregister_unbinds_each_device_once(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);
	struct dmm_dev *c = dmm_dev_new(test, "c", b, NULL, d);
	struct dmm_dev *e = dmm_dev_new(test, "e", b, a, d);

	dmct_listen(test);
	dmm_drv_unregister(test, d);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->removes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&e->removes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->removes), 3);
	KUNIT_EXPECT_EQ(test, dmm_ev_count(test, DMC_KOBJ_UNBIND,
					   dmm_path(test, a)), 1U);
	KUNIT_EXPECT_EQ(test, dmm_ev_count(test, DMC_KOBJ_UNBIND,
					   dmm_path(test, c)), 1U);
	KUNIT_EXPECT_EQ(test, dmm_ev_count(test, DMC_KOBJ_UNBIND,
					   dmm_path(test, e)), 1U);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_registered(a->dev));
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_NULL(test, a->dev->driver);
	KUNIT_EXPECT_FALSE(test, dmc_driver_is_registered(&d->drv));
	dmm_dev_unregister(e);
	dmm_dev_unregister(c);
	dmm_dev_unregister(a);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->removes), 3);
}

static void driver_reregistered_binds_again(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);

	dmm_drv_unregister(test, d);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, d), 0);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	DMM_EXPECT_LOG(test, "probe:a:d remove:a:d probe:a:d");
	dmm_dev_unregister(a);
}

/* manual binding */

static void driver_device_driver_attach_ebusy_when_bound(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_drv *e = dmm_drv_new(test, b, "e");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);

	e->match_ret = 1;
	KUNIT_EXPECT_EQ(test, dmc_device_driver_attach(&e->drv, a->dev), -EBUSY);
	KUNIT_EXPECT_EQ(test, dmc_device_driver_attach(&d->drv, a->dev), -EBUSY);
	KUNIT_EXPECT_PTR_EQ(test, a->dev->driver, &d->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&e->probes), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 1);
	dmm_dev_unregister(a);
}

static void driver_device_driver_attach_enodev_when_no_match(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, NULL);

	KUNIT_EXPECT_EQ(test, dmc_device_driver_attach(&d->drv, a->dev), -ENODEV);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 0);
	dmm_dev_unregister(a);
}

static void driver_device_driver_attach_enodev_for_dead_device(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_alloc(test, b, "d");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);

	KUNIT_ASSERT_EQ(test, dmc_bus_set_autoprobe(&b->bus, false), 0);
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, d), 0);
	dmm_dev_del(a);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_dead(a->dev));
	KUNIT_EXPECT_EQ(test, dmc_device_driver_attach(&d->drv, a->dev), -ENODEV);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 0);
	KUNIT_EXPECT_NULL(test, a->dev->driver);
	dmm_dev_put(a);
}

static void driver_device_driver_attach_returns_probe_result(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_alloc(test, b, "d");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);

	d->probe_ret = -EIO;
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, d), 0);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_EQ(test, dmc_device_driver_attach(&d->drv, a->dev), -EIO);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	d->probe_ret = 0;
	KUNIT_EXPECT_EQ(test, dmc_device_driver_attach(&d->drv, a->dev), 0);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 3);
	dmm_dev_unregister(a);
}

static void driver_device_driver_attach_works_with_autoprobe_off(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a;

	KUNIT_ASSERT_EQ(test, dmc_bus_set_autoprobe(&b->bus, false), 0);
	a = dmm_dev_new(test, "a", b, NULL, d);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_EQ(test, dmc_device_driver_attach(&d->drv, a->dev), 0);
	KUNIT_EXPECT_PTR_EQ(test, a->dev->driver, &d->drv);
	dmm_dev_unregister(a);
}

static void driver_release_driver_unbinds_once(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);
	struct dmm_dev *x = dmm_dev_new(test, "x", b, NULL, NULL);

	dmc_device_release_driver(a->dev);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_NULL(test, a->dev->driver);
	dmc_device_release_driver(a->dev);
	dmc_device_release_driver(x->dev);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&x->removes), 0);
	KUNIT_EXPECT_EQ(test, dmc_driver_device_count(&d->drv), 0U);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_registered(a->dev));
	dmm_dev_unregister(x);
	dmm_dev_unregister(a);
	DMM_EXPECT_LOG(test, "probe:a:d remove:a:d");
}

static void driver_device_attach_returns_1_when_it_binds(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);

	dmc_device_release_driver(a->dev);
	KUNIT_EXPECT_EQ(test, dmc_device_attach(a->dev), 1);
	KUNIT_EXPECT_PTR_EQ(test, a->dev->driver, &d->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 2);
	dmm_dev_unregister(a);
}

static void driver_device_attach_returns_0_without_driver(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, NULL);

	KUNIT_EXPECT_EQ(test, dmc_device_attach(a->dev), 0);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_EQ(test, atomic_read(&d->probes), 0);
	dmm_dev_unregister(a);
}

static void driver_device_attach_error_when_probe_fails(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, NULL);
	int ret;

	/* the only matching driver fails: not bound, nothing positive */
	d->probe_ret = -EIO;
	dmm_dev_want(a, d);
	ret = dmc_device_attach(a->dev);
	KUNIT_EXPECT_LE(test, ret, 0);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 1);
	dmm_dev_unregister(a);
}

/* walks and counters */

struct dr_walk {
	unsigned int calls;
	struct dmc_device *seen[4];
};

static int dr_walk_fn(struct dmc_device *dev, void *data)
{
	struct dr_walk *w = data;

	if (w->calls < ARRAY_SIZE(w->seen))
		w->seen[w->calls] = dev;
	w->calls++;
	return 0;
}

static bool dr_seen(struct dr_walk *w, struct dmc_device *dev)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(w->seen); i++)
		if (w->seen[i] == dev)
			return true;
	return false;
}

static void driver_device_walk_visits_its_devices(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_drv *e = dmm_drv_new(test, b, "e");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);
	struct dmm_dev *c = dmm_dev_new(test, "c", b, NULL, d);
	struct dmm_dev *x = dmm_dev_new(test, "x", b, NULL, e);
	struct dr_walk w = {};

	KUNIT_EXPECT_EQ(test, dmc_driver_walk_devices(&d->drv, &w, dr_walk_fn),
			0);
	KUNIT_EXPECT_EQ(test, w.calls, 2U);
	KUNIT_EXPECT_TRUE(test, dr_seen(&w, a->dev));
	KUNIT_EXPECT_TRUE(test, dr_seen(&w, c->dev));
	KUNIT_EXPECT_FALSE(test, dr_seen(&w, x->dev));
	dmm_dev_unregister(x);
	dmm_dev_unregister(c);
	dmm_dev_unregister(a);
}

static void driver_device_count_follows_bind_and_unbind(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a, *c;

	KUNIT_EXPECT_EQ(test, dmc_driver_device_count(&d->drv), 0U);
	a = dmm_dev_new(test, "a", b, NULL, d);
	c = dmm_dev_new(test, "c", b, NULL, d);
	KUNIT_EXPECT_EQ(test, dmc_driver_device_count(&d->drv), 2U);
	dmc_device_release_driver(a->dev);
	KUNIT_EXPECT_EQ(test, dmc_driver_device_count(&d->drv), 1U);
	dmm_dev_unregister(c);
	KUNIT_EXPECT_EQ(test, dmc_driver_device_count(&d->drv), 0U);
	dmm_dev_unregister(a);
}

static void driver_probe_count_counts_every_probe_call(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_drv *f = dmm_drv_new(test, b, "f");
	unsigned long before = dmc_probe_count();
	struct dmm_dev *a, *c, *x;

	f->probe_ret = -EIO;
	a = dmm_dev_new(test, "a", b, NULL, d);		/* 1 */
	c = dmm_dev_new(test, "c", b, NULL, f);		/* 2, fails */
	x = dmm_dev_new(test, "x", b, NULL, NULL);	/* no probe */
	dmc_device_release_driver(a->dev);
	KUNIT_EXPECT_EQ(test, dmc_device_attach(a->dev), 1);	/* 3 */
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_EQ(test, dmc_probe_count() - before, 3UL);
	dmm_dev_unregister(x);
	dmm_dev_unregister(c);
	dmm_dev_unregister(a);
	KUNIT_EXPECT_EQ(test, dmc_probe_count() - before, 3UL);
}

static void driver_probe_and_remove_hold_the_device_lock(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);

	dmc_device_release_driver(a->dev);
	KUNIT_EXPECT_EQ(test, dmc_device_driver_attach(&d->drv, a->dev), 0);
	dmm_drv_unregister(test, d);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 2);
	KUNIT_EXPECT_TRUE(test, a->lock_in_probe);
	KUNIT_EXPECT_TRUE(test, a->lock_in_remove);
	/* and nobody holds it afterwards */
	KUNIT_EXPECT_TRUE(test, mutex_trylock(&a->dev->mutex));
	mutex_unlock(&a->dev->mutex);
	dmm_dev_unregister(a);
}

static void driver_dev_driver_is_set_during_probe(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);

	KUNIT_EXPECT_PTR_EQ(test, a->driver_in_probe, &d->drv);
	dmm_dev_unregister(a);
}

/* async */

static void driver_async_probe_binds_after_wait(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_alloc(test, b, "d");
	struct dmm_dev *a = dmm_dev_alloc(test, "a");

	d->drv.probe_type = DMC_PROBE_PREFER_ASYNCHRONOUS;
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, d), 0);
	a->dev->bus = &b->bus;
	dmm_dev_want(a, d);
	a->probe_sleep_ms = 50;
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_PTR_EQ(test, a->dev->driver, &d->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 1);
	KUNIT_EXPECT_TRUE(test, a->lock_in_probe);
	dmm_dev_unregister(a);
	DMM_EXPECT_LOG(test, "probe:a:d remove:a:d");
}

#define DR_ASYNC_N	6

static void driver_async_driver_binds_existing_devices(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_alloc(test, b, "d");
	struct dmm_dev *devs[DR_ASYNC_N];
	unsigned int i, bound = 0;

	d->drv.probe_type = DMC_PROBE_PREFER_ASYNCHRONOUS;
	for (i = 0; i < DR_ASYNC_N; i++) {
		devs[i] = dmm_dev_new(test, dmm_str(test, "a%u", i), b, NULL, d);
		devs[i]->probe_sleep_ms = 20;
	}
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, d), 0);
	dmc_wait_for_device_probe();
	for (i = 0; i < DR_ASYNC_N; i++)
		if (dmc_device_is_bound(devs[i]->dev) &&
		    atomic_read(&devs[i]->probes) == 1)
			bound++;
	KUNIT_EXPECT_EQ(test, bound, DR_ASYNC_N);
	KUNIT_EXPECT_EQ(test, dmc_driver_device_count(&d->drv), DR_ASYNC_N);
	for (i = 0; i < DR_ASYNC_N; i++)
		dmm_dev_unregister(devs[i]);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->removes), DR_ASYNC_N);
}

static void driver_async_device_removed_before_probe_ran(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_alloc(test, b, "d");
	struct dmm_dev *a;

	d->drv.probe_type = DMC_PROBE_PREFER_ASYNCHRONOUS;
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, d), 0);
	a = dmm_dev_new(test, "a", b, NULL, d);
	a->probe_sleep_ms = 20;
	/* whether the probe ran or not, the device ends unbound and freed */
	dmm_dev_unregister(a);
	dmc_wait_for_device_probe();
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, a->released, 1U);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), atomic_read(&a->removes));
}

/* misuse */

static void driver_null_arguments_fail_without_crash(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, NULL);
	struct dmc_kobject *k = (void *)1;
	unsigned int n = 1;
	bool yes = true;
	int ret = 0;

	DMM_TOLERATE_MISUSE(test, ret = dmc_device_attach(NULL));
	KUNIT_EXPECT_LT(test, ret, 0);
	DMM_TOLERATE_MISUSE(test, ret = dmc_device_driver_attach(NULL, a->dev));
	KUNIT_EXPECT_LT(test, ret, 0);
	DMM_TOLERATE_MISUSE(test, ret = dmc_device_driver_attach(&d->drv, NULL));
	KUNIT_EXPECT_LT(test, ret, 0);
	DMM_TOLERATE_MISUSE(test,
			    ret = dmc_driver_walk_devices(NULL, NULL, dr_walk_fn));
	KUNIT_EXPECT_LT(test, ret, 0);
	DMM_TOLERATE_MISUSE(test,
			    ret = dmc_driver_walk_devices(&d->drv, NULL, NULL));
	KUNIT_EXPECT_LT(test, ret, 0);
	DMM_TOLERATE_MISUSE(test, dmc_device_release_driver(NULL));
	DMM_TOLERATE_MISUSE(test, n = dmc_driver_device_count(NULL));
	KUNIT_EXPECT_EQ(test, n, 0U);
	DMM_TOLERATE_MISUSE(test, yes = dmc_driver_is_registered(NULL));
	KUNIT_EXPECT_FALSE(test, yes);
	DMM_TOLERATE_MISUSE(test, k = dmc_driver_kobj(NULL));
	KUNIT_EXPECT_NULL(test, k);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	dmm_dev_unregister(a);
}

static int driver_test_init(struct kunit *test)
{
	return dmm_init(test, "dr");
}

static struct kunit_case driver_test_cases[] = {
	KUNIT_CASE(driver_register_null_fails_einval),
	KUNIT_CASE(driver_register_without_name_fails_einval),
	KUNIT_CASE(driver_register_without_bus_fails_einval),
	KUNIT_CASE(driver_register_on_unregistered_bus_fails_einval),
	KUNIT_CASE(driver_register_duplicate_name_on_bus_fails_ebusy),
	KUNIT_CASE(driver_same_name_on_two_buses_is_allowed),
	KUNIT_CASE(driver_register_twice_fails_and_keeps_driver),
	KUNIT_CASE(driver_unregister_never_registered_is_noop),
	KUNIT_CASE(driver_kobj_is_under_bus_drivers),
	KUNIT_CASE(driver_binds_device_added_after_it),
	KUNIT_CASE(driver_binds_devices_present_at_register),
	KUNIT_CASE(driver_match_zero_skips_the_driver),
	KUNIT_CASE(driver_match_error_skips_to_next_driver),
	KUNIT_CASE(driver_match_defer_tries_no_further_driver),
	KUNIT_CASE(driver_probe_failure_then_second_driver_binds),
	KUNIT_CASE(driver_failed_device_binds_to_later_driver),
	KUNIT_CASE(driver_probe_failure_leaves_no_driver_no_bind_event),
	KUNIT_CASE(driver_unregister_unbinds_each_device_once),
	KUNIT_CASE(driver_reregistered_binds_again),
	KUNIT_CASE(driver_device_driver_attach_ebusy_when_bound),
	KUNIT_CASE(driver_device_driver_attach_enodev_when_no_match),
	KUNIT_CASE(driver_device_driver_attach_enodev_for_dead_device),
	KUNIT_CASE(driver_device_driver_attach_returns_probe_result),
	KUNIT_CASE(driver_device_driver_attach_works_with_autoprobe_off),
	KUNIT_CASE(driver_release_driver_unbinds_once),
	KUNIT_CASE(driver_device_attach_returns_1_when_it_binds),
	KUNIT_CASE(driver_device_attach_returns_0_without_driver),
	KUNIT_CASE(driver_device_attach_error_when_probe_fails),
	KUNIT_CASE(driver_device_walk_visits_its_devices),
	KUNIT_CASE(driver_device_count_follows_bind_and_unbind),
	KUNIT_CASE(driver_probe_count_counts_every_probe_call),
	KUNIT_CASE(driver_probe_and_remove_hold_the_device_lock),
	KUNIT_CASE(driver_dev_driver_is_set_during_probe),
	KUNIT_CASE(driver_async_probe_binds_after_wait),
	KUNIT_CASE(driver_async_driver_binds_existing_devices),
	KUNIT_CASE(driver_async_device_removed_before_probe_ran),
	KUNIT_CASE(driver_null_arguments_fail_without_crash),
	{}
};

static struct kunit_suite driver_test_suite = {
	.name = "dmcore-driver",
	.init = driver_test_init,
	.exit = dmct_exit,
	.test_cases = driver_test_cases,
};

kunit_test_suites(&driver_test_suite);
