// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore-class: classes and class interfaces, one rule per case.
 *
 * Registration and its refusals, membership at add and del, interfaces
 * told of present and future members and of every member when they go,
 * walks and lookups, and what class unregister does to the members left.
 * Names are "cl<N>-<name>".
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "model_util.h"

/* class/<name>, referenced (put it), or NULL */
static struct dmc_kobject *cl_kobj(const char *name)
{
	struct dmc_kobject *root, *k;

	root = dmc_kobject_find_child(NULL, "class");
	if (!root)
		return NULL;
	k = dmc_kobject_find_child(root, name);
	dmc_kobject_put(root);
	return k;
}

static unsigned int cl_refs(struct dmm_class *c)
{
	struct dmc_kobject *k = cl_kobj(c->name);
	unsigned int n;

	if (!k)
		return 0;
	n = dmc_kobject_refcount(k) - 1;
	dmc_kobject_put(k);
	return n;
}

/* registration */

static void class_register_null_fails_einval(struct kunit *test)
{
	int err = 0;

	DMM_TOLERATE_MISUSE(test, err = dmc_class_register(NULL));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
}

static void class_register_without_name_fails_einval(struct kunit *test)
{
	struct dmm_class *c = dmm_class_alloc(test, "cls");
	int err = 0;

	c->cls.name = NULL;
	DMM_TOLERATE_MISUSE(test, err = dmm_class_register(test, c));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	KUNIT_EXPECT_FALSE(test, dmc_class_is_registered(&c->cls));
}

static void class_register_duplicate_name_fails_eexist(struct kunit *test)
{
	struct dmm_class *c1 = dmm_class_new(test, "cls");
	struct dmm_class *c2 = dmm_class_alloc(test, "cls2");
	int err = 0;

	c2->cls.name = c1->name;
	DMM_TOLERATE_MISUSE(test, err = dmm_class_register(test, c2));
	KUNIT_EXPECT_EQ(test, err, -EEXIST);
	KUNIT_EXPECT_FALSE(test, dmc_class_is_registered(&c2->cls));
	KUNIT_EXPECT_TRUE(test, dmc_class_is_registered(&c1->cls));
}

static void class_register_twice_fails_and_keeps_class(struct kunit *test)
{
	struct dmm_class *c = dmm_class_new(test, "cls");
	struct dmm_dev *a;
	int err = 0;

	DMM_TOLERATE_MISUSE(test, err = dmc_class_register(&c->cls));
	KUNIT_EXPECT_LT(test, err, 0);
	KUNIT_EXPECT_TRUE(test, dmc_class_is_registered(&c->cls));
	a = dmm_cdev_new(test, "a", c, NULL);
	KUNIT_EXPECT_EQ(test, dmc_class_device_count(&c->cls), 1U);
	dmm_dev_unregister(a);
}

static void class_register_makes_class_dir(struct kunit *test)
{
	struct dmm_class *c = dmm_class_new(test, "cls");
	struct dmc_kobject *k = cl_kobj(c->name);

	KUNIT_ASSERT_NOT_NULL(test, k);
	dmct_expect_path(test, k, dmm_str(test, "/class/%s", c->name));
	dmc_kobject_put(k);
	dmm_class_unregister(test, c);
	KUNIT_EXPECT_FALSE(test, dmc_class_is_registered(&c->cls));
	k = cl_kobj(c->name);
	KUNIT_EXPECT_NULL(test, k);
	dmc_kobject_put(k);
}

static void class_unregister_never_registered_is_noop(struct kunit *test)
{
	struct dmm_class *c = dmm_class_alloc(test, "cls");

	DMM_TOLERATE_MISUSE(test, dmc_class_unregister(&c->cls));
	DMM_TOLERATE_MISUSE(test, dmc_class_unregister(NULL));
	KUNIT_EXPECT_FALSE(test, dmc_class_is_registered(&c->cls));
	KUNIT_EXPECT_EQ(test, dmm_class_register(test, c), 0);
}

/* membership */

static void class_device_joins_at_add(struct kunit *test)
{
	struct dmm_class *c = dmm_class_new(test, "cls");
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	struct dmm_dev *a, *m, *n;

	KUNIT_EXPECT_EQ(test, dmc_class_device_count(&c->cls), 0U);
	a = dmm_cdev_new(test, "a", c, NULL);
	m = dmm_cdev_new(test, "m", c, p);
	n = dmm_dev_alloc(test, "n");
	n->dev->class = &c->cls;
	n->dev->bus = &b->bus;
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, n), 0);
	KUNIT_EXPECT_EQ(test, dmc_class_device_count(&c->cls), 3U);
	KUNIT_EXPECT_EQ(test, dmc_bus_device_count(&b->bus), 1U);
	dmm_dev_unregister(n);
	dmm_dev_unregister(m);
	dmm_dev_unregister(a);
	dmm_dev_unregister(p);
}

static void class_device_leaves_at_del(struct kunit *test)
{
	struct dmm_class *c = dmm_class_new(test, "cls");
	struct dmm_dev *a = dmm_cdev_new(test, "a", c, NULL);
	struct dmm_dev *m = dmm_cdev_new(test, "m", c, NULL);
	struct dmc_device *found;

	dmm_dev_del(a);
	KUNIT_EXPECT_EQ(test, dmc_class_device_count(&c->cls), 1U);
	found = dmc_class_find_device_by_name(&c->cls, a->name);
	KUNIT_EXPECT_NULL(test, found);
	dmm_put_found(found);
	dmm_dev_put(a);
	dmm_dev_unregister(m);
	KUNIT_EXPECT_EQ(test, dmc_class_device_count(&c->cls), 0U);
}

static void class_refcount_back_after_members_go(struct kunit *test)
{
	struct dmm_class *c = dmm_class_new(test, "cls");
	unsigned int refs = cl_refs(c);
	struct dmm_dev *a = dmm_cdev_new(test, "a", c, NULL);
	struct dmm_dev *m = dmm_cdev_new(test, "m", c, a);
	struct dmc_device *found;

	found = dmc_class_find_device_by_name(&c->cls, m->name);
	dmm_put_found(found);
	dmm_dev_unregister(m);
	dmm_dev_unregister(a);
	KUNIT_EXPECT_EQ(test, cl_refs(c), refs);
}

/* interfaces */

static void class_interface_told_of_existing_members(struct kunit *test)
{
	struct dmm_class *c = dmm_class_new(test, "cls");
	struct dmm_dev *a = dmm_cdev_new(test, "a", c, NULL);
	struct dmm_dev *m = dmm_cdev_new(test, "m", c, NULL);
	struct dmm_dev *x = dmm_dev_new(test, "x", NULL, NULL, NULL);
	struct dmm_intf *i = dmm_intf_new(test, c);

	KUNIT_EXPECT_EQ(test, atomic_read(&i->adds), 2);
	KUNIT_EXPECT_EQ(test, dmm_log_count(test, "add_dev:a"), 1U);
	KUNIT_EXPECT_EQ(test, dmm_log_count(test, "add_dev:m"), 1U);
	KUNIT_EXPECT_EQ(test, dmm_log_count(test, "add_dev:x"), 0U);
	dmm_intf_unregister(test, i);
	dmm_dev_unregister(x);
	dmm_dev_unregister(m);
	dmm_dev_unregister(a);
}

static void class_interface_told_of_new_members(struct kunit *test)
{
	struct dmm_class *c = dmm_class_new(test, "cls");
	struct dmm_intf *i = dmm_intf_new(test, c);
	struct dmm_dev *a = dmm_cdev_new(test, "a", c, NULL);
	struct dmm_dev *m = dmm_cdev_new(test, "m", c, a);

	DMM_EXPECT_LOG(test, "add_dev:a add_dev:m");
	KUNIT_EXPECT_EQ(test, atomic_read(&i->removes), 0);
	dmm_dev_unregister(m);
	dmm_dev_unregister(a);
}

static void class_interface_told_of_member_removal(struct kunit *test)
{
	struct dmm_class *c = dmm_class_new(test, "cls");
	struct dmm_intf *i = dmm_intf_new(test, c);
	struct dmm_dev *a = dmm_cdev_new(test, "a", c, NULL);
	struct dmm_dev *m = dmm_cdev_new(test, "m", c, NULL);

	dmm_dev_unregister(m);
	DMM_EXPECT_LOG(test, "add_dev:a add_dev:m remove_dev:m");
	KUNIT_EXPECT_EQ(test, atomic_read(&i->removes), 1);
	dmm_dev_unregister(a);
	KUNIT_EXPECT_EQ(test, atomic_read(&i->removes), 2);
}

static void class_interface_unregister_tells_every_member(struct kunit *test)
{
	struct dmm_class *c = dmm_class_new(test, "cls");
	struct dmm_dev *a = dmm_cdev_new(test, "a", c, NULL);
	struct dmm_dev *m = dmm_cdev_new(test, "m", c, NULL);
	struct dmm_intf *i = dmm_intf_new(test, c);

	dmm_intf_unregister(test, i);
	KUNIT_EXPECT_EQ(test, atomic_read(&i->removes), 2);
	KUNIT_EXPECT_EQ(test, dmm_log_count(test, "remove_dev:a"), 1U);
	KUNIT_EXPECT_EQ(test, dmm_log_count(test, "remove_dev:m"), 1U);

	/* an unregistered interface hears nothing more */
	dmm_dev_unregister(m);
	dmm_dev_unregister(a);
	KUNIT_EXPECT_EQ(test, atomic_read(&i->removes), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&i->adds), 2);
}

static void class_two_interfaces_each_told(struct kunit *test)
{
	struct dmm_class *c = dmm_class_new(test, "cls");
	struct dmm_intf *i1 = dmm_intf_new(test, c);
	struct dmm_intf *i2 = dmm_intf_new(test, c);
	struct dmm_dev *a = dmm_cdev_new(test, "a", c, NULL);

	KUNIT_EXPECT_EQ(test, atomic_read(&i1->adds), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&i2->adds), 1);
	dmm_dev_unregister(a);
	KUNIT_EXPECT_EQ(test, atomic_read(&i1->removes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&i2->removes), 1);
}

static void class_interface_of_other_class_not_told(struct kunit *test)
{
	struct dmm_class *c = dmm_class_new(test, "cls");
	struct dmm_class *o = dmm_class_new(test, "other");
	struct dmm_intf *i = dmm_intf_new(test, o);
	struct dmm_dev *a = dmm_cdev_new(test, "a", c, NULL);

	dmm_dev_unregister(a);
	KUNIT_EXPECT_EQ(test, atomic_read(&i->adds), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&i->removes), 0);
}

static void class_interface_register_refusals(struct kunit *test)
{
	struct dmm_class *c = dmm_class_alloc(test, "cls");
	struct dmm_intf *none = dmm_intf_alloc(test, NULL);
	struct dmm_intf *unreg = dmm_intf_alloc(test, c);
	int err = 0;

	DMM_TOLERATE_MISUSE(test, err = dmc_class_interface_register(NULL));
	KUNIT_EXPECT_LT(test, err, 0);
	DMM_TOLERATE_MISUSE(test, err = dmm_intf_register(test, none));
	KUNIT_EXPECT_LT(test, err, 0);
	DMM_TOLERATE_MISUSE(test, err = dmm_intf_register(test, unreg));
	KUNIT_EXPECT_LT(test, err, 0);
	DMM_TOLERATE_MISUSE(test, dmc_class_interface_unregister(NULL));
}

/* walks and lookups */

struct cl_walk {
	unsigned int calls;
	struct dmc_device *seen[4];
};

static int cl_walk_fn(struct dmc_device *dev, void *data)
{
	struct cl_walk *w = data;

	if (w->calls < ARRAY_SIZE(w->seen))
		w->seen[w->calls] = dev;
	w->calls++;
	return 0;
}

static bool cl_seen(struct cl_walk *w, struct dmc_device *dev)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(w->seen); i++)
		if (w->seen[i] == dev)
			return true;
	return false;
}

static void class_device_walk_visits_members_only(struct kunit *test)
{
	struct dmm_class *c = dmm_class_new(test, "cls");
	struct dmm_class *o = dmm_class_new(test, "other");
	struct dmm_dev *a = dmm_cdev_new(test, "a", c, NULL);
	struct dmm_dev *m = dmm_cdev_new(test, "m", c, a);
	struct dmm_dev *y = dmm_cdev_new(test, "y", o, NULL);
	struct cl_walk w = {};

	KUNIT_EXPECT_EQ(test, dmc_class_walk_devices(&c->cls, &w, cl_walk_fn),
			0);
	KUNIT_EXPECT_EQ(test, w.calls, 2U);
	KUNIT_EXPECT_TRUE(test, cl_seen(&w, a->dev));
	KUNIT_EXPECT_TRUE(test, cl_seen(&w, m->dev));
	KUNIT_EXPECT_FALSE(test, cl_seen(&w, y->dev));
	dmm_dev_unregister(y);
	dmm_dev_unregister(m);
	dmm_dev_unregister(a);
}

static int cl_match_name(struct dmc_device *dev, const void *data)
{
	return !strcmp(dmc_dev_name(dev), data);
}

static void class_find_device_returns_referenced_match(struct kunit *test)
{
	struct dmm_class *c = dmm_class_new(test, "cls");
	struct dmm_dev *a = dmm_cdev_new(test, "a", c, NULL);
	struct dmm_dev *m = dmm_cdev_new(test, "m", c, NULL);
	unsigned int refs = dmm_dev_refs(m);
	struct dmc_device *found;

	found = dmc_class_find_device(&c->cls, m->name, cl_match_name);
	KUNIT_EXPECT_PTR_EQ(test, found, m->dev);
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(m), refs + 1);
	dmm_put_found(found);
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(m), refs);
	found = dmc_class_find_device(&c->cls, "nope", cl_match_name);
	KUNIT_EXPECT_NULL(test, found);
	dmm_put_found(found);
	dmm_dev_unregister(m);
	dmm_dev_unregister(a);
}

static void class_find_device_by_name_is_referenced(struct kunit *test)
{
	struct dmm_class *c = dmm_class_new(test, "cls");
	struct dmm_dev *a = dmm_cdev_new(test, "a", c, NULL);
	struct dmm_dev *x = dmm_dev_new(test, "x", NULL, NULL, NULL);
	unsigned int refs = dmm_dev_refs(a);
	struct dmc_device *found;

	found = dmc_class_find_device_by_name(&c->cls, a->name);
	KUNIT_EXPECT_PTR_EQ(test, found, a->dev);
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(a), refs + 1);
	dmm_put_found(found);
	found = dmc_class_find_device_by_name(&c->cls, x->name);
	KUNIT_EXPECT_NULL(test, found);
	dmm_put_found(found);
	dmm_dev_unregister(x);
	dmm_dev_unregister(a);
}

/* unregister with members left */

static void class_unregister_deletes_remaining_members(struct kunit *test)
{
	struct dmm_class *c = dmm_class_new(test, "cls");
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	struct dmm_dev *a = dmm_cdev_new(test, "a", c, NULL);
	struct dmm_dev *m = dmm_cdev_new(test, "m", c, p);
	const char *ap = dmm_path(test, a);
	unsigned int p_refs;

	dmct_listen(test);
	dmm_class_unregister(test, c);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_registered(a->dev));
	KUNIT_EXPECT_FALSE(test, dmc_device_is_registered(m->dev));
	KUNIT_EXPECT_TRUE(test, dmc_device_is_registered(p->dev));
	KUNIT_EXPECT_EQ(test, dmm_ev_count(test, DMC_KOBJ_REMOVE, ap), 1U);
	KUNIT_EXPECT_NULL(test, dmc_device_find_child_by_name(p->dev, m->name));

	/* unregister now only drops the test's reference */
	dmm_dev_unregister(a);
	p_refs = dmm_dev_refs(p);
	dmm_dev_unregister(m);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, a->released, 1U);
	KUNIT_EXPECT_EQ(test, m->released, 1U);
	KUNIT_EXPECT_LT(test, dmm_dev_refs(p), p_refs);
	KUNIT_EXPECT_EQ(test, dmm_ev_count(test, DMC_KOBJ_REMOVE, ap), 1U);
	dmm_dev_unregister(p);
}

static void class_null_arguments_fail_without_crash(struct kunit *test)
{
	struct dmm_class *c = dmm_class_new(test, "cls");
	struct dmc_device *dev = (void *)1;
	unsigned int n = 1;
	bool yes = true;
	int ret = 0;

	DMM_TOLERATE_MISUSE(test,
			    ret = dmc_class_walk_devices(NULL, NULL, cl_walk_fn));
	KUNIT_EXPECT_LT(test, ret, 0);
	DMM_TOLERATE_MISUSE(test,
			    ret = dmc_class_walk_devices(&c->cls, NULL, NULL));
	KUNIT_EXPECT_LT(test, ret, 0);
	DMM_TOLERATE_MISUSE(test,
			    dev = dmc_class_find_device(NULL, "x", cl_match_name));
	KUNIT_EXPECT_NULL(test, dev);
	dev = (void *)1;
	DMM_TOLERATE_MISUSE(test,
			    dev = dmc_class_find_device(&c->cls, "x", NULL));
	KUNIT_EXPECT_NULL(test, dev);
	dev = (void *)1;
	DMM_TOLERATE_MISUSE(test, dev = dmc_class_find_device_by_name(NULL, "x"));
	KUNIT_EXPECT_NULL(test, dev);
	dev = (void *)1;
	DMM_TOLERATE_MISUSE(test,
			    dev = dmc_class_find_device_by_name(&c->cls, NULL));
	KUNIT_EXPECT_NULL(test, dev);
	DMM_TOLERATE_MISUSE(test, n = dmc_class_device_count(NULL));
	KUNIT_EXPECT_EQ(test, n, 0U);
	DMM_TOLERATE_MISUSE(test, yes = dmc_class_is_registered(NULL));
	KUNIT_EXPECT_FALSE(test, yes);
}

static int class_test_init(struct kunit *test)
{
	return dmm_init(test, "cl");
}

static struct kunit_case class_test_cases[] = {
	KUNIT_CASE(class_register_null_fails_einval),
	KUNIT_CASE(class_register_without_name_fails_einval),
	KUNIT_CASE(class_register_duplicate_name_fails_eexist),
	KUNIT_CASE(class_register_twice_fails_and_keeps_class),
	KUNIT_CASE(class_register_makes_class_dir),
	KUNIT_CASE(class_unregister_never_registered_is_noop),
	KUNIT_CASE(class_device_joins_at_add),
	KUNIT_CASE(class_device_leaves_at_del),
	KUNIT_CASE(class_refcount_back_after_members_go),
	KUNIT_CASE(class_interface_told_of_existing_members),
	KUNIT_CASE(class_interface_told_of_new_members),
	KUNIT_CASE(class_interface_told_of_member_removal),
	KUNIT_CASE(class_interface_unregister_tells_every_member),
	KUNIT_CASE(class_two_interfaces_each_told),
	KUNIT_CASE(class_interface_of_other_class_not_told),
	KUNIT_CASE(class_interface_register_refusals),
	KUNIT_CASE(class_device_walk_visits_members_only),
	KUNIT_CASE(class_find_device_returns_referenced_match),
	KUNIT_CASE(class_find_device_by_name_is_referenced),
	KUNIT_CASE(class_unregister_deletes_remaining_members),
	KUNIT_CASE(class_null_arguments_fail_without_crash),
	{}
};

static struct kunit_suite class_test_suite = {
	.name = "dmcore-class",
	.init = class_test_init,
	.exit = dmct_exit,
	.test_cases = class_test_cases,
};

kunit_test_suites(&class_test_suite);
