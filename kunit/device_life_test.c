// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore-device-life: a device's lifetime against misuse, concurrency and
 * depth.
 *
 * A put without a delete is a counted misuse, never a free of a device
 * still on the model's lists; a second dmc_device_del() (of the device,
 * of its parent, through its bus's or class's unregistration) waits for
 * one already running; a deep chain of devices is deleted without
 * recursion; a kobject deleted with its parent device cannot be added
 * again. Races are forced with kthreads and a bus notifier that holds a
 * deletion at "del". Names are "dl<N>-<name>" (model_util.h).
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include "model_util.h"

/* How long a waiter is given to (wrongly) return before the first is done. */
#define DL_GRACE	(HZ / 5)
#define DL_TIMEOUT	(10 * HZ)

/* ---- misuse: a put without a delete ---------------------------------- */

/*
 * The test's only reference goes without dmc_device_del(): the device is
 * still on its bus and among its parent's children, so it must stay
 * (held by its registration) and the misuse must be counted. A put by
 * someone holding no reference is refused. The device is still usable
 * through the bus, and its deletion frees it.
 */
static void device_put_without_del_is_counted_misuse_not_free(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	struct dmm_dev *a = dmm_dev_new(test, "a", b, p, NULL);
	struct dmc_device *dev = a->dev, *found;

	DMCT_EXPECT_MISUSE(test, 1, dmm_dev_put(a));
	dmc_kobject_flush_releases();
	KUNIT_ASSERT_EQ_MSG(test, a->released, 0U,
			    "a registered device was freed by a put");
	KUNIT_EXPECT_TRUE(test, dmc_device_is_registered(dev));

	/* A put without any reference: refused, still there. */
	DMCT_EXPECT_MISUSE(test, 1, dmc_device_put(dev));
	dmc_kobject_flush_releases();
	KUNIT_ASSERT_EQ(test, a->released, 0U);

	/* The lists still lead to it, and it is intact. */
	KUNIT_EXPECT_EQ(test, dmc_bus_device_count(&b->bus), 1U);
	found = dmc_bus_find_device_by_name(&b->bus, a->name);
	KUNIT_EXPECT_PTR_EQ(test, found, dev);
	/* The last put of an orphan is reported once per device. */
	dmm_put_found(found);
	found = dmc_device_find_child_by_name(p->dev, a->name);
	KUNIT_EXPECT_PTR_EQ(test, found, dev);
	dmm_put_found(found);

	/* Deleting it (here, with its parent) frees it. */
	dmm_dev_del(p);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, a->released, 1U);
	KUNIT_EXPECT_EQ(test, dmc_bus_device_count(&b->bus), 0U);
	dmm_dev_put(p);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, p->released, 1U);
}

/* Puts by the owner after del, and by lookups meanwhile, are no misuse. */
static void device_puts_around_del_are_no_misuse(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, NULL);
	unsigned long before = dmc_misuse_count();
	struct dmc_device *found;

	found = dmc_bus_find_device_by_name(&b->bus, a->name);
	KUNIT_EXPECT_PTR_EQ(test, found, a->dev);
	dmm_put_found(found);
	dmm_dev_get(a);
	dmm_dev_del(a);
	dmm_dev_put(a);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, a->released, 0U);
	dmm_dev_put(a);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, a->released, 1U);
	KUNIT_EXPECT_EQ(test, dmc_misuse_count(), before);
}

/* ---- concurrent deletions ------------------------------------------------ */

/*
 * struct dl_race - a deletion held at its "del" notification
 * @nb: on the bus; holds the deletion of @hold until @go
 * @hold: the device whose deletion is held
 * @held: the deletion of @hold reached its "del" notification
 * @go: let it go on
 * @t1_done, @t2_done: the two threads returned
 * @t1_dev, @t2_dev: what the threads delete (when @t2_bus and @t2_class
 *	are NULL)
 * @t2_bus: the second thread unregisters this bus instead
 * @t2_class: the second thread unregisters this class instead
 */
struct dl_race {
	struct notifier_block nb;
	struct dmc_device *hold;
	struct completion held;
	struct completion go;
	struct completion t1_done;
	struct completion t2_done;
	struct dmc_device *t1_dev;
	struct dmc_device *t2_dev;
	struct dmc_bus_type *t2_bus;
	struct dmc_class *t2_class;
};

static int dl_race_notify(struct notifier_block *nb, unsigned long action,
			  void *data)
{
	struct dl_race *r = container_of(nb, struct dl_race, nb);

	if (action == DMC_BUS_NOTIFY_DEL_DEVICE && data == r->hold) {
		complete(&r->held);
		wait_for_completion_timeout(&r->go, DL_TIMEOUT);
	}
	return NOTIFY_DONE;
}

static int dl_race_t1(void *data)
{
	struct dl_race *r = data;

	dmc_device_del(r->t1_dev);
	complete(&r->t1_done);
	return 0;
}

static int dl_race_t2(void *data)
{
	struct dl_race *r = data;

	if (r->t2_bus)
		dmc_bus_unregister(r->t2_bus);
	else if (r->t2_class)
		dmc_class_unregister(r->t2_class);
	else
		dmc_device_del(r->t2_dev);
	complete(&r->t2_done);
	return 0;
}

static struct dl_race *dl_race_alloc(struct kunit *test, struct dmm_bus *b,
				     struct dmc_device *hold)
{
	struct dl_race *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->hold = hold;
	r->t1_dev = hold;
	init_completion(&r->held);
	init_completion(&r->go);
	init_completion(&r->t1_done);
	init_completion(&r->t2_done);
	r->nb.notifier_call = dl_race_notify;
	KUNIT_ASSERT_EQ(test, dmc_bus_register_notifier(&b->bus, &r->nb), 0);
	return r;
}

/*
 * Thread 1 deletes r->t1_dev and is held at the "del" of r->hold; then
 * thread 2 does its part, which must not return while thread 1's deletion
 * runs. Returns with both threads done (or failed the test).
 */
static void dl_race_run(struct kunit *test, struct dl_race *r)
{
	struct task_struct *t1, *t2;
	bool early;

	t1 = kthread_run(dl_race_t1, r, "dl-race-1");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t1));
	if (!wait_for_completion_timeout(&r->held, DL_TIMEOUT)) {
		complete(&r->go);
		wait_for_completion(&r->t1_done);
		KUNIT_FAIL(test, "the first deletion never reached its \"del\"");
		return;
	}
	t2 = kthread_run(dl_race_t2, r, "dl-race-2");
	if (IS_ERR(t2)) {
		complete(&r->go);
		wait_for_completion(&r->t1_done);
		KUNIT_FAIL(test, "kthread_run");
		return;
	}
	early = wait_for_completion_timeout(&r->t2_done, DL_GRACE);
	KUNIT_EXPECT_FALSE_MSG(test, early,
			       "returned while another deletion was still running");
	complete(&r->go);
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&r->t1_done, DL_TIMEOUT));
	if (!early)
		KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&r->t2_done,
								    DL_TIMEOUT));
}

/* A second del of the same device returns only once it is out. */
static void device_second_del_waits_for_the_first(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);
	struct dl_race *r = dl_race_alloc(test, b, a->dev);

	KUNIT_ASSERT_TRUE(test, dmc_device_is_bound(a->dev));
	r->t2_dev = a->dev;
	dl_race_run(test, r);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_EQ(test, dmc_bus_device_count(&b->bus), 0U);
	KUNIT_EXPECT_FALSE(test, dmc_kobject_in_tree(&a->dev->kobj));
	KUNIT_EXPECT_EQ(test, dmc_bus_unregister_notifier(&b->bus, &r->nb), 0);
	a->added = false;
	dmm_dev_put(a);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, a->released, 1U);
}

/*
 * A child is being deleted when its parent is: the parent's del waits
 * for the child's, so the child is unbound before its "remove" and the
 * parent's "remove" comes last.
 */
static void device_parent_del_waits_for_child_del(struct kunit *test)
{
	struct dmct_ctx *ct = dmct_ctx(test);
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *p = dmm_dev_new(test, "p", b, NULL, NULL);
	struct dmm_dev *c = dmm_dev_new(test, "c", b, p, d);
	const char *pp = dmm_path(test, p), *cp = dmm_path(test, c);
	struct dl_race *r = dl_race_alloc(test, b, c->dev);
	int unbind, c_remove, p_remove;

	KUNIT_ASSERT_TRUE(test, dmc_device_is_bound(c->dev));
	dmct_listen(test);
	r->t2_dev = p->dev;
	dl_race_run(test, r);
	dmct_unlisten(test);

	unbind = dmct_ev_index(ct, DMC_KOBJ_UNBIND, cp);
	c_remove = dmct_ev_index(ct, DMC_KOBJ_REMOVE, cp);
	p_remove = dmct_ev_index(ct, DMC_KOBJ_REMOVE, pp);
	KUNIT_EXPECT_GE(test, unbind, 0);
	KUNIT_EXPECT_GT_MSG(test, c_remove, unbind, "child's remove before its unbind");
	KUNIT_EXPECT_GT(test, p_remove, c_remove);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->removes), 1);
	KUNIT_EXPECT_EQ(test, dmc_bus_device_count(&b->bus), 0U);
	KUNIT_EXPECT_EQ(test, dmc_bus_unregister_notifier(&b->bus, &r->nb), 0);
	p->added = false;
	c->added = false;
	dmm_dev_put(c);
	dmm_dev_put(p);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, c->released, 1U);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, p->released, 1U);
}

/* The subsystem kobject of a bus or class, referenced, by its path. */
static struct dmc_kobject *dl_subsys_kobj(struct kunit *test, const char *root,
					  const char *name)
{
	struct dmc_kobject *k;

	k = dmc_kobject_lookup_path(dmm_str(test, "/%s/%s", root, name));
	KUNIT_ASSERT_NOT_NULL(test, k);
	return k;
}

/*
 * The bus is unregistered while one of its devices is being deleted: the
 * unregistration waits for that deletion, which leaves the bus cleanly
 * (no stale node, no reference left on the bus).
 */
static void bus_unregister_waits_for_device_del(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);
	struct dl_race *r = dl_race_alloc(test, b, a->dev);
	struct dmc_kobject *bk = dl_subsys_kobj(test, "bus", b->name);

	r->t2_bus = &b->bus;
	b->registered = false;	/* thread 2 unregisters it */
	b->nb_on = false;
	dl_race_run(test, r);
	KUNIT_EXPECT_FALSE(test, dmc_bus_is_registered(&b->bus));
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(a->dev));
	KUNIT_EXPECT_FALSE(test, dmc_kobject_in_tree(&a->dev->kobj));
	/* Only our lookup holds the bus's private part now. */
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ_MSG(test, dmc_kobject_refcount(bk), 1U,
			    "the deleted device still holds the bus");
	dmc_kobject_put(bk);
	a->added = false;
	dmm_dev_put(a);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, a->released, 1U);
}

/* The same with a class: its unregistration waits for a member's del. */
static void class_unregister_waits_for_device_del(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_class *k = dmm_class_new(test, "cls");
	struct dmm_dev *a = dmm_dev_alloc(test, "a");
	struct dmc_kobject *ck = dl_subsys_kobj(test, "class", k->name);
	struct dl_race *r;

	a->dev->bus = &b->bus;
	a->dev->class = &k->cls;
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	r = dl_race_alloc(test, b, a->dev);
	r->t2_class = &k->cls;
	k->registered = false;	/* thread 2 unregisters it */
	dl_race_run(test, r);
	KUNIT_EXPECT_FALSE(test, dmc_class_is_registered(&k->cls));
	KUNIT_EXPECT_FALSE(test, dmc_kobject_in_tree(&a->dev->kobj));
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ_MSG(test, dmc_kobject_refcount(ck), 1U,
			    "the deleted device still holds the class");
	dmc_kobject_put(ck);
	KUNIT_EXPECT_EQ(test, dmc_bus_unregister_notifier(&b->bus, &r->nb), 0);
	a->added = false;
	dmm_dev_put(a);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, a->released, 1U);
}

/* ---- depth ---------------------------------------------------------------- */

#define DL_DEPTH	2000

/*
 * A chain of DL_DEPTH nested devices (control can make one: "device add
 * NAME parent=PATH") is deleted from its top without recursion, deepest
 * first, and released.
 */
static void device_del_of_deep_chain_does_not_recurse(struct kunit *test)
{
	struct dmm_dev **chain;
	unsigned int i;

	chain = kunit_kcalloc(test, DL_DEPTH, sizeof(*chain), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, chain);
	for (i = 0; i < DL_DEPTH; i++) {
		chain[i] = dmm_dev_new(test, dmm_str(test, "n%u", i), NULL,
				       i ? chain[i - 1] : NULL, NULL);
		cond_resched();	/* each add builds a path as deep as i */
	}

	dmm_dev_del(chain[0]);
	for (i = 0; i < DL_DEPTH; i++) {
		chain[i]->added = false;
		if (dmc_device_is_registered(chain[i]->dev) ||
		    dmc_kobject_in_tree(&chain[i]->dev->kobj)) {
			KUNIT_FAIL(test, "n%u still there after its top's del", i);
			break;
		}
	}
	/* Each child holds its parent: the deepest goes first. */
	for (i = 0; i < DL_DEPTH; i++) {
		dmm_dev_put(chain[i]);
		cond_resched();
	}
	dmc_kobject_flush_releases();
	for (i = 0; i < DL_DEPTH; i++)
		KUNIT_EXPECT_EQ(test, chain[i]->released, 1U);
	KUNIT_EXPECT_LT(test, chain[DL_DEPTH - 1]->release_seq,
			chain[0]->release_seq);
}

/* ---- re-add ------------------------------------------------------------------ */

/*
 * A kobject below a device goes with the device's del; it was deleted,
 * so it cannot be added again (that would lose its reference on the old
 * parent, which then never dies).
 */
static void kobject_deleted_with_device_cannot_be_readded(struct kunit *test)
{
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	struct dmm_dev *q = dmm_dev_new(test, "q", NULL, NULL, NULL);
	struct dmct_obj *k = dmct_obj_add(test, &p->dev->kobj, NULL, "k");
	struct dmct_rec *rec = k->rec;	/* k is freed by its release */
	int err;

	dmm_dev_del(p);
	KUNIT_EXPECT_FALSE(test, dmc_kobject_in_tree(&k->kobj));
	err = dmc_kobject_add(&k->kobj, &q->dev->kobj, "k");
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	if (!err)
		dmc_kobject_del(&k->kobj);
	dmc_kobject_put(&k->kobj);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, rec->released, 1U);
	dmm_dev_put(p);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ_MSG(test, p->released, 1U,
			    "the old parent's reference was lost");
	dmm_dev_unregister(q);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, q->released, 1U);
}

/* The same for a device deleted with its parent device. */
static void device_deleted_with_parent_cannot_be_readded(struct kunit *test)
{
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	struct dmm_dev *c = dmm_dev_new(test, "c", NULL, p, NULL);

	dmm_dev_del(p);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_dead(c->dev));
	c->dev->parent = NULL;
	KUNIT_EXPECT_EQ(test, dmc_device_add(c->dev), -EINVAL);
	c->dev->parent = p->dev;
	c->added = false;
	dmm_dev_put(p);
	dmm_dev_put(c);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, c->released, 1U);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, p->released, 1U);
}

static int device_life_test_init(struct kunit *test)
{
	return dmm_init(test, "dl");
}

static struct kunit_case device_life_test_cases[] = {
	KUNIT_CASE(device_put_without_del_is_counted_misuse_not_free),
	KUNIT_CASE(device_puts_around_del_are_no_misuse),
	KUNIT_CASE(device_second_del_waits_for_the_first),
	KUNIT_CASE(device_parent_del_waits_for_child_del),
	KUNIT_CASE(bus_unregister_waits_for_device_del),
	KUNIT_CASE(class_unregister_waits_for_device_del),
	KUNIT_CASE(device_del_of_deep_chain_does_not_recurse),
	KUNIT_CASE(kobject_deleted_with_device_cannot_be_readded),
	KUNIT_CASE(device_deleted_with_parent_cannot_be_readded),
	{}
};

static struct kunit_suite device_life_test_suite = {
	.name = "dmcore-device-life",
	.init = device_life_test_init,
	.exit = dmct_exit,
	.test_cases = device_life_test_cases,
};

kunit_test_suites(&device_life_test_suite);
