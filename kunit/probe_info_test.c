// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore-probe-info: what the core remembers of probes. A device's last
 * probe result (none, ok, failed with its errno, deferred with what it
 * waits for and why), its probe calls, the durations of its last probe,
 * remove, suspend and resume callbacks (dmc_device_probe_info()), and a
 * driver's probe-latency histogram (dmc_driver_probe_hist(), the walk
 * stats prints). One case races the readers against a device bound,
 * unbound, deferred and failed over and over from a kthread, one the walk
 * over every driver against buses and drivers coming and going. Names are
 * "pi<N>-<name>".
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <dmcore/probe_info.h>
#include "model_util.h"

#define PI_MS		NSEC_PER_MSEC
#define PI_TIMEOUT	(60 * HZ)
#define PI_RACE_ROUNDS	150

static int pi_test_init(struct kunit *test)
{
	return dmm_init(test, "pi");
}

static struct dmc_probe_info *pi_info(struct kunit *test, struct dmm_dev *d)
{
	struct dmc_probe_info *info = kunit_kzalloc(test, sizeof(*info), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, info);
	dmc_device_probe_info(d->dev, info);
	return info;
}

static struct dmc_probe_hist *pi_hist(struct kunit *test, struct dmm_drv *d)
{
	struct dmc_probe_hist *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, h);
	KUNIT_ASSERT_EQ(test, dmc_driver_probe_hist(&d->drv, h), 0);
	return h;
}

/* A device no driver wants, and one no driver exists for: never probed. */
static void pi_never_probed_is_none(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, NULL);
	struct dmc_probe_info *info;

	dmm_drv_new(test, b, "d");
	dmc_wait_for_device_probe();
	info = pi_info(test, a);
	KUNIT_EXPECT_EQ(test, info->result, DMC_PROBE_NONE);
	KUNIT_EXPECT_STREQ(test, dmc_probe_result_name(info->result), "none");
	KUNIT_EXPECT_EQ(test, info->err, 0);
	KUNIT_EXPECT_EQ(test, info->probes, 0UL);
	KUNIT_EXPECT_EQ(test, info->probe_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, info->remove_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, info->suspend_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, info->resume_ns, 0ULL);
	KUNIT_EXPECT_STREQ(test, info->waits, "");
	KUNIT_EXPECT_STREQ(test, info->reason, "");
	dmm_dev_unregister(a);
}

static void pi_ok_is_counted(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);
	struct dmc_probe_info *info;
	struct dmc_probe_hist *h;

	KUNIT_ASSERT_TRUE(test, dmc_device_is_bound(a->dev));
	info = pi_info(test, a);
	KUNIT_EXPECT_EQ(test, info->result, DMC_PROBE_OK);
	KUNIT_EXPECT_STREQ(test, dmc_probe_result_name(info->result), "ok");
	KUNIT_EXPECT_EQ(test, info->err, 0);
	KUNIT_EXPECT_EQ(test, info->probes, 1UL);
	KUNIT_EXPECT_GT(test, info->probe_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, info->remove_ns, 0ULL);
	h = pi_hist(test, d);
	KUNIT_EXPECT_EQ(test, h->count, 1UL);
	KUNIT_EXPECT_EQ(test, h->ok, 1UL);
	KUNIT_EXPECT_EQ(test, h->failed, 0UL);
	KUNIT_EXPECT_EQ(test, h->deferred, 0UL);
	KUNIT_EXPECT_EQ(test, h->total_ns, info->probe_ns);
	KUNIT_EXPECT_EQ(test, h->buckets[dmc_probe_hist_bucket(info->probe_ns)], 1UL);

	/* Unbound and bound again: two probes, still "ok". */
	dmc_device_release_driver(a->dev);
	KUNIT_EXPECT_EQ(test, dmc_device_attach(a->dev), 1);
	info = pi_info(test, a);
	KUNIT_EXPECT_EQ(test, info->result, DMC_PROBE_OK);
	KUNIT_EXPECT_EQ(test, info->probes, 2UL);
	KUNIT_EXPECT_GT(test, info->remove_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, pi_hist(test, d)->ok, 2UL);
	dmm_dev_unregister(a);
}

static void pi_failed_has_errno(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a = dmm_dev_alloc(test, "a");
	struct dmc_probe_info *info;
	struct dmc_probe_hist *h;

	a->dev->bus = &b->bus;
	dmm_dev_want(a, d);
	a->fail_left = 1;
	a->fail_ret = -EIO;
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	info = pi_info(test, a);
	KUNIT_EXPECT_EQ(test, info->result, DMC_PROBE_FAILED);
	KUNIT_EXPECT_STREQ(test, dmc_probe_result_name(info->result), "failed");
	KUNIT_EXPECT_EQ(test, info->err, EIO);
	KUNIT_EXPECT_EQ(test, info->probes, 1UL);
	KUNIT_EXPECT_STREQ(test, info->waits, "");
	h = pi_hist(test, d);
	KUNIT_EXPECT_EQ(test, h->count, 1UL);
	KUNIT_EXPECT_EQ(test, h->failed, 1UL);
	KUNIT_EXPECT_EQ(test, h->ok, 0UL);

	/* The next probe succeeds: the errno goes with the result. */
	KUNIT_EXPECT_EQ(test, dmc_device_attach(a->dev), 1);
	info = pi_info(test, a);
	KUNIT_EXPECT_EQ(test, info->result, DMC_PROBE_OK);
	KUNIT_EXPECT_EQ(test, info->err, 0);
	KUNIT_EXPECT_EQ(test, info->probes, 2UL);
	dmm_dev_unregister(a);
}

/*
 * A named deferral: "deferred", waiting for B; B binds, A is retried and
 * binds: "ok", nothing awaited, two probes. An unnamed one with the
 * driver's words: the reason, prefixed with the driver's name.
 */
static void pi_deferred_waits_then_ok(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_drv *e = dmm_drv_new(test, b, "e");
	struct dmm_dev *sup = dmm_dev_new(test, "sup", b, NULL, NULL);
	struct dmm_dev *a = dmm_dev_alloc(test, "a");
	struct dmm_dev *c = dmm_dev_alloc(test, "c");
	struct dmc_probe_info *info;

	a->dev->bus = &b->bus;
	dmm_dev_want(a, d);
	a->wait_dev = sup;
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	dmc_wait_for_device_probe();
	info = pi_info(test, a);
	KUNIT_EXPECT_EQ(test, info->result, DMC_PROBE_DEFERRED);
	KUNIT_EXPECT_STREQ(test, dmc_probe_result_name(info->result), "deferred");
	KUNIT_EXPECT_EQ(test, info->err, 0);
	KUNIT_EXPECT_EQ(test, info->probes, 1UL);
	KUNIT_EXPECT_STREQ(test, info->waits, sup->name);
	KUNIT_EXPECT_STREQ(test, info->reason, "");
	KUNIT_EXPECT_EQ(test, pi_hist(test, d)->deferred, 1UL);

	dmm_dev_want(sup, e);
	KUNIT_EXPECT_EQ(test, dmc_device_attach(sup->dev), 1);
	dmc_wait_for_device_probe();
	KUNIT_ASSERT_TRUE(test, dmc_device_is_bound(a->dev));
	info = pi_info(test, a);
	KUNIT_EXPECT_EQ(test, info->result, DMC_PROBE_OK);
	KUNIT_EXPECT_EQ(test, info->probes, 2UL);
	KUNIT_EXPECT_STREQ(test, info->waits, "");
	KUNIT_EXPECT_STREQ(test, info->reason, "");
	KUNIT_EXPECT_EQ(test, pi_hist(test, d)->ok, 1UL);
	KUNIT_EXPECT_EQ(test, pi_hist(test, d)->count, 2UL);

	c->dev->bus = &b->bus;
	dmm_dev_want(c, d);
	c->defer_left = 1;
	c->defer_msg = "no clock";
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, c), 0);
	info = pi_info(test, c);
	if (info->result == DMC_PROBE_DEFERRED) {
		KUNIT_EXPECT_STREQ(test, info->waits, "");
		KUNIT_EXPECT_STREQ(test, info->reason, dmm_str(test, "%s: no clock", d->name));
	} else {
		/* Retried already (an unnamed deferral runs after any bind). */
		KUNIT_EXPECT_EQ(test, info->result, DMC_PROBE_OK);
		KUNIT_EXPECT_EQ(test, info->probes, 2UL);
	}
	dmm_dev_unregister(c);
	dmm_dev_unregister(a);
	dmm_dev_unregister(sup);
}

/* A 20 ms probe: probe_ns at least that, and in the bucket below 32768 µs. */
static void pi_probe_duration_and_bucket(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a = dmm_dev_alloc(test, "a");
	struct dmc_probe_info *info;
	struct dmc_probe_hist *h;
	unsigned int i;

	a->dev->bus = &b->bus;
	dmm_dev_want(a, d);
	a->probe_sleep_ms = 20;
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	info = pi_info(test, a);
	KUNIT_EXPECT_EQ(test, info->result, DMC_PROBE_OK);
	KUNIT_EXPECT_GE(test, info->probe_ns, 20 * PI_MS);
	h = pi_hist(test, d);
	KUNIT_EXPECT_EQ(test, h->count, 1UL);
	KUNIT_EXPECT_GE(test, h->total_ns, 20 * PI_MS);
	KUNIT_EXPECT_EQ(test, dmc_probe_hist_bound_us(15), 32768UL);
	/* msleep(20) may take longer under emulation: bucket 15 below 32 ms. */
	if (info->probe_ns < 32 * PI_MS)
		KUNIT_EXPECT_EQ(test, h->buckets[15], 1UL);
	for (i = 0; i < DMC_PROBE_HIST_BUCKETS; i++)
		if (i != dmc_probe_hist_bucket(info->probe_ns))
			KUNIT_EXPECT_EQ_MSG(test, h->buckets[i], 0UL, "bucket %u", i);
	dmm_dev_unregister(a);
}

/* The buckets' edges, as docs/snapshot.md says. */
static void pi_hist_bucket_edges(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, dmc_probe_hist_bucket(0), 0U);
	KUNIT_EXPECT_EQ(test, dmc_probe_hist_bucket(999), 0U);	/* < 1 µs */
	KUNIT_EXPECT_EQ(test, dmc_probe_hist_bucket(1000), 1U);	/* [1, 2) */
	KUNIT_EXPECT_EQ(test, dmc_probe_hist_bucket(1999), 1U);
	KUNIT_EXPECT_EQ(test, dmc_probe_hist_bucket(2000), 2U);	/* [2, 4) */
	KUNIT_EXPECT_EQ(test, dmc_probe_hist_bucket(20 * PI_MS), 15U);
	KUNIT_EXPECT_EQ(test, dmc_probe_hist_bucket(32768ULL * 1000 - 1), 15U);
	KUNIT_EXPECT_EQ(test, dmc_probe_hist_bucket(32768ULL * 1000), 16U);
	KUNIT_EXPECT_EQ(test, dmc_probe_hist_bucket(1048575ULL * 1000), 20U);
	KUNIT_EXPECT_EQ(test, dmc_probe_hist_bucket(1048576ULL * 1000), 21U);
	KUNIT_EXPECT_EQ(test, dmc_probe_hist_bucket(U64_MAX), 21U);
	KUNIT_EXPECT_EQ(test, dmc_probe_hist_bound_us(0), 1UL);
	KUNIT_EXPECT_EQ(test, dmc_probe_hist_bound_us(20), 1048576UL);
}

/* Slow callbacks around the fake driver's own (which log and count). */
static void (*pi_orig_remove)(struct dmc_device *dev);
static int (*pi_orig_suspend)(struct dmc_device *dev);
static int (*pi_orig_resume)(struct dmc_device *dev);

static void pi_slow_remove(struct dmc_device *dev)
{
	msleep(20);
	pi_orig_remove(dev);
}

static int pi_slow_suspend(struct dmc_device *dev)
{
	msleep(22);
	return pi_orig_suspend(dev);
}

static int pi_slow_resume(struct dmc_device *dev)
{
	msleep(24);
	return pi_orig_resume(dev);
}

static void pi_remove_suspend_resume_durations(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_alloc(test, b, "d");
	struct dmc_probe_info *info;
	struct dmm_dev *a;

	pi_orig_remove = d->drv.remove;
	pi_orig_suspend = d->drv.suspend;
	pi_orig_resume = d->drv.resume;
	d->drv.remove = pi_slow_remove;
	d->drv.suspend = pi_slow_suspend;
	d->drv.resume = pi_slow_resume;
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, d), 0);
	a = dmm_dev_new(test, "a", b, NULL, d);
	KUNIT_ASSERT_TRUE(test, dmc_device_is_bound(a->dev));

	KUNIT_ASSERT_EQ(test, dmc_device_suspend(a->dev), 0);
	info = pi_info(test, a);
	KUNIT_EXPECT_GE(test, info->suspend_ns, 22 * PI_MS);
	KUNIT_EXPECT_EQ(test, info->resume_ns, 0ULL);
	KUNIT_ASSERT_EQ(test, dmc_device_resume(a->dev), 0);
	info = pi_info(test, a);
	KUNIT_EXPECT_GE(test, info->resume_ns, 24 * PI_MS);
	KUNIT_EXPECT_EQ(test, info->remove_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->suspends), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->resumes), 1);

	dmc_device_release_driver(a->dev);
	info = pi_info(test, a);
	KUNIT_EXPECT_GE(test, info->remove_ns, 20 * PI_MS);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	/* Still the last probe's result: unbinding is no probe. */
	KUNIT_EXPECT_EQ(test, info->result, DMC_PROBE_OK);
	dmm_dev_unregister(a);
}

struct pi_walk {
	const char *bus, *drv;
	struct dmc_probe_hist h;
	unsigned int seen, drivers;
};

static int pi_walk_fn(const char *bus, const char *drv,
		      const struct dmc_probe_hist *h, void *data)
{
	struct pi_walk *w = data;

	w->drivers++;
	if (!strcmp(bus, w->bus) && !strcmp(drv, w->drv)) {
		w->seen++;
		w->h = *h;
	}
	return 0;
}

/* The walk stats prints finds each registered driver once, not after. */
static void pi_hist_walk_sees_drivers(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);
	struct pi_walk *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, w);
	w->bus = b->name;
	w->drv = d->name;
	KUNIT_EXPECT_EQ(test, dmc_probe_hist_walk(w, pi_walk_fn), 0);
	KUNIT_EXPECT_EQ(test, w->seen, 1U);
	KUNIT_EXPECT_GE(test, w->drivers, 1U);
	KUNIT_EXPECT_EQ(test, w->h.count, 1UL);
	KUNIT_EXPECT_EQ(test, w->h.ok, 1UL);

	dmm_dev_unregister(a);
	dmm_drv_unregister(test, d);
	memset(w, 0, sizeof(*w));
	w->bus = b->name;
	w->drv = d->name;
	dmc_probe_hist_walk(w, pi_walk_fn);
	KUNIT_EXPECT_EQ(test, w->seen, 0U);
}

/* ---- the readers against a device changing under them ----------------------- */

struct pi_race {
	struct dmm_dev *x;
	struct dmm_drv *d;
	const char *reason;	/* what a deferral of X says */
	bool stop;
	struct completion done[2];
	atomic_t reads, walks, bad;
	char bad_what[96];
};

static void pi_race_bad(struct pi_race *r, const char *what, long long v)
{
	if (atomic_inc_return(&r->bad) == 1)
		snprintf(r->bad_what, sizeof(r->bad_what), "%s: %lld", what, v);
}

/* Bind, unbind, defer (with words), fail with -EIO, over and over. */
static int pi_race_changer(void *data)
{
	struct pi_race *r = data;
	struct dmc_device *dev = r->x->dev;
	unsigned int i;

	for (i = 0; i < PI_RACE_ROUNDS && !READ_ONCE(r->stop); i++) {
		dmc_device_release_driver(dev);
		dmc_device_lock(dev);
		if (i % 3 == 2) {
			r->x->fail_left = 1;
			r->x->fail_ret = -EIO;
		} else {
			r->x->defer_left = 1;
		}
		dmc_device_unlock(dev);
		dmc_device_attach(dev);	/* deferred, or failed */
		dmc_device_attach(dev);	/* bound (or by the deferred worker) */
		cond_resched();
	}
	complete(&r->done[0]);
	return 0;
}

static int pi_race_walk_fn(const char *bus, const char *drv,
			   const struct dmc_probe_hist *h, void *data)
{
	struct pi_race *r = data;
	unsigned long sum = 0;
	unsigned int i;

	if (strcmp(drv, r->d->name))
		return 0;
	for (i = 0; i < DMC_PROBE_HIST_BUCKETS; i++)
		sum += h->buckets[i];
	if (h->count != h->ok + h->failed + h->deferred)
		pi_race_bad(r, "hist count != ok + failed + deferred", h->count);
	if (sum != h->count)
		pi_race_bad(r, "hist buckets' sum != count", sum);
	atomic_inc(&r->walks);
	return 0;
}

static int pi_race_reader(void *data)
{
	struct pi_race *r = data;
	struct dmc_probe_info *info;
	unsigned long last = 0;

	info = kmalloc(sizeof(*info), GFP_KERNEL);
	if (!info) {
		pi_race_bad(r, "no memory", 0);
		complete(&r->done[1]);
		return 0;
	}
	while (!READ_ONCE(r->stop)) {
		dmc_device_probe_info(r->x->dev, info);
		atomic_inc(&r->reads);
		if (info->probes < last)
			pi_race_bad(r, "probes went back", info->probes);
		last = info->probes;
		switch (info->result) {
		case DMC_PROBE_OK:
			if (info->err)
				pi_race_bad(r, "ok with errno", info->err);
			break;
		case DMC_PROBE_DEFERRED:
			if (info->err)
				pi_race_bad(r, "deferred with errno", info->err);
			if (info->waits[0])
				pi_race_bad(r, "deferral named something", 0);
			if (info->reason[0] && strcmp(info->reason, r->reason))
				pi_race_bad(r, "another reason", strlen(info->reason));
			break;
		case DMC_PROBE_FAILED:
			if (info->err != EIO)
				pi_race_bad(r, "failed, not with EIO", info->err);
			break;
		default:
			pi_race_bad(r, "result", info->result);
		}
		/* X's probe and remove take no measurable sleep: under 10 s. */
		if (info->probe_ns > 10ULL * NSEC_PER_SEC ||
		    info->remove_ns > 10ULL * NSEC_PER_SEC)
			pi_race_bad(r, "a duration nobody wrote", info->probe_ns);
		if (!(atomic_read(&r->reads) & 7))
			dmc_probe_hist_walk(r, pi_race_walk_fn);
		cond_resched();
	}
	kfree(info);
	complete(&r->done[1]);
	return 0;
}

static void pi_readers_race_bind_unbind_defer(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct task_struct *t[2];
	struct pi_race *r;
	int i;

	/* Not test-managed: a thread that hangs keeps it (leaked, not freed). */
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	r->d = dmm_drv_new(test, b, "d");
	r->x = dmm_dev_alloc(test, "x");
	r->x->dev->bus = &b->bus;
	dmm_dev_want(r->x, r->d);
	r->x->defer_msg = "no clock";
	r->reason = dmm_str(test, "%s: no clock", r->d->name);
	if (dmm_dev_add(test, r->x)) {
		kfree(r);
		KUNIT_FAIL(test, "add of x");
		return;
	}
	init_completion(&r->done[0]);
	init_completion(&r->done[1]);
	t[1] = kthread_run(pi_race_reader, r, "pi-reader");
	t[0] = IS_ERR(t[1]) ? t[1] : kthread_run(pi_race_changer, r, "pi-changer");
	if (IS_ERR(t[0])) {
		WRITE_ONCE(r->stop, true);
		if (!IS_ERR(t[1]) &&
		    !wait_for_completion_timeout(&r->done[1], PI_TIMEOUT))
			return;	/* @r stays with the reader */
		KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(t[0]));
		kfree(r);
		return;
	}
	/* The changer ends after its rounds, then the reader is stopped. */
	for (i = 0; i < 2; i++) {
		if (!wait_for_completion_timeout(&r->done[i], PI_TIMEOUT)) {
			WRITE_ONCE(r->stop, true);
			KUNIT_FAIL(test, "race thread %d hangs", i);
			return;	/* @r and X stay with it */
		}
		WRITE_ONCE(r->stop, true);
	}
	dmc_wait_for_device_probe();

	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&r->bad), 0, "%s", r->bad_what);
	KUNIT_EXPECT_GT(test, atomic_read(&r->reads), 0);
	KUNIT_EXPECT_GT(test, atomic_read(&r->walks), 0);
	kunit_info(test, "%d reads, %d walks during %d rounds\n",
		   atomic_read(&r->reads), atomic_read(&r->walks), PI_RACE_ROUNDS);
	/* Every attach above probed: 1 at the add, 2 per round at least. */
	KUNIT_EXPECT_GE(test, pi_info(test, r->x)->probes, 1UL + 2 * PI_RACE_ROUNDS);
	KUNIT_EXPECT_EQ(test, pi_hist(test, r->d)->count, pi_info(test, r->x)->probes);
	dmm_dev_unregister(r->x);
	kfree(r);
}

/* ---- the walk against buses and drivers coming and going ---------------------- */

struct pi_churn {
	const char *prefix;	/* this test's names: "pi<N>-" */
	bool stop;
	struct completion done;
	atomic_t walks, ours, bad;
};

static int pi_churn_fn(const char *bus, const char *drv,
		       const struct dmc_probe_hist *h, void *data)
{
	struct pi_churn *c = data;

	/* Names and counts read while their owners may be leaving. */
	if (!strlen(bus) || !strlen(drv) ||
	    h->count != h->ok + h->failed + h->deferred)
		atomic_inc(&c->bad);
	if (!strncmp(drv, c->prefix, strlen(c->prefix))) {
		atomic_inc(&c->ours);
		usleep_range(20, 50);	/* hold the references a while */
	}
	return 0;
}

static int pi_churn_walker(void *data)
{
	struct pi_churn *c = data;

	while (!READ_ONCE(c->stop)) {
		dmc_probe_hist_walk(c, pi_churn_fn);
		atomic_inc(&c->walks);
		cond_resched();
	}
	complete(&c->done);
	return 0;
}

/*
 * dmc_probe_hist_walk() on another CPU while buses and drivers (each with
 * a bound device, so its histogram counts) are registered and unregistered:
 * no use after free (KASAN), each copy consistent.
 */
static void pi_hist_walk_races_bus_and_driver_churn(struct kunit *test)
{
	struct task_struct *t;
	struct pi_churn *c;
	struct dmm_bus *b;
	struct dmm_drv *d;
	struct dmm_dev *a;
	int i;

	/* Not test-managed: a thread that hangs keeps it (leaked, not freed). */
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	c->prefix = dmm_name(test, "");
	init_completion(&c->done);
	t = kthread_run(pi_churn_walker, c, "pi-walker");
	if (IS_ERR(t)) {
		KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(t));
		kfree(c);
		return;
	}
	for (i = 0; i < 40; i++) {
		b = dmm_bus_new(test, dmm_str(test, "b%d", i));
		d = dmm_drv_new(test, b, dmm_str(test, "d%d", i));
		a = dmm_dev_new(test, dmm_str(test, "a%d", i), b, NULL, d);
		KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
		dmm_dev_unregister(a);
		dmm_drv_unregister(test, d);
		dmm_bus_unregister(test, b);
		cond_resched();
	}
	WRITE_ONCE(c->stop, true);
	if (!wait_for_completion_timeout(&c->done, PI_TIMEOUT)) {
		KUNIT_FAIL(test, "the walker hangs");
		return;	/* @c stays with it */
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&c->bad), 0);
	KUNIT_EXPECT_GT(test, atomic_read(&c->walks), 0);
	kunit_info(test, "%d walks, %d of this test's drivers seen\n",
		   atomic_read(&c->walks), atomic_read(&c->ours));
	kfree(c);
}

static struct kunit_case probe_info_test_cases[] = {
	KUNIT_CASE(pi_never_probed_is_none),
	KUNIT_CASE(pi_ok_is_counted),
	KUNIT_CASE(pi_failed_has_errno),
	KUNIT_CASE(pi_deferred_waits_then_ok),
	KUNIT_CASE(pi_probe_duration_and_bucket),
	KUNIT_CASE(pi_hist_bucket_edges),
	KUNIT_CASE(pi_remove_suspend_resume_durations),
	KUNIT_CASE(pi_hist_walk_sees_drivers),
	KUNIT_CASE(pi_readers_race_bind_unbind_defer),
	KUNIT_CASE(pi_hist_walk_races_bus_and_driver_churn),
	{}
};

static struct kunit_suite probe_info_test_suite = {
	.name = "dmcore-probe-info",
	.init = pi_test_init,
	.exit = dmct_exit,
	.test_cases = probe_info_test_cases,
};

kunit_test_suites(&probe_info_test_suite);
