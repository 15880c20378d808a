// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore-power: system and device suspend/resume, one rule per case.
 *
 * The order of a system suspend (children before parents, consumers
 * before suppliers, also when a link is made after both registered), the
 * rollback of a failed suspend, the single-device calls and their -EBUSY
 * rules, and the power order walk. dmc_suspend_all() touches every dmcore
 * device; the suites run alone, and the log records only this test's
 * devices. Names are "pw<N>-<name>".
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/debug_locks.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <dmcore/invariants.h>
#include "model_util.h"

/* A bus with driver "d"; devices made with pw_dev() are bound to it. */
struct pw_world {
	struct dmm_bus *b;
	struct dmm_drv *d;
};

static void pw_world(struct kunit *test, struct pw_world *w)
{
	w->b = dmm_bus_new(test, "bus");
	w->d = dmm_drv_new(test, w->b, "d");
	dmm_ctx(test)->log_mask = DMM_LOG_SUSPEND | DMM_LOG_RESUME;
}

static struct dmm_dev *pw_dev(struct kunit *test, struct pw_world *w,
			      const char *name, struct dmm_dev *parent)
{
	struct dmm_dev *a = dmm_dev_new(test, name, w->b, parent, w->d);

	KUNIT_ASSERT_TRUE(test, dmc_device_is_bound(a->dev));
	return a;
}

static void pw_link(struct kunit *test, struct dmm_dev *c, struct dmm_dev *s)
{
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dmc_device_link_add(c->dev, s->dev, 0));
}

static int pw_index(struct kunit *test, const char *what, struct dmm_dev *d)
{
	return dmm_log_index(test, dmm_str(test, "%s:%s", what, d->short_name));
}

static bool pw_on(struct dmm_dev *d)
{
	return dmc_device_power_state(d->dev) == DMC_POWER_ON;
}

static bool pw_suspended(struct dmm_dev *d)
{
	return dmc_device_power_state(d->dev) == DMC_POWER_SUSPENDED;
}

/* system suspend and resume */

static void power_suspend_all_children_before_parents(struct kunit *test)
{
	struct dmc_device *fdev = NULL;
	struct dmm_dev *p, *c, *g, *c2;
	struct pw_world w;

	pw_world(test, &w);
	p = pw_dev(test, &w, "p", NULL);
	c = pw_dev(test, &w, "c", p);
	g = pw_dev(test, &w, "g", c);
	c2 = pw_dev(test, &w, "c2", p);
	KUNIT_ASSERT_EQ(test, dmc_suspend_all(&fdev), 0);
	KUNIT_EXPECT_GE(test, pw_index(test, "suspend", g), 0);
	KUNIT_EXPECT_LT(test, pw_index(test, "suspend", g),
			pw_index(test, "suspend", c));
	KUNIT_EXPECT_LT(test, pw_index(test, "suspend", c),
			pw_index(test, "suspend", p));
	KUNIT_EXPECT_LT(test, pw_index(test, "suspend", c2),
			pw_index(test, "suspend", p));
	KUNIT_EXPECT_EQ(test, dmc_resume_all(), 0);
	dmm_dev_unregister(g);
	dmm_dev_unregister(c2);
	dmm_dev_unregister(c);
	dmm_dev_unregister(p);
}

static void power_resume_all_parents_before_children(struct kunit *test)
{
	struct dmc_device *fdev = NULL;
	struct dmm_dev *p, *c, *g;
	struct pw_world w;

	pw_world(test, &w);
	p = pw_dev(test, &w, "p", NULL);
	c = pw_dev(test, &w, "c", p);
	g = pw_dev(test, &w, "g", c);
	KUNIT_ASSERT_EQ(test, dmc_suspend_all(&fdev), 0);
	KUNIT_ASSERT_EQ(test, dmc_resume_all(), 0);
	DMM_EXPECT_LOG(test, "suspend:g suspend:c suspend:p resume:p resume:c resume:g");
	dmm_dev_unregister(g);
	dmm_dev_unregister(c);
	dmm_dev_unregister(p);
}

static void power_state_follows_system_suspend_and_resume(struct kunit *test)
{
	struct dmc_device *fdev = NULL;
	struct dmm_dev *p, *c, *x;
	struct pw_world w;

	pw_world(test, &w);
	p = pw_dev(test, &w, "p", NULL);
	c = pw_dev(test, &w, "c", p);
	x = dmm_dev_new(test, "x", NULL, p, NULL);	/* no driver */
	KUNIT_EXPECT_TRUE(test, pw_on(p));
	KUNIT_EXPECT_TRUE(test, pw_on(x));
	KUNIT_ASSERT_EQ(test, dmc_suspend_all(&fdev), 0);
	KUNIT_EXPECT_TRUE(test, pw_suspended(p));
	KUNIT_EXPECT_TRUE(test, pw_suspended(c));
	KUNIT_EXPECT_TRUE(test, pw_suspended(x));
	KUNIT_EXPECT_EQ(test, dmc_device_power_state(p->dev), DMC_POWER_SUSPENDED);
	KUNIT_ASSERT_EQ(test, dmc_resume_all(), 0);
	KUNIT_EXPECT_TRUE(test, pw_on(p));
	KUNIT_EXPECT_TRUE(test, pw_on(c));
	KUNIT_EXPECT_TRUE(test, pw_on(x));
	dmm_dev_unregister(x);
	dmm_dev_unregister(c);
	dmm_dev_unregister(p);
}

static void power_suspend_all_calls_each_driver_once_locked(struct kunit *test)
{
	struct dmc_device *fdev = NULL;
	struct dmm_dev *a, *b, *c;
	struct pw_world w;

	pw_world(test, &w);
	a = pw_dev(test, &w, "a", NULL);
	b = pw_dev(test, &w, "b", NULL);
	c = pw_dev(test, &w, "c", a);
	KUNIT_ASSERT_EQ(test, dmc_suspend_all(&fdev), 0);
	KUNIT_ASSERT_EQ(test, dmc_resume_all(), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->suspends), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->suspends), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->suspends), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->resumes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->resumes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->resumes), 1);
	KUNIT_EXPECT_TRUE(test, a->lock_in_pm);
	KUNIT_EXPECT_TRUE(test, c->lock_in_pm);
	dmm_dev_unregister(c);
	dmm_dev_unregister(b);
	dmm_dev_unregister(a);
}

static void power_link_puts_consumer_before_supplier(struct kunit *test)
{
	struct dmc_device *fdev = NULL;
	struct dmm_dev *c, *s;
	struct pw_world w;

	pw_world(test, &w);
	c = pw_dev(test, &w, "c", NULL);	/* registered first */
	s = pw_dev(test, &w, "s", NULL);
	pw_link(test, c, s);
	KUNIT_ASSERT_EQ(test, dmc_suspend_all(&fdev), 0);
	KUNIT_ASSERT_EQ(test, dmc_resume_all(), 0);
	DMM_EXPECT_LOG(test, "suspend:c suspend:s resume:s resume:c");
	dmm_dev_unregister(c);
	dmm_dev_unregister(s);
}

static void power_link_moves_consumer_children_too(struct kunit *test)
{
	struct dmm_dev *c, *cc, *ccc, *s;
	struct dmc_device *fdev = NULL;
	struct pw_world w;

	pw_world(test, &w);
	c = pw_dev(test, &w, "c", NULL);
	cc = pw_dev(test, &w, "cc", c);
	ccc = pw_dev(test, &w, "ccc", cc);
	s = pw_dev(test, &w, "s", NULL);
	pw_link(test, c, s);
	KUNIT_ASSERT_EQ(test, dmc_suspend_all(&fdev), 0);
	KUNIT_ASSERT_EQ(test, dmc_resume_all(), 0);
	DMM_EXPECT_LOG(test,
		       "suspend:ccc suspend:cc suspend:c suspend:s resume:s resume:c resume:cc resume:ccc");
	dmm_dev_unregister(ccc);
	dmm_dev_unregister(cc);
	dmm_dev_unregister(c);
	dmm_dev_unregister(s);
}

static void power_link_chain_orders_transitively(struct kunit *test)
{
	struct dmc_device *fdev = NULL;
	struct dmm_dev *x, *y, *z;
	struct pw_world w;

	pw_world(test, &w);
	x = pw_dev(test, &w, "x", NULL);
	y = pw_dev(test, &w, "y", NULL);
	z = pw_dev(test, &w, "z", NULL);
	pw_link(test, y, z);	/* y consumes z */
	pw_link(test, x, y);	/* x consumes y */
	KUNIT_ASSERT_EQ(test, dmc_suspend_all(&fdev), 0);
	KUNIT_ASSERT_EQ(test, dmc_resume_all(), 0);
	DMM_EXPECT_LOG(test,
		       "suspend:x suspend:y suspend:z resume:z resume:y resume:x");
	dmm_dev_unregister(x);
	dmm_dev_unregister(y);
	dmm_dev_unregister(z);
}

static void power_suspend_failure_rolls_back_and_names_device(struct kunit *test)
{
	struct dmc_device *fdev = NULL;
	struct dmm_dev *p, *c, *g;
	struct pw_world w;
	unsigned int refs;

	pw_world(test, &w);
	p = pw_dev(test, &w, "p", NULL);
	c = pw_dev(test, &w, "c", p);
	g = pw_dev(test, &w, "g", c);
	c->suspend_ret = -EIO;
	refs = dmm_dev_refs(c);
	KUNIT_EXPECT_EQ(test, dmc_suspend_all(&fdev), -EIO);
	KUNIT_EXPECT_PTR_EQ(test, fdev, c->dev);
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(c), refs + 1);
	dmm_put_found(fdev);
	DMM_EXPECT_LOG(test, "suspend:g suspend:c resume:g");
	KUNIT_EXPECT_TRUE(test, pw_on(p));
	KUNIT_EXPECT_TRUE(test, pw_on(c));
	KUNIT_EXPECT_TRUE(test, pw_on(g));
	KUNIT_EXPECT_EQ(test, atomic_read(&p->suspends), 0);

	/* once the driver agrees, the system suspends */
	c->suspend_ret = 0;
	dmm_log_clear(test);
	KUNIT_EXPECT_EQ(test, dmc_suspend_all(&fdev), 0);
	KUNIT_EXPECT_EQ(test, dmc_resume_all(), 0);
	DMM_EXPECT_LOG(test, "suspend:g suspend:c suspend:p resume:p resume:c resume:g");
	dmm_dev_unregister(g);
	dmm_dev_unregister(c);
	dmm_dev_unregister(p);
}

static void power_rollback_resumes_in_reverse(struct kunit *test)
{
	struct dmm_dev *p, *c1, *c2, *g, *s;
	struct dmc_device *fdev = NULL;
	struct pw_world w;

	pw_world(test, &w);
	s = pw_dev(test, &w, "s", NULL);
	p = pw_dev(test, &w, "p", NULL);
	c1 = pw_dev(test, &w, "c1", p);
	g = pw_dev(test, &w, "g", c1);
	c2 = pw_dev(test, &w, "c2", p);
	pw_link(test, p, s);	/* s after the whole of p */
	s->suspend_ret = -EBUSY;
	KUNIT_EXPECT_EQ(test, dmc_suspend_all(&fdev), -EBUSY);
	KUNIT_EXPECT_PTR_EQ(test, fdev, s->dev);
	dmm_put_found(fdev);
	/* p's subtree all went down before s failed; now all are up again */
	KUNIT_EXPECT_GE(test, pw_index(test, "resume", p), 0);
	KUNIT_EXPECT_LT(test, pw_index(test, "resume", p),
			pw_index(test, "resume", c1));
	KUNIT_EXPECT_LT(test, pw_index(test, "resume", c1),
			pw_index(test, "resume", g));
	KUNIT_EXPECT_LT(test, pw_index(test, "resume", p),
			pw_index(test, "resume", c2));
	KUNIT_EXPECT_LT(test, pw_index(test, "suspend", s),
			pw_index(test, "resume", p));
	KUNIT_EXPECT_EQ(test, dmm_log_count(test, "resume:s"), 0U);
	KUNIT_EXPECT_TRUE(test, pw_on(s));
	KUNIT_EXPECT_TRUE(test, pw_on(g));
	dmm_dev_unregister(g);
	dmm_dev_unregister(c2);
	dmm_dev_unregister(c1);
	dmm_dev_unregister(p);
	dmm_dev_unregister(s);
}

/*
 * The power order while a system suspend is in effect: the order is the
 * list followed by the suspended list, and a device added or moved by a
 * link meanwhile joins its tail, so that resume brings it back after its
 * parent and suppliers and the next suspend takes it first.
 */
static void power_child_added_while_suspended_stays_after_parent(struct kunit *test)
{
	struct dmc_device *fdev = NULL;
	struct dmm_dev *p, *c, *x;
	struct pw_world w;

	pw_world(test, &w);
	p = pw_dev(test, &w, "p", NULL);
	KUNIT_ASSERT_EQ(test, dmc_suspend_all(&fdev), 0);
	c = pw_dev(test, &w, "c", p);	/* under a suspended parent */
	x = pw_dev(test, &w, "x", NULL);
	KUNIT_EXPECT_TRUE(test, pw_on(c));
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
	KUNIT_ASSERT_EQ(test, dmc_resume_all(), 0);
	KUNIT_EXPECT_TRUE(test, pw_on(p));
	KUNIT_EXPECT_EQ(test, dmm_log_count(test, "resume:c"), 0U);	/* was on */
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);

	dmm_log_clear(test);
	KUNIT_ASSERT_EQ(test, dmc_suspend_all(&fdev), 0);
	KUNIT_ASSERT_EQ(test, dmc_resume_all(), 0);
	KUNIT_EXPECT_GE(test, pw_index(test, "suspend", c), 0);
	KUNIT_EXPECT_LT(test, pw_index(test, "suspend", c),
			pw_index(test, "suspend", p));
	KUNIT_EXPECT_GE(test, pw_index(test, "resume", p), 0);
	KUNIT_EXPECT_LT(test, pw_index(test, "resume", p),
			pw_index(test, "resume", c));
	KUNIT_EXPECT_EQ(test, dmm_log_count(test, "suspend:x"), 1U);
	dmm_dev_unregister(x);
	dmm_dev_unregister(c);
	dmm_dev_unregister(p);
}

static void power_link_added_while_suspended_resumes_consumer(struct kunit *test)
{
	struct dmc_device *fdev = NULL;
	struct dmm_dev *s, *c, *cc;
	struct pw_world w;

	pw_world(test, &w);
	c = pw_dev(test, &w, "c", NULL);
	cc = pw_dev(test, &w, "cc", c);
	s = pw_dev(test, &w, "s", NULL);
	KUNIT_ASSERT_EQ(test, dmc_suspend_all(&fdev), 0);
	pw_link(test, c, s);	/* moves c and cc after s, all suspended */
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
	KUNIT_ASSERT_EQ(test, dmc_resume_all(), 0);
	KUNIT_EXPECT_TRUE(test, pw_on(s));
	KUNIT_EXPECT_TRUE(test, pw_on(c));
	KUNIT_EXPECT_TRUE(test, pw_on(cc));
	KUNIT_EXPECT_GE(test, pw_index(test, "resume", s), 0);
	KUNIT_EXPECT_LT(test, pw_index(test, "resume", s),
			pw_index(test, "resume", c));
	KUNIT_EXPECT_LT(test, pw_index(test, "resume", c),
			pw_index(test, "resume", cc));
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
	dmm_dev_unregister(cc);
	dmm_dev_unregister(c);
	dmm_dev_unregister(s);
}

/*
 * A system suspend held inside one driver's suspend callback (in a
 * kthread) while this thread adds a child of a device suspended already
 * and links a device not yet suspended to it as consumer.
 */
struct pw_mid {
	struct dmc_device *hold;
	int ret;
	struct completion in_hold;	/* the held callback began */
	struct completion go;		/* it may return */
	struct completion done;		/* dmc_suspend_all() returned */
};

static struct pw_mid *pw_mid_cur;

static int pw_mid_suspend(struct dmc_device *dev)
{
	struct pw_mid *m = READ_ONCE(pw_mid_cur);

	if (m && dev == m->hold) {
		complete(&m->in_hold);
		wait_for_completion_timeout(&m->go, 10 * HZ);
	}
	return 0;
}

static int pw_mid_thread(void *data)
{
	struct pw_mid *m = data;
	struct dmc_device *fdev = NULL;

	m->ret = dmc_suspend_all(&fdev);
	dmc_device_put(fdev);
	kthread_complete_and_exit(&m->done, 0);
}

static void power_devices_added_during_suspend_keep_order(struct kunit *test)
{
	struct dmm_dev *k, *h, *p, *c;
	struct task_struct *t;
	struct dmc_device *fdev = NULL;
	struct dmm_drv *hd;
	struct pw_world w;
	struct pw_mid *m;

	pw_world(test, &w);
	hd = dmm_drv_alloc(test, w.b, "hd");
	hd->drv.suspend = pw_mid_suspend;
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, hd), 0);
	k = pw_dev(test, &w, "k", NULL);
	h = dmm_dev_new(test, "h", w.b, NULL, hd);
	p = pw_dev(test, &w, "p", NULL);	/* order: k h p */

	m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m);
	m->hold = h->dev;
	init_completion(&m->in_hold);
	init_completion(&m->go);
	init_completion(&m->done);
	WRITE_ONCE(pw_mid_cur, m);
	t = kthread_run(pw_mid_thread, m, "pw-mid");
	if (IS_ERR(t)) {
		WRITE_ONCE(pw_mid_cur, NULL);
		KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(t));
		return;
	}
	KUNIT_EXPECT_TRUE_MSG(test,
			      wait_for_completion_timeout(&m->in_hold, 10 * HZ),
			      "the system suspend never reached h");
	/* p is suspended, h is suspending, k is still on */
	KUNIT_EXPECT_TRUE(test, pw_suspended(p));
	KUNIT_EXPECT_TRUE(test, pw_on(k));
	c = pw_dev(test, &w, "c", p);
	pw_link(test, k, p);
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
	complete(&m->go);
	wait_for_completion(&m->done);
	WRITE_ONCE(pw_mid_cur, NULL);
	KUNIT_EXPECT_EQ(test, m->ret, 0);
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
	KUNIT_ASSERT_EQ(test, dmc_resume_all(), 0);
	KUNIT_EXPECT_TRUE(test, pw_on(p));
	KUNIT_EXPECT_TRUE(test, pw_on(c));
	KUNIT_EXPECT_TRUE(test, pw_on(k));
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
	/* whatever was on already was passed over; p came back first */
	KUNIT_EXPECT_EQ(test, dmm_log_count(test, "resume:c"), 0U);
	KUNIT_EXPECT_EQ(test, dmm_log_count(test, "resume:k") +
			      dmm_log_count(test, "suspend:k"), 0U);

	/* the next suspend and resume follow the order */
	dmm_log_clear(test);
	KUNIT_ASSERT_EQ(test, dmc_suspend_all(&fdev), 0);
	KUNIT_ASSERT_EQ(test, dmc_resume_all(), 0);
	KUNIT_EXPECT_GE(test, pw_index(test, "suspend", c), 0);
	KUNIT_EXPECT_LT(test, pw_index(test, "suspend", c),
			pw_index(test, "suspend", p));
	KUNIT_EXPECT_LT(test, pw_index(test, "suspend", k),
			pw_index(test, "suspend", p));
	KUNIT_EXPECT_LT(test, pw_index(test, "resume", p),
			pw_index(test, "resume", c));
	KUNIT_EXPECT_LT(test, pw_index(test, "resume", p),
			pw_index(test, "resume", k));
	dmm_dev_unregister(c);
	dmm_dev_unregister(k);
	dmm_dev_unregister(p);
	dmm_dev_unregister(h);
}

/* single devices */

static void power_device_suspend_ebusy_while_child_on(struct kunit *test)
{
	struct dmm_dev *p, *c;
	struct pw_world w;

	pw_world(test, &w);
	p = pw_dev(test, &w, "p", NULL);
	c = pw_dev(test, &w, "c", p);
	KUNIT_EXPECT_EQ(test, dmc_device_suspend(p->dev), -EBUSY);
	KUNIT_EXPECT_TRUE(test, pw_on(p));
	KUNIT_EXPECT_EQ(test, atomic_read(&p->suspends), 0);
	KUNIT_EXPECT_EQ(test, dmc_device_suspend(c->dev), 0);
	KUNIT_EXPECT_EQ(test, dmc_device_suspend(p->dev), 0);
	KUNIT_EXPECT_TRUE(test, pw_suspended(p));
	KUNIT_EXPECT_EQ(test, dmc_device_resume(p->dev), 0);
	KUNIT_EXPECT_EQ(test, dmc_device_resume(c->dev), 0);
	DMM_EXPECT_LOG(test, "suspend:c suspend:p resume:p resume:c");
	dmm_dev_unregister(c);
	dmm_dev_unregister(p);
}

static void power_device_suspend_ebusy_while_consumer_on(struct kunit *test)
{
	struct dmm_dev *c, *s;
	struct pw_world w;

	pw_world(test, &w);
	s = pw_dev(test, &w, "s", NULL);
	c = pw_dev(test, &w, "c", NULL);
	pw_link(test, c, s);
	KUNIT_EXPECT_EQ(test, dmc_device_suspend(s->dev), -EBUSY);
	KUNIT_EXPECT_TRUE(test, pw_on(s));
	KUNIT_EXPECT_EQ(test, dmc_device_suspend(c->dev), 0);
	KUNIT_EXPECT_EQ(test, dmc_device_suspend(s->dev), 0);
	KUNIT_EXPECT_EQ(test, dmc_device_resume(s->dev), 0);
	KUNIT_EXPECT_EQ(test, dmc_device_resume(c->dev), 0);
	DMM_EXPECT_LOG(test, "suspend:c suspend:s resume:s resume:c");
	dmm_dev_unregister(c);
	dmm_dev_unregister(s);
}

static void power_device_suspend_twice_suspends_once(struct kunit *test)
{
	struct pw_world w;
	struct dmm_dev *a;

	pw_world(test, &w);
	a = pw_dev(test, &w, "a", NULL);
	KUNIT_EXPECT_EQ(test, dmc_device_suspend(a->dev), 0);
	KUNIT_EXPECT_EQ(test, dmc_device_suspend(a->dev), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->suspends), 1);
	KUNIT_EXPECT_TRUE(test, pw_suspended(a));
	KUNIT_EXPECT_TRUE(test, a->lock_in_pm);
	KUNIT_EXPECT_EQ(test, dmc_device_resume(a->dev), 0);
	KUNIT_EXPECT_TRUE(test, pw_on(a));
	dmm_dev_unregister(a);
}

static void power_device_resume_ebusy_while_parent_suspended(struct kunit *test)
{
	struct dmm_dev *p, *c;
	struct pw_world w;

	pw_world(test, &w);
	p = pw_dev(test, &w, "p", NULL);
	c = pw_dev(test, &w, "c", p);
	KUNIT_ASSERT_EQ(test, dmc_device_suspend(c->dev), 0);
	KUNIT_ASSERT_EQ(test, dmc_device_suspend(p->dev), 0);
	KUNIT_EXPECT_EQ(test, dmc_device_resume(c->dev), -EBUSY);
	KUNIT_EXPECT_TRUE(test, pw_suspended(c));
	KUNIT_EXPECT_EQ(test, atomic_read(&c->resumes), 0);
	KUNIT_EXPECT_EQ(test, dmc_device_resume(p->dev), 0);
	KUNIT_EXPECT_EQ(test, dmc_device_resume(c->dev), 0);
	KUNIT_EXPECT_TRUE(test, pw_on(c));
	dmm_dev_unregister(c);
	dmm_dev_unregister(p);
}

static void power_device_resume_ebusy_while_supplier_suspended(struct kunit *test)
{
	struct dmm_dev *c, *s;
	struct pw_world w;

	pw_world(test, &w);
	s = pw_dev(test, &w, "s", NULL);
	c = pw_dev(test, &w, "c", NULL);
	pw_link(test, c, s);
	KUNIT_ASSERT_EQ(test, dmc_device_suspend(c->dev), 0);
	KUNIT_ASSERT_EQ(test, dmc_device_suspend(s->dev), 0);
	KUNIT_EXPECT_EQ(test, dmc_device_resume(c->dev), -EBUSY);
	KUNIT_EXPECT_TRUE(test, pw_suspended(c));
	KUNIT_EXPECT_EQ(test, dmc_device_resume(s->dev), 0);
	KUNIT_EXPECT_EQ(test, dmc_device_resume(c->dev), 0);
	dmm_dev_unregister(c);
	dmm_dev_unregister(s);
}

static void power_device_suspend_unbound_device_changes_state(struct kunit *test)
{
	struct dmm_dev *a = dmm_dev_new(test, "a", NULL, NULL, NULL);

	KUNIT_EXPECT_EQ(test, dmc_device_suspend(a->dev), 0);
	KUNIT_EXPECT_TRUE(test, pw_suspended(a));
	KUNIT_EXPECT_EQ(test, dmc_device_resume(a->dev), 0);
	KUNIT_EXPECT_TRUE(test, pw_on(a));
	dmm_dev_unregister(a);
}

/*
 * Racing single-device transitions. @hold's transition runs in a kthread
 * and its driver callback waits (up to half a second) for the callback
 * of @other's transition, which this thread starts meanwhile. If the two
 * can run at once, @other's callback runs inside @hold's, and the check
 * of one was made before the other's state changed; if the check and the
 * transition are one step, @other waits and then sees @hold's new state.
 */
struct pw_race {
	struct dmc_device *hold;
	struct dmc_device *other;
	bool hold_suspends;
	int hold_ret;
	struct completion in_hold;	/* @hold's callback began */
	struct completion other_cb;	/* @other's callback ran */
	struct completion done;		/* the kthread's call returned */
};

static struct pw_race *pw_race_cur;

static void pw_race_cb(struct dmc_device *dev)
{
	struct pw_race *r = READ_ONCE(pw_race_cur);

	if (!r)
		return;
	if (dev == r->hold) {
		complete(&r->in_hold);
		wait_for_completion_timeout(&r->other_cb, msecs_to_jiffies(500));
	} else if (dev == r->other) {
		complete(&r->other_cb);
	}
}

static int pw_race_suspend(struct dmc_device *dev)
{
	pw_race_cb(dev);
	return 0;
}

static int pw_race_resume(struct dmc_device *dev)
{
	pw_race_cb(dev);
	return 0;
}

static int pw_race_thread(void *data)
{
	struct pw_race *r = data;

	r->hold_ret = r->hold_suspends ? dmc_device_suspend(r->hold) :
					 dmc_device_resume(r->hold);
	kthread_complete_and_exit(&r->done, 0);
}

/* A bus and a driver "d" whose suspend and resume are the racing ones. */
static void pw_race_world(struct kunit *test, struct pw_world *w)
{
	w->b = dmm_bus_new(test, "bus");
	w->d = dmm_drv_alloc(test, w->b, "d");
	w->d->drv.suspend = pw_race_suspend;
	w->d->drv.resume = pw_race_resume;
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, w->d), 0);
}

/* Race as above; return @other's result, and @hold's in *hold_ret. */
static int pw_race_run(struct kunit *test, struct dmm_dev *hold,
		       bool hold_suspends, struct dmm_dev *other,
		       bool other_suspends, int *hold_ret)
{
	struct task_struct *t;
	struct pw_race *r;
	int ret;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	r->hold = hold->dev;
	r->other = other->dev;
	r->hold_suspends = hold_suspends;
	init_completion(&r->in_hold);
	init_completion(&r->other_cb);
	init_completion(&r->done);
	WRITE_ONCE(pw_race_cur, r);
	t = kthread_run(pw_race_thread, r, "pw-race");
	if (IS_ERR(t)) {
		WRITE_ONCE(pw_race_cur, NULL);
		KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(t));
		return -ECHILD;
	}
	KUNIT_EXPECT_TRUE_MSG(test,
			      wait_for_completion_timeout(&r->in_hold, 10 * HZ),
			      "the held transition never reached its callback");
	ret = other_suspends ? dmc_device_suspend(other->dev) :
			       dmc_device_resume(other->dev);
	wait_for_completion(&r->done);
	WRITE_ONCE(pw_race_cur, NULL);
	*hold_ret = r->hold_ret;
	return ret;
}

static void power_race_parent_suspend_vs_child_resume(struct kunit *test)
{
	struct dmm_dev *p, *c;
	struct pw_world w;
	int hold_ret, ret;

	pw_race_world(test, &w);
	p = pw_dev(test, &w, "p", NULL);
	c = pw_dev(test, &w, "c", p);
	KUNIT_ASSERT_EQ(test, dmc_device_suspend(c->dev), 0);
	ret = pw_race_run(test, p, true, c, false, &hold_ret);
	KUNIT_EXPECT_EQ(test, hold_ret, 0);
	KUNIT_EXPECT_EQ(test, ret, -EBUSY);
	KUNIT_EXPECT_FALSE_MSG(test, pw_suspended(p) && pw_on(c),
			       "child resumed under a parent suspending");
	KUNIT_EXPECT_TRUE(test, pw_suspended(c));
	KUNIT_EXPECT_EQ(test, dmc_device_resume(p->dev), 0);
	KUNIT_EXPECT_EQ(test, dmc_device_resume(c->dev), 0);
	dmm_dev_unregister(c);
	dmm_dev_unregister(p);
}

static void power_race_child_resume_vs_parent_suspend(struct kunit *test)
{
	struct dmm_dev *p, *c;
	struct pw_world w;
	int hold_ret, ret;

	pw_race_world(test, &w);
	p = pw_dev(test, &w, "p", NULL);
	c = pw_dev(test, &w, "c", p);
	KUNIT_ASSERT_EQ(test, dmc_device_suspend(c->dev), 0);
	ret = pw_race_run(test, c, false, p, true, &hold_ret);
	KUNIT_EXPECT_EQ(test, hold_ret, 0);
	KUNIT_EXPECT_EQ(test, ret, -EBUSY);
	KUNIT_EXPECT_FALSE_MSG(test, pw_suspended(p) && pw_on(c),
			       "parent suspended under a child resuming");
	KUNIT_EXPECT_TRUE(test, pw_on(p));
	dmm_dev_unregister(c);
	dmm_dev_unregister(p);
}

static void power_race_supplier_suspend_vs_consumer_resume(struct kunit *test)
{
	struct dmm_dev *s, *c;
	struct pw_world w;
	int hold_ret, ret;

	pw_race_world(test, &w);
	s = pw_dev(test, &w, "s", NULL);
	c = pw_dev(test, &w, "c", NULL);
	pw_link(test, c, s);
	KUNIT_ASSERT_EQ(test, dmc_device_suspend(c->dev), 0);
	ret = pw_race_run(test, s, true, c, false, &hold_ret);
	KUNIT_EXPECT_EQ(test, hold_ret, 0);
	KUNIT_EXPECT_EQ(test, ret, -EBUSY);
	KUNIT_EXPECT_FALSE_MSG(test, pw_suspended(s) && pw_on(c),
			       "consumer resumed under a supplier suspending");
	KUNIT_EXPECT_EQ(test, dmc_device_resume(s->dev), 0);
	KUNIT_EXPECT_EQ(test, dmc_device_resume(c->dev), 0);
	dmm_dev_unregister(c);
	dmm_dev_unregister(s);
}

static void power_race_consumer_resume_vs_supplier_suspend(struct kunit *test)
{
	struct dmm_dev *s, *c;
	struct pw_world w;
	int hold_ret, ret;

	pw_race_world(test, &w);
	s = pw_dev(test, &w, "s", NULL);
	c = pw_dev(test, &w, "c", NULL);
	pw_link(test, c, s);
	KUNIT_ASSERT_EQ(test, dmc_device_suspend(c->dev), 0);
	ret = pw_race_run(test, c, false, s, true, &hold_ret);
	KUNIT_EXPECT_EQ(test, hold_ret, 0);
	KUNIT_EXPECT_EQ(test, ret, -EBUSY);
	KUNIT_EXPECT_FALSE_MSG(test, pw_suspended(s) && pw_on(c),
			       "supplier suspended under a consumer resuming");
	KUNIT_EXPECT_TRUE(test, pw_on(s));
	dmm_dev_unregister(c);
	dmm_dev_unregister(s);
}

/*
 * Callbacks that use the model under the locks held across them: a
 * suspend callback adds a member of class k and a device linked to it, a
 * resume callback deletes them; k's interface's add_dev adds a member of
 * class k2 linked to the new member, its remove_dev deletes it. Lockdep
 * must stay on (it turns itself off at its first report).
 */
struct pw_lk {
	struct kunit *test;
	struct dmm_class *k, *k2;
	struct dmc_device *target;
	struct dmm_dev *made, *plain, *by_intf;
	unsigned int errs;
	unsigned int walked;
};

static struct pw_lk *pw_lk_cur;

static struct dmm_dev *pw_lk_add(struct pw_lk *lk, const char *name,
				 struct dmm_class *c)
{
	struct dmm_dev *d = dmm_dev_alloc(lk->test, name);

	d->dev->class = c ? &c->cls : NULL;
	if (dmm_dev_add(lk->test, d)) {
		lk->errs++;
		dmm_dev_put(d);
		return NULL;
	}
	return d;
}

static int pw_lk_count(struct dmc_device *dev, void *data)
{
	(*(unsigned int *)data)++;
	return 0;
}

static int pw_lk_suspend(struct dmc_device *dev)
{
	struct pw_lk *lk = READ_ONCE(pw_lk_cur);

	if (!lk || dev != lk->target || lk->made)
		return 0;
	lk->made = pw_lk_add(lk, "m", lk->k);
	lk->plain = pw_lk_add(lk, "x", NULL);
	if (lk->made && lk->plain &&
	    IS_ERR(dmc_device_link_add(lk->plain->dev, lk->made->dev, 0)))
		lk->errs++;
	dmc_dpm_walk(&lk->walked, pw_lk_count);
	return 0;
}

static int pw_lk_resume(struct dmc_device *dev)
{
	struct pw_lk *lk = READ_ONCE(pw_lk_cur);

	if (!lk || dev != lk->target)
		return 0;
	if (lk->plain)
		dmm_dev_unregister(lk->plain);
	if (lk->made)
		dmm_dev_unregister(lk->made);
	lk->plain = NULL;
	lk->made = NULL;
	return 0;
}

static int pw_lk_add_dev(struct dmc_device *dev, struct dmc_class_interface *intf)
{
	struct pw_lk *lk = READ_ONCE(pw_lk_cur);

	if (!lk || lk->by_intf)
		return 0;
	lk->by_intf = pw_lk_add(lk, "i", lk->k2);
	/* @dev is not registered yet: link to the device being suspended. */
	if (lk->by_intf &&
	    IS_ERR(dmc_device_link_add(lk->by_intf->dev, lk->target, 0)))
		lk->errs++;
	return 0;
}

static void pw_lk_remove_dev(struct dmc_device *dev, struct dmc_class_interface *intf)
{
	struct pw_lk *lk = READ_ONCE(pw_lk_cur);

	if (!lk || !lk->by_intf)
		return;
	dmm_dev_unregister(lk->by_intf);
	lk->by_intf = NULL;
}

static void power_callbacks_may_use_the_model_lockdep_stays_on(struct kunit *test)
{
	struct dmc_device *fdev = NULL;
	struct dmm_intf *intf;
	struct pw_world w;
	struct dmm_dev *t;
	struct pw_lk *lk;

	if (!IS_ENABLED(CONFIG_LOCKDEP) || !debug_locks)
		kunit_skip(test, "lockdep is not running");
	lk = kunit_kzalloc(test, sizeof(*lk), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, lk);
	lk->test = test;
	w.b = dmm_bus_new(test, "bus");
	w.d = dmm_drv_alloc(test, w.b, "d");
	w.d->drv.suspend = pw_lk_suspend;
	w.d->drv.resume = pw_lk_resume;
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, w.d), 0);
	lk->k = dmm_class_new(test, "k");
	lk->k2 = dmm_class_new(test, "k2");
	intf = dmm_intf_alloc(test, lk->k);
	intf->intf.add_dev = pw_lk_add_dev;
	intf->intf.remove_dev = pw_lk_remove_dev;
	KUNIT_ASSERT_EQ(test, dmm_intf_register(test, intf), 0);
	t = pw_dev(test, &w, "t", NULL);
	lk->target = t->dev;
	WRITE_ONCE(pw_lk_cur, lk);

	KUNIT_EXPECT_EQ(test, dmc_suspend_all(&fdev), 0);
	dmm_put_found(fdev);
	KUNIT_EXPECT_NOT_NULL(test, lk->made);
	KUNIT_EXPECT_NOT_NULL(test, lk->by_intf);
	KUNIT_EXPECT_EQ(test, dmc_resume_all(), 0);
	KUNIT_EXPECT_NULL(test, lk->made);
	KUNIT_EXPECT_NULL(test, lk->by_intf);

	KUNIT_EXPECT_EQ(test, dmc_device_suspend(t->dev), 0);
	KUNIT_EXPECT_NOT_NULL(test, lk->by_intf);
	KUNIT_EXPECT_EQ(test, dmc_device_resume(t->dev), 0);
	KUNIT_EXPECT_NULL(test, lk->by_intf);

	dmm_intf_unregister(test, intf);
	WRITE_ONCE(pw_lk_cur, NULL);
	KUNIT_EXPECT_EQ(test, lk->errs, 0U);
	KUNIT_EXPECT_GT(test, lk->walked, 0U);
	KUNIT_EXPECT_TRUE_MSG(test, debug_locks, "lockdep reported a problem");
	dmm_dev_unregister(t);
}

/* power order */

struct pw_walk {
	struct kunit *test;
	unsigned int n;
	struct dmm_dev *seen[8];
};

static int pw_walk_fn(struct dmc_device *dev, void *data)
{
	struct pw_walk *w = data;
	struct dmm_dev *t = dmm_dev_of(w->test, dev);

	if (t && w->n < ARRAY_SIZE(w->seen))
		w->seen[w->n++] = t;
	return 0;
}

/* Position of @d in the walk, or -1. */
static int pw_pos(struct pw_walk *w, struct dmm_dev *d)
{
	unsigned int i;

	for (i = 0; i < w->n; i++)
		if (w->seen[i] == d)
			return i;
	return -1;
}

static void power_dpm_order_is_parents_and_suppliers_first(struct kunit *test)
{
	struct pw_walk walk = { .test = test };
	struct dmm_dev *c, *cc, *s, *p;
	struct pw_world w;

	pw_world(test, &w);
	c = pw_dev(test, &w, "c", NULL);
	cc = pw_dev(test, &w, "cc", c);
	s = pw_dev(test, &w, "s", NULL);
	p = pw_dev(test, &w, "p", NULL);
	KUNIT_EXPECT_EQ(test, dmc_dpm_walk(&walk, pw_walk_fn), 0);
	KUNIT_EXPECT_EQ(test, walk.n, 4U);
	KUNIT_EXPECT_GE(test, pw_pos(&walk, c), 0);
	KUNIT_EXPECT_LT(test, pw_pos(&walk, c), pw_pos(&walk, cc));

	pw_link(test, c, s);
	memset(&walk, 0, sizeof(walk));
	walk.test = test;
	KUNIT_EXPECT_EQ(test, dmc_dpm_walk(&walk, pw_walk_fn), 0);
	KUNIT_EXPECT_EQ(test, walk.n, 4U);
	KUNIT_EXPECT_GE(test, pw_pos(&walk, s), 0);
	KUNIT_EXPECT_LT(test, pw_pos(&walk, s), pw_pos(&walk, c));
	KUNIT_EXPECT_LT(test, pw_pos(&walk, c), pw_pos(&walk, cc));
	KUNIT_EXPECT_GE(test, pw_pos(&walk, p), 0);
	dmm_dev_unregister(cc);
	dmm_dev_unregister(c);
	dmm_dev_unregister(s);
	dmm_dev_unregister(p);
}

static void power_dpm_order_drops_removed_devices(struct kunit *test)
{
	struct pw_walk walk = { .test = test };
	struct dmm_dev *a, *b, *c;
	struct pw_world w;

	pw_world(test, &w);
	a = pw_dev(test, &w, "a", NULL);
	b = pw_dev(test, &w, "b", NULL);
	c = pw_dev(test, &w, "c", NULL);
	dmm_dev_unregister(b);
	KUNIT_EXPECT_EQ(test, dmc_dpm_walk(&walk, pw_walk_fn), 0);
	KUNIT_EXPECT_EQ(test, walk.n, 2U);
	KUNIT_EXPECT_GE(test, pw_pos(&walk, a), 0);
	KUNIT_EXPECT_GE(test, pw_pos(&walk, c), 0);
	dmm_dev_unregister(c);
	dmm_dev_unregister(a);
}

static void power_removed_device_is_not_suspended(struct kunit *test)
{
	struct dmc_device *fdev = NULL;
	struct dmm_dev *a, *b;
	struct pw_world w;

	pw_world(test, &w);
	a = pw_dev(test, &w, "a", NULL);
	b = pw_dev(test, &w, "b", NULL);
	dmm_dev_get(b);
	dmm_dev_unregister(b);
	KUNIT_ASSERT_EQ(test, dmc_suspend_all(&fdev), 0);
	KUNIT_ASSERT_EQ(test, dmc_resume_all(), 0);
	DMM_EXPECT_LOG(test, "suspend:a resume:a");
	KUNIT_EXPECT_TRUE(test, pw_on(b));
	dmm_dev_put(b);
	dmm_dev_unregister(a);
}

static void power_state_names_differ(struct kunit *test)
{
	const char *on = dmc_power_state_name(DMC_POWER_ON);
	const char *off = dmc_power_state_name(DMC_POWER_SUSPENDED);

	KUNIT_ASSERT_NOT_NULL(test, on);
	KUNIT_ASSERT_NOT_NULL(test, off);
	KUNIT_EXPECT_STRNEQ(test, on, off);
}

static void power_null_arguments_fail_without_crash(struct kunit *test)
{
	int ret = 0;

	DMM_TOLERATE_MISUSE(test, ret = dmc_device_suspend(NULL));
	KUNIT_EXPECT_LT(test, ret, 0);
	DMM_TOLERATE_MISUSE(test, ret = dmc_device_resume(NULL));
	KUNIT_EXPECT_LT(test, ret, 0);
	DMM_TOLERATE_MISUSE(test, ret = dmc_dpm_walk(NULL, NULL));
	KUNIT_EXPECT_LT(test, ret, 0);
}

static int power_test_init(struct kunit *test)
{
	return dmm_init(test, "pw");
}

static struct kunit_case power_test_cases[] = {
	KUNIT_CASE(power_suspend_all_children_before_parents),
	KUNIT_CASE(power_resume_all_parents_before_children),
	KUNIT_CASE(power_state_follows_system_suspend_and_resume),
	KUNIT_CASE(power_suspend_all_calls_each_driver_once_locked),
	KUNIT_CASE(power_link_puts_consumer_before_supplier),
	KUNIT_CASE(power_link_moves_consumer_children_too),
	KUNIT_CASE(power_link_chain_orders_transitively),
	KUNIT_CASE(power_suspend_failure_rolls_back_and_names_device),
	KUNIT_CASE(power_rollback_resumes_in_reverse),
	KUNIT_CASE(power_child_added_while_suspended_stays_after_parent),
	KUNIT_CASE(power_link_added_while_suspended_resumes_consumer),
	KUNIT_CASE(power_devices_added_during_suspend_keep_order),
	KUNIT_CASE(power_device_suspend_ebusy_while_child_on),
	KUNIT_CASE(power_device_suspend_ebusy_while_consumer_on),
	KUNIT_CASE(power_device_suspend_twice_suspends_once),
	KUNIT_CASE(power_device_resume_ebusy_while_parent_suspended),
	KUNIT_CASE(power_device_resume_ebusy_while_supplier_suspended),
	KUNIT_CASE(power_device_suspend_unbound_device_changes_state),
	KUNIT_CASE(power_race_parent_suspend_vs_child_resume),
	KUNIT_CASE(power_race_child_resume_vs_parent_suspend),
	KUNIT_CASE(power_race_supplier_suspend_vs_consumer_resume),
	KUNIT_CASE(power_race_consumer_resume_vs_supplier_suspend),
	KUNIT_CASE(power_callbacks_may_use_the_model_lockdep_stays_on),
	KUNIT_CASE(power_dpm_order_is_parents_and_suppliers_first),
	KUNIT_CASE(power_dpm_order_drops_removed_devices),
	KUNIT_CASE(power_removed_device_is_not_suspended),
	KUNIT_CASE(power_state_names_differ),
	KUNIT_CASE(power_null_arguments_fail_without_crash),
	{}
};

static struct kunit_suite power_test_suite = {
	.name = "dmcore-power",
	.init = power_test_init,
	.exit = dmct_exit,
	.test_cases = power_test_cases,
};

kunit_test_suites(&power_test_suite);
