// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore-kobject-life: kobjects where their life meets the rest of the
 * model.
 *
 * - Raw rename and move of a device's, driver's, bus's or class's kobject
 *   are refused (the model indexes those by name and parent), also while
 *   other threads look the device up by name; a plain kset member's
 *   rename keeps lookups by name exact while they run.
 * - Registration under allocation failure (failslab through
 *   current->fail_nth): a kset under a preset parent, and a bus, leave
 *   every count as it was.
 * - Delayed release (dmcore's release_delay_ms): the release runs after
 *   the last put, never before, and dmc_kobject_flush_releases() runs the
 *   pending ones, also while other threads put.
 *
 * Names are "kl<N>-<name>" (model objects) and "kl-..." (plain ones).
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "model_util.h"

/* ---- raw rename and move of model objects ------------------------------ */

static struct dmc_kobject *kl_lookup(struct kunit *test, const char *fmt,
				     const char *a, const char *b)
{
	const char *path = dmm_str(test, fmt, a, b);
	struct dmc_kobject *kobj = dmc_kobject_lookup_path(path);

	KUNIT_ASSERT_NOT_NULL_MSG(test, kobj, "no %s", path);
	return kobj;
}

/*
 * A device's kobject is in its bus's, class's, parent's and driver's
 * indexes by name and under dev->parent: a raw rename or move is refused
 * with -EOPNOTSUPP, and every lookup still finds it where it was.
 */
static void kobject_rename_move_of_device_refused(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "drv");
	struct dmm_class *c = dmm_class_new(test, "cls");
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	struct dmm_dev *q = dmm_dev_new(test, "q", NULL, NULL, NULL);
	struct dmm_dev *a = dmm_dev_new(test, "a", b, p, d);
	struct dmm_dev *m = dmm_cdev_new(test, "m", c, p);
	const char *path = dmm_path(test, a), *mpath = dmm_path(test, m);
	struct dmc_device *found;
	u64 seq;

	KUNIT_ASSERT_TRUE(test, a->bound);
	seq = dmct_last_seqnum();
	KUNIT_EXPECT_EQ(test, dmc_kobject_rename(&a->dev->kobj, "a2"), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, dmc_kobject_move(&a->dev->kobj, &q->dev->kobj),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, dmc_kobject_move(&a->dev->kobj, NULL), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, dmc_kobject_rename(&m->dev->kobj, "m2"), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, dmc_kobject_move(&m->dev->kobj, &q->dev->kobj),
			-EOPNOTSUPP);

	/* nothing changed, and no "move" event went out */
	KUNIT_EXPECT_STREQ(test, dmm_path(test, a), path);
	KUNIT_EXPECT_STREQ(test, dmm_path(test, m), mpath);
	KUNIT_EXPECT_PTR_EQ(test, a->dev->parent, p->dev);
	KUNIT_EXPECT_EQ(test, dmct_log_count(seq, path), 0U);
	KUNIT_EXPECT_EQ(test, dmct_log_count(seq, mpath), 0U);
	found = dmc_bus_find_device_by_name(&b->bus, a->name);
	KUNIT_EXPECT_PTR_EQ(test, found, a->dev);
	dmm_put_found(found);
	found = dmc_device_find_child_by_name(p->dev, a->name);
	KUNIT_EXPECT_PTR_EQ(test, found, a->dev);
	dmm_put_found(found);
	found = dmc_device_find_child_by_name(q->dev, a->name);
	KUNIT_EXPECT_NULL(test, found);
	dmm_put_found(found);
	found = dmc_class_find_device_by_name(&c->cls, m->name);
	KUNIT_EXPECT_PTR_EQ(test, found, m->dev);
	dmm_put_found(found);
	found = dmc_device_find_child_by_name(p->dev, m->name);
	KUNIT_EXPECT_PTR_EQ(test, found, m->dev);
	dmm_put_found(found);

	/* unregistering finds everything where it was */
	dmm_dev_unregister(a);
	dmm_dev_unregister(m);
	found = dmc_bus_find_device_by_name(&b->bus, a->name);
	KUNIT_EXPECT_NULL(test, found);
	dmm_put_found(found);
}

/* A driver's, a bus's and a class's kobjects are refused the same way. */
static void kobject_rename_move_of_driver_bus_class_refused(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "drv");
	struct dmm_class *c = dmm_class_new(test, "cls");
	struct dmc_kobject *dk, *bk, *ck, *dir;

	dk = kl_lookup(test, "/bus/%s/drivers/%s", b->name, d->name);
	bk = kl_lookup(test, "/bus/%s%s", b->name, "");
	ck = kl_lookup(test, "/class/%s%s", c->name, "");
	dir = dmc_kobject_create_and_add("kl-dir", NULL);
	KUNIT_ASSERT_NOT_NULL(test, dir);

	KUNIT_EXPECT_EQ(test, dmc_kobject_rename(dk, "x"), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, dmc_kobject_move(dk, dir), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, dmc_kobject_rename(bk, "x"), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, dmc_kobject_move(bk, dir), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, dmc_kobject_rename(ck, "x"), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, dmc_kobject_move(ck, dir), -EOPNOTSUPP);

	KUNIT_EXPECT_PTR_EQ(test, dmc_bus_find_driver(&b->bus, d->name), &d->drv);
	KUNIT_EXPECT_PTR_EQ(test, dmc_bus_find(b->name), &b->bus);
	DMCT_EXPECT_STREQ(test, dmc_kobject_name(dk), d->name);
	DMCT_EXPECT_STREQ(test, dmc_kobject_name(ck), c->name);

	/* a plain kobject may still be moved under them and back */
	KUNIT_EXPECT_EQ(test, dmc_kobject_move(dir, ck), 0);
	KUNIT_EXPECT_EQ(test, dmc_kobject_move(dir, NULL), 0);

	dmc_kobject_put(dk);
	dmc_kobject_put(bk);
	dmc_kobject_put(ck);
	dmc_kobject_del(dir);
	dmc_kobject_put(dir);
}

#define KL_RACE_ROUNDS	400

struct kl_race {
	struct kunit *test;
	struct completion go;
	struct completion renamer_done;
	struct completion looker_done;
	struct dmc_kobject *kobj;
	const char *names[2];
	/* device case */
	struct dmc_bus_type *bus;
	struct dmc_device *dev;
	/* plain case */
	struct dmc_kset *kset;
	bool stop;			/* the renamer is done */
	int rename_err[2];		/* first error other than 0, per kind */
	unsigned int renames;
	unsigned int lookups;
	unsigned int misses;		/* found under neither name */
	unsigned int strangers;		/* found something else */
	unsigned int both;		/* found under both names at once */
};

/*
 * Rename back and forth; after each rename wait (at most a second) until
 * the looker, which never waits, has finished one more lookup, so that
 * lookups both overlap renames and follow each one.
 */
static int kl_renamer(void *arg)
{
	struct kl_race *r = arg;
	unsigned long until;
	unsigned int seen;
	int i, err;

	wait_for_completion(&r->go);
	/* an even number of rounds: the last one restores the first name */
	for (i = 1; i <= KL_RACE_ROUNDS; i++) {
		seen = READ_ONCE(r->lookups);
		err = dmc_kobject_rename(r->kobj, r->names[i & 1]);
		if (err && !r->rename_err[0])
			r->rename_err[0] = err;
		if (!err)
			r->renames++;
		until = jiffies + HZ;
		while (READ_ONCE(r->lookups) < seen + 2 &&
		       time_before(jiffies, until))
			usleep_range(20, 50);
	}
	WRITE_ONCE(r->stop, true);
	complete_all(&r->renamer_done);
	return 0;
}

/* Look the device up by its (only) name until the renamer is done. */
static int kl_device_looker(void *arg)
{
	struct kl_race *r = arg;
	struct dmc_device *found;

	wait_for_completion(&r->go);
	while (!READ_ONCE(r->stop)) {
		found = dmc_bus_find_device_by_name(r->bus, r->names[0]);
		if (!found)
			r->misses++;
		else if (found != r->dev)
			r->strangers++;
		dmm_put_found(found);
		WRITE_ONCE(r->lookups, r->lookups + 1);
		cond_resched();
	}
	complete_all(&r->looker_done);
	return 0;
}

static struct kl_race *kl_race_alloc(struct kunit *test)
{
	struct kl_race *r = kzalloc(sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->test = test;
	init_completion(&r->go);
	init_completion(&r->renamer_done);
	init_completion(&r->looker_done);
	return r;
}

/*
 * Run the renamer and @looker on @r. Return false if they did not finish
 * in time: @r is then left to them (leaked), never freed under them.
 */
static bool kl_race_run(struct kunit *test, struct kl_race *r,
			int (*looker)(void *arg))
{
	struct task_struct *t;

	t = kthread_run(kl_renamer, r, "kl-renamer");
	if (IS_ERR(t)) {
		KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(t));
		return true;
	}
	t = kthread_run(looker, r, "kl-looker");
	if (IS_ERR(t)) {
		KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(t));
		complete_all(&r->looker_done);
	}
	complete_all(&r->go);
	if (!wait_for_completion_timeout(&r->renamer_done, 90 * HZ))
		WRITE_ONCE(r->stop, true);	/* at least stop the looker */
	if (!completion_done(&r->renamer_done) ||
	    !wait_for_completion_timeout(&r->looker_done, 30 * HZ)) {
		KUNIT_FAIL(test, "renamer or looker stuck (%u lookups)",
			   READ_ONCE(r->lookups));
		return false;
	}
	return true;
}

/*
 * One thread renames a bound device's kobject back and forth while
 * another looks it up on its bus by name: every rename is refused, and
 * every lookup finds the device. (Before the refusal the bus index kept
 * hashing the old name: the lookups missed.)
 */
static void kobject_rename_of_device_refused_under_concurrent_lookup(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "drv");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);
	struct kl_race *r = kl_race_alloc(test);
	const char *path = dmm_path(test, a);

	r->kobj = &a->dev->kobj;
	r->bus = &b->bus;
	r->dev = a->dev;
	r->names[0] = a->name;
	r->names[1] = dmm_str(test, "%s-renamed", a->name);
	KUNIT_ASSERT_TRUE(test, kl_race_run(test, r, kl_device_looker));

	KUNIT_EXPECT_EQ(test, r->renames, 0U);
	KUNIT_EXPECT_EQ(test, r->rename_err[0], -EOPNOTSUPP);
	KUNIT_EXPECT_GT(test, r->lookups, 0U);
	KUNIT_EXPECT_EQ(test, r->misses, 0U);
	KUNIT_EXPECT_EQ(test, r->strangers, 0U);
	KUNIT_EXPECT_STREQ(test, dmm_path(test, a), path);
	KUNIT_EXPECT_TRUE(test, a->bound);
	kfree(r);
}

/*
 * Look the plain member up by both names until the renamer is done: it
 * is always under one of them (a lookup of the old name then the new one
 * may straddle a rename, so look again when both miss: two misses in a
 * row cannot straddle two renames that each keep one name present).
 */
static int kl_kset_looker(void *arg)
{
	struct kl_race *r = arg;
	struct dmc_kobject *x, *y;
	int tries;

	wait_for_completion(&r->go);
	while (!READ_ONCE(r->stop)) {
		for (tries = 0; tries < 3; tries++) {
			x = dmc_kset_find_obj(r->kset, r->names[0]);
			y = dmc_kset_find_obj(r->kset, r->names[1]);
			if ((x && x != r->kobj) || (y && y != r->kobj))
				r->strangers++;
			dmc_kobject_put(x);
			dmc_kobject_put(y);
			if (x || y)
				break;
		}
		if (tries == 3)
			r->misses++;
		WRITE_ONCE(r->lookups, r->lookups + 1);
		cond_resched();
	}
	complete_all(&r->looker_done);
	return 0;
}

/*
 * A plain kset member may be renamed: its kset index follows, and a
 * lookup by name running meanwhile finds it under one of its names and
 * never finds anything else.
 */
static void kobject_rename_of_kset_member_under_concurrent_lookup(struct kunit *test)
{
	struct dmc_kset *k = dmct_kset_create(test, "kl-race", NULL, NULL);
	struct dmct_obj *m = dmct_obj_add(test, NULL, k, "kl-m");
	struct kl_race *r = kl_race_alloc(test);
	struct dmc_kobject *found;

	r->kobj = &m->kobj;
	r->kset = k;
	r->names[0] = "kl-m";
	r->names[1] = "kl-m2";
	KUNIT_ASSERT_TRUE(test, kl_race_run(test, r, kl_kset_looker));

	KUNIT_EXPECT_EQ(test, r->rename_err[0], 0);
	KUNIT_EXPECT_EQ(test, r->renames, (unsigned int)KL_RACE_ROUNDS);
	KUNIT_EXPECT_GT(test, r->lookups, 0U);
	KUNIT_EXPECT_EQ(test, r->misses, 0U);
	KUNIT_EXPECT_EQ(test, r->strangers, 0U);
	found = dmc_kset_find_obj(k, "kl-m");
	KUNIT_EXPECT_PTR_EQ(test, found, &m->kobj);
	dmc_kobject_put(found);
	found = dmc_kset_find_obj(k, "kl-m2");
	KUNIT_EXPECT_NULL(test, found);
	dmc_kobject_put(found);
	dmct_expect_path(test, &m->kobj, "/kl-race/kl-m");
	dmct_del_put(&m->kobj);
	dmct_kset_unregister(test, k);
	kfree(r);
}

/* ---- registration under allocation failure ------------------------------ */

#if IS_ENABLED(CONFIG_FAILSLAB)

/*
 * failslab ignores GFP_KERNEL allocations unless its ignore-gfp-wait is
 * N, and a module cannot write that debugfs file itself (kernel_write()
 * needs write_iter): tests/guest/kunit.sh sets it (and verbose=1, one
 * line per forced failure, no stack). Its probability stays 0, so only
 * current->fail_nth ever fails an allocation, and only in this thread.
 */
#define KL_FAILSLAB_HINT \
	"no allocation failed: is /sys/kernel/debug/failslab/ignore-gfp-wait N? (tests/guest/kunit.sh sets it)"

#define KL_MAX_NTH	256

/*
 * dmc_kset_create_and_add() under a parent, with its n-th allocation
 * failing, for every n until one succeeds: each failure leaves the
 * parent's count as it was. (Before the fix, a failure between the
 * kset's init and its add dropped a parent reference the kset never
 * took.)
 */
static void kset_create_under_parent_fails_cleanly_at_every_allocation(struct kunit *test)
{
	struct dmct_obj *p = dmct_obj_add(test, NULL, NULL, "kl-fparent");
	unsigned int rp = dmc_kobject_refcount(&p->kobj);
	unsigned int nth, left, failures = 0;
	struct dmc_kset *k;
	bool done = false;

	/* an extra reference, so that a wrong put shows as a count, not a crash */
	dmc_kobject_get(&p->kobj);
	for (nth = 1; nth <= KL_MAX_NTH; nth++) {
		current->fail_nth = nth;
		k = dmc_kset_create_and_add("kl-fsub", NULL, &p->kobj);
		left = current->fail_nth;
		current->fail_nth = 0;
		if (k) {
			/* the failed allocation, if any, was not fatal */
			KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&p->kobj), rp + 2);
			dmc_kset_unregister(k);
			done = left > 0;	/* nothing failed: all covered */
		} else {
			failures++;
		}
		dmc_kobject_flush_releases();
		KUNIT_EXPECT_EQ_MSG(test, dmc_kobject_refcount(&p->kobj), rp + 1,
				    "parent's count after failing allocation %u",
				    nth);
		if (done)
			break;
	}
	KUNIT_EXPECT_GT_MSG(test, failures, 0U, KL_FAILSLAB_HINT);
	KUNIT_EXPECT_TRUE_MSG(test, done, "still failing after %u", KL_MAX_NTH);
	dmc_kobject_put(&p->kobj);
	dmct_del_put(&p->kobj);
}

/*
 * dmc_bus_register() with its n-th allocation failing, for every n until
 * one succeeds: each failure returns -ENOMEM and leaves no bus, no
 * kobject and nothing for KASAN. (Before the fix, a failure making the
 * bus's devices/ set put the bus's own kobject: use after free.)
 */
static void bus_register_fails_cleanly_at_every_allocation(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_alloc(test, "fbus");
	unsigned int nth, left, failures = 0;
	struct dmc_kobject *kobj;
	bool done = false;
	int err;

	for (nth = 1; nth <= KL_MAX_NTH; nth++) {
		current->fail_nth = nth;
		err = dmc_bus_register(&b->bus);
		left = current->fail_nth;
		current->fail_nth = 0;
		if (!err) {
			/* the failed allocation, if any, was not fatal */
			KUNIT_EXPECT_PTR_EQ(test, dmc_bus_find(b->name), &b->bus);
			dmc_bus_unregister(&b->bus);
			done = left > 0;	/* nothing failed: all covered */
		} else {
			failures++;
			KUNIT_EXPECT_EQ(test, err, -ENOMEM);
		}
		dmc_kobject_flush_releases();
		KUNIT_EXPECT_FALSE(test, dmc_bus_is_registered(&b->bus));
		KUNIT_EXPECT_NULL(test, dmc_bus_find(b->name));
		kobj = dmm_bus_kobj(b->name);
		KUNIT_EXPECT_NULL_MSG(test, kobj, "bus kobject left after %u", nth);
		dmc_kobject_put(kobj);
		if (done)
			break;
	}
	KUNIT_EXPECT_GT_MSG(test, failures, 0U, KL_FAILSLAB_HINT);
	KUNIT_EXPECT_TRUE_MSG(test, done, "still failing after %u", KL_MAX_NTH);
}

#else

static void kset_create_under_parent_fails_cleanly_at_every_allocation(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_FAILSLAB");
}

static void bus_register_fails_cleanly_at_every_allocation(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_FAILSLAB");
}

#endif

/*
 * A kset registered without a name under a preset parent fails, and the
 * put its contract asks for leaves the parent's count as it was.
 */
static void kset_register_failure_under_parent_keeps_parent_count(struct kunit *test)
{
	struct dmct_obj *p = dmct_obj_add(test, NULL, NULL, "kl-nparent");
	struct dmct_kset *k = dmct_kset_alloc(test, true);
	struct dmct_rec *rec = k->rec;	/* k is freed by its release */
	unsigned int rp = dmc_kobject_refcount(&p->kobj);

	dmc_kobject_get(&p->kobj);	/* a wrong put shows as a count */
	k->kset.kobj.parent = &p->kobj;
	KUNIT_EXPECT_EQ(test, dmc_kset_register(&k->kset), -EINVAL);
	rec->initialized = true;
	dmc_kset_put(&k->kset);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, rec->released, 1U);
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&p->kobj), rp + 1);
	dmc_kobject_put(&p->kobj);
	dmct_del_put(&p->kobj);
}

/* ---- delayed release ------------------------------------------------------- */

/*
 * The release runs at the last put without release_delay_ms, and not
 * before release_delay_ms with it; flushing runs it, and its parent's
 * (whose last reference was the child's) after it.
 */
static void kobject_release_runs_after_delay_or_at_last_put(struct kunit *test)
{
	unsigned int delay = dmc_kobject_release_delay_ms();
	struct dmct_obj *p = dmct_obj_add(test, NULL, NULL, "kl-dparent");
	struct dmct_obj *c = dmct_obj_add(test, &p->kobj, NULL, "child");
	struct dmct_rec *rp = p->rec, *rc = c->rec;
	unsigned long t0;

	dmct_del_put(&p->kobj);		/* deletes the child too */
	KUNIT_EXPECT_EQ(test, rp->released, 0U);
	t0 = jiffies;
	dmc_kobject_put(&c->kobj);
	if (!delay) {
		KUNIT_EXPECT_EQ(test, rc->released, 1U);
		KUNIT_EXPECT_EQ(test, rp->released, 1U);
		KUNIT_EXPECT_LT(test, rc->release_seq, rp->release_seq);
		return;
	}
	/* not released before the delay, unless this thread slept that long */
	if (time_before(jiffies, t0 + msecs_to_jiffies(delay)))
		KUNIT_EXPECT_EQ(test, rc->released, 0U);
	KUNIT_EXPECT_EQ(test, rp->released, 0U);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, rc->released, 1U);
	KUNIT_EXPECT_EQ(test, rp->released, 1U);
	KUNIT_EXPECT_LT(test, rc->release_seq, rp->release_seq);
}

#define KL_PUTTERS	2
#define KL_PUT_NR	64

struct kl_putter {
	struct completion *go;
	struct completion done;
	struct dmct_obj **objs;
	struct dmct_rec **recs;		/* objs are freed by their release */
};

static int kl_put_thread(void *arg)
{
	struct kl_putter *pt = arg;
	int i;

	wait_for_completion(pt->go);
	for (i = 0; i < KL_PUT_NR; i++) {
		dmct_del_put(&pt->objs[i]->kobj);
		if (!(i % 8))
			cond_resched();
	}
	complete(&pt->done);
	return 0;
}

/*
 * Threads put objects (last puts) while this one flushes: once the
 * threads are done, one more flush leaves every object released exactly
 * once, whatever the delay.
 */
static void kobject_flush_releases_while_others_put(struct kunit *test)
{
	struct kl_putter *pt = kunit_kcalloc(test, KL_PUTTERS, sizeof(*pt), GFP_KERNEL);
	struct completion go;
	struct task_struct *t;
	int i, j;

	KUNIT_ASSERT_NOT_NULL(test, pt);
	init_completion(&go);
	for (i = 0; i < KL_PUTTERS; i++) {
		pt[i].go = &go;
		init_completion(&pt[i].done);
		pt[i].objs = kunit_kcalloc(test, KL_PUT_NR, sizeof(*pt[i].objs),
					   GFP_KERNEL);
		pt[i].recs = kunit_kcalloc(test, KL_PUT_NR, sizeof(*pt[i].recs),
					   GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, pt[i].objs);
		KUNIT_ASSERT_NOT_NULL(test, pt[i].recs);
		for (j = 0; j < KL_PUT_NR; j++) {
			pt[i].objs[j] = dmct_obj_add(test, NULL, NULL, "kl-put%d-%d",
						     i, j);
			pt[i].recs[j] = pt[i].objs[j]->rec;
		}
	}
	for (i = 0; i < KL_PUTTERS; i++) {
		t = kthread_run(kl_put_thread, &pt[i], "kl-put%d", i);
		if (IS_ERR(t)) {
			complete(&pt[i].done);
			KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(t));
		}
	}
	complete_all(&go);
	for (i = 0; i < KL_PUTTERS; i++)
		while (!completion_done(&pt[i].done)) {
			dmc_kobject_flush_releases();
			usleep_range(200, 500);
		}
	dmc_kobject_flush_releases();
	for (i = 0; i < KL_PUTTERS; i++)
		for (j = 0; j < KL_PUT_NR; j++)
			KUNIT_EXPECT_EQ(test, pt[i].recs[j]->released, 1U);
}

static int kobject_life_test_init(struct kunit *test)
{
	return dmm_init(test, "kl");
}

static struct kunit_case kobject_life_test_cases[] = {
	KUNIT_CASE(kobject_rename_move_of_device_refused),
	KUNIT_CASE(kobject_rename_move_of_driver_bus_class_refused),
	KUNIT_CASE(kobject_rename_of_device_refused_under_concurrent_lookup),
	KUNIT_CASE(kobject_rename_of_kset_member_under_concurrent_lookup),
	KUNIT_CASE(kset_register_failure_under_parent_keeps_parent_count),
	KUNIT_CASE(kset_create_under_parent_fails_cleanly_at_every_allocation),
	KUNIT_CASE(bus_register_fails_cleanly_at_every_allocation),
	KUNIT_CASE(kobject_release_runs_after_delay_or_at_last_put),
	KUNIT_CASE(kobject_flush_releases_while_others_put),
	{}
};

static struct kunit_suite kobject_life_test_suite = {
	.name = "dmcore-kobject-life",
	.init = kobject_life_test_init,
	.exit = dmm_exit,
	.test_cases = kobject_life_test_cases,
};

kunit_test_suites(&kobject_life_test_suite);
