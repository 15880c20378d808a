// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore-device-move: dmc_device_rename() and dmc_device_move().
 *
 * Sequential: the "move" event with DEVPATH_OLD; every index that finds
 * a device by name or parent follows (tree, bus, class, parent's
 * children, the bus's devices/, the class's and the driver's links);
 * refused input (bad names, clashes, cycles, dead devices, a device on
 * under a suspended parent) changes nothing and sends nothing; the power
 * order after a move, for each dmc_dpm_order.
 *
 * Concurrent (kthreads and completions): a rename against lookups by
 * name on the bus; a rename against the device's deletion; a move against
 * the deletion of the old parent (free-running, and forced: the deletion
 * parked in a bus notifier while it walks the children) and of the new
 * parent; a move against
 * system suspend and resume; a rename against unbind and bind. Each ends
 * with the model's invariant check.
 *
 * Names are "mv<N>-<name>".
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <dmcore/invariants.h>
#include <dmcore/pm_runtime.h>
#include "model_util.h"

/* The link @name in the directory at @dir_path, or NULL. */
static struct dmc_kobject *mv_link(struct kunit *test, const char *dir_path,
				   const char *name)
{
	struct dmc_kobject *dir = dmc_kobject_lookup_path(dir_path);
	struct dmc_kobject *target;

	KUNIT_ASSERT_NOT_NULL_MSG(test, dir, "no %s", dir_path);
	target = dmc_kobject_find_link(dir, name);
	dmc_kobject_put(dir);
	return target;
}

/* Does the link @name in @dir_path point at @d? */
static bool mv_link_is(struct kunit *test, const char *dir_path, const char *name,
		       struct dmm_dev *d)
{
	struct dmc_kobject *target = mv_link(test, dir_path, name);
	bool is = target == &d->dev->kobj;

	dmc_kobject_put(target);
	return is;
}

static bool mv_on_bus(struct dmm_bus *b, const char *name, struct dmm_dev *d)
{
	struct dmc_device *found = dmc_bus_find_device_by_name(&b->bus, name);
	bool is = found && found == d->dev;

	dmm_put_found(found);
	return is;
}

static bool mv_in_class(struct dmm_class *c, const char *name, struct dmm_dev *d)
{
	struct dmc_device *found = dmc_class_find_device_by_name(&c->cls, name);
	bool is = found && found == d->dev;

	dmm_put_found(found);
	return is;
}

static bool mv_child_of(struct dmm_dev *p, const char *name, struct dmm_dev *d)
{
	struct dmc_device *found = dmc_device_find_child_by_name(p->dev, name);
	bool is = found && found == d->dev;

	dmm_put_found(found);
	return is;
}

/* ---- rename -------------------------------------------------------------- */

/*
 * A bound bus device and a class device renamed: the path, the bus's and
 * class's indexes, the parent's children, the bus's devices/, the class's
 * directory and the driver's directory all follow; "move" carries
 * DEVPATH_OLD.
 */
static void device_rename_updates_every_index(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "drv");
	struct dmm_class *c = dmm_class_new(test, "cls");
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	struct dmm_dev *a = dmm_dev_new(test, "a", b, p, d);
	struct dmm_dev *m = dmm_cdev_new(test, "m", c, p);
	const char *old = dmm_path(test, a), *mold = dmm_path(test, m);
	const char *an = dmm_name(test, "a2"), *mn = dmm_name(test, "m2");
	const char *busdir = dmm_str(test, "/bus/%s/devices", b->name);
	const char *drvdir = dmm_str(test, "/bus/%s/drivers/%s", b->name, d->name);
	const char *clsdir = dmm_str(test, "/class/%s", c->name);
	u64 seq;

	KUNIT_ASSERT_TRUE(test, a->bound);
	seq = dmct_last_seqnum();
	KUNIT_ASSERT_EQ(test, dmc_device_rename(a->dev, an), 0);
	KUNIT_ASSERT_EQ(test, dmc_device_rename(m->dev, mn), 0);

	KUNIT_EXPECT_STREQ(test, dmc_dev_name(a->dev), an);
	KUNIT_EXPECT_STREQ(test, dmm_path(test, a),
			   dmm_str(test, "%s/%s", dmm_path(test, p), an));
	KUNIT_EXPECT_TRUE(test, mv_on_bus(b, an, a));
	KUNIT_EXPECT_FALSE(test, mv_on_bus(b, a->name, a));
	KUNIT_EXPECT_TRUE(test, mv_child_of(p, an, a));
	KUNIT_EXPECT_FALSE(test, mv_child_of(p, a->name, a));
	KUNIT_EXPECT_TRUE(test, mv_link_is(test, busdir, an, a));
	KUNIT_EXPECT_FALSE(test, mv_link_is(test, busdir, a->name, a));
	KUNIT_EXPECT_TRUE(test, mv_link_is(test, drvdir, an, a));
	KUNIT_EXPECT_FALSE(test, mv_link_is(test, drvdir, a->name, a));
	KUNIT_EXPECT_TRUE(test, mv_in_class(c, mn, m));
	KUNIT_EXPECT_FALSE(test, mv_in_class(c, m->name, m));
	KUNIT_EXPECT_TRUE(test, mv_link_is(test, clsdir, mn, m));
	KUNIT_EXPECT_FALSE(test, mv_link_is(test, clsdir, m->name, m));
	KUNIT_EXPECT_TRUE(test, mv_child_of(p, mn, m));

	/* the events, each with the old path */
	DMCT_EXPECT_STREQ(test, dmm_ev_var(test, seq, DMC_KOBJ_MOVE, dmm_path(test, a),
					   "DEVPATH_OLD"), old);
	DMCT_EXPECT_STREQ(test, dmm_ev_var(test, seq, DMC_KOBJ_MOVE, dmm_path(test, m),
					   "DEVPATH_OLD"), mold);
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(DMC_INV_QUIESCENT), 0U);

	/* the same name again: nothing to do, no event */
	seq = dmct_last_seqnum();
	KUNIT_EXPECT_EQ(test, dmc_device_rename(a->dev, an), 0);
	KUNIT_EXPECT_EQ(test, dmct_log_count(seq, dmm_path(test, a)), 0U);

	/* a name of one of the bound driver's files: refused, nothing changes */
	seq = dmct_last_seqnum();
	KUNIT_EXPECT_EQ(test, dmc_device_rename(a->dev, "unbind"), -EEXIST);
	KUNIT_EXPECT_STREQ(test, dmc_dev_name(a->dev), an);
	KUNIT_EXPECT_TRUE(test, mv_link_is(test, drvdir, an, a));
	KUNIT_EXPECT_EQ(test, dmct_log_count(seq, dmm_path(test, a)), 0U);

	/* and back: the driver still unbinds it by its new old name */
	KUNIT_EXPECT_EQ(test, dmc_device_rename(a->dev, a->name), 0);
	KUNIT_EXPECT_TRUE(test, mv_on_bus(b, a->name, a));
	dmm_dev_unregister(a);
	KUNIT_EXPECT_FALSE(test, mv_on_bus(b, a->name, a));
}

/*
 * Refused: bad names, a name taken under the parent, on the bus (another
 * parent) or in the class, a reserved name, a deleted device. Each with
 * its errno, and nothing changes or is sent.
 */
static void device_rename_refused_changes_nothing(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_class *c = dmm_class_new(test, "cls");
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	struct dmm_dev *q = dmm_dev_new(test, "q", NULL, NULL, NULL);
	struct dmm_dev *a = dmm_dev_new(test, "a", b, p, NULL);
	struct dmm_dev *s = dmm_dev_new(test, "s", NULL, p, NULL);
	struct dmm_dev *o = dmm_dev_new(test, "o", b, q, NULL);
	struct dmm_dev *m = dmm_cdev_new(test, "m", c, p);
	struct dmm_dev *n = dmm_cdev_new(test, "n", c, q);
	struct dmm_dev *gone = dmm_dev_new(test, "gone", b, p, NULL);
	const char *path = dmm_path(test, a), *mpath = dmm_path(test, m);
	char *huge;
	u64 seq;

	huge = kunit_kzalloc(test, DMC_NAME_MAX + 2, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, huge);
	memset(huge, 'x', DMC_NAME_MAX + 1);
	dmm_dev_get(gone);
	dmm_dev_del(gone);

	seq = dmct_last_seqnum();
	KUNIT_EXPECT_EQ(test, dmc_device_rename(a->dev, ""), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_device_rename(a->dev, "x/y"), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_device_rename(a->dev, "."), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_device_rename(a->dev, ".."), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_device_rename(a->dev, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_device_rename(NULL, "x"), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_device_rename(a->dev, huge), -ENAMETOOLONG);
	KUNIT_EXPECT_EQ(test, dmc_device_rename(a->dev, s->name), -EEXIST);
	KUNIT_EXPECT_EQ(test, dmc_device_rename(a->dev, o->name), -EEXIST);
	KUNIT_EXPECT_EQ(test, dmc_device_rename(a->dev, "uevent"), -EEXIST);
	KUNIT_EXPECT_EQ(test, dmc_device_rename(a->dev, "power"), -EEXIST);
	KUNIT_EXPECT_EQ(test, dmc_device_rename(m->dev, n->name), -EEXIST);
	KUNIT_EXPECT_EQ(test, dmc_device_rename(gone->dev, "gone2"), -ENODEV);

	KUNIT_EXPECT_STREQ(test, dmm_path(test, a), path);
	KUNIT_EXPECT_STREQ(test, dmm_path(test, m), mpath);
	KUNIT_EXPECT_TRUE(test, mv_on_bus(b, a->name, a));
	KUNIT_EXPECT_TRUE(test, mv_on_bus(b, o->name, o));
	KUNIT_EXPECT_TRUE(test, mv_child_of(p, a->name, a));
	KUNIT_EXPECT_TRUE(test, mv_in_class(c, m->name, m));
	KUNIT_EXPECT_TRUE(test, mv_in_class(c, n->name, n));
	KUNIT_EXPECT_STREQ(test, dmc_dev_name(gone->dev), gone->name);
	KUNIT_EXPECT_EQ(test, dmct_log_count(seq, "/devices"), 0U);
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(DMC_INV_QUIESCENT), 0U);
	dmm_dev_put(gone);
}

/* ---- move ------------------------------------------------------------------ */

/*
 * A device with a child moved to another parent, then to the top level;
 * a parentless class device to the top level (devices/virtual/CLASS) and
 * under a parent. The parent, the children lists, the paths below and
 * the events follow.
 */
static void device_move_updates_parent_and_children(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_class *c = dmm_class_new(test, "cls");
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	struct dmm_dev *q = dmm_dev_new(test, "q", NULL, NULL, NULL);
	struct dmm_dev *a = dmm_dev_new(test, "a", b, p, NULL);
	struct dmm_dev *k = dmm_dev_new(test, "k", b, a, NULL);
	struct dmm_dev *m = dmm_cdev_new(test, "m", c, NULL);
	const char *old = dmm_path(test, a), *mold = dmm_path(test, m);
	u64 seq;

	seq = dmct_last_seqnum();
	KUNIT_ASSERT_EQ(test, dmc_device_move(a->dev, q->dev,
					      DMC_DPM_ORDER_DEV_AFTER_PARENT), 0);
	KUNIT_EXPECT_PTR_EQ(test, a->dev->parent, q->dev);
	KUNIT_EXPECT_STREQ(test, dmm_path(test, a),
			   dmm_str(test, "%s/%s", dmm_path(test, q), a->name));
	KUNIT_EXPECT_STREQ(test, dmm_path(test, k),
			   dmm_str(test, "%s/%s", dmm_path(test, a), k->name));
	KUNIT_EXPECT_TRUE(test, mv_child_of(q, a->name, a));
	KUNIT_EXPECT_FALSE(test, mv_child_of(p, a->name, a));
	KUNIT_EXPECT_TRUE(test, mv_child_of(a, k->name, k));
	KUNIT_EXPECT_TRUE(test, mv_on_bus(b, a->name, a));
	DMCT_EXPECT_STREQ(test, dmm_ev_var(test, seq, DMC_KOBJ_MOVE, dmm_path(test, a),
					   "DEVPATH_OLD"), old);

	/* the same parent again: nothing, no event */
	seq = dmct_last_seqnum();
	KUNIT_EXPECT_EQ(test, dmc_device_move(a->dev, q->dev, DMC_DPM_ORDER_NONE), 0);
	KUNIT_EXPECT_EQ(test, dmct_log_count(seq, "/devices"), 0U);

	/* to the top level */
	KUNIT_ASSERT_EQ(test, dmc_device_move(a->dev, NULL, DMC_DPM_ORDER_DEV_LAST), 0);
	KUNIT_EXPECT_NULL(test, a->dev->parent);
	KUNIT_EXPECT_STREQ(test, dmm_path(test, a), dmm_str(test, "/devices/%s", a->name));
	KUNIT_EXPECT_FALSE(test, mv_child_of(q, a->name, a));

	/* a class device: under a parent, and back to devices/virtual/CLASS */
	KUNIT_ASSERT_EQ(test, dmc_device_move(m->dev, p->dev, DMC_DPM_ORDER_NONE), 0);
	KUNIT_EXPECT_STREQ(test, dmm_path(test, m),
			   dmm_str(test, "%s/%s", dmm_path(test, p), m->name));
	KUNIT_EXPECT_TRUE(test, mv_child_of(p, m->name, m));
	KUNIT_EXPECT_TRUE(test, mv_in_class(c, m->name, m));
	KUNIT_ASSERT_EQ(test, dmc_device_move(m->dev, NULL, DMC_DPM_ORDER_NONE), 0);
	KUNIT_EXPECT_STREQ(test, dmm_path(test, m), mold);
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(DMC_INV_QUIESCENT), 0U);

	/* deleting the old parent leaves the moved device alone */
	dmm_dev_unregister(p);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_registered(a->dev));
	KUNIT_EXPECT_TRUE(test, dmc_device_is_registered(m->dev));
	/* deleting the new one takes it along */
	KUNIT_ASSERT_EQ(test, dmc_device_move(a->dev, q->dev, DMC_DPM_ORDER_NONE), 0);
	dmm_dev_unregister(q);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_registered(a->dev));
	KUNIT_EXPECT_FALSE(test, dmc_device_is_registered(k->dev));
}

/*
 * Refused: itself or a descendant as the new parent, a new parent that
 * depends on the device through a link, a deleted device or new parent,
 * an order out of range, a name taken under the new parent, a device on
 * under a suspended parent. Nothing changes, nothing is sent.
 */
static void device_move_refused_changes_nothing(struct kunit *test)
{
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	struct dmm_dev *q = dmm_dev_new(test, "q", NULL, NULL, NULL);
	struct dmm_dev *a = dmm_dev_new(test, "a", NULL, p, NULL);
	struct dmm_dev *k = dmm_dev_new(test, "k", NULL, a, NULL);
	struct dmm_dev *r = dmm_dev_new(test, "r", NULL, NULL, NULL);
	struct dmm_dev *a2 = dmm_dev_alloc(test, "a");	/* same name as a, under q */
	struct dmm_dev *gone = dmm_dev_new(test, "gone", NULL, NULL, NULL);
	struct dmm_dev *s = dmm_dev_new(test, "s", NULL, NULL, NULL);
	struct dmc_device_link *link;
	const char *path = dmm_path(test, a);
	u64 seq;

	a2->dev->parent = q->dev;
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a2), 0);
	link = dmc_device_link_add(r->dev, a->dev, 0);	/* r depends on a */
	KUNIT_ASSERT_FALSE(test, IS_ERR(link));
	dmm_dev_get(gone);
	dmm_dev_del(gone);

	seq = dmct_last_seqnum();
	KUNIT_EXPECT_EQ(test, dmc_device_move(a->dev, a->dev, DMC_DPM_ORDER_NONE), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_device_move(a->dev, k->dev, DMC_DPM_ORDER_NONE), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_device_move(a->dev, r->dev, DMC_DPM_ORDER_NONE), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_device_move(a->dev, gone->dev, DMC_DPM_ORDER_NONE), -ENOENT);
	KUNIT_EXPECT_EQ(test, dmc_device_move(gone->dev, q->dev, DMC_DPM_ORDER_NONE), -ENODEV);
	KUNIT_EXPECT_EQ(test, dmc_device_move(a->dev, q->dev, 17), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_device_move(NULL, q->dev, DMC_DPM_ORDER_NONE), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_device_move(a->dev, q->dev, DMC_DPM_ORDER_NONE), -EEXIST);
	KUNIT_ASSERT_EQ(test, dmc_device_suspend(s->dev), 0);
	KUNIT_EXPECT_EQ(test, dmc_device_move(k->dev, s->dev, DMC_DPM_ORDER_NONE), -EBUSY);
	KUNIT_EXPECT_PTR_EQ(test, k->dev->parent, a->dev);
	KUNIT_EXPECT_EQ(test, dmct_log_count(seq, "/devices"), 0U);
	/* a suspended device may go under a suspended parent */
	KUNIT_EXPECT_EQ(test, dmc_device_suspend(k->dev), 0);
	KUNIT_EXPECT_EQ(test, dmc_device_move(k->dev, s->dev, DMC_DPM_ORDER_NONE), 0);
	KUNIT_EXPECT_EQ(test, dmc_device_resume(s->dev), 0);
	KUNIT_EXPECT_EQ(test, dmc_device_resume(k->dev), 0);
	seq = dmct_last_seqnum();

	KUNIT_EXPECT_STREQ(test, dmm_path(test, a), path);
	KUNIT_EXPECT_PTR_EQ(test, a->dev->parent, p->dev);
	KUNIT_EXPECT_TRUE(test, mv_child_of(p, a->name, a));
	KUNIT_EXPECT_TRUE(test, mv_child_of(q, a2->name, a2));
	KUNIT_EXPECT_EQ(test, dmct_log_count(seq, "/devices"), 0U);
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(DMC_INV_QUIESCENT), 0U);
	dmm_dev_put(gone);
}

/* ---- the power order after a move ---------------------------------------- */

struct mv_pos {
	struct dmc_device *devs[4];
	int pos[4];
	int n;
};

static int mv_pos_fn(struct dmc_device *dev, void *data)
{
	struct mv_pos *mp = data;
	int i;

	for (i = 0; i < 4; i++)
		if (mp->devs[i] == dev)
			mp->pos[i] = mp->n;
	mp->n++;
	return 0;
}

/* Positions of @a, @b, @c, @d in the power order (-1: not in it). */
static struct mv_pos mv_positions(struct dmm_dev *a, struct dmm_dev *b,
				  struct dmm_dev *c, struct dmm_dev *d)
{
	struct mv_pos mp = { .devs = { a->dev, b->dev, c->dev, d->dev },
			     .pos = { -1, -1, -1, -1 } };

	dmc_dpm_walk(&mp, mv_pos_fn);
	return mp;
}

/*
 * Under each order: p, a (under p), k (under a) and then q and z added;
 * a moved under q, which came after it. Every order leaves q before a
 * before k; the orders that move to the tail also put a after z. With
 * the new parent before the device already, NONE and PARENT_BEFORE_DEV
 * leave the order alone.
 */
static void device_move_power_order_each_order(struct kunit *test)
{
	static const enum dmc_dpm_order orders[] = {
		DMC_DPM_ORDER_NONE, DMC_DPM_ORDER_DEV_AFTER_PARENT,
		DMC_DPM_ORDER_PARENT_BEFORE_DEV, DMC_DPM_ORDER_DEV_LAST,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(orders); i++) {
		struct dmm_dev *p = dmm_dev_new(test, dmm_str(test, "p%u", i), NULL, NULL, NULL);
		struct dmm_dev *a = dmm_dev_new(test, dmm_str(test, "a%u", i), NULL, p, NULL);
		struct dmm_dev *k = dmm_dev_new(test, dmm_str(test, "k%u", i), NULL, a, NULL);
		struct dmm_dev *q = dmm_dev_new(test, dmm_str(test, "q%u", i), NULL, NULL, NULL);
		struct dmm_dev *z = dmm_dev_new(test, dmm_str(test, "z%u", i), NULL, NULL, NULL);
		struct dmm_dev *w = dmm_dev_new(test, dmm_str(test, "w%u", i), NULL, NULL, NULL);
		struct mv_pos mp;

		KUNIT_ASSERT_EQ(test, dmc_device_move(a->dev, q->dev, orders[i]), 0);
		mp = mv_positions(q, a, k, z);
		KUNIT_EXPECT_LT_MSG(test, mp.pos[0], mp.pos[1], "order %s: q before a",
				    dmc_dpm_order_name(orders[i]));
		KUNIT_EXPECT_LT_MSG(test, mp.pos[1], mp.pos[2], "order %s: a before k",
				    dmc_dpm_order_name(orders[i]));
		KUNIT_EXPECT_LT_MSG(test, mp.pos[3], mp.pos[1], "order %s: a after z",
				    dmc_dpm_order_name(orders[i]));

		/* now under w, which comes before a: only the tail orders move it */
		mp = mv_positions(w, a, k, z);
		KUNIT_ASSERT_LT(test, mp.pos[0], mp.pos[1]);
		KUNIT_ASSERT_EQ(test, dmc_device_move(a->dev, w->dev, orders[i]), 0);
		{
			struct dmm_dev *y = dmm_dev_new(test, dmm_str(test, "y%u", i),
							NULL, NULL, NULL);
			struct mv_pos before = mv_positions(w, a, k, y);

			KUNIT_ASSERT_EQ(test, dmc_device_move(a->dev, q->dev, orders[i]), 0);
			mp = mv_positions(q, a, k, y);
			KUNIT_EXPECT_LT(test, mp.pos[0], mp.pos[1]);
			KUNIT_EXPECT_LT(test, mp.pos[1], mp.pos[2]);
			if (orders[i] == DMC_DPM_ORDER_DEV_AFTER_PARENT ||
			    orders[i] == DMC_DPM_ORDER_DEV_LAST)
				KUNIT_EXPECT_LT_MSG(test, mp.pos[3], mp.pos[1],
						    "order %s: to the tail",
						    dmc_dpm_order_name(orders[i]));
			else
				KUNIT_EXPECT_TRUE_MSG(test, before.pos[1] < before.pos[3] &&
						      mp.pos[1] < mp.pos[3],
						      "order %s: left in place",
						      dmc_dpm_order_name(orders[i]));
		}
		KUNIT_EXPECT_EQ(test, dmc_check_invariants(DMC_INV_QUIESCENT), 0U);
	}
}

/* ---- concurrency ------------------------------------------------------------ */

#define MV_ROUNDS	200

struct mv_race {
	struct kunit *test;
	struct completion go;
	struct completion a_done;
	struct completion b_done;
	bool stop;
	struct dmm_bus *bus;
	struct dmm_drv *drv;
	struct dmm_dev *dev, *p, *q;
	const char *names[2];
	unsigned int ops, lookups, misses, strangers;
	int err_a, err_b;		/* first unexpected error */
	int ret;			/* the single operation's result */
	unsigned int delay_us;		/* a head start for the other thread */
};

static struct mv_race *mv_race_alloc(struct kunit *test)
{
	struct mv_race *r = kzalloc(sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->test = test;
	init_completion(&r->go);
	init_completion(&r->a_done);
	init_completion(&r->b_done);
	return r;
}

/*
 * Run @a and @b on @r, released together. Return false if they did not
 * finish in time: @r is then leaked, never freed under them.
 */
static bool mv_race_run(struct kunit *test, struct mv_race *r,
			int (*a)(void *arg), int (*b)(void *arg))
{
	struct task_struct *t;

	t = kthread_run(a, r, "mv-a");
	if (IS_ERR(t)) {
		KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(t));
		return true;
	}
	t = kthread_run(b, r, "mv-b");
	if (IS_ERR(t)) {
		KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(t));
		WRITE_ONCE(r->stop, true);
		complete_all(&r->b_done);
	}
	complete_all(&r->go);
	if (!wait_for_completion_timeout(&r->a_done, 120 * HZ) ||
	    !wait_for_completion_timeout(&r->b_done, 60 * HZ)) {
		WRITE_ONCE(r->stop, true);
		KUNIT_FAIL(test, "a thread is stuck (%u ops)", READ_ONCE(r->ops));
		return false;
	}
	return true;
}

/* Rename back and forth, each time letting the looker look twice. */
static int mv_renamer(void *arg)
{
	struct mv_race *r = arg;
	unsigned long until;
	unsigned int seen;
	int i, err;

	wait_for_completion(&r->go);
	for (i = 1; i <= MV_ROUNDS && !READ_ONCE(r->stop); i++) {
		seen = READ_ONCE(r->lookups);
		err = dmc_device_rename(r->dev->dev, r->names[i & 1]);
		if (err && !r->err_a)
			r->err_a = err;
		if (!err)
			r->ops++;
		until = jiffies + HZ;
		while (READ_ONCE(r->lookups) < seen + 2 && time_before(jiffies, until))
			usleep_range(20, 50);
	}
	WRITE_ONCE(r->stop, true);
	complete_all(&r->a_done);
	return 0;
}

/*
 * Look the device up on its bus by both names: it is under one of them.
 * A miss of both may straddle a rename; three in a row cannot.
 */
static int mv_looker(void *arg)
{
	struct mv_race *r = arg;
	struct dmc_device *x, *y;
	int tries;

	wait_for_completion(&r->go);
	while (!READ_ONCE(r->stop)) {
		for (tries = 0; tries < 3; tries++) {
			x = dmc_bus_find_device_by_name(&r->bus->bus, r->names[0]);
			y = dmc_bus_find_device_by_name(&r->bus->bus, r->names[1]);
			if ((x && x != r->dev->dev) || (y && y != r->dev->dev))
				r->strangers++;
			dmm_put_found(x);
			dmm_put_found(y);
			if (x || y)
				break;
		}
		if (tries == 3)
			r->misses++;
		WRITE_ONCE(r->lookups, r->lookups + 1);
		cond_resched();
	}
	complete_all(&r->b_done);
	return 0;
}

/*
 * Renames of a bound device against lookups by name on its bus: every
 * rename succeeds, every lookup finds the device under one of its names
 * and never another device.
 */
static void device_rename_under_concurrent_lookup(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "drv");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);
	struct mv_race *r = mv_race_alloc(test);

	r->bus = b;
	r->dev = a;
	r->names[0] = a->name;
	r->names[1] = dmm_name(test, "a-renamed");
	KUNIT_ASSERT_TRUE(test, mv_race_run(test, r, mv_renamer, mv_looker));
	KUNIT_EXPECT_EQ(test, r->err_a, 0);
	KUNIT_EXPECT_EQ(test, r->ops, (unsigned int)MV_ROUNDS);
	KUNIT_EXPECT_GT(test, r->lookups, 0U);
	KUNIT_EXPECT_EQ(test, r->misses, 0U);
	KUNIT_EXPECT_EQ(test, r->strangers, 0U);
	KUNIT_EXPECT_STREQ(test, dmc_dev_name(a->dev), a->name);
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(DMC_INV_QUIESCENT), 0U);
	kfree(r);
}

/* Rename until refused (the device is deleted meanwhile). */
static int mv_rename_until_gone(void *arg)
{
	struct mv_race *r = arg;
	int i, err;

	wait_for_completion(&r->go);
	for (i = 1; !READ_ONCE(r->stop); i++) {
		err = dmc_device_rename(r->dev->dev, r->names[i & 1]);
		if (err == -ENODEV)
			break;
		if (err && !r->err_a)
			r->err_a = err;
		if (!err)
			WRITE_ONCE(r->ops, r->ops + 1);
		cond_resched();
	}
	complete_all(&r->a_done);
	return 0;
}

/* Once the renamer got going, delete its device. */
static int mv_deleter(void *arg)
{
	struct mv_race *r = arg;
	unsigned long until = jiffies + 10 * HZ;

	wait_for_completion(&r->go);
	while (READ_ONCE(r->ops) < 20 && time_before(jiffies, until))
		usleep_range(50, 100);
	dmc_device_del(r->dev->dev);
	complete_all(&r->b_done);
	return 0;
}

/*
 * Renames against the device's deletion: each rename succeeds or, once
 * the deletion began, is refused with -ENODEV; the device then is on its
 * bus and in its driver's directory under neither name, and nothing
 * leaks (the suite's exit checks the release).
 */
static void device_rename_vs_delete(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "drv");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);
	struct mv_race *r = mv_race_alloc(test);
	const char *drvdir = dmm_str(test, "/bus/%s/drivers/%s", b->name, d->name);

	r->bus = b;
	r->dev = a;
	r->names[0] = a->name;
	r->names[1] = dmm_name(test, "a-renamed");
	a->added = false;	/* the deleter deletes it */
	KUNIT_ASSERT_TRUE(test, mv_race_run(test, r, mv_rename_until_gone, mv_deleter));
	KUNIT_EXPECT_EQ(test, r->err_a, 0);
	KUNIT_EXPECT_GT(test, r->ops, 0U);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_registered(a->dev));
	KUNIT_EXPECT_FALSE(test, mv_on_bus(b, r->names[0], a));
	KUNIT_EXPECT_FALSE(test, mv_on_bus(b, r->names[1], a));
	KUNIT_EXPECT_FALSE(test, mv_link_is(test, drvdir, r->names[0], a));
	KUNIT_EXPECT_FALSE(test, mv_link_is(test, drvdir, r->names[1], a));
	KUNIT_EXPECT_EQ(test, dmc_device_rename(a->dev, "x"), -ENODEV);
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(DMC_INV_QUIESCENT), 0U);
	kfree(r);
}

/* One move of r->dev under r->q, then done. */
static int mv_move_once(void *arg)
{
	struct mv_race *r = arg;

	wait_for_completion(&r->go);
	r->ret = dmc_device_move(r->dev->dev, r->q->dev, DMC_DPM_ORDER_DEV_AFTER_PARENT);
	complete_all(&r->a_done);
	return 0;
}

/* Delete r->p (the old parent, or the new one when r->q is r->p). */
static int mv_del_parent(void *arg)
{
	struct mv_race *r = arg;

	wait_for_completion(&r->go);
	if (r->delay_us)
		usleep_range(r->delay_us, r->delay_us + 10);	/* the move's head start */
	dmc_device_del(r->p->dev);
	complete_all(&r->b_done);
	return 0;
}

/*
 * A move against the deletion of the old parent, many rounds with varied
 * timing: either the move came first and the device survives under its
 * new parent, or the deletion came first and took the device along, the
 * move refused with -ENODEV. Never a device registered under a deleted
 * parent, never a deleted parent's deletion reaching into the new one.
 */
static void device_move_vs_delete_old_parent(struct kunit *test)
{
	unsigned int i, moved = 0, deleted = 0;

	for (i = 0; i < 20; i++) {
		struct dmm_dev *p = dmm_dev_new(test, dmm_str(test, "p%u", i), NULL, NULL, NULL);
		struct dmm_dev *q = dmm_dev_new(test, dmm_str(test, "q%u", i), NULL, NULL, NULL);
		struct dmm_dev *a = dmm_dev_new(test, dmm_str(test, "a%u", i), NULL, p, NULL);
		struct dmm_dev *k = dmm_dev_new(test, dmm_str(test, "k%u", i), NULL, a, NULL);
		struct mv_race *r = mv_race_alloc(test);

		r->dev = a;
		r->p = p;
		r->q = q;
		r->delay_us = (i % 5) * 40;
		p->added = false;
		KUNIT_ASSERT_TRUE(test, mv_race_run(test, r, mv_move_once, mv_del_parent));
		KUNIT_EXPECT_FALSE(test, dmc_device_is_registered(p->dev));
		KUNIT_EXPECT_TRUE(test, dmc_device_is_registered(q->dev));
		if (r->ret == 0) {
			moved++;
			KUNIT_EXPECT_TRUE(test, dmc_device_is_registered(a->dev));
			KUNIT_EXPECT_TRUE(test, dmc_device_is_registered(k->dev));
			KUNIT_EXPECT_PTR_EQ(test, a->dev->parent, q->dev);
			KUNIT_EXPECT_TRUE(test, mv_child_of(q, a->name, a));
		} else {
			deleted++;
			KUNIT_EXPECT_EQ(test, r->ret, -ENODEV);
			KUNIT_EXPECT_FALSE(test, dmc_device_is_registered(a->dev));
			KUNIT_EXPECT_FALSE(test, dmc_device_is_registered(k->dev));
		}
		KUNIT_EXPECT_EQ(test, dmc_check_invariants(DMC_INV_QUIESCENT), 0U);
		kfree(r);
	}
	kunit_info(test, "moved first %u, deleted first %u", moved, deleted);
}

/*
 * A move against the deletion of the new parent: either the move came
 * first and the device went with its new parent, or the deletion did and
 * the move was refused with -ENOENT, the device left where it was.
 */
static void device_move_vs_delete_new_parent(struct kunit *test)
{
	unsigned int i, moved = 0, refused = 0;

	for (i = 0; i < 20; i++) {
		struct dmm_dev *p = dmm_dev_new(test, dmm_str(test, "p%u", i), NULL, NULL, NULL);
		struct dmm_dev *q = dmm_dev_new(test, dmm_str(test, "q%u", i), NULL, NULL, NULL);
		struct dmm_dev *a = dmm_dev_new(test, dmm_str(test, "a%u", i), NULL, p, NULL);
		struct mv_race *r = mv_race_alloc(test);

		r->dev = a;
		r->p = q;	/* the one deleted */
		r->q = q;
		r->delay_us = (i % 5) * 40;
		q->added = false;
		KUNIT_ASSERT_TRUE(test, mv_race_run(test, r, mv_move_once, mv_del_parent));
		KUNIT_EXPECT_FALSE(test, dmc_device_is_registered(q->dev));
		if (r->ret == 0) {
			moved++;
			KUNIT_EXPECT_FALSE(test, dmc_device_is_registered(a->dev));
		} else {
			refused++;
			KUNIT_EXPECT_EQ(test, r->ret, -ENOENT);
			KUNIT_EXPECT_TRUE(test, dmc_device_is_registered(a->dev));
			KUNIT_EXPECT_PTR_EQ(test, a->dev->parent, p->dev);
		}
		KUNIT_EXPECT_EQ(test, dmc_check_invariants(DMC_INV_QUIESCENT), 0U);
		kfree(r);
	}
	kunit_info(test, "moved first %u, deleted first %u", moved, refused);
}

/* The parked deletion of the old parent: a bus notifier holds it. */
struct mv_park {
	struct notifier_block nb;
	struct dmc_device *at;		/* park in this device's deletion */
	struct completion parked;
	struct completion release;
	struct completion done;
	struct dmc_device *del;		/* what the kthread deletes */
};

static int mv_park_notify(struct notifier_block *nb, unsigned long action, void *data)
{
	struct mv_park *pk = container_of(nb, struct mv_park, nb);

	if (action == DMC_BUS_NOTIFY_DEL_DEVICE && data == pk->at) {
		complete_all(&pk->parked);
		wait_for_completion_timeout(&pk->release, 60 * HZ);
	}
	return NOTIFY_DONE;
}

static int mv_park_deleter(void *arg)
{
	struct mv_park *pk = arg;

	dmc_device_del(pk->del);
	complete_all(&pk->done);
	return 0;
}

/*
 * The old parent's deletion forced to be under way (claimed, walking its
 * children, parked in the deletion of a first child s) when the move of
 * its second child a runs: the move succeeds, and the deletion, resumed,
 * leaves a alone (its claim sees the parent changed) instead of
 * deleting it and walking on up into the new parent.
 */
static void device_move_during_old_parent_deletion(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	struct dmm_dev *q = dmm_dev_new(test, "q", NULL, NULL, NULL);
	struct dmm_dev *s = dmm_dev_new(test, "s", b, p, NULL);
	struct dmm_dev *a = dmm_dev_new(test, "a", b, p, NULL);
	struct dmm_dev *k = dmm_dev_new(test, "k", b, a, NULL);
	struct mv_park *pk = kzalloc(sizeof(*pk), GFP_KERNEL);
	struct task_struct *t;

	KUNIT_ASSERT_NOT_NULL(test, pk);
	pk->nb.notifier_call = mv_park_notify;
	pk->at = s->dev;
	pk->del = p->dev;
	init_completion(&pk->parked);
	init_completion(&pk->release);
	init_completion(&pk->done);
	KUNIT_ASSERT_EQ(test, dmc_bus_register_notifier(&b->bus, &pk->nb), 0);
	p->added = false;
	t = kthread_run(mv_park_deleter, pk, "mv-park");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	if (!wait_for_completion_timeout(&pk->parked, 30 * HZ)) {
		complete_all(&pk->release);
		KUNIT_FAIL(test, "the deletion never reached s");
		return;		/* pk leaked, never freed under the thread */
	}
	KUNIT_EXPECT_TRUE(test, dmc_device_is_dead(p->dev));
	KUNIT_EXPECT_EQ(test, dmc_device_move(a->dev, q->dev, DMC_DPM_ORDER_DEV_LAST), 0);
	complete_all(&pk->release);
	if (!wait_for_completion_timeout(&pk->done, 60 * HZ)) {
		KUNIT_FAIL(test, "the parked deletion never finished");
		return;
	}
	dmc_bus_unregister_notifier(&b->bus, &pk->nb);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_registered(p->dev));
	KUNIT_EXPECT_FALSE(test, dmc_device_is_registered(s->dev));
	KUNIT_EXPECT_TRUE(test, dmc_device_is_registered(a->dev));
	KUNIT_EXPECT_TRUE(test, dmc_device_is_registered(k->dev));
	KUNIT_EXPECT_TRUE(test, dmc_device_is_registered(q->dev));
	KUNIT_EXPECT_PTR_EQ(test, a->dev->parent, q->dev);
	KUNIT_EXPECT_TRUE(test, mv_child_of(q, a->name, a));
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(DMC_INV_QUIESCENT), 0U);
	kfree(pk);
}

/* Move r->dev between r->p and r->q until stopped. */
static int mv_mover(void *arg)
{
	struct mv_race *r = arg;
	struct dmm_dev *to;
	int i, err;

	wait_for_completion(&r->go);
	for (i = 0; i < MV_ROUNDS && !READ_ONCE(r->stop); i++) {
		to = i & 1 ? r->p : r->q;
		err = dmc_device_move(r->dev->dev, to->dev, i % 4);
		/* -EBUSY: the device on, its new parent suspended by the other */
		if (err && err != -EBUSY && !r->err_a)
			r->err_a = err;
		if (!err)
			WRITE_ONCE(r->ops, r->ops + 1);
		cond_resched();
	}
	WRITE_ONCE(r->stop, true);
	complete_all(&r->a_done);
	return 0;
}

/* System suspend and resume until the mover is done. */
static int mv_suspender(void *arg)
{
	struct mv_race *r = arg;
	int err;

	wait_for_completion(&r->go);
	while (!READ_ONCE(r->stop)) {
		err = dmc_suspend_all(NULL);
		if (err && !r->err_b)
			r->err_b = err;
		err = dmc_resume_all();
		if (err && !r->err_b)
			r->err_b = err;
		WRITE_ONCE(r->lookups, r->lookups + 1);
		cond_resched();
	}
	complete_all(&r->b_done);
	return 0;
}

/*
 * Moves against system suspend and resume: every move and every
 * transition succeeds, and the power order stays sound (children after
 * parents: the invariant check) whichever ran first.
 */
static void device_move_vs_suspend_all(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "drv");
	struct dmm_dev *p = dmm_dev_new(test, "p", b, NULL, d);
	struct dmm_dev *q = dmm_dev_new(test, "q", b, NULL, d);
	struct dmm_dev *a = dmm_dev_new(test, "a", b, p, d);
	struct mv_race *r = mv_race_alloc(test);

	dmm_dev_new(test, "k", b, a, d);
	r->dev = a;
	r->p = p;
	r->q = q;
	KUNIT_ASSERT_TRUE(test, mv_race_run(test, r, mv_mover, mv_suspender));
	KUNIT_EXPECT_EQ(test, r->err_a, 0);
	KUNIT_EXPECT_EQ(test, r->err_b, 0);
	KUNIT_EXPECT_EQ(test, r->ops, (unsigned int)MV_ROUNDS);
	KUNIT_EXPECT_GT(test, r->lookups, 0U);
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(DMC_INV_QUIESCENT), 0U);
	kfree(r);
}

/* Unbind and bind r->dev until the renamer is done. */
static int mv_rebinder(void *arg)
{
	struct mv_race *r = arg;
	int err;

	wait_for_completion(&r->go);
	while (!READ_ONCE(r->stop)) {
		dmc_device_release_driver(r->dev->dev);
		err = dmc_device_attach(r->dev->dev);
		if (err < 0 && !r->err_b)
			r->err_b = err;
		WRITE_ONCE(r->lookups, r->lookups + 1);
		cond_resched();
	}
	complete_all(&r->b_done);
	return 0;
}

/*
 * Renames against unbind and bind: the driver's directory always links
 * the device under its current name while it is bound, and under no
 * other name, whichever ran first.
 */
static void device_rename_vs_bind_unbind(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "drv");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);
	struct mv_race *r = mv_race_alloc(test);
	const char *drvdir = dmm_str(test, "/bus/%s/drivers/%s", b->name, d->name);

	r->bus = b;
	r->dev = a;
	r->names[0] = a->name;
	r->names[1] = dmm_name(test, "a-renamed");
	KUNIT_ASSERT_TRUE(test, mv_race_run(test, r, mv_renamer, mv_rebinder));
	KUNIT_EXPECT_EQ(test, r->err_a, 0);
	KUNIT_EXPECT_EQ(test, r->err_b, 0);
	KUNIT_EXPECT_GT(test, r->lookups, 0U);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_TRUE(test, mv_link_is(test, drvdir, a->name, a));
	KUNIT_EXPECT_FALSE(test, mv_link_is(test, drvdir, r->names[1], a));
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(DMC_INV_QUIESCENT), 0U);
	kfree(r);
}

static int device_move_test_init(struct kunit *test)
{
	return dmm_init(test, "mv");
}

/*
 * Runtime PM follows a move: an active device counted by its old parent
 * is counted by its new one (resumed for it) after the move, so the old
 * parent may suspend and the new one may not while the device is active.
 */
static void device_move_carries_runtime_pm_count(struct kunit *test)
{
	struct dmm_dev *p1 = dmm_dev_new(test, "p1", NULL, NULL, NULL);
	struct dmm_dev *p2 = dmm_dev_new(test, "p2", NULL, NULL, NULL);
	struct dmm_dev *x = dmm_dev_new(test, "x", NULL, p1, NULL);

	dmc_pm_runtime_enable(p1->dev);
	dmc_pm_runtime_enable(p2->dev);
	dmc_pm_runtime_enable(x->dev);
	KUNIT_ASSERT_EQ(test, dmc_pm_runtime_get_sync(x->dev), 0);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_active_children(p1->dev), 1);
	KUNIT_EXPECT_TRUE(test, dmc_pm_runtime_status_suspended(p2->dev));

	KUNIT_ASSERT_EQ(test, dmc_device_move(x->dev, p2->dev,
					      DMC_DPM_ORDER_DEV_AFTER_PARENT), 0);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_active_children(p1->dev), 0);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_active_children(p2->dev), 1);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_status(p2->dev), DMC_RPM_ACTIVE);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_suspend(p2->dev), -EBUSY);
	KUNIT_EXPECT_GE(test, dmc_pm_runtime_suspend(p1->dev), 0);	/* 1: done already */
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_status(x->dev), DMC_RPM_ACTIVE);

	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_put_sync(x->dev), 0);
	KUNIT_EXPECT_EQ(test, dmc_pm_runtime_active_children(p2->dev), 0);
	dmc_pm_runtime_disable(x->dev);
	dmc_pm_runtime_disable(p2->dev);
	dmc_pm_runtime_disable(p1->dev);
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(DMC_INV_QUIESCENT), 0U);
}

static struct kunit_case device_move_test_cases[] = {
	KUNIT_CASE(device_rename_updates_every_index),
	KUNIT_CASE(device_rename_refused_changes_nothing),
	KUNIT_CASE(device_move_updates_parent_and_children),
	KUNIT_CASE(device_move_refused_changes_nothing),
	KUNIT_CASE(device_move_power_order_each_order),
	KUNIT_CASE(device_rename_under_concurrent_lookup),
	KUNIT_CASE(device_rename_vs_delete),
	KUNIT_CASE(device_move_vs_delete_old_parent),
	KUNIT_CASE(device_move_during_old_parent_deletion),
	KUNIT_CASE(device_move_vs_delete_new_parent),
	KUNIT_CASE(device_move_vs_suspend_all),
	KUNIT_CASE(device_rename_vs_bind_unbind),
	KUNIT_CASE(device_move_carries_runtime_pm_count),
	{}
};

static struct kunit_suite device_move_test_suite = {
	.name = "dmcore-device-move",
	.init = device_move_test_init,
	.exit = dmm_exit,
	.test_cases = device_move_test_cases,
};

kunit_test_suites(&device_move_test_suite);
