// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: probe types and the deferred-probe timeout (dd.c).
 *
 * dmcore-probe-type: DMC_PROBE_DEFAULT_STRATEGY and _FORCE_SYNCHRONOUS
 * probe in the adding thread, _PREFER_ASYNCHRONOUS in a worker after the
 * add returned; an asynchronous probe parked in its worker while another
 * thread deletes the device, or unregisters the driver (each waits for
 * the probe, then unbinds once); and a driver unregistered while its
 * asynchronous probes are queued is never called after the
 * unregistration returned (what makes a module unload safe).
 *
 * dmcore-deferred-timeout: dmc_driver_deferred_probe_check_state() says
 * -EPROBE_DEFER, then -ETIMEDOUT once a short deferred_probe_timeout has
 * passed; setting it again starts the count again; -1 never times out.
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <dmcore/device.h>
#include "model_util.h"

#define PT_TIMEOUT	(10 * HZ)

/* What this file's probe saw and does. */
struct pt_probe {
	struct task_struct *task;	/* who ran the last probe */
	atomic_t probes;
	bool park;			/* the first probe waits for @go */
	struct completion in_probe, go;
	bool unregistered;		/* the driver's unregistration returned */
	atomic_t late;			/* probes after that */
};

static struct pt_probe *pt_cur;

static int pt_probe_fn(struct dmc_device *dev)
{
	struct pt_probe *pp = READ_ONCE(pt_cur);

	if (!pp)
		return 0;
	if (READ_ONCE(pp->unregistered))
		atomic_inc(&pp->late);
	WRITE_ONCE(pp->task, current);
	if (atomic_inc_return(&pp->probes) == 1 && pp->park) {
		complete(&pp->in_probe);
		wait_for_completion_timeout(&pp->go, PT_TIMEOUT);
	}
	return 0;
}

static struct pt_probe *pt_new(struct kunit *test, bool park)
{
	struct pt_probe *pp = kunit_kzalloc(test, sizeof(*pp), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, pp);
	pp->park = park;
	init_completion(&pp->in_probe);
	init_completion(&pp->go);
	WRITE_ONCE(pt_cur, pp);
	return pp;
}

static struct dmm_drv *pt_drv(struct kunit *test, struct dmm_bus *b,
			      enum dmc_probe_type type)
{
	struct dmm_drv *d = dmm_drv_alloc(test, b, "d");

	d->drv.probe_type = type;
	d->drv.probe = pt_probe_fn;
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, d), 0);
	return d;
}

static void pt_probes_in(struct kunit *test, enum dmc_probe_type type, bool async)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct pt_probe *pp = pt_new(test, false);
	struct dmm_drv *d = pt_drv(test, b, type);
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);

	if (!async) {
		KUNIT_EXPECT_PTR_EQ(test, a->dev->driver, &d->drv);
		KUNIT_EXPECT_PTR_EQ(test, READ_ONCE(pp->task), current);
		return;
	}
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_PTR_EQ(test, a->dev->driver, &d->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp->probes), 1);
	KUNIT_EXPECT_PTR_NE(test, READ_ONCE(pp->task), current);
}

static void probe_type_default_is_synchronous(struct kunit *test)
{
	pt_probes_in(test, DMC_PROBE_DEFAULT_STRATEGY, false);
}

static void probe_type_force_synchronous(struct kunit *test)
{
	pt_probes_in(test, DMC_PROBE_FORCE_SYNCHRONOUS, false);
}

static void probe_type_prefer_asynchronous(struct kunit *test)
{
	pt_probes_in(test, DMC_PROBE_PREFER_ASYNCHRONOUS, true);
}

/* A driver registering binds existing devices from a worker too. */
static void probe_type_async_driver_attach(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct pt_probe *pp = pt_new(test, true);
	struct dmm_drv *d = dmm_drv_alloc(test, b, "d");
	struct dmm_dev *a;

	d->drv.probe_type = DMC_PROBE_PREFER_ASYNCHRONOUS;
	d->drv.probe = pt_probe_fn;
	a = dmm_dev_new(test, "a", b, NULL, d);
	/* The registration returns while the probe is parked in a worker. */
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, d), 0);
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&pp->in_probe, PT_TIMEOUT));
	complete(&pp->go);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_PTR_EQ(test, a->dev->driver, &d->drv);
	KUNIT_EXPECT_PTR_NE(test, READ_ONCE(pp->task), current);
}

struct pt_job {
	struct dmm_dev *a;
	struct dmm_drv *d;
	struct kunit *test;
	struct completion done;
};

static int pt_deleter(void *data)
{
	struct pt_job *j = data;

	dmm_dev_del(j->a);
	complete(&j->done);
	return 0;
}

static int pt_unregisterer(void *data)
{
	struct pt_job *j = data;

	dmm_drv_unregister(j->test, j->d);
	complete(&j->done);
	return 0;
}

/*
 * An asynchronous probe parked in its worker; another thread deletes the
 * device (@del) or unregisters the driver: it must wait for the probe,
 * then unbind the device exactly once.
 */
static void pt_race_async_probe(struct kunit *test, bool del)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct pt_probe *pp = pt_new(test, true);
	struct dmm_drv *d = pt_drv(test, b, DMC_PROBE_PREFER_ASYNCHRONOUS);
	struct task_struct *t;
	struct pt_job *j;

	j = kunit_kzalloc(test, sizeof(*j), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, j);
	init_completion(&j->done);
	j->test = test;
	j->d = d;
	j->a = dmm_dev_new(test, "a", b, NULL, d);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&pp->in_probe, PT_TIMEOUT));
	t = kthread_run(del ? pt_deleter : pt_unregisterer, j, "pt-racer");
	if (IS_ERR(t)) {
		complete(&pp->go);
		KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(t));
		return;
	}
	KUNIT_EXPECT_FALSE(test, wait_for_completion_timeout(&j->done, HZ / 5));
	complete(&pp->go);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&j->done, PT_TIMEOUT));
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_EQ(test, atomic_read(&pp->probes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&j->a->removes), 1);
	if (del)
		KUNIT_EXPECT_FALSE(test, dmc_device_is_registered(j->a->dev));
	else
		KUNIT_EXPECT_NULL(test, j->a->dev->driver);
}

static void probe_type_async_probe_racing_device_del(struct kunit *test)
{
	pt_race_async_probe(test, true);
}

static void probe_type_async_probe_racing_driver_unregister(struct kunit *test)
{
	pt_race_async_probe(test, false);
}

#define PT_MANY	16

/*
 * Asynchronous probes queued for many devices when the driver goes: once
 * dmc_driver_unregister() returned, the driver is never called again
 * (its module could be gone), whatever the workers had not started.
 */
static void probe_type_no_call_after_unregister(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct pt_probe *pp = pt_new(test, false);
	unsigned int i, round, removes = 0;
	struct dmm_drv *d;

	for (i = 0; i < PT_MANY; i++)
		dmm_dev_new(test, dmm_str(test, "a%u", i), b, NULL, NULL);
	for (round = 0; round < 5; round++) {
		d = dmm_drv_alloc(test, b, dmm_str(test, "d%u", round));
		d->match_ret = 1;	/* every device */
		d->drv.probe_type = DMC_PROBE_PREFER_ASYNCHRONOUS;
		d->drv.probe = pt_probe_fn;
		WRITE_ONCE(pp->unregistered, false);
		KUNIT_ASSERT_EQ(test, dmm_drv_register(test, d), 0);
		dmm_drv_unregister(test, d);
		WRITE_ONCE(pp->unregistered, true);
		dmc_wait_for_device_probe();
		removes += atomic_read(&d->removes);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&pp->late), 0);
	KUNIT_EXPECT_EQ(test, removes, (unsigned int)atomic_read(&pp->probes));
}

static int pt_test_init(struct kunit *test)
{
	return dmm_init(test, "pt");
}

static void pt_test_exit(struct kunit *test)
{
	struct pt_probe *pp = READ_ONCE(pt_cur);

	if (pp)
		complete_all(&pp->go);	/* a failed case leaves nothing parked */
	dmc_wait_for_device_probe();
	WRITE_ONCE(pt_cur, NULL);
	dmct_exit(test);
}

static struct kunit_case probe_type_test_cases[] = {
	KUNIT_CASE(probe_type_default_is_synchronous),
	KUNIT_CASE(probe_type_force_synchronous),
	KUNIT_CASE(probe_type_prefer_asynchronous),
	KUNIT_CASE(probe_type_async_driver_attach),
	KUNIT_CASE(probe_type_async_probe_racing_device_del),
	KUNIT_CASE(probe_type_async_probe_racing_driver_unregister),
	KUNIT_CASE(probe_type_no_call_after_unregister),
	{}
};

static struct kunit_suite probe_type_test_suite = {
	.name = "dmcore-probe-type",
	.init = pt_test_init,
	.exit = pt_test_exit,
	.test_cases = probe_type_test_cases,
};

/* ---- dmcore-deferred-timeout -------------------------------------------- */

/* Wait up to @ms for the check to say -ETIMEDOUT; the ms it took, or -1. */
static int dt_wait_timed_out(struct dmc_device *dev, int ms)
{
	int t;

	for (t = 0; t <= ms; t += 50) {
		if (dmc_driver_deferred_probe_check_state(dev) == -ETIMEDOUT)
			return t;
		msleep(50);
	}
	return -1;
}

static void deferred_timeout_short_then_reset(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a = dmm_dev_alloc(test, "a");
	int old, t;

	/* A device deferred for good: it waits for a driver never registered. */
	a->dev->bus = &b->bus;
	dmm_dev_want(a, d);
	a->wait_drv = "nosuch";
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_deferred(a->dev));

	old = dmc_deferred_probe_set_timeout(1);
	KUNIT_ASSERT_GE(test, old, -1);
	KUNIT_EXPECT_EQ(test, dmc_driver_deferred_probe_check_state(a->dev), -EPROBE_DEFER);
	t = dt_wait_timed_out(a->dev, 5000);
	KUNIT_EXPECT_GE(test, t, 500);	/* not before the second (50 ms steps) */
	/*
	 * Retried at the timeout, named or not (the retry follows the flag,
	 * so that it sees the timeout): still deferred, and logged.
	 */
	for (t = 0; t < 100 && atomic_read(&a->probes) < 2; t++)
		msleep(50);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, dmc_device_is_deferred(a->dev));
	KUNIT_EXPECT_GE(test, atomic_read(&a->probes), 2);

	/* Set again: the count starts again. */
	KUNIT_EXPECT_EQ(test, dmc_deferred_probe_set_timeout(1), 1);
	KUNIT_EXPECT_EQ(test, dmc_driver_deferred_probe_check_state(a->dev), -EPROBE_DEFER);
	KUNIT_EXPECT_GE(test, dt_wait_timed_out(a->dev, 5000), 500);
	/* 0: timed out at once; -1: never. */
	KUNIT_EXPECT_EQ(test, dmc_deferred_probe_set_timeout(0), 1);
	KUNIT_EXPECT_EQ(test, dmc_driver_deferred_probe_check_state(a->dev), -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, dmc_deferred_probe_set_timeout(-1), 0);
	KUNIT_EXPECT_EQ(test, dt_wait_timed_out(a->dev, 1500), -1);
	/* Out of range: refused, nothing changes. */
	KUNIT_EXPECT_EQ(test, dmc_deferred_probe_set_timeout(-2), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_deferred_probe_set_timeout(3601), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_deferred_probe_set_timeout(old), -1);
	dmm_dev_unregister(a);
}

static struct kunit_case deferred_timeout_test_cases[] = {
	KUNIT_CASE(deferred_timeout_short_then_reset),
	{}
};

static struct kunit_suite deferred_timeout_test_suite = {
	.name = "dmcore-deferred-timeout",
	.init = pt_test_init,
	.exit = pt_test_exit,
	.test_cases = deferred_timeout_test_cases,
};

kunit_test_suites(&probe_type_test_suite, &deferred_timeout_test_suite);
