// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore-devlink: device links as devices of class "devlink" (devlink.c),
 * as Linux shows them in /sys/class/devlink: the name, the class, the
 * attributes for each state and flag, the symlinks in both devices and
 * in the link's directory, their going with the link, a name clash
 * refused cleanly, and the link's memory kept by a reader of its device.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <dmcore/invariants.h>
#include "model_util.h"

static int dl_init(struct kunit *test)
{
	return dmm_init(test, "dl");
}

/* The link's device directory, looked up under devices/virtual/devlink/. */
static struct dmc_kobject *dl_dir(struct kunit *test, const char *name)
{
	return dmc_kobject_lookup_path(dmm_str(test, "devices/virtual/devlink/%s", name));
}

/* The name Linux gives the link from @s to @c on bus @b. */
static const char *dl_name(struct kunit *test, struct dmm_bus *b,
			   struct dmm_dev *s, struct dmm_dev *c)
{
	return dmm_str(test, "%s:%s--%s:%s", b->name, dmc_dev_name(s->dev),
		       b->name, dmc_dev_name(c->dev));
}

struct dl_find {
	const char *name;
	struct dmc_attribute *attr;
};

static int dl_find_attr(struct dmc_kobject *kobj,
			const struct dmc_attribute_group *grp, void *data)
{
	struct dl_find *f = data;
	struct dmc_attribute **a;

	if (grp->name)
		return 0;
	for (a = grp->attrs; a && *a; a++) {
		if (!strcmp((*a)->name, f->name)) {
			f->attr = *a;
			return 1;
		}
	}
	return 0;
}

/* Read the attribute @name of @kobj, without the trailing newline. */
static const char *dl_read(struct kunit *test, struct dmc_kobject *kobj,
			   const char *name)
{
	struct dl_find f = { .name = name };
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	ssize_t n;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	if (dmc_kobject_walk_groups(kobj, &f, dl_find_attr) <= 0)
		return "(no such attribute)";
	n = dmc_kobject_attr_show(kobj, f.attr, buf);
	if (n <= 0)
		return "(error)";
	if (buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return buf;
}

/* Is @name a link in @kobj's directory to @target? */
static bool dl_link_is(struct dmc_kobject *kobj, const char *name,
		       struct dmc_kobject *target)
{
	struct dmc_kobject *t = dmc_kobject_find_link(kobj, name);
	bool ok = t == target;

	if (t)
		dmc_kobject_put(t);
	return ok;
}

/* The link's device exists with its name, class, symlinks; or none of it. */
static void dl_expect_shown(struct kunit *test, struct dmm_bus *b,
			    struct dmm_dev *s, struct dmm_dev *c, bool shown)
{
	const char *name = dl_name(test, b, s, c);
	struct dmc_kobject *cls = dmc_kobject_lookup_path("class/devlink");
	struct dmc_kobject *dir = dl_dir(test, name);
	const char *cname = dmm_str(test, "consumer:%s:%s", b->name, dmc_dev_name(c->dev));
	const char *sname = dmm_str(test, "supplier:%s:%s", b->name, dmc_dev_name(s->dev));

	KUNIT_ASSERT_NOT_NULL(test, cls);
	if (!shown) {
		KUNIT_EXPECT_NULL(test, dir);
		KUNIT_EXPECT_NULL(test, dmc_kobject_find_link(cls, name));
		KUNIT_EXPECT_NULL(test, dmc_kobject_find_link(&s->dev->kobj, cname));
		KUNIT_EXPECT_NULL(test, dmc_kobject_find_link(&c->dev->kobj, sname));
		if (dir)
			dmc_kobject_put(dir);
		dmc_kobject_put(cls);
		return;
	}
	KUNIT_ASSERT_NOT_NULL(test, dir);
	KUNIT_EXPECT_TRUE(test, dl_link_is(cls, name, dir));
	KUNIT_EXPECT_TRUE(test, dl_link_is(dir, "subsystem", cls));
	KUNIT_EXPECT_TRUE(test, dl_link_is(dir, "supplier", &s->dev->kobj));
	KUNIT_EXPECT_TRUE(test, dl_link_is(dir, "consumer", &c->dev->kobj));
	KUNIT_EXPECT_TRUE(test, dl_link_is(&s->dev->kobj, cname, dir));
	KUNIT_EXPECT_TRUE(test, dl_link_is(&c->dev->kobj, sname, dir));
	KUNIT_EXPECT_STREQ(test, dir->name, name);
	dmc_kobject_put(dir);
	dmc_kobject_put(cls);
}

/* Expect the four attributes of the link's device. */
static void dl_expect_attrs(struct kunit *test, struct dmm_bus *b, struct dmm_dev *s,
			    struct dmm_dev *c, const char *status, const char *arm,
			    const char *rpm, const char *sso)
{
	struct dmc_kobject *dir = dl_dir(test, dl_name(test, b, s, c));

	KUNIT_ASSERT_NOT_NULL(test, dir);
	KUNIT_EXPECT_STREQ(test, dl_read(test, dir, "status"), status);
	KUNIT_EXPECT_STREQ(test, dl_read(test, dir, "auto_remove_on"), arm);
	KUNIT_EXPECT_STREQ(test, dl_read(test, dir, "runtime_pm"), rpm);
	KUNIT_EXPECT_STREQ(test, dl_read(test, dir, "sync_state_only"), sso);
	dmc_kobject_put(dir);
}

static void devlink_device_named_in_class_with_symlinks(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *s = dmm_dev_new(test, "s", b, NULL, NULL);
	struct dmm_dev *c = dmm_dev_new(test, "c", b, NULL, NULL);
	struct dmc_device_link *link;

	link = dmc_device_link_add(c->dev, s->dev, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(link));
	dl_expect_shown(test, b, s, c, true);
	dl_expect_attrs(test, b, s, c, "dormant", "never", "0", "0");
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
	/* A second add merges: still one device. */
	KUNIT_EXPECT_PTR_EQ(test, dmc_device_link_add(c->dev, s->dev, 0), link);
	dmc_device_link_del(link);
	dl_expect_shown(test, b, s, c, false);
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
	dmm_dev_unregister(c);
	dmm_dev_unregister(s);
}

static void devlink_attributes_follow_states_and_flags(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *ds = dmm_drv_new(test, b, "ds");
	struct dmm_drv *dc = dmm_drv_new(test, b, "dc");
	struct dmm_dev *s = dmm_dev_new(test, "s", b, NULL, ds);
	struct dmm_dev *c = dmm_dev_new(test, "c", b, NULL, NULL);
	struct dmm_dev *u = dmm_dev_new(test, "u", b, NULL, NULL);
	struct dmc_device_link *link;

	/* Supplier bound, consumer without a driver: available. */
	link = dmc_device_link_add(c->dev, s->dev, DMC_DL_FLAG_AUTOREMOVE_CONSUMER);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(link));
	dl_expect_attrs(test, b, s, c, "available", "consumer unbind", "0", "0");
	/* Its driver comes: active. */
	dmm_dev_want(c, dc);
	KUNIT_ASSERT_EQ(test, dmc_device_attach(c->dev), 1);
	dl_expect_attrs(test, b, s, c, "active", "consumer unbind", "0", "0");
	/* AUTOREMOVE_SUPPLIER wins; PM_RUNTIME merged. */
	KUNIT_EXPECT_PTR_EQ(test, dmc_device_link_add(c->dev, s->dev,
						      DMC_DL_FLAG_AUTOREMOVE_SUPPLIER |
						      DMC_DL_FLAG_PM_RUNTIME), link);
	dl_expect_attrs(test, b, s, c, "active", "supplier unbind", "1", "0");
	/* The consumer's unbind leaves a supplier-autoremoved link: available. */
	dmc_device_release_driver(c->dev);
	dmc_wait_for_device_probe();
	dl_expect_attrs(test, b, s, c, "available", "supplier unbind", "1", "0");
	/* The supplier's unbind removes it, and its device. */
	dmc_device_release_driver(s->dev);
	dmc_wait_for_device_probe();
	dl_expect_shown(test, b, s, c, false);

	/* Stateless: not tracked. */
	link = dmc_device_link_add(u->dev, s->dev, DMC_DL_FLAG_STATELESS);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(link));
	dl_expect_attrs(test, b, s, u, "not tracked", "never", "0", "0");
	dmc_device_link_del(link);
	dl_expect_shown(test, b, s, u, false);
	/* Sync state only, consumer not probed. */
	link = dmc_device_link_add(u->dev, s->dev, DMC_DL_FLAG_SYNC_STATE_ONLY);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(link));
	dl_expect_attrs(test, b, s, u, "dormant", "never", "0", "1");
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
	dmm_dev_del(u);
	dl_expect_shown(test, b, s, u, false);
	dmm_dev_unregister(u);
	dmm_dev_unregister(c);
	dmm_dev_unregister(s);
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
}

static void devlink_gone_with_either_device(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *s = dmm_dev_new(test, "s", b, NULL, NULL);
	struct dmm_dev *c = dmm_dev_new(test, "c", b, NULL, NULL);
	struct dmm_dev *c2 = dmm_dev_new(test, "c2", b, NULL, NULL);

	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(dmc_device_link_add(c->dev, s->dev, 0)));
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(dmc_device_link_add(c2->dev, s->dev, 0)));
	dl_expect_shown(test, b, s, c, true);
	dmm_dev_del(c);			/* the consumer goes */
	dl_expect_shown(test, b, s, c, false);
	dl_expect_shown(test, b, s, c2, true);
	dmm_dev_del(s);			/* the supplier goes */
	dl_expect_shown(test, b, s, c2, false);
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
	dmm_dev_unregister(c);
	dmm_dev_unregister(c2);
	dmm_dev_unregister(s);
}

/*
 * "<b>:<x>--<b>:<y>" with y = "b--<b>:z" and x = "x--<b>:b" with y = "z"
 * name two different pairs alike: the second add fails with EEXIST and
 * leaves no link, device or symlink.
 */
static void devlink_name_clash_fails_cleanly(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	const char *bn = dmm_name(test, "b");
	struct dmm_dev *s1 = dmm_dev_new(test, "x", b, NULL, NULL);
	struct dmm_dev *c1 = dmm_dev_new(test, dmm_str(test, "b--%s:%s", b->name,
						       dmm_name(test, "z")), b, NULL, NULL);
	struct dmm_dev *s2 = dmm_dev_new(test, dmm_str(test, "x--%s:%s", b->name, bn),
					 b, NULL, NULL);
	struct dmm_dev *c2 = dmm_dev_new(test, "z", b, NULL, NULL);
	struct dmc_device_link *link;
	const char *name;

	link = dmc_device_link_add(c1->dev, s1->dev, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(link));
	KUNIT_ASSERT_STREQ(test, dl_name(test, b, s1, c1), dl_name(test, b, s2, c2));
	link = dmc_device_link_add(c2->dev, s2->dev, 0);
	KUNIT_EXPECT_EQ(test, IS_ERR(link) ? PTR_ERR(link) : 0L, (long)-EEXIST);
	KUNIT_EXPECT_NULL(test, dmc_device_link_find(c2->dev, s2->dev));
	name = dmm_str(test, "consumer:%s:%s", b->name, dmc_dev_name(c2->dev));
	KUNIT_EXPECT_NULL(test, dmc_kobject_find_link(&s2->dev->kobj, name));
	dl_expect_shown(test, b, s1, c1, true);
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
	dmm_dev_unregister(c1);
	dmm_dev_unregister(s1);
	dmm_dev_unregister(c2);
	dmm_dev_unregister(s2);
}

/* A name clash in the supplier's directory: a child named as the symlink. */
static void devlink_symlink_name_taken_fails_cleanly(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *s = dmm_dev_new(test, "s", b, NULL, NULL);
	struct dmm_dev *c = dmm_dev_new(test, "c", b, NULL, NULL);
	const char *name = dmm_str(test, "consumer:%s:%s", b->name, dmc_dev_name(c->dev));
	struct dmm_dev *k;
	struct dmc_device_link *link;

	k = dmm_dev_new(test, "k", NULL, s, NULL);
	/* The child takes the symlink's name under the supplier. */
	KUNIT_ASSERT_EQ(test, dmc_device_rename(k->dev, name), 0);
	link = dmc_device_link_add(c->dev, s->dev, 0);
	KUNIT_EXPECT_EQ(test, IS_ERR(link) ? PTR_ERR(link) : 0L, (long)-EEXIST);
	KUNIT_EXPECT_NULL(test, dmc_device_link_find(c->dev, s->dev));
	KUNIT_EXPECT_NULL(test, dl_dir(test, dl_name(test, b, s, c)));
	/* Once renamed away, the link is made, and a child cannot take it back. */
	KUNIT_ASSERT_EQ(test, dmc_device_rename(k->dev, "k2"), 0);
	link = dmc_device_link_add(c->dev, s->dev, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(link));
	KUNIT_EXPECT_EQ(test, dmc_device_rename(k->dev, name), -EEXIST);
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
	dmm_dev_unregister(k);
	dmm_dev_unregister(c);
	dmm_dev_unregister(s);
}

/* A reader holding the link's device while the link is deleted. */
struct dl_reader {
	struct kunit *test;
	struct dmc_kobject *dir;
	struct completion holding, deleted, done;
	const char *before, *after;
};

static int dl_reader_fn(void *data)
{
	struct dl_reader *r = data;

	r->before = dl_read(r->test, r->dir, "status");
	complete(&r->holding);
	wait_for_completion(&r->deleted);
	/* The link is unlinked and its device deleted: its memory is ours. */
	r->after = dl_read(r->test, r->dir, "status");
	dmc_kobject_put(r->dir);
	complete(&r->done);
	return 0;
}

static void devlink_reader_keeps_link_memory_across_delete(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *s = dmm_dev_new(test, "s", b, NULL, NULL);
	struct dmm_dev *c = dmm_dev_new(test, "c", b, NULL, NULL);
	struct dl_reader *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct dmc_device_link *link;
	struct task_struct *t;

	KUNIT_ASSERT_NOT_NULL(test, r);
	init_completion(&r->holding);
	init_completion(&r->deleted);
	init_completion(&r->done);
	r->test = test;
	link = dmc_device_link_add(c->dev, s->dev, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(link));
	r->dir = dl_dir(test, dl_name(test, b, s, c));
	KUNIT_ASSERT_NOT_NULL(test, r->dir);
	t = kthread_run(dl_reader_fn, r, "dl-reader");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	wait_for_completion(&r->holding);
	dmc_device_link_del(link);
	dl_expect_shown(test, b, s, c, false);
	complete(&r->deleted);
	wait_for_completion(&r->done);
	KUNIT_EXPECT_STREQ(test, r->before, "dormant");
	KUNIT_EXPECT_STREQ(test, r->after, "not tracked");
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
	dmm_dev_unregister(c);
	dmm_dev_unregister(s);
}

/* Link adds and deletes racing the supplier's deletion. */
struct dl_racer {
	struct dmc_device *c, *s;
	struct completion started, done;
	unsigned int made;
};

static int dl_racer_fn(void *data)
{
	struct dl_racer *r = data;
	struct dmc_device_link *link;
	int i;

	complete(&r->started);
	for (i = 0; i < 400; i++) {
		link = dmc_device_link_add(r->c, r->s, DMC_DL_FLAG_STATELESS);
		if (IS_ERR(link))
			continue;
		r->made++;
		dmc_device_link_remove(r->c, r->s);
	}
	complete(&r->done);
	return 0;
}

static int dl_count_ours(struct dmc_kobject *kobj, const char *name,
			 struct dmc_kobject *target, void *data)
{
	const char *prefix = data;

	return strstr(name, prefix) ? 1 : 0;
}

static void devlink_add_del_races_supplier_deletion(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *s = dmm_dev_new(test, "s", b, NULL, NULL);
	struct dmm_dev *c = dmm_dev_new(test, "c", b, NULL, NULL);
	struct dl_racer *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct dmc_kobject *cls;
	struct task_struct *t;

	KUNIT_ASSERT_NOT_NULL(test, r);
	init_completion(&r->started);
	init_completion(&r->done);
	dmm_dev_get(s);
	dmm_dev_get(c);
	r->c = c->dev;
	r->s = s->dev;
	t = kthread_run(dl_racer_fn, r, "dl-racer");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	wait_for_completion(&r->started);
	dmm_dev_del(s);
	wait_for_completion(&r->done);
	dmc_wait_for_device_probe();
	cls = dmc_kobject_lookup_path("class/devlink");
	KUNIT_ASSERT_NOT_NULL(test, cls);
	KUNIT_EXPECT_EQ(test, dmc_kobject_walk_links(cls, (void *)dmc_dev_name(s->dev),
						     dl_count_ours), 0);
	dmc_kobject_put(cls);
	KUNIT_EXPECT_NULL(test, dmc_device_link_find(c->dev, s->dev));
	KUNIT_EXPECT_EQ(test, dmc_check_invariants(0), 0U);
	dmm_dev_put(c);
	dmm_dev_put(s);
	dmm_dev_unregister(c);
	dmm_dev_unregister(s);
}

static struct kunit_case devlink_test_cases[] = {
	KUNIT_CASE(devlink_device_named_in_class_with_symlinks),
	KUNIT_CASE(devlink_attributes_follow_states_and_flags),
	KUNIT_CASE(devlink_gone_with_either_device),
	KUNIT_CASE(devlink_name_clash_fails_cleanly),
	KUNIT_CASE(devlink_symlink_name_taken_fails_cleanly),
	KUNIT_CASE(devlink_reader_keeps_link_memory_across_delete),
	KUNIT_CASE(devlink_add_del_races_supplier_deletion),
	{}
};

static struct kunit_suite devlink_test_suite = {
	.name = "dmcore-devlink",
	.init = dl_init,
	.exit = dmm_exit,
	.test_cases = devlink_test_cases,
};

kunit_test_suites(&devlink_test_suite);
