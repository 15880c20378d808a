// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: managed resources (devres.c). A driver's resources are released
 * newest first after its remove and when its probe fails; resources from
 * before a probe refuse it and are released at the device's last put; the
 * lookup calls; misuse on a device never added; and resources added by
 * other threads while the binding ends, each released exactly once.
 *
 * One bus and one driver of this file's, whose probe runs what the case
 * asks (dvt_cur).
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/kthread.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <dmcore/bus.h>
#include <dmcore/device.h>
#include <dmcore/devres.h>
#include <dmcore/driver.h>
#include <dmcore/kobject.h>
#include "test_util.h"

#define DVT_MAX_LOG	16

struct dvt {
	struct dmc_bus_type bus;
	struct dmc_driver drv;
	struct dmc_device *dev;
	int (*probe)(struct dvt *t, struct dmc_device *dev);
	char *mem;				/* what the probe allocated */
	int log[DVT_MAX_LOG];			/* actions run, in order */
	atomic_t nlog;
	struct completion released;
};

static struct dvt *dvt_cur;

struct dvt_act {
	struct dvt *t;
	int id;
};

static void dvt_action(void *data)
{
	struct dvt_act *a = data;
	int n = atomic_inc_return(&a->t->nlog) - 1;

	if (n < DVT_MAX_LOG)
		a->t->log[n] = a->id;
}

static int dvt_match(struct dmc_device *dev, const struct dmc_driver *drv)
{
	return 1;
}

static int dvt_probe(struct dmc_device *dev)
{
	struct dvt *t = dvt_cur;

	return t->probe ? t->probe(t, dev) : 0;
}

static void dvt_release(struct dmc_device *dev)
{
	complete(&dvt_cur->released);
	kfree(dev);
}

/*
 * The bus and driver are not the test's memory: a case that fails half-way
 * leaves them registered, and leaks them rather than freeing them under
 * the model (dvt_done() frees them).
 */
static struct dvt *dvt_world(struct kunit *test, bool with_driver)
{
	struct dvt *t = kzalloc(sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	dvt_cur = t;
	init_completion(&t->released);
	atomic_set(&t->nlog, 0);
	t->bus.name = "dvt_bus";
	t->bus.match = dvt_match;
	t->drv.name = "dvt_drv";
	t->drv.bus = &t->bus;
	t->drv.probe = dvt_probe;
	KUNIT_ASSERT_EQ(test, dmc_bus_register(&t->bus), 0);
	if (with_driver)
		KUNIT_ASSERT_EQ(test, dmc_driver_register(&t->drv), 0);
	return t;
}

/* Add the test's device; it binds if the driver is there. */
static struct dmc_device *dvt_dev(struct kunit *test, struct dvt *t)
{
	struct dmc_device *dev = kzalloc(sizeof(*dev), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, dev);
	dmc_device_initialize(dev);
	dev->bus = &t->bus;
	dev->release = dvt_release;
	KUNIT_ASSERT_EQ(test, dmc_device_set_name(dev, "dvt0"), 0);
	KUNIT_ASSERT_EQ(test, dmc_device_add(dev), 0);
	t->dev = dev;
	return dev;
}

/* Unregister the device and wait for its release, then the rest. */
static void dvt_done(struct kunit *test, struct dvt *t, bool driver)
{
	if (t->dev) {
		dmc_device_unregister(t->dev);
		dmc_kobject_flush_releases();
		KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&t->released, 10 * HZ));
	}
	if (driver)
		dmc_driver_unregister(&t->drv);
	dmc_bus_unregister(&t->bus);
	dmc_kobject_flush_releases();
	dvt_cur = NULL;
	kfree(t);
}

/* dmc_devres_release_all() as a bus would call it: under the device lock. */
static int dvt_release_all(struct dmc_device *dev)
{
	int n;

	dmc_device_lock(dev);
	n = dmc_devres_release_all(dev);
	dmc_device_unlock(dev);
	return n;
}

static struct dvt_act *dvt_act(struct kunit *test, struct dvt *t, int id)
{
	struct dvt_act *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, a);
	a->t = t;
	a->id = id;
	return a;
}

static struct dvt_act *dvt_acts;	/* three, for the probes below */

/* Memory, then actions 1, 2, 3. */
static int dvt_probe_three(struct dvt *t, struct dmc_device *dev)
{
	int i;

	t->mem = dmc_devm_kasprintf(dev, GFP_KERNEL, "%s-%d", "mem", 7);
	if (!t->mem)
		return -ENOMEM;
	for (i = 0; i < 3; i++) {
		int err = dmc_devm_add_action(dev, dvt_action, &dvt_acts[i]);

		if (err)
			return err;
	}
	return 0;
}

static int dvt_probe_three_then_fail(struct dvt *t, struct dmc_device *dev)
{
	int err = dvt_probe_three(t, dev);

	return err ?: -EIO;
}

static void dvt_three_acts(struct kunit *test, struct dvt *t)
{
	int i;

	dvt_acts = kunit_kcalloc(test, 3, sizeof(*dvt_acts), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, dvt_acts);
	for (i = 0; i < 3; i++) {
		dvt_acts[i].t = t;
		dvt_acts[i].id = i + 1;
	}
}

static void devres_released_newest_first_after_remove(struct kunit *test)
{
	struct dvt *t = dvt_world(test, true);
	struct dmc_device *dev;

	dvt_three_acts(test, t);
	t->probe = dvt_probe_three;
	dev = dvt_dev(test, t);
	KUNIT_ASSERT_TRUE(test, dmc_device_is_bound(dev));
	KUNIT_EXPECT_STREQ(test, t->mem, "mem-7");
	KUNIT_EXPECT_EQ(test, atomic_read(&t->nlog), 0);

	dmc_device_release_driver(dev);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(dev));
	KUNIT_ASSERT_EQ(test, atomic_read(&t->nlog), 3);
	KUNIT_EXPECT_EQ(test, t->log[0], 3);
	KUNIT_EXPECT_EQ(test, t->log[1], 2);
	KUNIT_EXPECT_EQ(test, t->log[2], 1);
	/* Nothing left for another call. */
	KUNIT_EXPECT_EQ(test, dvt_release_all(dev), 0);
	dvt_done(test, t, true);
}

static void devres_released_when_probe_fails(struct kunit *test)
{
	struct dvt *t = dvt_world(test, true);
	struct dmc_device *dev;

	dvt_three_acts(test, t);
	t->probe = dvt_probe_three_then_fail;
	dev = dvt_dev(test, t);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(dev));
	KUNIT_EXPECT_NULL(test, dev->driver);
	KUNIT_ASSERT_EQ(test, atomic_read(&t->nlog), 3);
	KUNIT_EXPECT_EQ(test, t->log[0], 3);
	KUNIT_EXPECT_EQ(test, t->log[2], 1);
	/* Nothing left from the failed probe: the next one is not refused. */
	t->probe = NULL;
	KUNIT_EXPECT_EQ(test, dmc_device_attach(dev), 1);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(dev));
	dvt_done(test, t, true);
}

/*
 * Resources from before any probe refuse the probe (they would go with a
 * binding they are not part of) and are released at the last put.
 */
static void devres_before_probe_refuses_it_and_goes_at_release(struct kunit *test)
{
	struct dvt *t = dvt_world(test, false);
	struct dmc_device *dev = dvt_dev(test, t);
	struct dvt_act *a = dvt_act(test, t, 9);

	KUNIT_ASSERT_EQ(test, dmc_devm_add_action(dev, dvt_action, a), 0);
	KUNIT_ASSERT_EQ(test, dmc_driver_register(&t->drv), 0);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(dev));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->nlog), 0);
	dmc_device_unregister(dev);
	t->dev = NULL;
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&t->released, 10 * HZ));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->nlog), 1);
	KUNIT_EXPECT_EQ(test, t->log[0], 9);
	dvt_done(test, t, true);
}

static void dvt_put_dev(void *data)
{
	dmc_device_put(data);
}

/*
 * A resource of a device never bound that holds a reference on the device
 * itself: released by the deletion, else the last put would never come.
 */
static void devres_of_an_unbound_device_go_with_its_deletion(struct kunit *test)
{
	struct dvt *t = dvt_world(test, false);
	struct dmc_device *dev = dvt_dev(test, t);
	struct dvt_act *a = dvt_act(test, t, 4);

	KUNIT_ASSERT_EQ(test, dmc_devm_add_action(dev, dvt_action, a), 0);
	dmc_device_get(dev);
	KUNIT_ASSERT_EQ(test, dmc_devm_add_action_or_reset(dev, dvt_put_dev, dev), 0);
	dmc_device_unregister(dev);
	t->dev = NULL;
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&t->released, 10 * HZ));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->nlog), 1);
	dvt_done(test, t, false);
}

static void dvt_res_release(struct dmc_device *dev, void *res)
{
	int *v = res;

	dvt_cur->log[atomic_inc_return(&dvt_cur->nlog) - 1] = *v;
}

/* A release function no resource has. */
static void dvt_action_release_never(struct dmc_device *dev, void *res)
{
}

static int dvt_res_match(struct dmc_device *dev, void *res, void *data)
{
	return *(int *)res == *(int *)data;
}

static int *dvt_res(struct dmc_device *dev, int v)
{
	int *r = dmc_devres_alloc(dvt_res_release, sizeof(int), GFP_KERNEL);

	if (r) {
		*r = v;
		dmc_devres_add(dev, r);
	}
	return r;
}

static void devres_find_get_remove_destroy_release(struct kunit *test)
{
	struct dvt *t = dvt_world(test, false);
	struct dmc_device *dev = dvt_dev(test, t);
	int *r1, *r2, *n, *got, one = 1, two = 2, three = 3;

	r1 = dvt_res(dev, 1);
	r2 = dvt_res(dev, 2);
	KUNIT_ASSERT_TRUE(test, r1 && r2);
	/* Without a match: the newest. */
	KUNIT_EXPECT_PTR_EQ(test, dmc_devres_find(dev, dvt_res_release, NULL, NULL), r2);
	KUNIT_EXPECT_PTR_EQ(test, dmc_devres_find(dev, dvt_res_release, dvt_res_match, &one), r1);
	KUNIT_EXPECT_NULL(test, dmc_devres_find(dev, dvt_res_release, dvt_res_match, &three));
	KUNIT_EXPECT_NULL(test, dmc_devres_find(dev, dvt_action_release_never, NULL, NULL));

	/* get: an existing one wins and the new one is freed. */
	n = dmc_devres_alloc(dvt_res_release, sizeof(int), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, n);
	*n = 2;
	got = dmc_devres_get(dev, n, dvt_res_match, &two);
	KUNIT_EXPECT_PTR_EQ(test, got, r2);
	n = dmc_devres_alloc(dvt_res_release, sizeof(int), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, n);
	*n = 3;
	got = dmc_devres_get(dev, n, dvt_res_match, &three);
	KUNIT_EXPECT_PTR_EQ(test, got, n);

	/* remove: the caller's again, unreleased. */
	got = dmc_devres_remove(dev, dvt_res_release, dvt_res_match, &one);
	KUNIT_EXPECT_PTR_EQ(test, got, r1);
	dmc_devres_free(got);
	KUNIT_EXPECT_EQ(test, dmc_devres_destroy(dev, dvt_res_release, dvt_res_match, &one),
			-ENOENT);
	/* destroy: freed unreleased; release: released and freed. */
	KUNIT_EXPECT_EQ(test, dmc_devres_destroy(dev, dvt_res_release, dvt_res_match, &three), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->nlog), 0);
	KUNIT_EXPECT_EQ(test, dmc_devres_release(dev, dvt_res_release, dvt_res_match, &two), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->nlog), 1);
	KUNIT_EXPECT_EQ(test, t->log[0], 2);
	KUNIT_EXPECT_EQ(test, dvt_release_all(dev), 0);
	dvt_done(test, t, false);
}

static void devm_memory_and_actions_by_hand(struct kunit *test)
{
	struct dvt *t = dvt_world(test, false);
	struct dmc_device *dev = dvt_dev(test, t);
	struct dvt_act *a = dvt_act(test, t, 1), *b = dvt_act(test, t, 2);
	unsigned long misuse;
	char *s, *z;

	s = dmc_devm_kstrdup(dev, "abc", GFP_KERNEL);
	KUNIT_EXPECT_STREQ(test, s, "abc");
	z = dmc_devm_kzalloc(dev, 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, z);
	KUNIT_EXPECT_NULL(test, memchr_inv(z, 0, 64));
	KUNIT_EXPECT_TRUE(test, IS_ALIGNED((unsigned long)z, ARCH_KMALLOC_MINALIGN));
	dmc_devm_kfree(dev, z);
	/* As kmalloc(): nothing to hold, nothing to free. */
	KUNIT_EXPECT_PTR_EQ(test, dmc_devm_kmalloc(dev, 0, GFP_KERNEL), ZERO_SIZE_PTR);
	dmc_devm_kfree(dev, ZERO_SIZE_PTR);

	KUNIT_ASSERT_EQ(test, dmc_devm_add_action(dev, dvt_action, a), 0);
	KUNIT_ASSERT_EQ(test, dmc_devm_add_action(dev, dvt_action, b), 0);
	dmc_devm_remove_action(dev, dvt_action, a);	/* forgotten, not run */
	dmc_devm_release_action(dev, dvt_action, b);	/* run now */
	KUNIT_EXPECT_EQ(test, atomic_read(&t->nlog), 1);
	KUNIT_EXPECT_EQ(test, t->log[0], 2);
	misuse = dmc_misuse_count();
	DMCT_WARN_BEGIN();
	dmc_devm_remove_action(dev, dvt_action, a);	/* not there any more */
	dmc_devm_kfree(dev, t);				/* not managed memory */
	dmc_devres_add(dev, NULL);			/* no resource */
	DMCT_WARN_END();
	KUNIT_EXPECT_EQ(test, dmc_devm_add_action_or_reset(dev, NULL, a), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_misuse_count(), misuse + 3);
	/* Only the string is left. */
	KUNIT_EXPECT_EQ(test, dvt_release_all(dev), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->nlog), 1);
	dvt_done(test, t, false);
}

/* A device never added has no list: refused, counted, nothing leaks. */
static void devres_on_a_device_never_added(struct kunit *test)
{
	struct dvt *t = dvt_world(test, false);
	struct dvt_act *a = dvt_act(test, t, 5);
	struct dmc_device *dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	unsigned long misuse = dmc_misuse_count();
	int *r;

	KUNIT_ASSERT_NOT_NULL(test, dev);
	dmc_device_initialize(dev);
	dev->release = dvt_release;
	DMCT_WARN_BEGIN();
	KUNIT_EXPECT_NULL(test, dmc_devm_kzalloc(dev, 8, GFP_KERNEL));
	KUNIT_EXPECT_EQ(test, dmc_devm_add_action_or_reset(dev, dvt_action, a), -EINVAL);
	/* _or_reset ran the action at once. */
	KUNIT_EXPECT_EQ(test, atomic_read(&t->nlog), 1);
	r = dmc_devres_alloc(dvt_res_release, sizeof(int), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	dmc_devres_add(dev, r);				/* freed, unreleased */
	DMCT_WARN_END();
	KUNIT_EXPECT_EQ(test, dmc_devres_release_all(dev), -ENODEV);
	KUNIT_EXPECT_EQ(test, dmc_misuse_count(), misuse + 3);
	KUNIT_EXPECT_NULL(test, dmc_devm_kzalloc(NULL, 8, GFP_KERNEL));
	KUNIT_EXPECT_EQ(test, dmc_devm_add_action(NULL, dvt_action, a), -EINVAL);
	dmc_device_put(dev);
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&t->released, 10 * HZ));
	dvt_done(test, t, false);
}

/* ---- resources added while the binding ends ------------------------------ */

#define DVT_ADDERS	2
#define DVT_PER_ADDER	300
#define DVT_ALL		(DVT_ADDERS * DVT_PER_ADDER)

struct dvt_race {
	struct dmc_device *dev;
	atomic_t added, run, first_run;
	atomic_t runs[DVT_ALL];		/* per action: times run */
	int index[DVT_ALL];
	int first[DVT_ADDERS];
	struct completion half_added;	/* every adder added its first half */
	struct completion go;		/* the unbind is releasing: add the rest */
	struct completion done[DVT_ADDERS];
};

static struct dvt_race *dvt_race_cur;

/*
 * The first action the unbind releases lets the adders add their second
 * halves and waits until they have: those arrive while the unbind is
 * releasing a list it took already.
 */
static void dvt_race_action(void *data)
{
	struct dvt_race *r = dvt_race_cur;
	int *i = data, k;

	if (atomic_inc_return(&r->first_run) == 1) {
		complete_all(&r->go);
		for (k = 0; k < DVT_ADDERS; k++)
			wait_for_completion_timeout(&r->done[k], 10 * HZ);
	}
	atomic_inc(&r->runs[*i]);
	atomic_inc(&r->run);
}

static int dvt_adder(void *data)
{
	struct dvt_race *r = dvt_race_cur;
	int *first = data, k;

	for (k = 0; k < DVT_PER_ADDER; k++) {
		int i = *first + k;

		if (k == DVT_PER_ADDER / 2) {
			if (atomic_read(&r->added) == DVT_ALL / 2)
				complete(&r->half_added);
			wait_for_completion_timeout(&r->go, 10 * HZ);
		}
		r->index[i] = i;
		if (dmc_devm_add_action(r->dev, dvt_race_action, &r->index[i]))
			break;
		atomic_inc(&r->added);
	}
	/* All: the first release waits for it, and so does the test. */
	complete_all(&r->done[*first / DVT_PER_ADDER]);
	return 0;
}

/*
 * Two threads add actions to a bound device and, half-way, wait for its
 * unbind to begin releasing; the first release lets them add the rest
 * and waits for them. The unbind releases what arrived meanwhile too, so
 * when it returns every action has run, each exactly once.
 */
static void devres_added_while_unbinding_each_released_once(struct kunit *test)
{
	struct dvt *t = dvt_world(test, true);
	/* Not the test's: left to the threads if they hang. */
	struct dvt_race *r = kzalloc(sizeof(*r), GFP_KERNEL);
	int i, twice = 0, never = 0, done = 1;

	KUNIT_ASSERT_NOT_NULL(test, r);
	dvt_race_cur = r;
	init_completion(&r->half_added);
	init_completion(&r->go);
	r->dev = dvt_dev(test, t);
	KUNIT_ASSERT_TRUE(test, dmc_device_is_bound(r->dev));
	for (i = 0; i < DVT_ADDERS; i++) {
		struct task_struct *tk;

		init_completion(&r->done[i]);
		r->first[i] = i * DVT_PER_ADDER;
		tk = kthread_run(dvt_adder, &r->first[i], "dvt_adder%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(tk));
	}
	/* The last adder to reach its half signals; the other one may not. */
	wait_for_completion_timeout(&r->half_added, 10 * HZ);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->added), DVT_ALL / 2);
	dmc_device_release_driver(r->dev);
	for (i = 0; i < DVT_ADDERS; i++)
		done &= !!wait_for_completion_timeout(&r->done[i], 10 * HZ);
	KUNIT_ASSERT_TRUE(test, done);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->added), DVT_ALL);
	/* All of them, those added while it released included. */
	KUNIT_EXPECT_EQ(test, atomic_read(&r->run), DVT_ALL);
	dvt_done(test, t, true);
	for (i = 0; i < DVT_ALL; i++) {
		twice += atomic_read(&r->runs[i]) > 1;
		never += atomic_read(&r->runs[i]) == 0;
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&r->run), DVT_ALL);
	KUNIT_EXPECT_EQ(test, twice, 0);
	KUNIT_EXPECT_EQ(test, never, 0);
	kfree(r);
}

/* ---- groups and devm_krealloc -------------------------------------------- */

/* Add actions @from..@to (ids) of @acts to @dev. */
static void dvt_add_acts(struct kunit *test, struct dmc_device *dev,
			 struct dvt_act *acts, int from, int to)
{
	int i;

	for (i = from; i <= to; i++)
		KUNIT_ASSERT_EQ(test, dmc_devm_add_action(dev, dvt_action, &acts[i]), 0);
}

static struct dvt_act *dvt_n_acts(struct kunit *test, struct dvt *t, int n)
{
	struct dvt_act *acts = kunit_kcalloc(test, n, sizeof(*acts), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, acts);
	for (i = 0; i < n; i++) {
		acts[i].t = t;
		acts[i].id = i;
	}
	return acts;
}

/* The log from @from on equals @want (@n entries). */
static void dvt_expect_log(struct kunit *test, struct dvt *t, int from,
			   const int *want, int n)
{
	int i;

	KUNIT_ASSERT_EQ(test, atomic_read(&t->nlog), from + n);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, t->log[from + i], want[i]);
}

/*
 * A closed group releases what was added between its markers, newest
 * first, and nothing before or after; a group opened inside one that is
 * released goes with it. NULL means the newest open group.
 */
static void devres_group_releases_its_stretch(struct kunit *test)
{
	static const int inner[] = { 3, 2 }, outer[] = { 5, 4, 1 }, rest[] = { 6, 0 };
	struct dvt *t = dvt_world(test, false);
	struct dmc_device *dev = dvt_dev(test, t);
	struct dvt_act *acts = dvt_n_acts(test, t, 7);
	unsigned long misuse;
	void *outer_id, *inner_id;
	int cookie;

	dvt_add_acts(test, dev, acts, 0, 0);
	outer_id = dmc_devres_open_group(dev, NULL, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, outer_id);
	dvt_add_acts(test, dev, acts, 1, 1);
	inner_id = dmc_devres_open_group(dev, &cookie, GFP_KERNEL);
	KUNIT_EXPECT_PTR_EQ(test, inner_id, (void *)&cookie);
	dvt_add_acts(test, dev, acts, 2, 3);
	dmc_devres_close_group(dev, NULL);		/* the inner one */
	dvt_add_acts(test, dev, acts, 4, 5);
	dmc_devres_close_group(dev, outer_id);
	dvt_add_acts(test, dev, acts, 6, 6);

	KUNIT_EXPECT_EQ(test, dmc_devres_release_group(dev, &cookie), 2);
	dvt_expect_log(test, t, 0, inner, 2);
	/* The outer group is closed: no open group is left for NULL. */
	misuse = dmc_misuse_count();
	DMCT_WARN_BEGIN();
	KUNIT_EXPECT_EQ(test, dmc_devres_release_group(dev, NULL), 0);
	dmc_devres_close_group(dev, outer_id);		/* closed already */
	DMCT_WARN_END();
	KUNIT_EXPECT_EQ(test, dmc_misuse_count(), misuse + 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->nlog), 2);
	KUNIT_EXPECT_EQ(test, dmc_devres_release_group(dev, outer_id), 3);
	dvt_expect_log(test, t, 2, outer, 3);
	/* Group markers are not counted as resources. */
	KUNIT_EXPECT_EQ(test, dvt_release_all(dev), 2);
	dvt_expect_log(test, t, 5, rest, 2);
	dvt_done(test, t, false);
}

/*
 * Linux's rules for groups that are open or overlap: an open group's
 * stretch runs to the end of the list; a group only partly inside a
 * released stretch keeps its markers and the rest of its resources.
 * Forgetting a group keeps its resources.
 */
static void devres_group_open_overlapping_and_removed(struct kunit *test)
{
	static const int a_rel[] = { 2, 1 }, b_rel[] = { 3 };
	static const int open_rel[] = { 6, 5 }, rest[] = { 8, 7, 4 };
	struct dvt *t = dvt_world(test, false);
	struct dmc_device *dev = dvt_dev(test, t);
	struct dvt_act *acts = dvt_n_acts(test, t, 9);
	void *a, *b, *c, *kept;
	unsigned long misuse;

	/* A < 1  B < 2  A > 3  B > */
	a = dmc_devres_open_group(dev, NULL, GFP_KERNEL);
	dvt_add_acts(test, dev, acts, 1, 1);
	b = dmc_devres_open_group(dev, NULL, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, a && b && a != b);
	dvt_add_acts(test, dev, acts, 2, 2);
	dmc_devres_close_group(dev, a);
	dvt_add_acts(test, dev, acts, 3, 3);
	dmc_devres_close_group(dev, b);
	KUNIT_EXPECT_EQ(test, dmc_devres_release_group(dev, a), 2);
	dvt_expect_log(test, t, 0, a_rel, 2);
	/* B's opening marker was inside A's stretch, its closing one not. */
	KUNIT_EXPECT_EQ(test, dmc_devres_release_group(dev, b), 1);
	dvt_expect_log(test, t, 2, b_rel, 1);

	/* 4  kept < 5  C < 6 (both open): releasing kept takes C too. */
	dvt_add_acts(test, dev, acts, 4, 4);
	kept = dmc_devres_open_group(dev, NULL, GFP_KERNEL);
	dvt_add_acts(test, dev, acts, 5, 5);
	c = dmc_devres_open_group(dev, NULL, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, kept && c);
	dvt_add_acts(test, dev, acts, 6, 6);
	KUNIT_EXPECT_EQ(test, dmc_devres_release_group(dev, kept), 2);
	dvt_expect_log(test, t, 3, open_rel, 2);
	misuse = dmc_misuse_count();
	DMCT_WARN_BEGIN();
	dmc_devres_remove_group(dev, c);		/* went with kept */
	DMCT_WARN_END();
	KUNIT_EXPECT_EQ(test, dmc_misuse_count(), misuse + 1);

	/* Forgotten: 7 and 8 stay the device's. */
	kept = dmc_devres_open_group(dev, NULL, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, kept);
	dvt_add_acts(test, dev, acts, 7, 8);
	dmc_devres_remove_group(dev, kept);
	/* An open group at the device's end is freed with everything. */
	KUNIT_ASSERT_NOT_NULL(test, dmc_devres_open_group(dev, NULL, GFP_KERNEL));
	KUNIT_EXPECT_EQ(test, dvt_release_all(dev), 3);
	dvt_expect_log(test, t, 5, rest, 3);
	/* Nothing left: a late release of a group is quiet, as Linux's. */
	KUNIT_EXPECT_EQ(test, dmc_devres_release_group(dev, kept), 0);
	KUNIT_EXPECT_EQ(test, dmc_misuse_count(), misuse + 1);
	dvt_done(test, t, false);
}

static void devm_krealloc_keeps_contents_and_place(struct kunit *test)
{
	static const int order[] = { 2, 1 };
	struct dvt *t = dvt_world(test, false);
	struct dmc_device *dev = dvt_dev(test, t);
	struct dvt_act *acts = dvt_n_acts(test, t, 3);
	unsigned long misuse;
	char *p, *q, *r;
	int stack;

	dvt_add_acts(test, dev, acts, 1, 1);
	p = dmc_devm_kmalloc(dev, 8, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	dvt_add_acts(test, dev, acts, 2, 2);
	memcpy(p, "abcdefg", 8);
	/* Smaller: the same block. */
	KUNIT_EXPECT_PTR_EQ(test, dmc_devm_krealloc(dev, p, 4, GFP_KERNEL), (void *)p);
	q = dmc_devm_krealloc(dev, p, 256, GFP_KERNEL | __GFP_ZERO);
	KUNIT_ASSERT_NOT_NULL(test, q);
	KUNIT_EXPECT_STREQ(test, q, "abcdefg");
	KUNIT_EXPECT_NULL(test, memchr_inv(q + 8, 0, 248));
	/* The old block is no longer managed; the new one is. */
	misuse = dmc_misuse_count();
	DMCT_WARN_BEGIN();
	KUNIT_EXPECT_NULL(test, dmc_devm_krealloc(dev, &stack, 16, GFP_KERNEL));
	DMCT_WARN_END();
	KUNIT_EXPECT_EQ(test, dmc_misuse_count(), misuse + 1);
	r = dmc_devm_krealloc(dev, NULL, 16, GFP_KERNEL);	/* a new one */
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_PTR_EQ(test, dmc_devm_krealloc(dev, r, 0, GFP_KERNEL),
			    (void *)ZERO_SIZE_PTR);		/* freed */
	/* Two actions and the resized memory: three resources, in order. */
	KUNIT_EXPECT_EQ(test, dvt_release_all(dev), 3);
	dvt_expect_log(test, t, 0, order, 2);
	dvt_done(test, t, false);
}

/* ---- a group released while another thread adds resources ---------------- */

#define DVG_ADDS	400

struct dvg_race {
	struct dmc_device *dev;
	atomic_t runs[DVG_ADDS + 1];	/* per action: times run; [0]: the gate */
	int index[DVG_ADDS + 1];
	struct completion releasing;	/* the group's release has begun */
	struct completion added;	/* the adder added everything */
};

static struct dvg_race *dvg_cur;

/* The group's only resource: holds its release until the adder is done. */
static void dvg_gate(void *data)
{
	complete(&dvg_cur->releasing);
	wait_for_completion_timeout(&dvg_cur->added, 10 * HZ);
	atomic_inc(&dvg_cur->runs[0]);
}

static void dvg_action(void *data)
{
	atomic_inc(&dvg_cur->runs[*(int *)data]);
}

static int dvg_adder(void *data)
{
	struct dvg_race *r = data;
	int i;

	wait_for_completion_timeout(&r->releasing, 10 * HZ);
	for (i = 1; i <= DVG_ADDS; i++) {
		r->index[i] = i;
		if (dmc_devm_add_action(r->dev, dvg_action, &r->index[i]))
			break;
	}
	complete_all(&r->added);	/* the gate waits for it, and the test looks */
	return 0;
}

/*
 * The group's release has cut its stretch from the list and is releasing
 * it when another thread adds resources: they land after the stretch,
 * stay the device's, and are released once, by the release of them all.
 */
static void devres_group_release_racing_adds(struct kunit *test)
{
	struct dvt *t = dvt_world(test, false);
	struct dmc_device *dev = dvt_dev(test, t);
	/* Not the test's: left to the thread if it hangs. */
	struct dvg_race *r = kzalloc(sizeof(*r), GFP_KERNEL);
	struct task_struct *tk;
	int i, bad = 0;
	void *g;

	KUNIT_ASSERT_NOT_NULL(test, r);
	dvg_cur = r;
	r->dev = dev;
	init_completion(&r->releasing);
	init_completion(&r->added);
	g = dmc_devres_open_group(dev, NULL, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, g);
	KUNIT_ASSERT_EQ(test, dmc_devm_add_action(dev, dvg_gate, NULL), 0);
	tk = kthread_run(dvg_adder, r, "dvg_adder");
	KUNIT_ASSERT_FALSE(test, IS_ERR(tk));
	/* Open group: its stretch is the list's end when the release cuts. */
	KUNIT_EXPECT_EQ(test, dmc_devres_release_group(dev, g), 1);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&r->added, 10 * HZ));
	for (i = 1; i <= DVG_ADDS; i++)
		bad += atomic_read(&r->runs[i]) != 0;
	KUNIT_EXPECT_EQ(test, bad, 0);
	KUNIT_EXPECT_EQ(test, dvt_release_all(dev), DVG_ADDS);
	for (i = 0; i <= DVG_ADDS; i++)
		bad += atomic_read(&r->runs[i]) != 1;
	KUNIT_EXPECT_EQ(test, bad, 0);
	dvt_done(test, t, false);
	kfree(r);
}

static struct kunit_case devres_test_cases[] = {
	KUNIT_CASE(devres_released_newest_first_after_remove),
	KUNIT_CASE(devres_released_when_probe_fails),
	KUNIT_CASE(devres_before_probe_refuses_it_and_goes_at_release),
	KUNIT_CASE(devres_of_an_unbound_device_go_with_its_deletion),
	KUNIT_CASE(devres_find_get_remove_destroy_release),
	KUNIT_CASE(devm_memory_and_actions_by_hand),
	KUNIT_CASE(devres_on_a_device_never_added),
	KUNIT_CASE(devres_added_while_unbinding_each_released_once),
	KUNIT_CASE(devres_group_releases_its_stretch),
	KUNIT_CASE(devres_group_open_overlapping_and_removed),
	KUNIT_CASE(devm_krealloc_keeps_contents_and_place),
	KUNIT_CASE(devres_group_release_racing_adds),
	{}
};

static struct kunit_suite devres_test_suite = {
	.name = "dmcore-devres",
	.test_cases = devres_test_cases,
};

kunit_test_suites(&devres_test_suite);
