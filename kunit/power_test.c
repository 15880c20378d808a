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
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/string.h>
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
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dmc_device_link_add(c->dev, s->dev));
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
	KUNIT_CASE(power_device_suspend_ebusy_while_child_on),
	KUNIT_CASE(power_device_suspend_ebusy_while_consumer_on),
	KUNIT_CASE(power_device_suspend_twice_suspends_once),
	KUNIT_CASE(power_device_resume_ebusy_while_parent_suspended),
	KUNIT_CASE(power_device_resume_ebusy_while_supplier_suspended),
	KUNIT_CASE(power_device_suspend_unbound_device_changes_state),
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
