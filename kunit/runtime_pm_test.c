// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore-runtime-pm: runtime power management (runtime.c), one rule per
 * case, then races forced with kthreads and completions.
 *
 * Devices are bound to a driver whose runtime callbacks count and log
 * ("rs:<dev>" for a suspend, "rr:<dev>" for a resume, in the model's log)
 * and may be held in the callback. Names are "rt<N>-<name>".
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <dmcore/invariants.h>
#include <dmcore/pm_runtime.h>
#include "model_util.h"

#define RT_MAX	72

/* What the callbacks do for one device. */
struct rt_rec {
	struct dmc_device *dev;
	atomic_t suspends, resumes;
	int suspend_ret;
	int prepare_ret;
	struct completion *hold_in;	/* the held suspend began */
	struct completion *hold_go;	/* it may return */
};

static struct rt_rec rt_recs[RT_MAX];
static int rt_nr;
static struct kunit *rt_test;

static struct rt_rec *rt_rec_of(struct dmc_device *dev)
{
	int i;

	for (i = 0; i < READ_ONCE(rt_nr); i++)
		if (rt_recs[i].dev == dev)
			return &rt_recs[i];
	return NULL;
}

static const char *rt_short(struct dmc_device *dev)
{
	struct dmm_dev *t = dmm_dev_of(NULL, dev);

	return t ? t->short_name : "?";
}

static int rt_runtime_suspend(struct dmc_device *dev)
{
	struct rt_rec *r = rt_rec_of(dev);

	if (!r)
		return 0;
	if (r->hold_in) {
		complete(r->hold_in);
		wait_for_completion_timeout(r->hold_go, 10 * HZ);
	}
	if (r->suspend_ret)
		return r->suspend_ret;
	atomic_inc(&r->suspends);
	dmm_log(dmm_ctx(rt_test), DMM_LOG_SUSPEND, "rs:%s", rt_short(dev));
	return 0;
}

static int rt_runtime_resume(struct dmc_device *dev)
{
	struct rt_rec *r = rt_rec_of(dev);

	if (!r)
		return 0;
	atomic_inc(&r->resumes);
	dmm_log(dmm_ctx(rt_test), DMM_LOG_RESUME, "rr:%s", rt_short(dev));
	return 0;
}

static int rt_prepare(struct dmc_device *dev)
{
	struct rt_rec *r = rt_rec_of(dev);

	return r ? r->prepare_ret : 0;
}

static const struct dmc_dev_pm_ops rt_pm_ops = {
	.prepare = rt_prepare,
	.runtime_suspend = rt_runtime_suspend,
	.runtime_resume = rt_runtime_resume,
};

struct rt_world {
	struct dmm_bus *b;
	struct dmm_drv *d;
};

static void rt_world(struct kunit *test, struct rt_world *w)
{
	w->b = dmm_bus_new(test, "bus");
	w->d = dmm_drv_alloc(test, w->b, "d");
	w->d->drv.pm = &rt_pm_ops;
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, w->d), 0);
	dmm_ctx(test)->log_mask = DMM_LOG_SUSPEND | DMM_LOG_RESUME |
				  DMM_LOG_REMOVE;
}

/* Wait (up to 5 s) for @a's runtime status to become @st. */
static bool rt_wait_status(struct dmm_dev *a, enum dmc_rpm_status st)
{
	unsigned long end = jiffies + 5 * HZ;

	while (dmc_pm_runtime_status(a->dev) != st) {
		if (time_after(jiffies, end))
			return false;
		usleep_range(2000, 4000);
	}
	return true;
}

/* A bound device with a record; runtime PM left as added (disabled). */
static struct dmm_dev *rt_dev_raw(struct kunit *test, struct rt_world *w,
				  const char *name, struct dmm_dev *parent)
{
	struct dmm_dev *a = dmm_dev_new(test, name, w->b, parent, w->d);
	struct rt_rec *r;

	KUNIT_ASSERT_TRUE(test, dmc_device_is_bound(a->dev));
	KUNIT_ASSERT_LT(test, rt_nr, RT_MAX);
	r = &rt_recs[rt_nr];
	memset(r, 0, sizeof(*r));
	r->dev = a->dev;
	WRITE_ONCE(rt_nr, rt_nr + 1);
	return a;
}

/* Enabled and suspended: what a driver's probe leaves. */
static struct dmm_dev *rt_dev(struct kunit *test, struct rt_world *w,
			      const char *name, struct dmm_dev *parent)
{
	struct dmm_dev *a = rt_dev_raw(test, w, name, parent);

	dmc_pm_runtime_enable(a->dev);
	KUNIT_ASSERT_TRUE(test, dmc_pm_runtime_suspended(a->dev));
	/* The probe resumed the parent; it idles again asynchronously. */
	if (parent)
		KUNIT_ASSERT_TRUE(test, rt_wait_status(parent, DMC_RPM_SUSPENDED));
	return a;
}

static struct rt_rec *rt(struct dmm_dev *a)
{
	return rt_rec_of(a->dev);
}

static int rt_index(struct kunit *test, const char *what, struct dmm_dev *d)
{
	return dmm_log_index(test, dmm_str(test, "%s:%s", what, d->short_name));
}

/* What every quiescent case ends with: the model's invariants. */
static void rt_check(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
}

/* ---- sequential contract ---- */

static void rt_usage_counting(struct kunit *test)
{
	struct rt_world w;
	struct dmm_dev *a;

	rt_world(test, &w);
	a = rt_dev(test, &w, "a", NULL);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_get_sync(a->dev), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&rt(a)->resumes), 1);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_usage(a->dev), 1);
	KUNIT_EXPECT_TRUE(test, dmc_pm_runtime_active(a->dev));
	/* A second user: active already. */
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_get_sync(a->dev), 1);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_suspend(a->dev), -EAGAIN);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_put_sync(a->dev), 0);
	KUNIT_EXPECT_TRUE(test, dmc_pm_runtime_active(a->dev));
	KUNIT_EXPECT_EQ(test, atomic_read(&rt(a)->suspends), 0);
	/* The last user: idle, so suspended at once. */
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_put_sync(a->dev), 0);
	KUNIT_EXPECT_TRUE(test, dmc_pm_runtime_suspended(a->dev));
	KUNIT_EXPECT_EQ(test, atomic_read(&rt(a)->suspends), 1);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_suspend(a->dev), 1);
	/* get_noresume/put_noidle change only the count. */
	dmc_pm_runtime_get_noresume(a->dev);
	KUNIT_EXPECT_TRUE(test, dmc_pm_runtime_suspended(a->dev));
	dmc_pm_runtime_put_noidle(a->dev);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_usage(a->dev), 0);
	/* resume_and_get, then an asynchronous put. */
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_resume_and_get(a->dev), 0);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_put(a->dev), 0);
	KUNIT_EXPECT_TRUE(test, rt_wait_status(a, DMC_RPM_SUSPENDED));
	KUNIT_EXPECT_EQ(test, atomic_read(&rt(a)->suspends), 2);
	rt_check(test);
}

static void rt_underflow_refused(struct kunit *test)
{
	struct rt_world w;
	struct dmm_dev *a;

	rt_world(test, &w);
	a = rt_dev(test, &w, "a", NULL);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_put_sync(a->dev), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_put(a->dev), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_put_autosuspend(a->dev), -EINVAL);
	dmc_pm_runtime_put_noidle(a->dev);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_usage(a->dev), 0);
	KUNIT_EXPECT_TRUE(test, dmc_pm_runtime_suspended(a->dev));
	/* Bad status, a status set while enabled. */
	KUNIT_EXPECT_EQ(test, __dmc_pm_runtime_set_status(a->dev, 7), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_set_active(a->dev), -EAGAIN);
	KUNIT_EXPECT_TRUE(test, dmc_pm_runtime_suspended(a->dev));
	rt_check(test);
}

static void rt_disabled_device(struct kunit *test)
{
	struct rt_world w;
	struct dmm_dev *a;

	rt_world(test, &w);
	a = rt_dev_raw(test, &w, "a", NULL);
	/* Added: suspended and disabled. */
	KUNIT_EXPECT_FALSE(test, dmc_pm_runtime_enabled(a->dev));
	KUNIT_EXPECT_TRUE(test, dmc_pm_runtime_status_suspended(a->dev));
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_get_sync(a->dev), -EACCES);
	dmc_pm_runtime_put_noidle(a->dev);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_suspend(a->dev), -EACCES);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_set_active(a->dev), 0);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_get_sync(a->dev), -EACCES);
	dmc_pm_runtime_put_noidle(a->dev);
	dmc_pm_runtime_enable(a->dev);
	/* Active when enabled: a get finds it active. */
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_get_sync(a->dev), 1);
	dmc_pm_runtime_disable(a->dev);
	/* Disabled while active: still reported active. */
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_resume(a->dev), 1);
	dmc_pm_runtime_enable(a->dev);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_put_sync(a->dev), 0);
	KUNIT_EXPECT_TRUE(test, dmc_pm_runtime_suspended(a->dev));
	KUNIT_EXPECT_EQ(test, atomic_read(&rt(a)->resumes), 0);
	rt_check(test);
}

static void rt_parent_kept_active_by_child(struct kunit *test)
{
	struct dmm_dev *p, *c;
	struct rt_world w;

	rt_world(test, &w);
	p = rt_dev(test, &w, "p", NULL);
	c = rt_dev(test, &w, "c", p);
	dmm_log_clear(test);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_get_sync(c->dev), 0);
	KUNIT_EXPECT_TRUE(test, dmc_pm_runtime_active(p->dev));
	KUNIT_EXPECT_LT(test, rt_index(test, "rr", p), rt_index(test, "rr", c));
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_active_children(p->dev), 1);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_usage(p->dev), 0);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_suspend(p->dev), -EBUSY);
	/* The parent's idle check follows the child's suspend. */
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_put_sync(c->dev), 0);
	KUNIT_EXPECT_TRUE(test, dmc_pm_runtime_suspended(c->dev));
	KUNIT_EXPECT_TRUE(test, rt_wait_status(p, DMC_RPM_SUSPENDED));
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_active_children(p->dev), 0);
	KUNIT_EXPECT_LT(test, rt_index(test, "rs", c), rt_index(test, "rs", p));
	rt_check(test);
}

static void rt_deep_chain_resumes_top_down(struct kunit *test)
{
	struct dmm_dev *d[48], *prev = NULL;
	int base[ARRAY_SIZE(d)];
	struct rt_world w;
	int i;

	rt_world(test, &w);
	for (i = 0; i < ARRAY_SIZE(d); i++) {
		d[i] = rt_dev(test, &w, dmm_str(test, "n%d", i), prev);
		prev = d[i];
	}
	/*
	 * Each probe resumed the whole chain above it; rt_dev() waits for the
	 * parent only, the ancestors idle one after another, asynchronously.
	 */
	for (i = ARRAY_SIZE(d) - 1; i >= 0; i--)
		KUNIT_ASSERT_TRUE(test, rt_wait_status(d[i], DMC_RPM_SUSPENDED));
	for (i = 0; i < ARRAY_SIZE(d); i++)
		base[i] = atomic_read(&rt(d[i])->resumes);
	dmm_log_clear(test);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_get_sync(prev->dev), 0);
	for (i = 0; i < ARRAY_SIZE(d); i++) {
		KUNIT_EXPECT_TRUE(test, dmc_pm_runtime_active(d[i]->dev));
		KUNIT_EXPECT_EQ(test, atomic_read(&rt(d[i])->resumes), base[i] + 1);
		if (i)
			KUNIT_EXPECT_LT(test, rt_index(test, "rr", d[i - 1]),
					rt_index(test, "rr", d[i]));
		KUNIT_EXPECT_EQ(test, dmc_pm_runtime_active_children(d[i]->dev),
				i + 1 < ARRAY_SIZE(d) ? 1 : 0);
	}
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_put_sync(prev->dev), 0);
	KUNIT_EXPECT_TRUE(test, rt_wait_status(d[0], DMC_RPM_SUSPENDED));
	for (i = 0; i < ARRAY_SIZE(d); i++)
		KUNIT_EXPECT_TRUE(test, dmc_pm_runtime_suspended(d[i]->dev));
	rt_check(test);
}

static void rt_autosuspend_delay_honoured(struct kunit *test)
{
	struct rt_world w;
	struct dmm_dev *a;
	ktime_t t0;
	s64 ms;

	rt_world(test, &w);
	a = rt_dev(test, &w, "a", NULL);
	dmc_pm_runtime_set_autosuspend_delay(a->dev, 150);
	dmc_pm_runtime_use_autosuspend(a->dev);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_autosuspend_delay(a->dev), 150);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_get_sync(a->dev), 0);
	t0 = ktime_get();
	dmc_pm_runtime_mark_last_busy(a->dev);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_put_autosuspend(a->dev), 0);
	KUNIT_EXPECT_TRUE(test, dmc_pm_runtime_active(a->dev));
	KUNIT_EXPECT_TRUE(test, rt_wait_status(a, DMC_RPM_SUSPENDED));
	ms = ktime_ms_delta(ktime_get(), t0);
	KUNIT_EXPECT_GE(test, ms, 150);
	KUNIT_EXPECT_EQ(test, atomic_read(&rt(a)->suspends), 1);
	/* A synchronous autosuspend before the delay only arms the timer. */
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_get_sync(a->dev), 0);
	dmc_pm_runtime_mark_last_busy(a->dev);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_put_sync_autosuspend(a->dev), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&rt(a)->suspends), 1);
	/* A negative delay keeps it active; back to 0 lets it go at once. */
	dmc_pm_runtime_set_autosuspend_delay(a->dev, -1);
	KUNIT_EXPECT_TRUE(test, dmc_pm_runtime_active(a->dev));
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_usage(a->dev), 1);
	dmc_pm_runtime_set_autosuspend_delay(a->dev, 0);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_usage(a->dev), 0);
	KUNIT_EXPECT_TRUE(test, rt_wait_status(a, DMC_RPM_SUSPENDED));
	dmc_pm_runtime_dont_use_autosuspend(a->dev);
	rt_check(test);
}

static void rt_forbid_allow(struct kunit *test)
{
	struct rt_world w;
	struct dmm_dev *a;

	rt_world(test, &w);
	a = rt_dev(test, &w, "a", NULL);
	dmc_pm_runtime_forbid(a->dev);
	KUNIT_EXPECT_TRUE(test, dmc_pm_runtime_active(a->dev));
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_usage(a->dev), 1);
	dmc_pm_runtime_forbid(a->dev);	/* once only */
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_usage(a->dev), 1);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_suspend(a->dev), -EAGAIN);
	dmc_pm_runtime_allow(a->dev);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_usage(a->dev), 0);
	KUNIT_EXPECT_TRUE(test, rt_wait_status(a, DMC_RPM_SUSPENDED));
	dmc_pm_runtime_allow(a->dev);	/* once only */
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_usage(a->dev), 0);
	rt_check(test);
}

static void rt_suppliers_via_links(struct kunit *test)
{
	struct dmc_device_link *link;
	struct dmm_dev *s, *c, *x;
	struct rt_world w;

	rt_world(test, &w);
	s = rt_dev(test, &w, "s", NULL);
	c = rt_dev(test, &w, "c", NULL);
	x = rt_dev(test, &w, "x", NULL);
	/* RPM_ACTIVE without PM_RUNTIME is dropped, as Linux: no reference. */
	link = dmc_device_link_add(c->dev, s->dev, DMC_DL_FLAG_RPM_ACTIVE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, link);
	KUNIT_EXPECT_EQ(test, dmc_device_link_flags(link) &
			(DMC_DL_FLAG_RPM_ACTIVE | DMC_DL_FLAG_PM_RUNTIME), 0);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_usage(s->dev), 0);
	KUNIT_EXPECT_TRUE(test, dmc_pm_runtime_suspended(s->dev));
	dmc_device_link_del(link);
	KUNIT_EXPECT_NULL(test, dmc_device_link_find(c->dev, s->dev));
	link = dmc_device_link_add(c->dev, s->dev, DMC_DL_FLAG_PM_RUNTIME);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, link);
	KUNIT_EXPECT_TRUE(test, dmc_pm_runtime_suspended(s->dev));
	dmm_log_clear(test);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_get_sync(c->dev), 0);
	KUNIT_EXPECT_TRUE(test, dmc_pm_runtime_active(s->dev));
	KUNIT_EXPECT_LT(test, rt_index(test, "rr", s), rt_index(test, "rr", c));
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_usage(s->dev), 1);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_suspend(s->dev), -EAGAIN);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_put_sync(c->dev), 0);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_usage(s->dev), 0);
	KUNIT_EXPECT_TRUE(test, rt_wait_status(s, DMC_RPM_SUSPENDED));
	KUNIT_EXPECT_LT(test, rt_index(test, "rs", c), rt_index(test, "rs", s));
	dmc_device_link_del(link);

	/* RPM_ACTIVE: the link resumes and holds the supplier until it goes. */
	link = dmc_device_link_add(x->dev, s->dev,
				   DMC_DL_FLAG_PM_RUNTIME | DMC_DL_FLAG_RPM_ACTIVE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, link);
	KUNIT_EXPECT_TRUE(test, dmc_pm_runtime_active(s->dev));
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_usage(s->dev), 1);
	dmc_device_link_del(link);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_usage(s->dev), 0);
	KUNIT_EXPECT_TRUE(test, rt_wait_status(s, DMC_RPM_SUSPENDED));
	/* A link without PM_RUNTIME does not resume the supplier. */
	link = dmc_device_link_add(c->dev, s->dev, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, link);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_get_sync(c->dev), 0);
	KUNIT_EXPECT_TRUE(test, dmc_pm_runtime_suspended(s->dev));
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_put_sync(c->dev), 0);
	/*
	 * Added again with PM_RUNTIME | RPM_ACTIVE: the flags merge into the
	 * same link, as Linux's, which now holds the supplier as a new one
	 * would; its deletion lets it go (the consumer's count of runtime-PM
	 * links balanced, or its WARN fires).
	 */
	KUNIT_EXPECT_PTR_EQ(test, dmc_device_link_add(c->dev, s->dev,
						      DMC_DL_FLAG_PM_RUNTIME |
						      DMC_DL_FLAG_RPM_ACTIVE), link);
	KUNIT_EXPECT_TRUE(test, dmc_pm_runtime_active(s->dev));
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_usage(s->dev), 1);
	dmc_device_link_del(link);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_usage(s->dev), 0);
	KUNIT_EXPECT_TRUE(test, rt_wait_status(s, DMC_RPM_SUSPENDED));
	rt_check(test);
}

static void rt_system_suspend(struct kunit *test)
{
	struct dmm_dev *dc, *rs, *on;
	struct rt_world w;

	rt_world(test, &w);
	dc = rt_dev(test, &w, "dc", NULL);	/* suspended, prepare says skip */
	rs = rt_dev(test, &w, "rs", NULL);	/* suspended, no skip */
	on = rt_dev(test, &w, "on", NULL);	/* active */
	rt(dc)->prepare_ret = 1;
	KUNIT_ASSERT_EQ(test, dmc_pm_runtime_get_sync(on->dev), 0);
	KUNIT_ASSERT_EQ(test, dmc_suspend_all(NULL), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&dc->suspends), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&rs->suspends), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&on->suspends), 1);
	/* During the sleep: disabled; a resume is refused, an active one is 1. */
	KUNIT_EXPECT_FALSE(test, dmc_pm_runtime_enabled(rs->dev));
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_get_sync(rs->dev), -EACCES);
	dmc_pm_runtime_put_noidle(rs->dev);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_get_sync(on->dev), 1);
	dmc_pm_runtime_put_noidle(on->dev);
	KUNIT_ASSERT_EQ(test, dmc_resume_all(), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&dc->resumes), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&rs->resumes), 1);
	/* Runtime states are what they were, runtime PM enabled again. */
	KUNIT_EXPECT_TRUE(test, dmc_pm_runtime_suspended(dc->dev));
	KUNIT_EXPECT_TRUE(test, dmc_pm_runtime_suspended(rs->dev));
	KUNIT_EXPECT_TRUE(test, dmc_pm_runtime_enabled(on->dev));
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_status(on->dev), DMC_RPM_ACTIVE);
	KUNIT_EXPECT_EQ(test, atomic_read(&rt(dc)->resumes), 0);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_usage(dc->dev), 0);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_put_sync(on->dev), 0);
	KUNIT_EXPECT_TRUE(test, dmc_pm_runtime_suspended(on->dev));
	rt_check(test);
}

static void rt_probe_and_remove(struct kunit *test)
{
	struct dmm_dev *p, *c;
	struct rt_world w;

	rt_world(test, &w);
	p = rt_dev(test, &w, "p", NULL);
	/* The probe of a child resumes the parent, which then idles. */
	c = rt_dev_raw(test, &w, "c", p);
	KUNIT_EXPECT_EQ(test, atomic_read(&rt(p)->resumes), 1);
	KUNIT_EXPECT_TRUE(test, rt_wait_status(p, DMC_RPM_SUSPENDED));
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_usage(c->dev), 0);
	/* Enabled and suspended: the unbind resumes it before remove. */
	dmc_pm_runtime_enable(c->dev);
	dmm_log_clear(test);
	dmc_device_release_driver(c->dev);
	KUNIT_EXPECT_GE(test, rt_index(test, "rr", c), 0);
	KUNIT_EXPECT_LT(test, rt_index(test, "rr", c),
			dmm_log_index(test, dmm_str(test, "remove:%s:%s",
						    c->short_name,
						    w.d->short_name)));
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_usage(c->dev), 0);
	/* No driver: no callback, still counted. */
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_get_sync(c->dev), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&rt(c)->resumes), 1);
	KUNIT_EXPECT_TRUE(test, dmc_pm_runtime_active(p->dev));
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_put_sync(c->dev), 0);
	KUNIT_EXPECT_TRUE(test, rt_wait_status(p, DMC_RPM_SUSPENDED));
	rt_check(test);
}

static void rt_not_added_refused(struct kunit *test)
{
	struct dmc_device dev = {};

	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_get_sync(&dev), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_put(&dev), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_set_active(&dev), -EINVAL);
	KUNIT_EXPECT_FALSE(test, dmc_pm_runtime_enabled(&dev));
	dmc_pm_runtime_enable(&dev);
	dmc_pm_runtime_disable(&dev);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_usage(&dev), 0);
}

/* ---- races ---- */

struct rt_loop {
	struct dmc_device *dev;
	int iters;
	atomic_t *bad;
	struct completion done;
};

static int rt_loop_fn(void *arg)
{
	struct rt_loop *l = arg;
	int i, ret;

	for (i = 0; i < l->iters; i++) {
		ret = dmc_pm_runtime_get_sync(l->dev);
		if (ret < 0 || dmc_pm_runtime_status(l->dev) != DMC_RPM_ACTIVE)
			atomic_inc(l->bad);
		dmc_pm_runtime_mark_last_busy(l->dev);
		if (i & 1)
			ret = dmc_pm_runtime_put_autosuspend(l->dev);
		else
			ret = dmc_pm_runtime_put(l->dev);
		if (ret < 0 && ret != -EAGAIN && ret != -EBUSY &&
		    ret != -EINPROGRESS)
			atomic_inc(l->bad);
		if (!(i & 7))
			usleep_range(100, 300);
	}
	complete(&l->done);
	return 0;
}

static void rt_race_get_sync_vs_put(struct kunit *test)
{
	struct rt_loop l[3];
	struct dmm_dev *p, *a;
	struct task_struct *t;
	struct rt_world w;
	atomic_t bad = ATOMIC_INIT(0);
	int i;

	rt_world(test, &w);
	p = rt_dev(test, &w, "p", NULL);
	a = rt_dev(test, &w, "a", p);
	dmc_pm_runtime_set_autosuspend_delay(a->dev, 1);
	dmc_pm_runtime_use_autosuspend(a->dev);
	for (i = 0; i < ARRAY_SIZE(l); i++) {
		l[i].dev = a->dev;
		l[i].iters = 200;
		l[i].bad = &bad;
		init_completion(&l[i].done);
		t = kthread_run(rt_loop_fn, &l[i], "rt-loop%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	}
	for (i = 0; i < ARRAY_SIZE(l); i++)
		KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&l[i].done, 60 * HZ), 0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&bad), 0);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_usage(a->dev), 0);
	KUNIT_EXPECT_TRUE(test, rt_wait_status(a, DMC_RPM_SUSPENDED));
	KUNIT_EXPECT_TRUE(test, rt_wait_status(p, DMC_RPM_SUSPENDED));
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_active_children(p->dev), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&rt(a)->resumes),
			atomic_read(&rt(a)->suspends));
	rt_check(test);
}

/* A deletion with an autosuspend timer armed, and with a request queued. */
static void rt_del_races_pending_autosuspend(struct kunit *test)
{
	struct dmm_dev *a, *b, *p;
	struct rt_world w;
	int n;

	rt_world(test, &w);
	p = rt_dev(test, &w, "p", NULL);
	a = rt_dev(test, &w, "a", p);
	b = rt_dev(test, &w, "b", p);
	dmc_pm_runtime_set_autosuspend_delay(a->dev, 30);
	dmc_pm_runtime_use_autosuspend(a->dev);
	KUNIT_ASSERT_EQ(test, dmc_pm_runtime_get_sync(a->dev), 0);
	KUNIT_ASSERT_EQ(test, dmc_pm_runtime_get_sync(b->dev), 0);
	dmc_pm_runtime_mark_last_busy(a->dev);
	KUNIT_ASSERT_EQ(test, dmc_pm_runtime_put_autosuspend(a->dev), 0);
	KUNIT_ASSERT_EQ(test, dmc_pm_runtime_put(b->dev), 0);	/* queued */
	dmm_dev_del(a);
	dmm_dev_del(b);
	/* Nothing runs for them after their deletion. */
	n = atomic_read(&rt(a)->suspends) + atomic_read(&rt(b)->suspends);
	msleep(80);
	KUNIT_EXPECT_EQ(test, atomic_read(&rt(a)->suspends) +
			atomic_read(&rt(b)->suspends), n);
	KUNIT_EXPECT_FALSE(test, dmc_pm_runtime_enabled(a->dev));
	/* Their parent no longer counts them, and may suspend. */
	KUNIT_EXPECT_TRUE(test, rt_wait_status(p, DMC_RPM_SUSPENDED));
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_active_children(p->dev), 0);
	rt_check(test);
}

struct rt_side {
	struct dmc_device *dev;
	int ret;
	bool resume;
	struct completion done;
};

static int rt_side_fn(void *arg)
{
	struct rt_side *s = arg;

	s->ret = s->resume ? dmc_pm_runtime_get_sync(s->dev) :
			     dmc_pm_runtime_suspend(s->dev);
	complete(&s->done);
	return 0;
}

/*
 * The parent's suspend is held in its callback while the child resumes:
 * the child's resume waits for it, then resumes the parent again first.
 */
static void rt_race_parent_suspend_vs_child_resume(struct kunit *test)
{
	struct completion in, go;
	struct rt_side ps = {}, cr = {};
	struct task_struct *t;
	struct dmm_dev *p, *c;
	struct rt_world w;

	rt_world(test, &w);
	p = rt_dev(test, &w, "p", NULL);
	c = rt_dev(test, &w, "c", p);
	KUNIT_ASSERT_EQ(test, dmc_pm_runtime_get_sync(p->dev), 0);
	dmc_pm_runtime_put_noidle(p->dev);
	init_completion(&in);
	init_completion(&go);
	rt(p)->hold_in = &in;
	rt(p)->hold_go = &go;
	ps.dev = p->dev;
	init_completion(&ps.done);
	t = kthread_run(rt_side_fn, &ps, "rt-psusp");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&in, 10 * HZ), 0UL);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_status(p->dev), DMC_RPM_SUSPENDING);
	cr.dev = c->dev;
	cr.resume = true;
	init_completion(&cr.done);
	t = kthread_run(rt_side_fn, &cr, "rt-cres");
	if (IS_ERR(t))
		complete(&go);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	/* The child waits for its parent's transition. */
	KUNIT_EXPECT_EQ(test, wait_for_completion_timeout(&cr.done,
							  msecs_to_jiffies(100)), 0UL);
	rt(p)->hold_in = NULL;
	complete(&go);
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&ps.done, 10 * HZ), 0UL);
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&cr.done, 10 * HZ), 0UL);
	KUNIT_EXPECT_EQ(test, ps.ret, 0);
	KUNIT_EXPECT_EQ(test, cr.ret, 0);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_status(p->dev), DMC_RPM_ACTIVE);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_status(c->dev), DMC_RPM_ACTIVE);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_active_children(p->dev), 1);
	KUNIT_EXPECT_LT(test, rt_index(test, "rs", p), rt_index(test, "rr", c));
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_put_sync(c->dev), 0);
	KUNIT_EXPECT_TRUE(test, rt_wait_status(p, DMC_RPM_SUSPENDED));
	rt_check(test);
}

/*
 * A supplier's suspend held in its callback while its consumer resumes
 * through a PM_RUNTIME link: the consumer gets an active supplier.
 */
static void rt_race_supplier_suspend_vs_consumer_resume(struct kunit *test)
{
	struct rt_side ss = {}, cr = {};
	struct dmc_device_link *link;
	struct completion in, go;
	struct task_struct *t;
	struct dmm_dev *s, *c;
	struct rt_world w;

	rt_world(test, &w);
	s = rt_dev(test, &w, "s", NULL);
	c = rt_dev(test, &w, "c", NULL);
	link = dmc_device_link_add(c->dev, s->dev, DMC_DL_FLAG_PM_RUNTIME);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, link);
	KUNIT_ASSERT_EQ(test, dmc_pm_runtime_resume(s->dev), 0);
	init_completion(&in);
	init_completion(&go);
	rt(s)->hold_in = &in;
	rt(s)->hold_go = &go;
	ss.dev = s->dev;
	init_completion(&ss.done);
	t = kthread_run(rt_side_fn, &ss, "rt-ssusp");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&in, 10 * HZ), 0UL);
	cr.dev = c->dev;
	cr.resume = true;
	init_completion(&cr.done);
	t = kthread_run(rt_side_fn, &cr, "rt-cres");
	if (IS_ERR(t))
		complete(&go);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	msleep(50);
	rt(s)->hold_in = NULL;
	complete(&go);
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&ss.done, 10 * HZ), 0UL);
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&cr.done, 10 * HZ), 0UL);
	KUNIT_EXPECT_EQ(test, cr.ret, 0);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_status(s->dev), DMC_RPM_ACTIVE);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_usage(s->dev), 1);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_put_sync(c->dev), 0);
	KUNIT_EXPECT_TRUE(test, rt_wait_status(s, DMC_RPM_SUSPENDED));
	dmc_device_link_del(link);
	rt_check(test);
}

static int runtime_pm_test_init(struct kunit *test)
{
	rt_nr = 0;
	rt_test = test;
	return dmm_init(test, "rt");
}

static struct kunit_case runtime_pm_test_cases[] = {
	KUNIT_CASE(rt_usage_counting),
	KUNIT_CASE(rt_underflow_refused),
	KUNIT_CASE(rt_disabled_device),
	KUNIT_CASE(rt_parent_kept_active_by_child),
	KUNIT_CASE(rt_deep_chain_resumes_top_down),
	KUNIT_CASE(rt_autosuspend_delay_honoured),
	KUNIT_CASE(rt_forbid_allow),
	KUNIT_CASE(rt_suppliers_via_links),
	KUNIT_CASE(rt_system_suspend),
	KUNIT_CASE(rt_probe_and_remove),
	KUNIT_CASE(rt_not_added_refused),
	KUNIT_CASE(rt_race_get_sync_vs_put),
	KUNIT_CASE(rt_del_races_pending_autosuspend),
	KUNIT_CASE(rt_race_parent_suspend_vs_child_resume),
	KUNIT_CASE(rt_race_supplier_suspend_vs_consumer_resume),
	{}
};

static struct kunit_suite runtime_pm_test_suite = {
	.name = "dmcore-runtime-pm",
	.init = runtime_pm_test_init,
	.exit = dmct_exit,
	.test_cases = runtime_pm_test_cases,
};

kunit_test_suites(&runtime_pm_test_suite);
