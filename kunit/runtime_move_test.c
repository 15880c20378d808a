// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore-runtime-move: runtime PM against a move of the device, the
 * deletion of its old parent and the shutdown, forced with kthreads and
 * completions, and a move's refusal of a descendant as the new parent
 * while another thread holds that descendant's device lock.
 *
 * Devices are bound to a driver whose runtime callbacks count and log
 * ("rs:<dev>", "rr:<dev>") and may be held in the callback, and whose
 * shutdown logs "sd:<dev>". Names are "rm<N>-<name>".
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <dmcore/invariants.h>
#include <dmcore/pm_runtime.h>
#include "model_util.h"

#define RM_MAX		48
#define RM_TIMEOUT	(10 * HZ)

/* What the callbacks do for one device. */
struct rm_rec {
	struct dmc_device *dev;
	atomic_t suspends, resumes, shutdowns;
	struct completion *s_in, *s_go;	/* hold a runtime suspend */
	struct completion *r_in, *r_go;	/* hold a runtime resume */
	struct completion *sd_in;	/* the shutdown callback began */
};

static struct rm_rec rm_recs[RM_MAX];
static int rm_nr;
static struct kunit *rm_test;

static struct rm_rec *rm_rec_of(struct dmc_device *dev)
{
	int i;

	for (i = 0; i < READ_ONCE(rm_nr); i++)
		if (rm_recs[i].dev == dev)
			return &rm_recs[i];
	return NULL;
}

static const char *rm_short(struct dmc_device *dev)
{
	struct dmm_dev *t = dmm_dev_of(NULL, dev);

	return t ? t->short_name : "?";
}

static void rm_hold(struct completion *in, struct completion *go)
{
	if (in) {
		complete(in);
		wait_for_completion_timeout(go, 3 * RM_TIMEOUT);
	}
}

static int rm_runtime_suspend(struct dmc_device *dev)
{
	struct rm_rec *r = rm_rec_of(dev);

	if (!r)
		return 0;
	rm_hold(READ_ONCE(r->s_in), r->s_go);
	atomic_inc(&r->suspends);
	dmm_log(dmm_ctx(rm_test), DMM_LOG_SUSPEND, "rs:%s", rm_short(dev));
	return 0;
}

static int rm_runtime_resume(struct dmc_device *dev)
{
	struct rm_rec *r = rm_rec_of(dev);

	if (!r)
		return 0;
	rm_hold(READ_ONCE(r->r_in), r->r_go);
	atomic_inc(&r->resumes);
	dmm_log(dmm_ctx(rm_test), DMM_LOG_RESUME, "rr:%s", rm_short(dev));
	return 0;
}

static void rm_shutdown(struct dmc_device *dev)
{
	struct rm_rec *r = rm_rec_of(dev);

	if (!r)
		return;
	atomic_inc(&r->shutdowns);
	dmm_log(dmm_ctx(rm_test), DMM_LOG_SUSPEND, "sd:%s", rm_short(dev));
	if (r->sd_in)
		complete(r->sd_in);
}

static const struct dmc_dev_pm_ops rm_pm_ops = {
	.runtime_suspend = rm_runtime_suspend,
	.runtime_resume = rm_runtime_resume,
};

struct rm_world {
	struct dmm_bus *b;
	struct dmm_drv *d;
};

static void rm_world(struct kunit *test, struct rm_world *w)
{
	w->b = dmm_bus_new(test, "bus");
	w->d = dmm_drv_alloc(test, w->b, "d");
	w->d->drv.pm = &rm_pm_ops;
	w->d->drv.shutdown = rm_shutdown;
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, w->d), 0);
	dmm_ctx(test)->log_mask = DMM_LOG_SUSPEND | DMM_LOG_RESUME;
}

/* Wait (up to 10 s) for @a's runtime status to become @st. */
static bool rm_wait_status(struct dmm_dev *a, enum dmc_rpm_status st)
{
	unsigned long end = jiffies + RM_TIMEOUT;

	while (dmc_pm_runtime_status(a->dev) != st) {
		if (time_after(jiffies, end))
			return false;
		usleep_range(2000, 4000);
	}
	return true;
}

/* A bound device with a record; runtime PM enabled (suspended) if @on. */
static struct dmm_dev *rm_dev(struct kunit *test, struct rm_world *w,
			      const char *name, struct dmm_dev *parent, bool on)
{
	struct dmm_dev *a = dmm_dev_new(test, name, w->b, parent, w->d);
	struct rm_rec *r;

	KUNIT_ASSERT_TRUE(test, dmc_device_is_bound(a->dev));
	KUNIT_ASSERT_LT(test, rm_nr, RM_MAX);
	r = &rm_recs[rm_nr];
	memset(r, 0, sizeof(*r));
	r->dev = a->dev;
	WRITE_ONCE(rm_nr, rm_nr + 1);
	if (on) {
		dmc_pm_runtime_enable(a->dev);
		KUNIT_ASSERT_TRUE(test, dmc_pm_runtime_suspended(a->dev));
		/* The probe resumed the parent; it idles again asynchronously. */
		if (parent)
			KUNIT_ASSERT_TRUE(test, rm_wait_status(parent, DMC_RPM_SUSPENDED));
	}
	return a;
}

static struct rm_rec *rm(struct dmm_dev *a)
{
	return rm_rec_of(a->dev);
}

static int rm_index(struct kunit *test, const char *what, struct dmm_dev *d)
{
	return dmm_log_index(test, dmm_str(test, "%s:%s", what, d->short_name));
}

/* One call in a thread of its own. */
struct rm_side {
	struct dmc_device *dev;
	int (*fn)(struct dmc_device *dev);
	int ret;
	struct completion done;
};

static int rm_side_fn(void *arg)
{
	struct rm_side *s = arg;

	s->ret = s->fn(s->dev);
	complete(&s->done);
	return 0;
}

static bool rm_side_start(struct kunit *test, struct rm_side *s,
			  struct dmc_device *dev, int (*fn)(struct dmc_device *dev))
{
	struct task_struct *t;

	s->dev = dev;
	s->fn = fn;
	init_completion(&s->done);
	t = kthread_run(rm_side_fn, s, "rm-side");
	if (IS_ERR(t)) {
		KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(t));
		return false;
	}
	return true;
}

static int rm_set_active(struct dmc_device *dev)
{
	return dmc_pm_runtime_set_active(dev);
}

static int rm_get_sync(struct dmc_device *dev)
{
	return dmc_pm_runtime_get_sync(dev);
}

static int rm_shutdown_all(struct dmc_device *dev)
{
	dmc_shutdown_all();
	return 0;
}

/* ---- the parent of a status change or a resume moves meanwhile ---- */

/*
 * dmc_pm_runtime_set_active() of a disabled device is held in the resume
 * of its supplier (a PM_RUNTIME link) while the device moves from p1 to
 * p2 and p1 is deleted and released. The status change then counts the
 * device on p2, its parent now, and never touches p1 (before the fix it
 * had read dev->parent first: a use of freed memory, and the count left
 * on p1).
 */
static void rm_set_status_vs_move_and_old_parent_freed(struct kunit *test)
{
	struct dmc_device_link *link;
	struct dmm_dev *p1, *p2, *s, *c;
	struct completion in, go;
	unsigned long end;
	struct rm_side st;
	struct rm_world w;

	rm_world(test, &w);
	p1 = rm_dev(test, &w, "p1", NULL, true);
	p2 = rm_dev(test, &w, "p2", NULL, true);
	s = rm_dev(test, &w, "s", NULL, true);
	c = rm_dev(test, &w, "c", p1, false);
	link = dmc_device_link_add(c->dev, s->dev, DMC_DL_FLAG_PM_RUNTIME);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, link);
	KUNIT_ASSERT_EQ(test, dmc_pm_runtime_get_sync(p2->dev), 0);
	init_completion(&in);
	init_completion(&go);
	rm(s)->r_go = &go;
	WRITE_ONCE(rm(s)->r_in, &in);
	KUNIT_ASSERT_TRUE(test, rm_side_start(test, &st, c->dev, rm_set_active));
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&in, RM_TIMEOUT), 0UL);
	WRITE_ONCE(rm(s)->r_in, NULL);
	/* The status change is under way: its supplier resumes. */
	KUNIT_EXPECT_EQ(test, dmc_device_move(c->dev, p2->dev, DMC_DPM_ORDER_NONE), 0);
	dmm_dev_unregister(p1);
	/* Freed (later with delayed releases) before the change goes on. */
	for (end = jiffies + RM_TIMEOUT; !READ_ONCE(p1->released) &&
	     time_before(jiffies, end);)
		usleep_range(1000, 2000);
	KUNIT_EXPECT_EQ(test, READ_ONCE(p1->released), 1U);
	complete(&go);
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&st.done, RM_TIMEOUT), 0UL);
	KUNIT_EXPECT_EQ(test, st.ret, 0);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_status(c->dev), DMC_RPM_ACTIVE);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_active_children(p2->dev), 1);
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
	/* And back: the count leaves p2. */
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_set_suspended(c->dev), 0);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_active_children(p2->dev), 0);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_put_sync(p2->dev), 0);
	dmc_device_link_del(link);
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
}

/*
 * A resume of c is held in the resume of its parent p1 (the walk of its
 * dependencies) while c moves under p2, which is suspended. The resume
 * then starts over for p2: c ends active under an active p2 that counts
 * it, p1 counts nothing (before the fix: -EBUSY, p2 never resumed).
 */
static void rm_resume_restarts_when_parent_moved(struct kunit *test)
{
	struct dmm_dev *p1, *p2, *c;
	struct completion in, go;
	struct rm_side gs;
	struct rm_world w;

	rm_world(test, &w);
	p1 = rm_dev(test, &w, "p1", NULL, true);
	p2 = rm_dev(test, &w, "p2", NULL, true);
	c = rm_dev(test, &w, "c", p1, true);
	init_completion(&in);
	init_completion(&go);
	rm(p1)->r_go = &go;
	WRITE_ONCE(rm(p1)->r_in, &in);
	KUNIT_ASSERT_TRUE(test, rm_side_start(test, &gs, c->dev, rm_get_sync));
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&in, RM_TIMEOUT), 0UL);
	WRITE_ONCE(rm(p1)->r_in, NULL);
	KUNIT_EXPECT_EQ(test, dmc_device_move(c->dev, p2->dev, DMC_DPM_ORDER_NONE), 0);
	complete(&go);
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&gs.done, RM_TIMEOUT), 0UL);
	KUNIT_EXPECT_EQ(test, gs.ret, 0);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_status(c->dev), DMC_RPM_ACTIVE);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_status(p2->dev), DMC_RPM_ACTIVE);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_active_children(p2->dev), 1);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_active_children(p1->dev), 0);
	KUNIT_EXPECT_LT(test, rm_index(test, "rr", p2), rm_index(test, "rr", c));
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_put_sync(c->dev), 0);
	KUNIT_EXPECT_TRUE(test, rm_wait_status(p2, DMC_RPM_SUSPENDED));
	KUNIT_EXPECT_TRUE(test, rm_wait_status(p1, DMC_RPM_SUSPENDED));
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
}

/* ---- get/put loops against moves and deletions of the old parent ---- */

struct rm_loop {
	struct dmc_device *dev;
	bool *stop;
	bool busy_ok;		/* its parent moves: -EBUSY allowed */
	unsigned int iters;
	atomic_t *bad;
	int first_bad;
	struct completion done;
};

static void rm_loop_bad(struct rm_loop *l, int ret)
{
	if (atomic_inc_return(l->bad) == 1)
		l->first_bad = ret;
}

static int rm_loop_fn(void *arg)
{
	struct rm_loop *l = arg;
	unsigned int i;
	int ret;

	for (i = 0; !READ_ONCE(*l->stop); i++) {
		/*
		 * -EACCES: runtime PM disabled for a move, as Linux's; -EBUSY
		 * for a child whose parent's resume was refused so (the
		 * parent "could not be resumed"), never for the moved device.
		 */
		ret = dmc_pm_runtime_get_sync(l->dev);
		if (ret < 0 && ret != -EACCES && !(ret == -EBUSY && l->busy_ok))
			rm_loop_bad(l, ret);
		dmc_pm_runtime_mark_last_busy(l->dev);
		switch (i % 3) {
		case 0:
			ret = dmc_pm_runtime_put_sync(l->dev);
			break;
		case 1:
			ret = dmc_pm_runtime_put_autosuspend(l->dev);
			break;
		default:
			ret = dmc_pm_runtime_put(l->dev);
			break;
		}
		if (ret < 0 && ret != -EAGAIN && ret != -EBUSY &&
		    ret != -EINPROGRESS && ret != -EACCES)
			rm_loop_bad(l, ret);
		if (!(i & 7))
			usleep_range(20, 80);
	}
	l->iters = i;
	complete(&l->done);
	return 0;
}

#define RM_ROUNDS	24

/*
 * c (with a child k) moves to a new parent each round and its old parent
 * is deleted and released right after, while one thread resumes and
 * suspends c and another k. Right after each move the old parent counts
 * no active child; at the end nobody is in use, everything suspends and
 * every count is zero. A stale parent in a resume or a suspend shows as a
 * use of freed memory (KASAN) or a count on the wrong parent.
 */
static void rm_get_put_vs_move_and_old_parent_deleted(struct kunit *test)
{
	struct dmm_dev *cur, *q, *c, *k;
	unsigned int i, stale = 0, refused = 0;
	atomic_t bad = ATOMIC_INIT(0);
	struct task_struct *t;
	struct rm_loop l[2];
	struct rm_world w;
	bool stop = false;
	int ret;

	rm_world(test, &w);
	dmm_ctx(test)->log_mask = 0;	/* too many to log */
	cur = rm_dev(test, &w, "q0", NULL, true);
	c = rm_dev(test, &w, "c", cur, true);
	k = rm_dev(test, &w, "k", c, true);
	dmc_pm_runtime_set_autosuspend_delay(c->dev, 1);
	dmc_pm_runtime_use_autosuspend(c->dev);
	for (i = 0; i < ARRAY_SIZE(l); i++) {
		l[i].dev = i ? k->dev : c->dev;
		l[i].busy_ok = i;
		l[i].stop = &stop;
		l[i].bad = &bad;
		init_completion(&l[i].done);
		t = kthread_run(rm_loop_fn, &l[i], "rm-loop%u", i);
		if (IS_ERR(t)) {
			WRITE_ONCE(stop, true);
			for (; i > 0; i--)
				wait_for_completion(&l[i - 1].done);
			KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(t));
			return;
		}
	}
	for (i = 1; i <= RM_ROUNDS; i++) {
		q = rm_dev(test, &w, dmm_str(test, "q%u", i), NULL, true);
		ret = dmc_device_move(c->dev, q->dev, i & 1 ?
				      DMC_DPM_ORDER_DEV_AFTER_PARENT : DMC_DPM_ORDER_NONE);
		if (ret) {
			refused++;
			dmm_dev_unregister(q);
			continue;
		}
		/* Its only child gone, the old parent counts nobody. */
		if (dmc_pm_runtime_active_children(cur->dev))
			stale++;
		dmm_dev_unregister(cur);
		cur = q;
		usleep_range(200, 600);
	}
	WRITE_ONCE(stop, true);
	for (i = 0; i < ARRAY_SIZE(l); i++)
		KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&l[i].done,
								  6 * RM_TIMEOUT), 0UL);
	kunit_info(test, "loops: %u and %u rounds", l[0].iters, l[1].iters);
	KUNIT_EXPECT_EQ(test, refused, 0U);
	KUNIT_EXPECT_EQ(test, stale, 0U);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&bad), 0, "first: %d / %d",
			    l[0].first_bad, l[1].first_bad);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_usage(c->dev), 0);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_usage(k->dev), 0);
	KUNIT_EXPECT_PTR_EQ(test, c->dev->parent, cur->dev);
	/* A put while a move held runtime PM disabled made no idle check. */
	dmc_pm_runtime_idle(k->dev);
	KUNIT_EXPECT_TRUE(test, rm_wait_status(k, DMC_RPM_SUSPENDED));
	dmc_pm_runtime_idle(c->dev);
	KUNIT_EXPECT_TRUE(test, rm_wait_status(c, DMC_RPM_SUSPENDED));
	dmc_pm_runtime_idle(cur->dev);
	KUNIT_EXPECT_TRUE(test, rm_wait_status(cur, DMC_RPM_SUSPENDED));
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_active_children(c->dev), 0);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_active_children(cur->dev), 0);
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
}

/* ---- shutdown against autosuspend ---- */

/*
 * An autosuspend pending (its timer armed) when the shutdown comes: the
 * shutdown cancels it (dmc_pm_runtime_barrier() under a usage
 * reference), so no runtime callback runs during the shutdown's callback
 * or after it, the delay long past; the device stays active.
 */
static void rm_shutdown_cancels_pending_autosuspend(struct kunit *test)
{
	const int delay_ms = 300;
	struct rm_world w;
	struct dmm_dev *a;
	ktime_t t0;

	rm_world(test, &w);
	a = rm_dev(test, &w, "a", NULL, true);
	dmc_pm_runtime_set_autosuspend_delay(a->dev, delay_ms);
	dmc_pm_runtime_use_autosuspend(a->dev);
	KUNIT_ASSERT_EQ(test, dmc_pm_runtime_get_sync(a->dev), 0);
	t0 = ktime_get();
	dmc_pm_runtime_mark_last_busy(a->dev);
	KUNIT_ASSERT_EQ(test, dmc_pm_runtime_put_autosuspend(a->dev), 0);
	dmc_shutdown_all();
	dmc_device_unblock_probing();
	if (ktime_ms_delta(ktime_get(), t0) >= delay_ms)
		kunit_skip(test, "the host is too slow: the delay expired before the shutdown");
	KUNIT_EXPECT_EQ(test, atomic_read(&rm(a)->shutdowns), 1);
	/* The autosuspend would have run by now (its timer queues it). */
	msleep(3 * delay_ms);
	KUNIT_EXPECT_EQ(test, atomic_read(&rm(a)->suspends), 0);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_status(a->dev), DMC_RPM_ACTIVE);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_usage(a->dev), 0);
	/* Runtime PM works on after it: an idle check suspends. */
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_suspend(a->dev), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&rm(a)->suspends), 1);
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
}

/*
 * The autosuspend running (held in its callback) when the shutdown comes:
 * the shutdown's callback waits for it, and nothing runs after.
 */
static void rm_shutdown_waits_for_running_autosuspend(struct kunit *test)
{
	struct completion in, go, sd;
	struct rm_side sh;
	struct rm_world w;
	struct dmm_dev *a;

	rm_world(test, &w);
	a = rm_dev(test, &w, "a", NULL, true);
	dmc_pm_runtime_set_autosuspend_delay(a->dev, 1);
	dmc_pm_runtime_use_autosuspend(a->dev);
	KUNIT_ASSERT_EQ(test, dmc_pm_runtime_get_sync(a->dev), 0);
	init_completion(&in);
	init_completion(&go);
	init_completion(&sd);
	rm(a)->s_go = &go;
	rm(a)->sd_in = &sd;
	WRITE_ONCE(rm(a)->s_in, &in);
	dmc_pm_runtime_mark_last_busy(a->dev);
	KUNIT_ASSERT_EQ(test, dmc_pm_runtime_put_autosuspend(a->dev), 0);
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&in, RM_TIMEOUT), 0UL);
	WRITE_ONCE(rm(a)->s_in, NULL);
	if (!rm_side_start(test, &sh, a->dev, rm_shutdown_all)) {
		complete(&go);
		return;
	}
	/* The shutdown waits for the suspend under way (this must not come). */
	KUNIT_EXPECT_EQ(test, wait_for_completion_timeout(&sd, msecs_to_jiffies(200)),
			0UL);
	complete(&go);
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&sh.done, 3 * RM_TIMEOUT), 0UL);
	dmc_device_unblock_probing();
	KUNIT_EXPECT_EQ(test, atomic_read(&rm(a)->shutdowns), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&rm(a)->suspends), 1);
	KUNIT_EXPECT_LT(test, rm_index(test, "rs", a), rm_index(test, "sd", a));
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_status(a->dev), DMC_RPM_SUSPENDED);
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
}

/* ---- a move under a descendant whose lock another thread holds ---- */

struct rm_park {
	struct completion in, go;
	int (*probe)(struct dmc_device *dev);	/* the model's own */
};

static struct rm_park *rm_park_cur;

static int rm_parked_probe(struct dmc_device *dev)
{
	struct rm_park *pk = READ_ONCE(rm_park_cur);

	if (pk) {
		complete(&pk->in);
		wait_for_completion_timeout(&pk->go, 3 * RM_TIMEOUT);
	}
	return pk ? pk->probe(dev) : 0;
}

struct rm_reg {
	struct kunit *test;
	struct dmm_drv *d;
	int ret;
	struct completion done;
};

static int rm_reg_fn(void *arg)
{
	struct rm_reg *r = arg;

	r->ret = dmm_drv_register(r->test, r->d);
	complete(&r->done);
	return 0;
}

struct rm_mv {
	struct dmc_device *dev, *np;
	int ret;
	struct completion done;
};

static int rm_mv_fn(void *arg)
{
	struct rm_mv *m = arg;

	m->ret = dmc_device_move(m->dev, m->np, DMC_DPM_ORDER_NONE);
	complete_all(&m->done);		/* waited for twice */
	return 0;
}

/*
 * A probe of k (a's child) is parked, k's device lock held, when a is
 * moved under k: the move is refused (-EINVAL) at once, without taking
 * k's lock (which would also nest a child's lock over its parent's, the
 * other way from a probe or a shutdown).
 */
static void rm_move_under_descendant_refused_while_locked(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_alloc(test, b, "pd");
	struct rm_reg *reg = kzalloc(sizeof(*reg), GFP_KERNEL);
	struct rm_mv *mv = kzalloc(sizeof(*mv), GFP_KERNEL);
	struct rm_park pk;
	struct task_struct *t;
	struct dmm_dev *a, *k;
	unsigned long moved;

	KUNIT_ASSERT_NOT_NULL(test, reg);
	KUNIT_ASSERT_NOT_NULL(test, mv);
	a = dmm_dev_new(test, "a", b, NULL, NULL);
	k = dmm_dev_new(test, "k", b, a, d);	/* its driver not there yet */
	KUNIT_ASSERT_FALSE(test, dmc_device_is_bound(k->dev));
	init_completion(&pk.in);
	init_completion(&pk.go);
	pk.probe = d->drv.probe;
	d->drv.probe = rm_parked_probe;
	WRITE_ONCE(rm_park_cur, &pk);
	reg->test = test;
	reg->d = d;
	init_completion(&reg->done);
	t = kthread_run(rm_reg_fn, reg, "rm-reg");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&pk.in, RM_TIMEOUT), 0UL);
	/* k's probe holds k's device lock now. */
	mv->dev = a->dev;
	mv->np = k->dev;
	init_completion(&mv->done);
	t = kthread_run(rm_mv_fn, mv, "rm-mv");
	if (IS_ERR(t)) {
		complete(&pk.go);
		KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(t));
		return;		/* reg leaked: its thread may still run */
	}
	moved = wait_for_completion_timeout(&mv->done, RM_TIMEOUT);
	complete(&pk.go);
	KUNIT_EXPECT_NE_MSG(test, moved, 0UL, "the move waited for k's lock");
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&reg->done, 3 * RM_TIMEOUT), 0UL);
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&mv->done, 3 * RM_TIMEOUT), 0UL);
	WRITE_ONCE(rm_park_cur, NULL);
	KUNIT_EXPECT_EQ(test, mv->ret, -EINVAL);
	KUNIT_EXPECT_EQ(test, reg->ret, 0);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(k->dev));
	KUNIT_EXPECT_PTR_EQ(test, a->dev->parent, (struct dmc_device *)NULL);
	KUNIT_EXPECT_PTR_EQ(test, k->dev->parent, a->dev);
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(DMC_INV_QUIESCENT), 0U);
	kfree(mv);
	kfree(reg);
}

static int runtime_move_test_init(struct kunit *test)
{
	rm_nr = 0;
	rm_test = test;
	rm_park_cur = NULL;
	return dmm_init(test, "rm");
}

static struct kunit_case runtime_move_test_cases[] = {
	KUNIT_CASE(rm_set_status_vs_move_and_old_parent_freed),
	KUNIT_CASE(rm_resume_restarts_when_parent_moved),
	KUNIT_CASE(rm_get_put_vs_move_and_old_parent_deleted),
	KUNIT_CASE(rm_shutdown_cancels_pending_autosuspend),
	KUNIT_CASE(rm_shutdown_waits_for_running_autosuspend),
	KUNIT_CASE(rm_move_under_descendant_refused_while_locked),
	{}
};

static struct kunit_suite runtime_move_test_suite = {
	.name = "dmcore-runtime-move",
	.init = runtime_move_test_init,
	.exit = dmct_exit,
	.test_cases = runtime_move_test_cases,
};

kunit_test_suites(&runtime_move_test_suite);
