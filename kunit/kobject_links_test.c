// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore-kobject-links: the links derived from the model
 * (dmc_kobject_walk_links(), dmc_kobject_find_link()) against the links
 * announced to a listener (link_added, link_removed).
 *
 * A listener keeps the set of links it was told of; after every step of
 * a small world's life (devices on a bus, in a class, both; bind,
 * unbind, rebind; a device deleted; the driver unregistered) the links
 * each directory derives must be exactly that set, and a listener
 * registering late (told by the replay, which walks the same links) must
 * hold the same. Then the walks run against binding and driver
 * unregistration on another CPU, where a driver freed by its owner must
 * never be reached through a device.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <dmcore/device.h>
#include "model_util.h"

#define KL_MAX		512	/* links a set holds (the whole tree's, for a listener) */
#define KL_DIRS		16	/* directories a test watches */

struct kl_link {
	struct dmc_kobject *dir;
	char name[DMM_NAME_LEN];
	struct dmc_kobject *target;
};

/* A set of links, filled by a listener or by the walks. */
struct kl_set {
	struct kunit *test;
	struct dmc_listener l;
	struct mutex lock;	/* @n and @links: listener callbacks and the test */
	unsigned int n;
	bool overflow;
	struct kl_link links[KL_MAX];
};

static int kl_find(struct kl_set *s, struct dmc_kobject *dir, const char *name)
{
	unsigned int i;

	for (i = 0; i < s->n; i++)
		if (s->links[i].dir == dir && !strcmp(s->links[i].name, name))
			return i;
	return -1;
}

/* Add or replace: a link may be told twice (replayed, then announced). */
static void kl_put(struct kl_set *s, struct dmc_kobject *dir, const char *name,
		   struct dmc_kobject *target)
{
	int i;

	mutex_lock(&s->lock);
	i = kl_find(s, dir, name);
	if (i < 0 && s->n == KL_MAX) {
		s->overflow = true;
	} else {
		if (i < 0)
			i = s->n++;
		s->links[i].dir = dir;
		strscpy(s->links[i].name, name, sizeof(s->links[i].name));
		s->links[i].target = target;
	}
	mutex_unlock(&s->lock);
}

static void kl_link_added(struct dmc_listener *l, struct dmc_kobject *kobj,
			  const char *name, struct dmc_kobject *target)
{
	kl_put(container_of(l, struct kl_set, l), kobj, name, target);
}

static void kl_link_removed(struct dmc_listener *l, struct dmc_kobject *kobj,
			    const char *name)
{
	struct kl_set *s = container_of(l, struct kl_set, l);
	int i;

	mutex_lock(&s->lock);
	i = kl_find(s, kobj, name);
	if (i >= 0)
		s->links[i] = s->links[--s->n];
	mutex_unlock(&s->lock);
}

static struct kl_set *kl_set_new(struct kunit *test)
{
	struct kl_set *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	s->test = test;
	mutex_init(&s->lock);
	s->l.link_added = kl_link_added;
	s->l.link_removed = kl_link_removed;
	return s;
}

static int kl_walk_fn(struct dmc_kobject *kobj, const char *name,
		      struct dmc_kobject *target, void *data)
{
	kl_put(data, kobj, name, target);
	return 0;
}

static int kl_count_fn(struct dmc_kobject *kobj, const char *name,
		       struct dmc_kobject *target, void *data)
{
	(*(unsigned int *)data)++;
	return 0;
}

/* The watched directories of a test. */
struct kl_dirs {
	unsigned int n;
	struct dmc_kobject *dir[KL_DIRS];
	const char *what[KL_DIRS];
};

static void kl_watch(struct kunit *test, struct kl_dirs *d, struct dmc_kobject *dir,
		     const char *what)
{
	KUNIT_ASSERT_NOT_NULL_MSG(test, dir, "no directory for %s", what);
	KUNIT_ASSERT_LT(test, d->n, (unsigned int)KL_DIRS);
	d->dir[d->n] = dmc_kobject_get(dir);
	d->what[d->n++] = what;
}

static void kl_unwatch(struct kl_dirs *d)
{
	while (d->n)
		dmc_kobject_put(d->dir[--d->n]);
}

static bool kl_watched(struct kl_dirs *d, struct dmc_kobject *dir)
{
	unsigned int i;

	for (i = 0; i < d->n; i++)
		if (d->dir[i] == dir)
			return true;
	return false;
}

/*
 * Every watched directory derives exactly the links @told holds for it
 * (same names, same targets), and find_link() finds each by name.
 */
static void kl_expect_same(struct kunit *test, struct kl_dirs *d,
			   struct kl_set *told, const char *step)
{
	struct kl_set *walked = kl_set_new(test);
	struct dmc_kobject *found;
	struct kl_link *a;
	unsigned int i, n_told = 0;
	int j;

	for (i = 0; i < d->n; i++)
		KUNIT_EXPECT_EQ(test, dmc_kobject_walk_links(d->dir[i], walked,
							     kl_walk_fn), 0);
	KUNIT_ASSERT_FALSE(test, walked->overflow || told->overflow);
	mutex_lock(&told->lock);
	for (i = 0; i < told->n; i++) {
		a = &told->links[i];
		if (!kl_watched(d, a->dir))
			continue;
		n_told++;
		j = kl_find(walked, a->dir, a->name);
		KUNIT_EXPECT_GE_MSG(test, j, 0, "%s: link %s of %s told, not derived",
				    step, a->name, a->dir->name);
		if (j >= 0)
			KUNIT_EXPECT_PTR_EQ_MSG(test, walked->links[j].target, a->target,
						"%s: link %s of %s", step, a->name,
						a->dir->name);
	}
	mutex_unlock(&told->lock);
	KUNIT_EXPECT_EQ_MSG(test, walked->n, n_told,
			    "%s: derived links that were never told", step);
	for (i = 0; i < walked->n; i++) {
		a = &walked->links[i];
		found = dmc_kobject_find_link(a->dir, a->name);
		KUNIT_EXPECT_PTR_EQ_MSG(test, found, a->target, "%s: find %s in %s",
					step, a->name, a->dir->name);
		if (found)
			dmc_kobject_put(found);
	}
}

/* Listeners a failed case left registered: unregistered by the suite's exit. */
static struct kl_set *kl_listening[2];

static int kl_listen(struct kl_set *s, unsigned int slot)
{
	int err = dmc_listener_register(&s->l);

	if (!err)
		kl_listening[slot] = s;
	return err;
}

static void kl_unlisten(unsigned int slot)
{
	if (kl_listening[slot])
		dmc_listener_unregister(&kl_listening[slot]->l);
	kl_listening[slot] = NULL;
}

/*
 * A late listener, told by the replay, holds for every watched directory
 * the links the listener there from the start was told of.
 */
static void kl_expect_replay_same(struct kunit *test, struct kl_dirs *d,
				  struct kl_set *told, const char *step)
{
	struct kl_set *late = kl_set_new(test);
	struct kl_link *a;
	unsigned int i, n_told = 0, n_late = 0;
	int j;

	KUNIT_ASSERT_EQ(test, kl_listen(late, 1), 0);
	kl_unlisten(1);
	KUNIT_ASSERT_FALSE(test, late->overflow);
	for (i = 0; i < told->n; i++) {
		a = &told->links[i];
		if (!kl_watched(d, a->dir))
			continue;
		n_told++;
		j = kl_find(late, a->dir, a->name);
		KUNIT_EXPECT_GE_MSG(test, j, 0, "%s: link %s of %s not replayed",
				    step, a->name, a->dir->name);
		if (j >= 0)
			KUNIT_EXPECT_PTR_EQ(test, late->links[j].target, a->target);
	}
	for (i = 0; i < late->n; i++)
		n_late += kl_watched(d, late->links[i].dir);
	KUNIT_EXPECT_EQ_MSG(test, n_late, n_told, "%s: replayed links never told", step);
}

static void kl_expect_link(struct kunit *test, struct dmc_kobject *dir, const char *name,
			   struct dmc_kobject *want)
{
	struct dmc_kobject *found = dmc_kobject_find_link(dir, name);

	KUNIT_EXPECT_PTR_EQ_MSG(test, found, want, "link %s in %s", name, dir->name);
	if (found)
		dmc_kobject_put(found);
}

static struct dmc_kobject *kl_class_kobj(struct dmm_class *c)
{
	struct dmc_kobject *root = dmc_kobject_find_child(NULL, "class"), *k;

	if (!root)
		return NULL;
	k = dmc_kobject_find_child(root, c->name);
	dmc_kobject_put(root);
	return k;
}

static void kl_derived_links_follow_the_model(struct kunit *test)
{
	struct kl_set *told = kl_set_new(test);
	struct kl_dirs dirs = { 0 };
	struct dmc_kobject *bk, *bdev, *ck, *dk;
	struct dmm_dev *x, *y, *z, *w;
	struct dmm_class *c;
	struct dmm_drv *d;
	struct dmm_bus *b;
	unsigned int n;

	KUNIT_ASSERT_EQ(test, kl_listen(told, 0), 0);
	b = dmm_bus_new(test, "b");
	d = dmm_drv_new(test, b, "d");
	c = dmm_class_new(test, "c");
	bk = dmm_bus_kobj(b->name);
	KUNIT_ASSERT_NOT_NULL(test, bk);
	bdev = dmc_kobject_find_child(bk, "devices");
	ck = kl_class_kobj(c);
	dk = dmc_driver_kobj(&d->drv);
	kl_watch(test, &dirs, bk, "bus");
	kl_watch(test, &dirs, bdev, "bus devices");
	kl_watch(test, &dirs, ck, "class");
	kl_watch(test, &dirs, dk, "driver");
	dmc_kobject_put(bdev);
	dmc_kobject_put(ck);

	x = dmm_dev_new(test, "x", b, NULL, d);		/* bound */
	y = dmm_dev_new(test, "y", b, NULL, NULL);	/* on the bus, unbound */
	z = dmm_cdev_new(test, "z", c, NULL);		/* class only */
	w = dmm_dev_alloc(test, "w");			/* bus and class */
	w->dev->bus = &b->bus;
	w->dev->class = &c->cls;
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, w), 0);
	kl_watch(test, &dirs, &x->dev->kobj, "x");
	kl_watch(test, &dirs, &y->dev->kobj, "y");
	kl_watch(test, &dirs, &z->dev->kobj, "z");
	kl_watch(test, &dirs, &w->dev->kobj, "w");
	KUNIT_ASSERT_TRUE(test, dmc_device_is_bound(x->dev));

	kl_expect_same(test, &dirs, told, "added");
	kl_expect_replay_same(test, &dirs, told, "added, replayed");
	kl_expect_link(test, &x->dev->kobj, "driver", dk);
	kl_expect_link(test, &x->dev->kobj, "subsystem", bk);
	kl_expect_link(test, &y->dev->kobj, "driver", NULL);
	kl_expect_link(test, &z->dev->kobj, "subsystem", ck);
	kl_expect_link(test, &w->dev->kobj, "subsystem", bk);	/* the bus wins */
	kl_expect_link(test, bdev, x->name, &x->dev->kobj);
	kl_expect_link(test, bdev, z->name, NULL);
	kl_expect_link(test, dk, x->name, &x->dev->kobj);
	kl_expect_link(test, dk, y->name, NULL);		/* on the bus, not bound */
	kl_expect_link(test, ck, w->name, &w->dev->kobj);
	kl_expect_link(test, ck, x->name, NULL);
	kl_expect_link(test, &x->dev->kobj, "power", NULL);	/* a group, not a link */
	kl_expect_link(test, bk, "devices", NULL);		/* a child, not a link */

	dmc_device_release_driver(x->dev);
	kl_expect_same(test, &dirs, told, "unbound");
	kl_expect_link(test, &x->dev->kobj, "driver", NULL);
	kl_expect_link(test, dk, x->name, NULL);

	KUNIT_EXPECT_EQ(test, dmc_device_driver_attach(&d->drv, x->dev), 0);
	kl_expect_same(test, &dirs, told, "bound again");
	kl_expect_replay_same(test, &dirs, told, "bound again, replayed");

	dmm_dev_unregister(w);
	kl_expect_same(test, &dirs, told, "w deleted");
	kl_expect_link(test, ck, w->name, NULL);
	kl_expect_link(test, bdev, w->name, NULL);

	dmm_drv_unregister(test, d);
	kl_expect_same(test, &dirs, told, "driver unregistered");
	kl_expect_replay_same(test, &dirs, told, "driver unregistered, replayed");
	kl_expect_link(test, &x->dev->kobj, "driver", NULL);
	n = 0;
	KUNIT_EXPECT_EQ(test, dmc_kobject_walk_links(dk, &n, kl_count_fn), 0);
	KUNIT_EXPECT_EQ(test, n, 0U);	/* its directory left the tree */

	kl_unlisten(0);
	dmc_kobject_put(bk);
	kl_unwatch(&dirs);
}

static int kl_stop_fn(struct dmc_kobject *kobj, const char *name,
		      struct dmc_kobject *target, void *data)
{
	return 7;
}

static void kl_walk_bad_input_and_stop(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "b");
	struct dmm_dev *x = dmm_dev_new(test, "x", b, NULL, NULL);
	struct dmc_kobject *plain = dmc_kobject_create_and_add("kl-plain", NULL);
	unsigned int n = 0;

	KUNIT_ASSERT_NOT_NULL(test, plain);
	KUNIT_EXPECT_EQ(test, dmc_kobject_walk_links(NULL, &n, kl_count_fn), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_kobject_walk_links(&x->dev->kobj, &n, NULL), -EINVAL);
	KUNIT_EXPECT_NULL(test, dmc_kobject_find_link(NULL, "driver"));
	KUNIT_EXPECT_NULL(test, dmc_kobject_find_link(&x->dev->kobj, NULL));
	/* A plain kobject has no links. */
	KUNIT_EXPECT_EQ(test, dmc_kobject_walk_links(plain, &n, kl_count_fn), 0);
	KUNIT_EXPECT_EQ(test, n, 0U);
	KUNIT_EXPECT_NULL(test, dmc_kobject_find_link(plain, "subsystem"));
	/* x has one link, "subsystem"; a nonzero return is passed back. */
	KUNIT_EXPECT_EQ(test, dmc_kobject_walk_links(&x->dev->kobj, &n, kl_count_fn), 0);
	KUNIT_EXPECT_EQ(test, n, 1U);
	KUNIT_EXPECT_EQ(test, dmc_kobject_walk_links(&x->dev->kobj, NULL, kl_stop_fn), 7);
	/* Deleted: out of the tree, no links, though still referenced. */
	dmm_dev_get(x);
	dmm_dev_unregister(x);
	n = 0;
	KUNIT_EXPECT_EQ(test, dmc_kobject_walk_links(&x->dev->kobj, &n, kl_count_fn), 0);
	KUNIT_EXPECT_EQ(test, n, 0U);
	KUNIT_EXPECT_NULL(test, dmc_kobject_find_link(&x->dev->kobj, "subsystem"));
	dmm_dev_put(x);
	dmc_kobject_del(plain);
	dmc_kobject_put(plain);
}

/*
 * The walks against the model changing on another CPU: a thread asks X
 * for its "driver" and the bus's devices/ for X, over and over, while
 * the test registers a driver (which binds X), unbinds and rebinds X,
 * unregisters the driver and frees it (poisoned) a hundred times. The
 * driver's directory found through X must be referenced and named as
 * the driver was, never the freed driver's memory.
 */
#define KL_RACE_ROUNDS	100

struct kl_race {
	struct dmc_device *x;
	struct dmc_kobject *bdev;
	const char *prefix;
	bool stop;
	atomic_t seen, bad;
	struct completion done;
};

static int kl_race_reader(void *data)
{
	struct kl_race *r = data;
	struct dmc_kobject *k;
	unsigned int n;

	while (!READ_ONCE(r->stop)) {
		k = dmc_kobject_find_link(&r->x->kobj, "driver");
		if (k) {
			atomic_inc(&r->seen);
			if (strcmp(k->name, r->prefix))
				atomic_inc(&r->bad);
			dmc_kobject_put(k);
		}
		k = dmc_kobject_find_link(r->bdev, r->x->kobj.name);
		if (k != &r->x->kobj)
			atomic_inc(&r->bad);
		if (k)
			dmc_kobject_put(k);
		n = 0;
		dmc_kobject_walk_links(&r->x->kobj, &n, kl_count_fn);
		if (n < 1 || n > 2)
			atomic_inc(&r->bad);
		cond_resched();
	}
	complete(&r->done);
	return 0;
}

static void kl_walks_race_binding_and_driver_unregister(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "b");
	struct dmm_drv *proto = dmm_drv_alloc(test, b, "race");	/* never registered */
	struct dmm_dev *x = dmm_dev_new(test, "x", b, NULL, proto);
	struct dmc_kobject *bk = dmm_bus_kobj(b->name);
	struct task_struct *t;
	struct dmm_drv *drv;
	struct kl_race *r;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, bk);
	/* Not test-managed: a reader that hangs keeps it (leaked, not freed). */
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	r->x = x->dev;
	r->bdev = dmc_kobject_find_child(bk, "devices");
	dmc_kobject_put(bk);
	if (!r->bdev) {
		kfree(r);
		KUNIT_FAIL(test, "no devices/ under the bus");
		return;
	}
	r->prefix = proto->name;
	init_completion(&r->done);
	t = kthread_run(kl_race_reader, r, "kl-reader");
	if (IS_ERR(t)) {
		dmc_kobject_put(r->bdev);
		kfree(r);
		KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(t));
		return;
	}
	for (i = 0; i < KL_RACE_ROUNDS; i++) {
		/* The owner's copy, freed after each round; not on the test's list. */
		drv = kmemdup(proto, sizeof(*proto), GFP_KERNEL);
		if (!drv)
			break;
		INIT_LIST_HEAD(&drv->node);
		drv->drv.name = drv->name;
		if (!dmc_driver_register(&drv->drv)) {
			dmc_device_release_driver(x->dev);
			dmc_device_driver_attach(&drv->drv, x->dev);
			dmc_driver_unregister(&drv->drv);
		}
		memset(drv, 0x6b, sizeof(*drv));
		kfree(drv);
		cond_resched();
	}
	WRITE_ONCE(r->stop, true);
	if (!wait_for_completion_timeout(&r->done, 20 * HZ)) {
		KUNIT_FAIL(test, "the reader hangs");
		return;		/* @r stays with it */
	}
	KUNIT_EXPECT_EQ(test, i, (unsigned int)KL_RACE_ROUNDS);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->bad), 0);
	KUNIT_EXPECT_GT_MSG(test, atomic_read(&r->seen), 0,
			    "the reader never saw X bound: the race did not run");
	dmc_kobject_put(r->bdev);
	kfree(r);
}

static int kl_init(struct kunit *test)
{
	return dmm_init(test, "kl");
}

static void kl_exit(struct kunit *test)
{
	kl_unlisten(0);
	kl_unlisten(1);
	dmct_exit(test);
}

static struct kunit_case kl_test_cases[] = {
	KUNIT_CASE(kl_derived_links_follow_the_model),
	KUNIT_CASE(kl_walk_bad_input_and_stop),
	KUNIT_CASE(kl_walks_race_binding_and_driver_unregister),
	{}
};

static struct kunit_suite kl_test_suite = {
	.name = "dmcore-kobject-links",
	.init = kl_init,
	.exit = kl_exit,
	.test_cases = kl_test_cases,
};

kunit_test_suites(&kl_test_suite);
