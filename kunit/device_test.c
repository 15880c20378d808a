// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore-device: the life of a device, one rule per case.
 *
 * dmc_device_add() and each of its refusals (and that a refused add leaves
 * nothing behind), paths, which release runs and when, the parent's
 * reference, del and its cascade over children, and the lookups among a
 * device's children. Names are "dv<N>-<name>" (model_util.h).
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "model_util.h"

static const struct dmc_device_type dv_type_norelease = {
	.name = "dv-norelease",
};

/* add: refusals */

static void device_add_null_fails_einval(struct kunit *test)
{
	int err = 0;

	DMM_TOLERATE_MISUSE(test, err = dmc_device_add(NULL));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
}

static void device_add_without_name_fails_einval(struct kunit *test)
{
	struct dmm_dev *a = dmm_dev_alloc(test, "a");
	int err = 0;

	a->dev->init_name = NULL;
	DMM_TOLERATE_MISUSE(test, err = dmm_dev_add(test, a));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_registered(a->dev));
	dmm_dev_put(a);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, a->released, 1U);
}

static void device_add_without_any_release_warns_einval(struct kunit *test)
{
	struct dmm_dev *a = dmm_dev_alloc(test, "a");
	int err = 0;

	a->dev->release = NULL;
	a->dev->type = &dv_type_norelease;
	DMCT_EXPECT_MISUSE(test, 1, err = dmm_dev_add(test, a));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_registered(a->dev));
	/* give it a release so that the final put can free it */
	a->dev->release = dmm_dev_release;
	dmm_dev_put(a);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, a->released, 1U);
}

static void device_add_on_unregistered_bus_fails_einval(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_alloc(test, "bus");
	struct dmm_dev *a = dmm_dev_alloc(test, "a");
	int err = 0;

	a->dev->bus = &b->bus;
	DMM_TOLERATE_MISUSE(test, err = dmm_dev_add(test, a));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_registered(a->dev));
	dmm_dev_put(a);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, a->released, 1U);
}

static void device_add_with_unregistered_class_fails_einval(struct kunit *test)
{
	struct dmm_class *c = dmm_class_alloc(test, "cls");
	struct dmm_dev *a = dmm_dev_alloc(test, "a");
	int err = 0;

	a->dev->class = &c->cls;
	DMM_TOLERATE_MISUSE(test, err = dmm_dev_add(test, a));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_registered(a->dev));
	dmm_dev_put(a);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, a->released, 1U);
}

static void device_add_under_unadded_parent_fails_enoent(struct kunit *test)
{
	struct dmm_dev *p = dmm_dev_alloc(test, "p");
	struct dmm_dev *c = dmm_dev_alloc(test, "c");
	unsigned int refs = dmm_dev_refs(p);
	int err = 0;

	c->dev->parent = p->dev;
	DMM_TOLERATE_MISUSE(test, err = dmm_dev_add(test, c));
	KUNIT_EXPECT_EQ(test, err, -ENOENT);
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(p), refs);
	dmm_dev_put(c);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, c->released, 1U);
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(p), refs);
	dmm_dev_put(p);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, p->released, 1U);
}

static void device_add_under_deleted_parent_fails_enoent(struct kunit *test)
{
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	struct dmm_dev *c = dmm_dev_alloc(test, "c");
	unsigned int refs;
	int err = 0;

	dmm_dev_del(p);
	refs = dmm_dev_refs(p);
	c->dev->parent = p->dev;
	DMM_TOLERATE_MISUSE(test, err = dmm_dev_add(test, c));
	KUNIT_EXPECT_EQ(test, err, -ENOENT);
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(p), refs);
	dmm_dev_put(c);
	dmm_dev_put(p);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, c->released, 1U);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, p->released, 1U);
}

static void device_add_same_name_on_same_bus_fails_eexist(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *p1 = dmm_dev_new(test, "p1", NULL, NULL, NULL);
	struct dmm_dev *p2 = dmm_dev_new(test, "p2", NULL, NULL, NULL);
	struct dmm_dev *x1 = dmm_dev_new(test, "x", b, p1, NULL);
	struct dmm_dev *x2 = dmm_dev_alloc(test, "x2");
	unsigned int bus_refs = dmm_bus_refs(b);
	unsigned int p2_refs = dmm_dev_refs(p2);
	int err = 0;

	x2->dev->init_name = x1->name;
	x2->dev->bus = &b->bus;
	x2->dev->parent = p2->dev;
	DMM_TOLERATE_MISUSE(test, err = dmm_dev_add(test, x2));
	KUNIT_EXPECT_EQ(test, err, -EEXIST);
	KUNIT_EXPECT_EQ(test, dmc_bus_device_count(&b->bus), 1U);
	KUNIT_EXPECT_EQ(test, dmm_bus_refs(b), bus_refs);
	/*
	 * A device added and deleted again by the failure keeps its
	 * reference on its parent until its release (dmc_kobject_del()),
	 * as when no early name check ran (no listener watches the tree):
	 * the parent's count is back once the caller dropped the device.
	 */
	dmm_dev_put(x2);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(p2), p2_refs);
	dmm_dev_unregister(x1);
	dmm_dev_unregister(p1);
	dmm_dev_unregister(p2);
}

static void device_add_sibling_name_clash_fails_eexist(struct kunit *test)
{
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	struct dmm_dev *c1 = dmm_dev_new(test, "c", NULL, p, NULL);
	struct dmm_dev *c2 = dmm_dev_alloc(test, "c2");
	unsigned int refs = dmm_dev_refs(p);
	int err = 0;

	c2->dev->init_name = c1->name;
	c2->dev->parent = p->dev;
	DMM_TOLERATE_MISUSE(test, err = dmm_dev_add(test, c2));
	KUNIT_EXPECT_EQ(test, err, -EEXIST);
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(p), refs);
	dmm_dev_put(c2);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, c2->released, 1U);
	dmm_dev_unregister(c1);
	dmm_dev_unregister(p);
}

static void device_add_top_level_name_clash_fails_eexist(struct kunit *test)
{
	struct dmm_dev *a = dmm_dev_new(test, "a", NULL, NULL, NULL);
	struct dmm_dev *a2 = dmm_dev_alloc(test, "a2");
	int err = 0;

	a2->dev->init_name = a->name;
	DMM_TOLERATE_MISUSE(test, err = dmm_dev_add(test, a2));
	KUNIT_EXPECT_EQ(test, err, -EEXIST);
	dmm_dev_put(a2);
	dmct_expect_path(test, &a->dev->kobj, dmm_str(test, "/devices/%s", a->name));
	dmm_dev_unregister(a);
}

/*
 * The model's reserved names: a child may not take the name of an entry
 * of its parent's directory (an attribute, a group, the links "driver"
 * and "subsystem"), with or without the export.
 */
static void device_child_named_like_parent_entry_fails_eexist(struct kunit *test)
{
	static const char * const names[] = { "driver", "subsystem", "power", "uevent" };
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	unsigned int refs = dmm_dev_refs(p), i;
	struct dmm_dev *c;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		c = dmm_dev_alloc(test, "c");
		c->dev->init_name = names[i];
		c->dev->parent = p->dev;
		KUNIT_EXPECT_EQ_MSG(test, dmm_dev_add(test, c), -EEXIST,
				    "child '%s'", names[i]);
		dmm_dev_put(c);
		dmc_kobject_flush_releases();
		KUNIT_EXPECT_EQ(test, c->released, 1U);
	}
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(p), refs);
	/* At the top and under a plain kobject those names are free. */
	c = dmm_dev_alloc(test, "c");
	c->dev->init_name = "power";
	KUNIT_EXPECT_EQ(test, dmm_dev_add(test, c), 0);
	dmm_dev_unregister(c);
	dmm_dev_unregister(p);
}

/*
 * A device's own kobject is never renamed or moved raw (-EOPNOTSUPP, see
 * dmcore-kobject-life); a plain kobject under a device is, and may not
 * take a name of the device's entries that way either.
 */
static void device_rename_or_move_onto_parent_entry_fails_eexist(struct kunit *test)
{
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	struct dmm_dev *q = dmm_dev_new(test, "q", NULL, NULL, NULL);
	struct dmc_kobject *k, *top;

	k = dmc_kobject_create_and_add("dv12-k", &p->dev->kobj);
	KUNIT_ASSERT_NOT_NULL(test, k);
	KUNIT_EXPECT_EQ(test, dmc_kobject_rename(k, "uevent"), -EEXIST);
	KUNIT_EXPECT_EQ(test, dmc_kobject_rename(k, "driver"), -EEXIST);
	KUNIT_EXPECT_STREQ(test, dmc_kobject_name(k), "dv12-k");
	top = dmc_kobject_create_and_add("subsystem", NULL);
	KUNIT_ASSERT_NOT_NULL(test, top);
	KUNIT_EXPECT_EQ(test, dmc_kobject_move(top, &q->dev->kobj), -EEXIST);
	dmct_expect_path(test, top, "/subsystem");
	dmc_kobject_del(top);
	dmc_kobject_put(top);
	dmc_kobject_del(k);
	dmc_kobject_put(k);
	dmm_dev_unregister(q);
	dmm_dev_unregister(p);
}

/* A driver's link to a device named like one of its files: not bound. */
static void device_named_like_driver_file_is_not_bound(struct kunit *test)
{
	static const char * const names[] = { "bind", "unbind", "uevent" };
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		a = dmm_dev_alloc(test, "a");
		a->dev->init_name = names[i];
		a->dev->bus = &b->bus;
		dmm_dev_want(a, d);
		KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
		KUNIT_EXPECT_FALSE_MSG(test, dmc_device_is_bound(a->dev),
				       "device '%s' bound", names[i]);
		KUNIT_EXPECT_EQ(test, dmc_device_driver_attach(&d->drv, a->dev),
				-EEXIST);
		KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 0);
		dmm_dev_unregister(a);
	}
	a = dmm_dev_new(test, "a", b, NULL, d);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	dmm_dev_unregister(a);
}

/*
 * A listener registering while a device binds and unbinds is told the
 * device's "driver" link exactly when it is bound once both settle: the
 * replay at registration never tells a link already removed, and a link
 * announced after the replay is not lost.
 */
struct dv_links {
	struct dmc_listener l;
	struct dmc_device *dev;
	bool has_driver;		/* the callbacks, the test once settled */
};

static void dv_links_added(struct dmc_listener *l, struct dmc_kobject *kobj,
			   const char *name, struct dmc_kobject *target)
{
	struct dv_links *r = container_of(l, struct dv_links, l);

	if (kobj == &r->dev->kobj && !strcmp(name, "driver"))
		r->has_driver = true;
}

static void dv_links_removed(struct dmc_listener *l, struct dmc_kobject *kobj,
			     const char *name)
{
	struct dv_links *r = container_of(l, struct dv_links, l);

	if (kobj == &r->dev->kobj && !strcmp(name, "driver"))
		r->has_driver = false;
}

struct dv_toggle {
	struct dmc_device *dev;
	struct dmc_driver *drv;
};

static int dv_toggle_fn(void *data)
{
	struct dv_toggle *t = data;

	while (!kthread_should_stop()) {
		dmc_device_release_driver(t->dev);
		dmc_device_driver_attach(t->drv, t->dev);
		cond_resched();
	}
	return 0;
}

static void device_link_replay_races_bind_and_unbind(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);
	struct dv_toggle t = { .dev = a->dev, .drv = &d->drv };
	struct task_struct *task;
	unsigned int i, wrong = 0;
	struct dv_links *r;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	r->dev = a->dev;
	r->l.link_added = dv_links_added;
	r->l.link_removed = dv_links_removed;
	/* Sequential first: a bound device's link is replayed. */
	KUNIT_ASSERT_EQ(test, dmc_listener_register(&r->l), 0);
	KUNIT_EXPECT_TRUE(test, r->has_driver);
	dmc_listener_unregister(&r->l);

	for (i = 0; i < 100; i++) {
		task = kthread_run(dv_toggle_fn, &t, "dv-toggle");
		KUNIT_ASSERT_FALSE(test, IS_ERR(task));
		usleep_range(100 * (i % 5), 100 * (i % 5) + 50);
		r->has_driver = false;
		dmc_listener_register(&r->l);
		usleep_range(50, 100);
		kthread_stop(task);
		if (i & 1)
			dmc_device_release_driver(a->dev);
		/* Settled: every callback ran in the stopped thread or here. */
		if (r->has_driver != dmc_device_is_bound(a->dev))
			wrong++;
		dmc_listener_unregister(&r->l);
	}
	KUNIT_EXPECT_EQ(test, wrong, 0U);
	dmm_dev_unregister(a);
}

static void device_same_name_under_two_parents_without_bus_ok(struct kunit *test)
{
	struct dmm_dev *p1 = dmm_dev_new(test, "p1", NULL, NULL, NULL);
	struct dmm_dev *p2 = dmm_dev_new(test, "p2", NULL, NULL, NULL);
	struct dmm_dev *x1 = dmm_dev_new(test, "x", NULL, p1, NULL);
	struct dmm_dev *x2 = dmm_dev_alloc(test, "x2");

	x2->dev->init_name = x1->name;
	x2->dev->parent = p2->dev;
	KUNIT_EXPECT_EQ(test, dmm_dev_add(test, x2), 0);
	dmct_expect_path(test, &x2->dev->kobj,
			 dmm_str(test, "/devices/%s/%s", p2->name, x1->name));
	dmm_dev_unregister(x2);
	dmm_dev_unregister(x1);
	dmm_dev_unregister(p2);
	dmm_dev_unregister(p1);
}

static void device_failed_add_leaves_nothing_behind(struct kunit *test)
{
	struct dmct_ctx *ct = dmct_ctx(test);
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_class *cl = dmm_class_alloc(test, "cls");
	struct dmm_drv *drv = dmm_drv_new(test, b, "drv");
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	struct dmm_dev *c = dmm_dev_alloc(test, "c");
	unsigned int bus_refs = dmm_bus_refs(b);
	unsigned int p_refs = dmm_dev_refs(p);
	unsigned long probes = dmc_probe_count();
	const char *path = dmm_str(test, "/devices/%s/%s", p->name, c->name);
	u64 seq0 = dmct_last_seqnum();
	int err = 0;

	c->dev->parent = p->dev;
	c->dev->bus = &b->bus;
	c->dev->class = &cl->cls;	/* not registered: the add fails */
	dmm_dev_want(c, drv);
	dmct_listen(test);
	DMM_TOLERATE_MISUSE(test, err = dmm_dev_add(test, c));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	dmc_wait_for_device_probe();

	KUNIT_EXPECT_EQ(test, dmc_bus_device_count(&b->bus), 0U);
	KUNIT_EXPECT_NULL(test, dmc_bus_find_device_by_name(&b->bus, c->name));
	KUNIT_EXPECT_NULL(test, dmc_device_find_child_by_name(p->dev, c->name));
	KUNIT_EXPECT_EQ(test, dmc_probe_count(), probes);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->probes), 0);
	KUNIT_EXPECT_EQ(test, dmct_ev_index(ct, DMC_KOBJ_ADD, path), -1);
	KUNIT_EXPECT_EQ(test, dmct_log_count(seq0, path), 0U);
	KUNIT_EXPECT_EQ(test, dmm_bus_refs(b), bus_refs);
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(p), p_refs);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_registered(c->dev));

	dmm_dev_put(c);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, c->released, 1U);
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(p), p_refs);
	dmm_dev_unregister(p);
}

/* paths */

static void device_path_parentless_is_under_devices(struct kunit *test)
{
	struct dmm_dev *a = dmm_dev_new(test, "a", NULL, NULL, NULL);

	dmct_expect_path(test, &a->dev->kobj,
			 dmm_str(test, "/devices/%s", a->name));
	DMCT_EXPECT_STREQ(test, dmc_dev_name(a->dev), a->name);
	dmm_dev_unregister(a);
}

static void device_path_nests_under_parents(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	struct dmm_dev *c = dmm_dev_new(test, "c", b, p, NULL);
	struct dmm_dev *g = dmm_dev_new(test, "g", NULL, c, NULL);

	dmct_expect_path(test, &c->dev->kobj,
			 dmm_str(test, "/devices/%s/%s", p->name, c->name));
	dmct_expect_path(test, &g->dev->kobj,
			 dmm_str(test, "/devices/%s/%s/%s", p->name, c->name,
				 g->name));
	dmm_dev_unregister(g);
	dmm_dev_unregister(c);
	dmm_dev_unregister(p);
}

static void device_path_class_only_parentless_is_virtual(struct kunit *test)
{
	struct dmm_class *cl = dmm_class_new(test, "cls");
	struct dmm_dev *a = dmm_cdev_new(test, "a", cl, NULL);

	dmct_expect_path(test, &a->dev->kobj,
			 dmm_str(test, "/devices/virtual/%s/%s", cl->name,
				 a->name));
	dmm_dev_unregister(a);
}

static void device_path_class_and_bus_is_not_virtual(struct kunit *test)
{
	struct dmm_class *cl = dmm_class_new(test, "cls");
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *a = dmm_dev_alloc(test, "a");

	a->dev->class = &cl->cls;
	a->dev->bus = &b->bus;
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	dmct_expect_path(test, &a->dev->kobj,
			 dmm_str(test, "/devices/%s", a->name));
	dmm_dev_unregister(a);
}

static void device_path_class_member_with_parent_under_parent(struct kunit *test)
{
	struct dmm_class *cl = dmm_class_new(test, "cls");
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	struct dmm_dev *a = dmm_cdev_new(test, "a", cl, p);

	dmct_expect_path(test, &a->dev->kobj,
			 dmm_str(test, "/devices/%s/%s", p->name, a->name));
	dmm_dev_unregister(a);
	dmm_dev_unregister(p);
}

static void device_set_name_gives_the_name(struct kunit *test)
{
	struct dmm_dev *a = dmm_dev_alloc(test, "a");
	const char *want = dmm_str(test, "%s-%d", a->name, 7);

	a->dev->init_name = NULL;
	KUNIT_ASSERT_EQ(test, dmc_device_set_name(a->dev, "%s-%d", a->name, 7),
			0);
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	DMCT_EXPECT_STREQ(test, dmc_dev_name(a->dev), want);
	dmct_expect_path(test, &a->dev->kobj, dmm_str(test, "/devices/%s", want));
	dmm_dev_unregister(a);
}

/*
 * A name past the 64-byte first try is formatted whole, '/' becomes '!';
 * a NULL format and a device in the tree are refused, the name kept.
 */
static void device_set_name_long_slashed_and_refused_in_tree(struct kunit *test)
{
	struct dmm_dev *a = dmm_dev_alloc(test, "a");
	const char *want = dmm_str(test, "%s!%090d", a->name, 1);

	a->dev->init_name = NULL;
	KUNIT_ASSERT_EQ(test, dmc_device_set_name(a->dev, "%s/%090d", a->name, 1), 0);
	DMCT_EXPECT_STREQ(test, dmc_dev_name(a->dev), want);
	KUNIT_EXPECT_EQ(test, dmc_device_set_name(a->dev, NULL), -EINVAL);
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	KUNIT_EXPECT_EQ(test, dmc_device_set_name(a->dev, "other"), -EINVAL);
	DMCT_EXPECT_STREQ(test, dmc_dev_name(a->dev), want);
	dmct_expect_path(test, &a->dev->kobj, dmm_str(test, "/devices/%s", want));
	dmm_dev_unregister(a);
}

/* release */

static struct dmm_class *dv_release_class(struct kunit *test)
{
	struct dmm_class *cl = dmm_class_alloc(test, "cls");

	cl->cls.dev_release = dmm_dev_release_class;
	KUNIT_ASSERT_EQ(test, dmm_class_register(test, cl), 0);
	return cl;
}

static void device_release_prefers_device_release(struct kunit *test)
{
	struct dmm_class *cl = dv_release_class(test);
	struct dmm_dev *a = dmm_dev_alloc(test, "a");

	a->dev->type = &dmm_type;
	a->dev->class = &cl->cls;
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	dmm_dev_unregister(a);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, a->released, 1U);
	DMCT_EXPECT_STREQ(test, a->release_by, "dev");
}

static void device_release_falls_back_to_type_release(struct kunit *test)
{
	struct dmm_class *cl = dv_release_class(test);
	struct dmm_dev *a = dmm_dev_alloc(test, "a");

	a->dev->release = NULL;
	a->dev->type = &dmm_type;
	a->dev->class = &cl->cls;
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	dmm_dev_unregister(a);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, a->released, 1U);
	DMCT_EXPECT_STREQ(test, a->release_by, "type");
}

static void device_release_falls_back_to_class_release(struct kunit *test)
{
	struct dmm_class *cl = dv_release_class(test);
	struct dmm_dev *a = dmm_dev_alloc(test, "a");

	a->dev->release = NULL;
	a->dev->type = &dv_type_norelease;
	a->dev->class = &cl->cls;
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	dmm_dev_unregister(a);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, a->released, 1U);
	DMCT_EXPECT_STREQ(test, a->release_by, "class");
}

static void device_release_runs_once_after_last_put(struct kunit *test)
{
	struct dmm_dev *a = dmm_dev_new(test, "a", NULL, NULL, NULL);

	dmm_dev_get(a);
	dmm_dev_unregister(a);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, a->released, 0U);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_registered(a->dev));
	dmm_dev_get(a);
	dmm_dev_put(a);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, a->released, 0U);
	dmm_dev_put(a);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, a->released, 1U);
	KUNIT_EXPECT_NULL(test, a->dev);
}

static void device_child_holds_parent_until_child_released(struct kunit *test)
{
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	unsigned int refs = dmm_dev_refs(p);
	struct dmm_dev *c = dmm_dev_new(test, "c", NULL, p, NULL);

	KUNIT_EXPECT_GT(test, dmm_dev_refs(p), refs);
	dmm_dev_get(c);
	dmm_dev_unregister(c);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, c->released, 0U);
	KUNIT_EXPECT_GT(test, dmm_dev_refs(p), refs);

	/* the parent goes away, but stays allocated for its child */
	dmm_dev_unregister(p);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, p->released, 0U);
	dmm_dev_put(c);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, c->released, 1U);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, p->released, 1U);
	KUNIT_EXPECT_LT(test, c->release_seq, p->release_seq);
}

static void device_parent_refcount_back_after_children_go(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	unsigned int refs = dmm_dev_refs(p);
	unsigned int bus_refs = dmm_bus_refs(b);
	struct dmm_dev *c1 = dmm_dev_new(test, "c1", b, p, NULL);
	struct dmm_dev *c2 = dmm_dev_new(test, "c2", b, p, NULL);

	dmm_dev_unregister(c2);
	dmm_dev_unregister(c1);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(p), refs);
	KUNIT_EXPECT_EQ(test, dmm_bus_refs(b), bus_refs);
	dmm_dev_unregister(p);
}

/* del */

static void device_del_removes_children_first(struct kunit *test)
{
	struct dmct_ctx *ct = dmct_ctx(test);
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *p = dmm_dev_new(test, "p", b, NULL, NULL);
	struct dmm_dev *c1 = dmm_dev_new(test, "c1", b, p, NULL);
	struct dmm_dev *c2 = dmm_dev_new(test, "c2", b, p, NULL);
	struct dmm_dev *g = dmm_dev_new(test, "g", b, c1, NULL);
	const char *pp = dmm_path(test, p), *c1p = dmm_path(test, c1);
	const char *c2p = dmm_path(test, c2), *gp = dmm_path(test, g);
	int ip, i1, i2, ig;

	dmct_listen(test);
	dmm_dev_del(p);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_registered(c1->dev));
	KUNIT_EXPECT_FALSE(test, dmc_device_is_registered(c2->dev));
	KUNIT_EXPECT_FALSE(test, dmc_device_is_registered(g->dev));
	KUNIT_EXPECT_EQ(test, dmc_bus_device_count(&b->bus), 0U);

	ip = dmct_ev_index(ct, DMC_KOBJ_REMOVE, pp);
	i1 = dmct_ev_index(ct, DMC_KOBJ_REMOVE, c1p);
	i2 = dmct_ev_index(ct, DMC_KOBJ_REMOVE, c2p);
	ig = dmct_ev_index(ct, DMC_KOBJ_REMOVE, gp);
	KUNIT_EXPECT_GE(test, ig, 0);
	KUNIT_EXPECT_GT(test, i1, ig);
	KUNIT_EXPECT_GE(test, i2, 0);
	KUNIT_EXPECT_GT(test, ip, i1);
	KUNIT_EXPECT_GT(test, ip, i2);

	/* the test's references keep them all; the parent dies last */
	dmm_dev_put(p);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, p->released, 0U);
	dmm_dev_unregister(g);
	dmm_dev_unregister(c1);
	dmm_dev_unregister(c2);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, p->released, 1U);
	KUNIT_EXPECT_LT(test, g->release_seq, c1->release_seq);
	KUNIT_EXPECT_LT(test, c1->release_seq, p->release_seq);
	KUNIT_EXPECT_LT(test, c2->release_seq, p->release_seq);
}

static void device_del_again_does_nothing_then_put_releases(struct kunit *test)
{
	struct dmct_ctx *ct = dmct_ctx(test);
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	struct dmm_dev *c = dmm_dev_new(test, "c", b, p, NULL);
	const char *cp = dmm_path(test, c);
	unsigned int refs;

	dmct_listen(test);
	dmm_dev_unregister(p);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_registered(c->dev));
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, c->released, 0U);
	refs = dmm_dev_refs(c);

	dmm_dev_del(c);
	dmm_dev_del(c);
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(c), refs);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, c->released, 0U);
	KUNIT_EXPECT_GE(test, dmct_ev_index(ct, DMC_KOBJ_REMOVE, cp), 0);
	KUNIT_EXPECT_EQ(test, ct->nr_evs, 1U);	/* one remove, no second */
	dmm_dev_put(c);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, c->released, 1U);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, p->released, 1U);
}

static void device_del_unbinds_its_driver(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);

	KUNIT_ASSERT_TRUE(test, dmc_device_is_bound(a->dev));
	dmm_dev_del(a);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_NULL(test, a->dev->driver);
	KUNIT_EXPECT_EQ(test, dmc_driver_device_count(&d->drv), 0U);
	DMM_EXPECT_LOG(test, "probe:a:d remove:a:d");
	dmm_dev_put(a);
}

static void device_del_leaves_the_bus(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, NULL);
	struct dmc_device *found;

	KUNIT_EXPECT_EQ(test, dmc_bus_device_count(&b->bus), 1U);
	found = dmc_bus_find_device_by_name(&b->bus, a->name);
	KUNIT_EXPECT_PTR_EQ(test, found, a->dev);
	dmm_put_found(found);
	dmm_dev_del(a);
	KUNIT_EXPECT_EQ(test, dmc_bus_device_count(&b->bus), 0U);
	KUNIT_EXPECT_NULL(test, dmc_bus_find_device_by_name(&b->bus, a->name));
	dmm_dev_put(a);
}

static void device_registered_and_dead_track_add_and_del(struct kunit *test)
{
	struct dmm_dev *a = dmm_dev_alloc(test, "a");

	KUNIT_EXPECT_FALSE(test, dmc_device_is_registered(a->dev));
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_registered(a->dev));
	KUNIT_EXPECT_FALSE(test, dmc_device_is_dead(a->dev));
	dmm_dev_del(a);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_registered(a->dev));
	KUNIT_EXPECT_TRUE(test, dmc_device_is_dead(a->dev));
	dmm_dev_put(a);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, a->released, 1U);
}

static void device_register_is_initialize_and_add(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a = dmm_dev_alloc_raw(test, "a");

	a->dev->bus = &b->bus;
	dmm_dev_want(a, d);
	KUNIT_ASSERT_EQ(test, dmm_dev_register(test, a), 0);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_registered(a->dev));
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	dmct_expect_path(test, &a->dev->kobj,
			 dmm_str(test, "/devices/%s", a->name));
	dmm_dev_unregister(a);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, a->released, 1U);
}

static void device_get_put_del_of_null_do_nothing(struct kunit *test)
{
	struct dmc_device *got = (void *)1;
	bool yes = true;
	int err = 0;

	DMM_TOLERATE_MISUSE(test, got = dmc_device_get(NULL));
	KUNIT_EXPECT_NULL(test, got);
	DMM_TOLERATE_MISUSE(test, dmc_device_put(NULL));
	DMM_TOLERATE_MISUSE(test, dmc_device_del(NULL));
	DMM_TOLERATE_MISUSE(test, dmc_device_unregister(NULL));
	DMM_TOLERATE_MISUSE(test, yes = dmc_device_is_registered(NULL));
	KUNIT_EXPECT_FALSE(test, yes);
	yes = true;
	DMM_TOLERATE_MISUSE(test, yes = dmc_device_is_bound(NULL));
	KUNIT_EXPECT_FALSE(test, yes);
	DMM_TOLERATE_MISUSE(test, err = dmc_device_register(NULL));
	KUNIT_EXPECT_LT(test, err, 0);
}

/* children */

struct dv_walk {
	struct kunit *test;
	unsigned int n;
	unsigned int seen;	/* bit i: child i seen */
	struct dmm_dev *kids[4];
};

static int dv_walk_fn(struct dmc_device *dev, void *data)
{
	struct dv_walk *w = data;
	unsigned int i;

	w->n++;
	for (i = 0; i < ARRAY_SIZE(w->kids); i++)
		if (w->kids[i] && w->kids[i]->dev == dev)
			w->seen |= BIT(i);
	return 0;
}

static void device_child_walk_visits_direct_children(struct kunit *test)
{
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	struct dmm_dev *c1 = dmm_dev_new(test, "c1", NULL, p, NULL);
	struct dmm_dev *c2 = dmm_dev_new(test, "c2", NULL, p, NULL);
	struct dmm_dev *c3 = dmm_dev_new(test, "c3", NULL, p, NULL);
	struct dmm_dev *g = dmm_dev_new(test, "g", NULL, c1, NULL);
	struct dv_walk w = { .test = test, .kids = { c1, c2, c3, g } };

	KUNIT_EXPECT_EQ(test, dmc_device_walk_children(p->dev, &w, dv_walk_fn), 0);
	KUNIT_EXPECT_EQ(test, w.n, 3U);
	KUNIT_EXPECT_EQ(test, w.seen, 0x7U);

	dmm_dev_unregister(c2);
	memset(&w.seen, 0, sizeof(w.seen));
	w.n = 0;
	KUNIT_EXPECT_EQ(test, dmc_device_walk_children(p->dev, &w, dv_walk_fn), 0);
	KUNIT_EXPECT_EQ(test, w.n, 2U);
	KUNIT_EXPECT_EQ(test, w.seen, 0x5U);
	dmm_dev_unregister(g);
	dmm_dev_unregister(c3);
	dmm_dev_unregister(c1);
	dmm_dev_unregister(p);
}

static int dv_match_name(struct dmc_device *dev, const void *data)
{
	return !strcmp(dmc_dev_name(dev), data);
}

struct dv_sibling {
	struct dmc_device *child;
	struct completion *go;
	struct completion done;
	int err;
};

static int dv_sibling_add(void *data)
{
	struct dv_sibling *s = data;

	wait_for_completion(s->go);
	s->err = dmc_device_add(s->child);
	complete(&s->done);
	return 0;
}

/*
 * A device gets its children's klist with its first child: before, walks
 * and finds see no children; siblings added at once by several threads
 * all end up in the one klist.
 */
static void device_children_made_on_first_child_by_racing_siblings(struct kunit *test)
{
	static const char * const names[] = { "s0", "s1", "s2", "s3" };
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	struct dv_walk w = { .test = test };
	struct dv_sibling *s;
	struct completion go;
	struct dmc_device *found;
	unsigned int i;

	KUNIT_EXPECT_EQ(test, dmc_device_walk_children(p->dev, &w, dv_walk_fn), 0);
	KUNIT_EXPECT_EQ(test, w.n, 0U);
	KUNIT_EXPECT_NULL(test, dmc_device_find_child(p->dev, "nope", dv_match_name));
	KUNIT_EXPECT_NULL(test, dmc_device_find_child_by_name(p->dev, "nope"));

	s = kunit_kcalloc(test, ARRAY_SIZE(names), sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	init_completion(&go);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		struct task_struct *task;

		w.kids[i] = dmm_dev_alloc(test, names[i]);
		w.kids[i]->dev->parent = p->dev;
		s[i].child = w.kids[i]->dev;
		s[i].go = &go;
		init_completion(&s[i].done);
		task = kthread_run(dv_sibling_add, &s[i], "dv-sib%u", i);
		if (IS_ERR(task)) {
			s[i].err = PTR_ERR(task);
			complete(&s[i].done);
		}
	}
	complete_all(&go);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		wait_for_completion(&s[i].done);
		KUNIT_EXPECT_EQ(test, s[i].err, 0);
		w.kids[i]->added = !s[i].err;
	}

	KUNIT_EXPECT_EQ(test, dmc_device_walk_children(p->dev, &w, dv_walk_fn), 0);
	KUNIT_EXPECT_EQ(test, w.n, 4U);
	KUNIT_EXPECT_EQ(test, w.seen, 0xfU);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		found = dmc_device_find_child_by_name(p->dev, w.kids[i]->name);
		KUNIT_EXPECT_PTR_EQ(test, found, w.kids[i]->dev);
		dmm_put_found(found);
	}
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (w.kids[i]->added)
			dmm_dev_unregister(w.kids[i]);
		else
			dmm_dev_put(w.kids[i]);
	}
	dmm_dev_unregister(p);
}

static void device_find_child_returns_referenced_match(struct kunit *test)
{
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	struct dmm_dev *c1 = dmm_dev_new(test, "c1", NULL, p, NULL);
	struct dmm_dev *c2 = dmm_dev_new(test, "c2", NULL, p, NULL);
	unsigned int refs = dmm_dev_refs(c2);
	struct dmc_device *found;

	found = dmc_device_find_child(p->dev, c2->name, dv_match_name);
	KUNIT_EXPECT_PTR_EQ(test, found, c2->dev);
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(c2), refs + 1);
	dmm_put_found(found);
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(c2), refs);
	found = dmc_device_find_child(p->dev, "nope", dv_match_name);
	KUNIT_EXPECT_NULL(test, found);
	dmm_put_found(found);
	dmm_dev_unregister(c2);
	dmm_dev_unregister(c1);
	dmm_dev_unregister(p);
}

static void device_find_child_by_name_is_referenced_and_direct(struct kunit *test)
{
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	struct dmm_dev *c = dmm_dev_new(test, "c", NULL, p, NULL);
	struct dmm_dev *g = dmm_dev_new(test, "g", NULL, c, NULL);
	unsigned int refs = dmm_dev_refs(c);
	struct dmc_device *found;

	found = dmc_device_find_child_by_name(p->dev, c->name);
	KUNIT_EXPECT_PTR_EQ(test, found, c->dev);
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(c), refs + 1);
	dmm_put_found(found);
	KUNIT_EXPECT_NULL(test, dmc_device_find_child_by_name(p->dev, g->name));
	KUNIT_EXPECT_NULL(test, dmc_device_find_child_by_name(p->dev, "nope"));
	dmm_dev_unregister(g);
	KUNIT_EXPECT_NULL(test, dmc_device_find_child_by_name(c->dev, g->name));
	dmm_dev_unregister(c);
	dmm_dev_unregister(p);
}

static void device_is_bound_follows_binding(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, NULL);
	struct dmm_drv *d;

	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	d = dmm_drv_new(test, b, "d");
	dmm_dev_want(a, d);
	KUNIT_EXPECT_EQ(test, dmc_device_attach(a->dev), 1);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_PTR_EQ(test, a->dev->driver, &d->drv);
	dmc_device_release_driver(a->dev);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_NULL(test, a->dev->driver);
	dmm_dev_unregister(a);
}

/* a child added while its parent is being deleted */

struct dv_race {
	struct dmc_listener l;
	struct notifier_block nb;
	struct dmc_device *child;
	struct dmc_device *parent;
	struct completion in_tree;
	struct completion parent_going;
	struct completion done;
	int err;
};

/* The child is in the tree: hold its add there until the parent goes. */
static void dv_race_added(struct dmc_listener *l, struct dmc_kobject *kobj)
{
	struct dv_race *r = container_of(l, struct dv_race, l);

	if (kobj != &r->child->kobj)
		return;
	complete(&r->in_tree);
	wait_for_completion_timeout(&r->parent_going, 5 * HZ);
}

static int dv_race_notify(struct notifier_block *nb, unsigned long action,
			  void *data)
{
	struct dv_race *r = container_of(nb, struct dv_race, nb);

	if (action == DMC_BUS_NOTIFY_DEL_DEVICE && data == r->parent)
		complete(&r->parent_going);
	return NOTIFY_DONE;
}

static int dv_race_add(void *data)
{
	struct dv_race *r = data;

	r->err = dmc_device_add(r->child);
	complete(&r->done);
	return 0;
}

/*
 * Another thread adds a child while the parent is deleted: the add may
 * fail or the child may go with its parent, but it must not stay
 * registered (on the bus, in the power order) under a deleted parent. A
 * tree listener holds the child's add between its parent check and its
 * joining the parent's children until the parent's del has begun.
 */
static void device_add_under_parent_being_deleted_leaves_no_orphan(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *p = dmm_dev_new(test, "p", b, NULL, NULL);
	struct dmm_dev *c = dmm_dev_alloc(test, "c");
	struct task_struct *task;
	struct dv_race *r;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	c->dev->parent = p->dev;
	c->dev->bus = &b->bus;
	r->child = c->dev;
	r->parent = p->dev;
	init_completion(&r->in_tree);
	init_completion(&r->parent_going);
	init_completion(&r->done);
	r->l.kobj_added = dv_race_added;
	r->nb.notifier_call = dv_race_notify;
	KUNIT_ASSERT_EQ(test, dmc_listener_register(&r->l), 0);
	if (dmc_bus_register_notifier(&b->bus, &r->nb)) {
		dmc_listener_unregister(&r->l);
		KUNIT_FAIL(test, "bus notifier");
		return;
	}
	task = kthread_run(dv_race_add, r, "dv-race");
	if (IS_ERR(task)) {
		dmc_bus_unregister_notifier(&b->bus, &r->nb);
		dmc_listener_unregister(&r->l);
		KUNIT_FAIL(test, "kthread_run");
		return;
	}
	wait_for_completion_timeout(&r->in_tree, 5 * HZ);
	dmm_dev_del(p);
	complete(&r->parent_going);
	wait_for_completion(&r->done);
	dmc_bus_unregister_notifier(&b->bus, &r->nb);
	dmc_listener_unregister(&r->l);

	if (r->err) {
		dmm_dev_put(c);
	} else {
		c->added = true;
		KUNIT_EXPECT_FALSE_MSG(test, dmc_device_is_registered(c->dev),
				       "child registered under a deleted parent");
		KUNIT_EXPECT_EQ(test, dmc_bus_device_count(&b->bus), 0U);
		dmm_dev_unregister(c);
	}
	dmm_dev_put(p);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, c->released, 1U);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, p->released, 1U);
}

static int device_test_init(struct kunit *test)
{
	return dmm_init(test, "dv");
}

static struct kunit_case device_test_cases[] = {
	KUNIT_CASE(device_add_null_fails_einval),
	KUNIT_CASE(device_add_without_name_fails_einval),
	KUNIT_CASE(device_add_without_any_release_warns_einval),
	KUNIT_CASE(device_add_on_unregistered_bus_fails_einval),
	KUNIT_CASE(device_add_with_unregistered_class_fails_einval),
	KUNIT_CASE(device_add_under_unadded_parent_fails_enoent),
	KUNIT_CASE(device_add_under_deleted_parent_fails_enoent),
	KUNIT_CASE(device_add_same_name_on_same_bus_fails_eexist),
	KUNIT_CASE(device_add_sibling_name_clash_fails_eexist),
	KUNIT_CASE(device_add_top_level_name_clash_fails_eexist),
	KUNIT_CASE(device_child_named_like_parent_entry_fails_eexist),
	KUNIT_CASE(device_rename_or_move_onto_parent_entry_fails_eexist),
	KUNIT_CASE(device_named_like_driver_file_is_not_bound),
	KUNIT_CASE(device_link_replay_races_bind_and_unbind),
	KUNIT_CASE(device_same_name_under_two_parents_without_bus_ok),
	KUNIT_CASE(device_failed_add_leaves_nothing_behind),
	KUNIT_CASE(device_path_parentless_is_under_devices),
	KUNIT_CASE(device_path_nests_under_parents),
	KUNIT_CASE(device_path_class_only_parentless_is_virtual),
	KUNIT_CASE(device_path_class_and_bus_is_not_virtual),
	KUNIT_CASE(device_path_class_member_with_parent_under_parent),
	KUNIT_CASE(device_set_name_gives_the_name),
	KUNIT_CASE(device_set_name_long_slashed_and_refused_in_tree),
	KUNIT_CASE(device_release_prefers_device_release),
	KUNIT_CASE(device_release_falls_back_to_type_release),
	KUNIT_CASE(device_release_falls_back_to_class_release),
	KUNIT_CASE(device_release_runs_once_after_last_put),
	KUNIT_CASE(device_child_holds_parent_until_child_released),
	KUNIT_CASE(device_parent_refcount_back_after_children_go),
	KUNIT_CASE(device_del_removes_children_first),
	KUNIT_CASE(device_del_again_does_nothing_then_put_releases),
	KUNIT_CASE(device_del_unbinds_its_driver),
	KUNIT_CASE(device_del_leaves_the_bus),
	KUNIT_CASE(device_registered_and_dead_track_add_and_del),
	KUNIT_CASE(device_register_is_initialize_and_add),
	KUNIT_CASE(device_get_put_del_of_null_do_nothing),
	KUNIT_CASE(device_child_walk_visits_direct_children),
	KUNIT_CASE(device_find_child_returns_referenced_match),
	KUNIT_CASE(device_find_child_by_name_is_referenced_and_direct),
	KUNIT_CASE(device_children_made_on_first_child_by_racing_siblings),
	KUNIT_CASE(device_is_bound_follows_binding),
	KUNIT_CASE(device_add_under_parent_being_deleted_leaves_no_orphan),
	{}
};

static struct kunit_suite device_test_suite = {
	.name = "dmcore-device",
	.init = device_test_init,
	.exit = dmct_exit,
	.test_cases = device_test_cases,
};

kunit_test_suites(&device_test_suite);
