// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore-match: a bus's match index (match.c), one rule per case.
 *
 * On a keyed bus (dmm_bus_keyed(): a device's key is its test @key, a
 * driver's keys its @keys) a device is offered only to the drivers that
 * list its key and to those that list none, in registration order; a
 * device without a key (or with one too long) to every driver. The fake
 * match still decides by the device's wanted driver, and the log's
 * "match:" entries show which drivers the core asked. Then the refusals
 * (a bus with one of the two callbacks, an empty or too long key) and a
 * driver registered and unregistered on the other CPU while devices with
 * its key probe. Names are "mt<N>-<name>".
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/string.h>
#include <dmcore/invariants.h>
#include "model_util.h"

static struct dmm_bus *mt_keyed_bus(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_alloc(test, "bus");

	dmm_bus_keyed(b);
	KUNIT_ASSERT_EQ(test, dmm_bus_register(test, b), 0);
	dmm_ctx(test)->log_mask |= DMM_LOG_MATCH;
	return b;
}

static struct dmm_drv *mt_drv(struct kunit *test, struct dmm_bus *b,
			      const char *name, const char *k1, const char *k2)
{
	struct dmm_drv *d = dmm_drv_alloc(test, b, name);

	d->keys[0] = k1;
	d->keys[1] = k2;
	KUNIT_ASSERT_EQ_MSG(test, dmm_drv_register(test, d), 0, "register %s", name);
	return d;
}

static struct dmm_dev *mt_dev(struct kunit *test, struct dmm_bus *b,
			      const char *name, const char *key, struct dmm_drv *want)
{
	struct dmm_dev *a = dmm_dev_alloc(test, name);

	a->dev->bus = &b->bus;
	a->key = key;
	dmm_dev_want(a, want);
	KUNIT_ASSERT_EQ_MSG(test, dmm_dev_add(test, a), 0, "add of %s", name);
	return a;
}

static void match_keyed_device_offered_only_to_drivers_listing_its_key(struct kunit *test)
{
	struct dmm_bus *b = mt_keyed_bus(test);
	struct dmm_dev *a;
	struct dmm_drv *d3;

	mt_drv(test, b, "d1", "x", NULL);
	mt_drv(test, b, "d2", "z", "y");
	d3 = mt_drv(test, b, "d3", "y", NULL);
	mt_drv(test, b, "d4", "w", NULL);
	a = mt_dev(test, b, "a", "y", d3);
	KUNIT_EXPECT_PTR_EQ(test, a->dev->driver, &d3->drv);
	DMM_EXPECT_LOG(test, "match:a:d2 match:a:d3 probe:a:d3");
	dmm_dev_unregister(a);
}

static void match_keyless_drivers_offered_in_registration_order(struct kunit *test)
{
	struct dmm_bus *b = mt_keyed_bus(test);
	struct dmm_drv *d2, *d4;
	struct dmm_dev *a, *c;

	mt_drv(test, b, "d1", NULL, NULL);
	d2 = mt_drv(test, b, "d2", "y", NULL);
	mt_drv(test, b, "d3", "x", NULL);
	d4 = mt_drv(test, b, "d4", NULL, NULL);
	a = mt_dev(test, b, "a", "y", d4);
	KUNIT_EXPECT_PTR_EQ(test, a->dev->driver, &d4->drv);
	DMM_EXPECT_LOG(test, "match:a:d1 match:a:d2 match:a:d4 probe:a:d4");
	dmm_log_clear(test);
	c = mt_dev(test, b, "c", "y", d2);
	KUNIT_EXPECT_PTR_EQ(test, c->dev->driver, &d2->drv);
	DMM_EXPECT_LOG(test, "match:c:d1 match:c:d2 probe:c:d2");
	dmm_dev_unregister(c);
	dmm_dev_unregister(a);
}

static void match_refused_probe_goes_on_with_the_next_keyed_driver(struct kunit *test)
{
	struct dmm_bus *b = mt_keyed_bus(test);
	struct dmm_drv *d1, *d3;
	struct dmm_dev *a;

	d1 = mt_drv(test, b, "d1", "y", NULL);
	mt_drv(test, b, "d2", "x", NULL);
	d3 = mt_drv(test, b, "d3", "y", NULL);
	d1->match_ret = 1;
	d1->probe_ret = -ENODEV;
	d3->match_ret = 1;
	a = mt_dev(test, b, "a", "y", NULL);
	KUNIT_EXPECT_PTR_EQ(test, a->dev->driver, &d3->drv);
	DMM_EXPECT_LOG(test, "match:a:d1 probe:a:d1 match:a:d3 probe:a:d3");
	dmm_dev_unregister(a);
}

static void match_device_without_key_offered_to_every_driver(struct kunit *test)
{
	struct dmm_bus *b = mt_keyed_bus(test);
	struct dmm_drv *d3;
	struct dmm_dev *a;

	mt_drv(test, b, "d1", "x", NULL);
	mt_drv(test, b, "d2", NULL, NULL);
	d3 = mt_drv(test, b, "d3", "y", NULL);
	a = mt_dev(test, b, "a", NULL, d3);
	KUNIT_EXPECT_PTR_EQ(test, a->dev->driver, &d3->drv);
	DMM_EXPECT_LOG(test, "match:a:d1 match:a:d2 match:a:d3 probe:a:d3");
	dmm_dev_unregister(a);
}

static void match_device_key_too_long_offered_to_every_driver(struct kunit *test)
{
	struct dmm_bus *b = mt_keyed_bus(test);
	char *key = kunit_kzalloc(test, DMC_MATCH_KEY_MAX + 1, GFP_KERNEL);
	struct dmm_drv *d2;
	struct dmm_dev *a;

	KUNIT_ASSERT_NOT_NULL(test, key);
	memset(key, 'k', DMC_MATCH_KEY_MAX);
	mt_drv(test, b, "d1", "x", NULL);
	d2 = mt_drv(test, b, "d2", "y", NULL);
	a = mt_dev(test, b, "a", key, d2);
	KUNIT_EXPECT_PTR_EQ(test, a->dev->driver, &d2->drv);
	DMM_EXPECT_LOG(test, "match:a:d1 match:a:d2 probe:a:d2");
	dmm_dev_unregister(a);
}

static void match_driver_registered_later_binds_the_waiting_device(struct kunit *test)
{
	struct dmm_bus *b = mt_keyed_bus(test);
	struct dmm_drv *d2 = dmm_drv_alloc(test, b, "d2");
	struct dmm_dev *a;

	mt_drv(test, b, "d1", "y", NULL);
	a = mt_dev(test, b, "a", "y", d2);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	d2->keys[0] = "y";
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, d2), 0);
	KUNIT_EXPECT_PTR_EQ(test, a->dev->driver, &d2->drv);
	dmm_dev_unregister(a);
}

static void match_unregistered_driver_leaves_the_index(struct kunit *test)
{
	struct dmm_bus *b = mt_keyed_bus(test);
	struct dmm_drv *d1 = mt_drv(test, b, "d1", "y", NULL);
	struct dmm_drv *d2 = mt_drv(test, b, "d2", "y", NULL);
	struct dmm_dev *a;

	dmm_drv_unregister(test, d1);
	a = mt_dev(test, b, "a", "y", d2);
	KUNIT_EXPECT_PTR_EQ(test, a->dev->driver, &d2->drv);
	DMM_EXPECT_LOG(test, "match:a:d2 probe:a:d2");
	dmm_dev_unregister(a);
	dmm_log_clear(test);
	/* registered again, it is offered after d2, its new place */
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, d1), 0);
	a = mt_dev(test, b, "b", "y", d1);
	KUNIT_EXPECT_PTR_EQ(test, a->dev->driver, &d1->drv);
	DMM_EXPECT_LOG(test, "match:b:d2 match:b:d1 probe:b:d1");
	dmm_dev_unregister(a);
}

static void match_bus_with_one_callback_fails_einval(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_alloc(test, "bus");
	int err = 0;

	dmm_bus_keyed(b);
	b->bus.drv_match_keys = NULL;
	DMM_TOLERATE_MISUSE(test, err = dmm_bus_register(test, b));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	KUNIT_EXPECT_FALSE(test, dmc_bus_is_registered(&b->bus));
	dmm_bus_keyed(b);
	b->bus.dev_match_key = NULL;
	DMM_TOLERATE_MISUSE(test, err = dmm_bus_register(test, b));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	KUNIT_EXPECT_FALSE(test, dmc_bus_is_registered(&b->bus));
	dmm_bus_keyed(b);
	KUNIT_EXPECT_EQ(test, dmm_bus_register(test, b), 0);
}

static void match_driver_with_bad_key_fails_einval(struct kunit *test)
{
	struct dmm_bus *b = mt_keyed_bus(test);
	struct dmm_drv *d = dmm_drv_alloc(test, b, "d");
	char *key = kunit_kzalloc(test, DMC_MATCH_KEY_MAX + 1, GFP_KERNEL);
	struct dmm_dev *a;
	int err = 0;

	KUNIT_ASSERT_NOT_NULL(test, key);
	mt_drv(test, b, "c", "x", NULL);
	memset(key, 'k', DMC_MATCH_KEY_MAX);
	d->keys[0] = "y";
	d->keys[1] = "";
	DMM_TOLERATE_MISUSE(test, err = dmm_drv_register(test, d));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	KUNIT_EXPECT_NULL(test, dmc_bus_find_driver(&b->bus, d->name));
	d->keys[1] = key;
	DMM_TOLERATE_MISUSE(test, err = dmm_drv_register(test, d));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	KUNIT_EXPECT_NULL(test, dmc_bus_find_driver(&b->bus, d->name));
	/* one byte shorter fits */
	key[DMC_MATCH_KEY_MAX - 1] = '\0';
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, d), 0);
	a = mt_dev(test, b, "a", key, d);
	KUNIT_EXPECT_PTR_EQ(test, a->dev->driver, &d->drv);
	DMM_EXPECT_LOG(test, "match:a:d probe:a:d");
	dmm_dev_unregister(a);
}

static void match_driver_listing_a_key_twice_is_asked_once(struct kunit *test)
{
	struct dmm_bus *b = mt_keyed_bus(test);
	struct dmm_drv *d1 = mt_drv(test, b, "d1", "y", "y");
	struct dmm_dev *a;

	d1->match_ret = 1;
	d1->probe_ret = -ENODEV;
	a = mt_dev(test, b, "a", "y", NULL);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	DMM_EXPECT_LOG(test, "match:a:d1 probe:a:d1");
	dmm_dev_unregister(a);
}

static void match_driver_without_keys_array_is_offered_every_device(struct kunit *test)
{
	struct dmm_bus *b = mt_keyed_bus(test);
	struct dmm_drv *d2 = dmm_drv_alloc(test, b, "d2");
	struct dmm_dev *a;

	mt_drv(test, b, "d1", "x", NULL);
	d2->keys_null = true;
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, d2), 0);
	a = mt_dev(test, b, "a", "y", d2);
	KUNIT_EXPECT_PTR_EQ(test, a->dev->driver, &d2->drv);
	DMM_EXPECT_LOG(test, "match:a:d2 probe:a:d2");
	dmm_dev_unregister(a);
}

static void match_deferral_stops_a_keyed_walk(struct kunit *test)
{
	struct dmm_bus *b = mt_keyed_bus(test);
	struct dmm_drv *d1 = mt_drv(test, b, "d1", "y", NULL);
	struct dmm_drv *d2 = mt_drv(test, b, "d2", "y", NULL);
	struct dmm_dev *a;

	d1->match_ret = -EPROBE_DEFER;
	a = mt_dev(test, b, "a", "y", d2);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_TRUE(test, dmc_device_is_deferred(a->dev));
	KUNIT_EXPECT_EQ(test, dmm_log_count(test, "match:a:d2"), 0U);
	KUNIT_EXPECT_GE(test, dmm_log_count(test, "match:a:d1"), 1U);
	dmm_dev_unregister(a);
}

/*
 * The same rule whichever came first: a driver not listing a device's
 * key is not asked when it registers after the device, nor through its
 * bind file, even though its match would say yes.
 */
static void match_driver_side_offers_follow_the_index(struct kunit *test)
{
	struct dmm_bus *b = mt_keyed_bus(test);
	struct dmm_drv *d = dmm_drv_alloc(test, b, "d");
	struct dmm_drv *e = dmm_drv_alloc(test, b, "e");
	struct dmm_dev *a;

	a = mt_dev(test, b, "a", "y", d);
	d->keys[0] = "x";
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, d), 0);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_EQ(test, dmc_device_driver_attach(&d->drv, a->dev), -ENODEV);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_EQ(test, dmm_log_count(test, "match:a:d"), 0U);
	/* a driver that lists it is asked on both paths */
	e->keys[0] = "y";
	e->match_ret = -ENODEV;
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, e), 0);
	KUNIT_EXPECT_EQ(test, dmm_log_count(test, "match:a:e"), 1U);
	dmc_device_driver_attach(&e->drv, a->dev);
	KUNIT_EXPECT_EQ(test, dmm_log_count(test, "match:a:e"), 2U);
	dmm_dev_unregister(a);
}

/* A short name that lives as long as the test. */
static const char *mt_name(struct kunit *test, char prefix, unsigned int i)
{
	char *name = kunit_kzalloc(test, 12, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, name);
	snprintf(name, 12, "%c%u", prefix, i);
	return name;
}

/*
 * More keys than buckets (256), so keys share buckets: a device is still
 * offered only to the drivers listing its own key.
 */
static void match_keys_sharing_a_bucket_stay_apart(struct kunit *test)
{
	struct dmm_bus *b = mt_keyed_bus(test);
	struct dmm_drv *want = NULL, *d;
	struct dmm_dev *a;
	unsigned int i;

	for (i = 0; i < 300; i++) {
		d = mt_drv(test, b, mt_name(test, 'd', i), mt_name(test, 'k', i), NULL);
		if (i == 150)
			want = d;
	}
	a = mt_dev(test, b, "a", "k150", want);
	KUNIT_EXPECT_PTR_EQ(test, a->dev->driver, &want->drv);
	DMM_EXPECT_LOG(test, "match:a:d150 probe:a:d150");
	/* every entry in its bucket, in registration order */
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
	dmm_dev_unregister(a);
}

/*
 * A driver registered and unregistered in a loop on the other CPU while
 * the test adds and deletes devices with its key: every walk reads the
 * index under dmc_driver_srcu while entries are linked, unlinked and
 * freed (KASAN sees a use after free), and a device bound is bound to
 * that driver. A second driver with the key, registered first, refuses
 * every probe, so walks also seek again after a probe while the index
 * changes. The devices are made before the kthread starts, so nothing
 * that can end the test early runs while it does.
 */
#define MT_CHURN_DEVS	300

struct mt_churn {
	struct dmm_drv *d;
	atomic_t stop;
	unsigned int rounds;
	int err;
	struct completion done;
};

static int mt_churn_fn(void *data)
{
	struct mt_churn *c = data;

	while (!atomic_read(&c->stop)) {
		c->err = dmc_driver_register(&c->d->drv);
		if (c->err)
			break;
		cond_resched();
		dmc_driver_unregister(&c->d->drv);
		c->rounds++;
	}
	complete(&c->done);
	return 0;
}

static void match_index_survives_driver_churn_during_probes(struct kunit *test)
{
	struct dmm_bus *b = mt_keyed_bus(test);
	struct dmm_drv *refuser = mt_drv(test, b, "r", "k", NULL);
	struct dmm_drv *d = dmm_drv_alloc(test, b, "d");
	struct dmm_dev **devs = kunit_kcalloc(test, MT_CHURN_DEVS, sizeof(*devs), GFP_KERNEL);
	unsigned int i, added = 0, bound = 0, probes;
	struct mt_churn c = { .d = d };
	struct task_struct *t;
	struct dmc_driver *drv;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	KUNIT_ASSERT_NOT_NULL(test, devs);
	dmm_ctx(test)->log_mask = 0;
	refuser->match_ret = 1;
	refuser->probe_ret = -ENODEV;
	d->keys[0] = "k";
	for (i = 0; i < MT_CHURN_DEVS; i++) {
		devs[i] = dmm_dev_alloc(test, mt_name(test, 'a', i));
		devs[i]->dev->bus = &b->bus;
		devs[i]->key = "k";
		dmm_dev_want(devs[i], d);
	}
	init_completion(&c.done);
	t = kthread_create(mt_churn_fn, &c, "mt-churn");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	kthread_bind(t, cpumask_any_but(cpu_online_mask, raw_smp_processor_id()));
	wake_up_process(t);
	for (i = 0; i < MT_CHURN_DEVS; i++) {
		if (dmm_dev_add(test, devs[i])) {
			KUNIT_FAIL(test, "add of %s failed", devs[i]->name);
			break;
		}
		added++;
		drv = READ_ONCE(devs[i]->dev->driver);	/* d may be unbinding it */
		if (drv) {
			KUNIT_EXPECT_PTR_EQ(test, drv, &d->drv);
			bound++;
		}
		dmm_dev_unregister(devs[i]);
	}
	atomic_set(&c.stop, 1);
	wait_for_completion(&c.done);
	KUNIT_EXPECT_EQ(test, c.err, 0);
	/*
	 * The refuser is asked by each device's own probe, unless d's
	 * registration bound the device first.
	 */
	probes = atomic_read(&refuser->probes);
	KUNIT_EXPECT_LE(test, probes, added);
	KUNIT_EXPECT_GE(test, probes + bound, added);
	kunit_info(test, "driver rounds %u, devices bound %u of %u\n", c.rounds, bound,
		   added);
}

static int match_test_init(struct kunit *test)
{
	return dmm_init(test, "mt");
}

static struct kunit_case match_test_cases[] = {
	KUNIT_CASE(match_keyed_device_offered_only_to_drivers_listing_its_key),
	KUNIT_CASE(match_keyless_drivers_offered_in_registration_order),
	KUNIT_CASE(match_refused_probe_goes_on_with_the_next_keyed_driver),
	KUNIT_CASE(match_device_without_key_offered_to_every_driver),
	KUNIT_CASE(match_device_key_too_long_offered_to_every_driver),
	KUNIT_CASE(match_driver_registered_later_binds_the_waiting_device),
	KUNIT_CASE(match_unregistered_driver_leaves_the_index),
	KUNIT_CASE(match_bus_with_one_callback_fails_einval),
	KUNIT_CASE(match_driver_with_bad_key_fails_einval),
	KUNIT_CASE(match_driver_listing_a_key_twice_is_asked_once),
	KUNIT_CASE(match_driver_without_keys_array_is_offered_every_device),
	KUNIT_CASE(match_deferral_stops_a_keyed_walk),
	KUNIT_CASE(match_driver_side_offers_follow_the_index),
	KUNIT_CASE(match_keys_sharing_a_bucket_stay_apart),
	KUNIT_CASE(match_index_survives_driver_churn_during_probes),
	{}
};

static struct kunit_suite match_test_suite = {
	.name = "dmcore-match",
	.init = match_test_init,
	.exit = dmct_exit,
	.test_cases = match_test_cases,
};

kunit_test_suites(&match_test_suite);
