// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore-kobject: the life of a kobject, one rule per case.
 *
 * init and its refusals, add and its name rules, the parent's reference
 * and the order of releases, del and its cascade, put and get misuse,
 * rename, move, paths and lookups. Top-level names start with "kt-".
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "test_util.h"

static const struct dmc_kobj_type kt_norelease_ktype = {
	.name = "kt-norelease",
};

/* init */

static void kobject_init_rejects_null_ktype(struct kunit *test)
{
	struct dmct_obj *a = dmct_obj_alloc(test, true);
	int err = 0;

	DMCT_EXPECT_MISUSE(test, 1, err = dmc_kobject_init(&a->kobj, NULL));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	/* not initialized: nothing to put, the exit frees the memory */
}

static void kobject_init_rejects_ktype_without_release(struct kunit *test)
{
	struct dmct_obj *a = dmct_obj_alloc(test, true);
	int err = 0;

	DMCT_EXPECT_MISUSE(test, 1,
			   err = dmc_kobject_init(&a->kobj, &kt_norelease_ktype));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
}

static void kobject_init_twice_warns_ealready(struct kunit *test)
{
	struct dmct_obj *a = dmct_obj_new(test);
	struct dmct_rec *rec = a->rec;
	int err = 0;

	DMCT_EXPECT_MISUSE(test, 1,
			   err = dmc_kobject_init(&a->kobj, &dmct_obj_ktype));
	KUNIT_EXPECT_EQ(test, err, -EALREADY);
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&a->kobj), 1U);
	dmc_kobject_put(&a->kobj);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, rec->released, 1U);
}

static void kobject_release_runs_once_after_last_put(struct kunit *test)
{
	struct dmct_obj *a = dmct_obj_alloc(test, false);
	struct dmct_rec *rec = a->rec;

	KUNIT_ASSERT_EQ(test, dmct_obj_init(a), 0);
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&a->kobj), 1U);
	KUNIT_EXPECT_PTR_EQ(test, dmc_kobject_get(&a->kobj), &a->kobj);
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&a->kobj), 2U);

	dmc_kobject_put(&a->kobj);
	KUNIT_EXPECT_EQ(test, rec->released, 0U);
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&a->kobj), 1U);

	dmc_kobject_put(&a->kobj);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, rec->released, 1U);
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&a->kobj), 0U);
}

/* add: names */

static void kobject_add_top_level_formats_name_and_path(struct kunit *test)
{
	struct dmct_obj *a = dmct_obj_new(test);
	struct dmc_kobject *found;

	KUNIT_ASSERT_EQ(test, dmc_kobject_add(&a->kobj, NULL, "kt-%s-%d",
					      "top", 42), 0);
	KUNIT_EXPECT_TRUE(test, dmc_kobject_in_tree(&a->kobj));
	KUNIT_EXPECT_NULL(test, a->kobj.parent);
	DMCT_EXPECT_STREQ(test, dmc_kobject_name(&a->kobj), "kt-top-42");
	dmct_expect_path(test, &a->kobj, "/kt-top-42");

	found = dmc_kobject_find_child(NULL, "kt-top-42");
	KUNIT_EXPECT_PTR_EQ(test, found, &a->kobj);
	dmc_kobject_put(found);
	dmct_del_put(&a->kobj);
}

/*
 * A format that writes a NUL ("%c" of 0) ends the name there, for the
 * indexes too: the object is found by that name, and a second object of
 * the same name is refused.
 */
static void kobject_add_name_ends_at_a_formatted_nul(struct kunit *test)
{
	struct dmct_obj *a = dmct_obj_new(test);
	struct dmct_obj *b = dmct_obj_new(test);
	struct dmc_kobject *found;
	int err = 0;

	KUNIT_ASSERT_EQ(test, dmc_kobject_add(&a->kobj, NULL, "kt-nul%cafter", 0), 0);
	DMCT_EXPECT_STREQ(test, dmc_kobject_name(&a->kobj), "kt-nul");
	found = dmc_kobject_find_child(NULL, "kt-nul");
	KUNIT_EXPECT_PTR_EQ(test, found, &a->kobj);
	dmc_kobject_put(found);
	err = dmc_kobject_add(&b->kobj, NULL, "%s", "kt-nul");
	KUNIT_EXPECT_EQ(test, err, -EEXIST);
	dmc_kobject_put(&b->kobj);
	dmct_del_put(&a->kobj);
}

static void kobject_add_rejects_empty_name(struct kunit *test)
{
	struct dmct_obj *a = dmct_obj_new(test);
	struct dmct_rec *rec = a->rec;

	KUNIT_EXPECT_EQ(test, dmc_kobject_add(&a->kobj, NULL, "%s", ""),
			-EINVAL);
	KUNIT_EXPECT_FALSE(test, dmc_kobject_in_tree(&a->kobj));
	dmc_kobject_put(&a->kobj);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, rec->released, 1U);
}

static void kobject_add_rejects_name_longer_than_max(struct kunit *test)
{
	struct dmct_obj *a = dmct_obj_new(test);
	struct dmct_rec *rec = a->rec;
	char *name;

	name = kunit_kzalloc(test, DMC_NAME_MAX + 2, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, name);
	memset(name, 'x', DMC_NAME_MAX + 1);
	memcpy(name, "kt-", 3);

	KUNIT_EXPECT_EQ(test, dmc_kobject_add(&a->kobj, NULL, "%s", name),
			-ENAMETOOLONG);
	KUNIT_EXPECT_FALSE(test, dmc_kobject_in_tree(&a->kobj));
	dmc_kobject_put(&a->kobj);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, rec->released, 1U);
}

static void kobject_add_accepts_name_of_max_length(struct kunit *test)
{
	struct dmct_obj *a = dmct_obj_new(test);
	char *name, *path;

	name = kunit_kzalloc(test, DMC_NAME_MAX + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, name);
	memset(name, 'y', DMC_NAME_MAX);
	memcpy(name, "kt-", 3);

	KUNIT_EXPECT_EQ(test, dmc_kobject_add(&a->kobj, NULL, "%s", name), 0);
	path = dmc_kobject_get_path(&a->kobj, GFP_KERNEL);
	KUNIT_EXPECT_NOT_NULL(test, path);
	if (path) {
		KUNIT_EXPECT_EQ(test, strlen(path), (size_t)DMC_NAME_MAX + 1);
		KUNIT_EXPECT_STREQ(test, path + 1, name);
	}
	kfree(path);
	dmct_del_put(&a->kobj);
}

static void kobject_add_replaces_slash_with_bang(struct kunit *test)
{
	struct dmct_obj *a = dmct_obj_add(test, NULL, NULL, "kt-a/b/c");

	DMCT_EXPECT_STREQ(test, dmc_kobject_name(&a->kobj), "kt-a!b!c");
	dmct_expect_path(test, &a->kobj, "/kt-a!b!c");
	dmct_del_put(&a->kobj);
}

static void kobject_add_rejects_duplicate_sibling(struct kunit *test)
{
	struct dmct_obj *p = dmct_obj_add(test, NULL, NULL, "kt-dup-parent");
	struct dmct_obj *a = dmct_obj_add(test, &p->kobj, NULL, "x");
	struct dmct_obj *b = dmct_obj_new(test);
	struct dmct_rec *rb = b->rec;
	unsigned int pref = dmc_kobject_refcount(&p->kobj);
	struct dmc_kobject *found;

	KUNIT_EXPECT_EQ(test, dmc_kobject_add(&b->kobj, &p->kobj, "x"), -EEXIST);
	KUNIT_EXPECT_FALSE(test, dmc_kobject_in_tree(&b->kobj));
	/* the failed add kept no reference on the parent */
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&p->kobj), pref);
	dmc_kobject_put(&b->kobj);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, rb->released, 1U);

	found = dmc_kobject_find_child(&p->kobj, "x");
	KUNIT_EXPECT_PTR_EQ(test, found, &a->kobj);
	dmc_kobject_put(found);
	dmct_del_put(&a->kobj);
	dmct_del_put(&p->kobj);
}

/* The same name a top-level object has is free under a parent. */
static void kobject_add_allows_same_name_under_other_parents(struct kunit *test)
{
	struct dmct_obj *p1 = dmct_obj_add(test, NULL, NULL, "kt-same1");
	struct dmct_obj *p2 = dmct_obj_add(test, NULL, NULL, "kt-same2");
	struct dmct_obj *c1 = dmct_obj_new(test);
	struct dmct_obj *c2 = dmct_obj_new(test);
	struct dmct_obj *c3 = dmct_obj_new(test);

	KUNIT_EXPECT_EQ(test, dmc_kobject_add(&c1->kobj, &p1->kobj, "n"), 0);
	KUNIT_EXPECT_EQ(test, dmc_kobject_add(&c2->kobj, &p2->kobj, "n"), 0);
	KUNIT_EXPECT_EQ(test, dmc_kobject_add(&c3->kobj, &p2->kobj, "kt-same1"), 0);
	dmct_del_put(&c3->kobj);
	dmct_del_put(&c2->kobj);
	dmct_del_put(&c1->kobj);
	dmct_del_put(&p2->kobj);
	dmct_del_put(&p1->kobj);
}

/* add: state */

static void kobject_add_without_init_warns_einval(struct kunit *test)
{
	struct dmct_obj *a = dmct_obj_alloc(test, true);
	int err = 0;

	DMCT_EXPECT_MISUSE(test, 1,
			   err = dmc_kobject_add(&a->kobj, NULL, "kt-noinit"));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	KUNIT_EXPECT_FALSE(test, dmc_kobject_in_tree(&a->kobj));
}

static void kobject_add_twice_fails_einval(struct kunit *test)
{
	struct dmct_obj *a = dmct_obj_add(test, NULL, NULL, "kt-once");
	struct dmc_kobject *found;

	KUNIT_EXPECT_EQ(test, dmc_kobject_add(&a->kobj, NULL, "kt-twice"),
			-EINVAL);
	KUNIT_EXPECT_TRUE(test, dmc_kobject_in_tree(&a->kobj));
	dmct_expect_path(test, &a->kobj, "/kt-once");
	found = dmc_kobject_find_child(NULL, "kt-twice");
	KUNIT_EXPECT_NULL(test, found);
	dmc_kobject_put(found);
	dmct_del_put(&a->kobj);
}

static void kobject_add_under_parent_not_in_tree_fails_enoent(struct kunit *test)
{
	struct dmct_obj *never = dmct_obj_new(test);
	struct dmct_obj *gone = dmct_obj_add(test, NULL, NULL, "kt-gone");
	struct dmct_obj *c1 = dmct_obj_new(test);
	struct dmct_obj *c2 = dmct_obj_new(test);
	struct dmct_rec *r1 = c1->rec, *r2 = c2->rec;

	dmc_kobject_del(&gone->kobj);

	KUNIT_EXPECT_EQ(test, dmc_kobject_add(&c1->kobj, &never->kobj, "c"),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, dmc_kobject_add(&c2->kobj, &gone->kobj, "c"),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&never->kobj), 1U);
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&gone->kobj), 1U);
	dmc_kobject_put(&c1->kobj);
	dmc_kobject_put(&c2->kobj);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, r1->released, 1U);
	KUNIT_EXPECT_EQ(test, r2->released, 1U);
	dmc_kobject_put(&gone->kobj);
	dmc_kobject_put(&never->kobj);
}

static void kobject_add_without_parent_goes_under_kset(struct kunit *test)
{
	struct dmc_kset *k = dmct_kset_create(test, "kt-kset", NULL, NULL);
	struct dmct_obj *a = dmct_obj_add(test, NULL, k, "a");

	KUNIT_EXPECT_PTR_EQ(test, a->kobj.parent, &k->kobj);
	dmct_expect_path(test, &a->kobj, "/kt-kset/a");
	dmct_del_put(&a->kobj);
	dmct_kset_unregister(test, k);
}

static void kobject_init_and_add_failure_needs_only_put(struct kunit *test)
{
	struct dmct_obj *a = dmct_obj_add(test, NULL, NULL, "kt-ia");
	struct dmct_obj *b = dmct_obj_alloc(test, true);
	struct dmct_obj *c = dmct_obj_alloc(test, true);
	struct dmct_rec *rb = b->rec;

	KUNIT_EXPECT_EQ(test, dmc_kobject_init_and_add(&b->kobj, &dmct_obj_ktype,
						       NULL, "kt-ia"), -EEXIST);
	rb->initialized = true;
	KUNIT_EXPECT_FALSE(test, dmc_kobject_in_tree(&b->kobj));
	dmc_kobject_put(&b->kobj);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, rb->released, 1U);

	KUNIT_EXPECT_EQ(test, dmc_kobject_init_and_add(&c->kobj, &dmct_obj_ktype,
						       &a->kobj, "c"), 0);
	c->rec->initialized = true;
	dmct_expect_path(test, &c->kobj, "/kt-ia/c");
	dmct_del_put(&c->kobj);
	dmct_del_put(&a->kobj);
}

/* references and release order */

static void kobject_parent_reference_held_until_child_release(struct kunit *test)
{
	struct dmct_obj *p = dmct_obj_add(test, NULL, NULL, "kt-pref");
	unsigned int base = dmc_kobject_refcount(&p->kobj);
	struct dmct_obj *c = dmct_obj_add(test, &p->kobj, NULL, "c");

	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&p->kobj), base + 1);
	dmc_kobject_del(&c->kobj);
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&p->kobj), base + 1);
	dmc_kobject_put(&c->kobj);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&p->kobj), base);
	dmct_del_put(&p->kobj);
}

static void kobject_release_order_child_before_parent(struct kunit *test)
{
	struct dmct_obj *a = dmct_obj_add(test, NULL, NULL, "kt-order");
	struct dmct_obj *b = dmct_obj_add(test, &a->kobj, NULL, "b");
	struct dmct_obj *c = dmct_obj_add(test, &b->kobj, NULL, "c");
	struct dmct_rec *ra = a->rec, *rb = b->rec, *rc = c->rec;

	/* drop the parents' own references first: the children keep them */
	dmc_kobject_put(&a->kobj);
	dmc_kobject_put(&b->kobj);
	KUNIT_EXPECT_EQ(test, ra->released, 0U);
	KUNIT_EXPECT_EQ(test, rb->released, 0U);

	dmct_del_put(&c->kobj);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, rc->released, 1U);
	KUNIT_EXPECT_EQ(test, rb->released, 1U);
	KUNIT_EXPECT_EQ(test, ra->released, 1U);
	KUNIT_EXPECT_LT(test, rc->release_seq, rb->release_seq);
	KUNIT_EXPECT_LT(test, rb->release_seq, ra->release_seq);
}

/* del */

static void kobject_del_takes_object_out_of_tree(struct kunit *test)
{
	struct dmct_obj *a = dmct_obj_add(test, NULL, NULL, "kt-del");
	struct dmct_obj *b = dmct_obj_add(test, &a->kobj, NULL, "b");
	struct dmct_obj *b2;
	struct dmc_kobject *found;

	dmc_kobject_del(&b->kobj);
	KUNIT_EXPECT_FALSE(test, dmc_kobject_in_tree(&b->kobj));
	KUNIT_EXPECT_TRUE(test, dmc_kobject_in_tree(&a->kobj));
	found = dmc_kobject_find_child(&a->kobj, "b");
	KUNIT_EXPECT_NULL(test, found);
	dmc_kobject_put(found);

	/* the name is free again */
	b2 = dmct_obj_add(test, &a->kobj, NULL, "b");
	dmct_del_put(&b2->kobj);
	dmc_kobject_put(&b->kobj);
	dmct_del_put(&a->kobj);
}

static void kobject_del_deletes_children_deepest_first(struct kunit *test)
{
	struct dmc_kset *k = dmct_kset_create(test, "kt-cascade", NULL, NULL);
	struct dmct_obj *a = dmct_obj_add(test, NULL, k, "a");
	struct dmct_obj *b = dmct_obj_add(test, &a->kobj, NULL, "b");
	struct dmct_obj *c = dmct_obj_add(test, &b->kobj, NULL, "c");
	struct dmct_obj *d = dmct_obj_add(test, &a->kobj, NULL, "d");
	static const char * const paths[] = {
		"/kt-cascade/a/b/c", "/kt-cascade/a/b",
		"/kt-cascade/a/d", "/kt-cascade/a",
	};
	struct dmc_uevent *ev;
	u64 seq[4] = { };
	u64 seq0;
	int i;

	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(&a->kobj, DMC_KOBJ_ADD), 0);
	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(&b->kobj, DMC_KOBJ_ADD), 0);
	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(&c->kobj, DMC_KOBJ_ADD), 0);
	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(&d->kobj, DMC_KOBJ_ADD), 0);
	seq0 = dmct_last_seqnum();

	dmc_kobject_del(&a->kobj);
	KUNIT_EXPECT_FALSE(test, dmc_kobject_in_tree(&a->kobj));
	KUNIT_EXPECT_FALSE(test, dmc_kobject_in_tree(&b->kobj));
	KUNIT_EXPECT_FALSE(test, dmc_kobject_in_tree(&c->kobj));
	KUNIT_EXPECT_FALSE(test, dmc_kobject_in_tree(&d->kobj));

	for (i = 0; i < 4; i++) {
		ev = dmct_log_find(seq0, DMC_KOBJ_REMOVE, paths[i]);
		KUNIT_EXPECT_NOT_NULL_MSG(test, ev, "remove of %s", paths[i]);
		if (ev)
			seq[i] = ev->seqnum;
		dmc_uevent_put(ev);
	}
	KUNIT_EXPECT_LT(test, seq[0], seq[1]);	/* c before b */
	KUNIT_EXPECT_LT(test, seq[1], seq[3]);	/* b before a */
	KUNIT_EXPECT_LT(test, seq[2], seq[3]);	/* d before a */
	KUNIT_EXPECT_EQ(test, dmct_log_count(seq0, "/kt-cascade"), 4U);

	dmc_kobject_put(&d->kobj);
	dmc_kobject_put(&c->kobj);
	dmc_kobject_put(&b->kobj);
	dmc_kobject_put(&a->kobj);
	dmct_kset_unregister(test, k);
}

static void kobject_cannot_be_readded_after_del(struct kunit *test)
{
	struct dmct_obj *a = dmct_obj_add(test, NULL, NULL, "kt-readd");
	struct dmc_kobject *found;

	dmc_kobject_del(&a->kobj);
	KUNIT_EXPECT_EQ(test, dmc_kobject_add(&a->kobj, NULL, "kt-readd"),
			-EINVAL);
	KUNIT_EXPECT_FALSE(test, dmc_kobject_in_tree(&a->kobj));
	found = dmc_kobject_find_child(NULL, "kt-readd");
	KUNIT_EXPECT_NULL(test, found);
	dmc_kobject_put(found);
	dmc_kobject_put(&a->kobj);
}

/* put and get */

static void kobject_last_put_deletes_object_in_tree(struct kunit *test)
{
	struct dmc_kset *k = dmct_kset_create(test, "kt-lastput", NULL, NULL);
	struct dmct_obj *a = dmct_obj_add(test, NULL, k, "a");
	struct dmct_rec *ra = a->rec;
	struct dmc_kobject *found;
	struct dmc_uevent *ev;
	u64 seq0;

	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(&a->kobj, DMC_KOBJ_ADD), 0);
	seq0 = dmct_last_seqnum();

	dmc_kobject_put(&a->kobj);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, ra->released, 1U);
	found = dmc_kobject_find_child(&k->kobj, "a");
	KUNIT_EXPECT_NULL(test, found);
	dmc_kobject_put(found);
	KUNIT_EXPECT_EQ(test, dmc_kset_count(k), 0U);
	ev = dmct_log_find(seq0, DMC_KOBJ_REMOVE, "/kt-lastput/a");
	KUNIT_EXPECT_NOT_NULL(test, ev);
	dmc_uevent_put(ev);
	dmct_kset_unregister(test, k);
}

static void kobject_put_on_dead_object_warns_and_does_nothing(struct kunit *test)
{
	struct dmct_obj *a = dmct_obj_alloc(test, false);
	struct dmct_rec *rec = a->rec;

	KUNIT_ASSERT_EQ(test, dmct_obj_init(a), 0);
	dmc_kobject_put(&a->kobj);
	dmc_kobject_flush_releases();
	KUNIT_ASSERT_EQ(test, rec->released, 1U);

	DMCT_EXPECT_MISUSE(test, 1, dmc_kobject_put(&a->kobj));
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, rec->released, 1U);
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&a->kobj), 0U);
}

static void kobject_get_and_put_of_null_are_noops(struct kunit *test)
{
	unsigned long before = dmc_misuse_count();

	KUNIT_EXPECT_NULL(test, dmc_kobject_get(NULL));
	KUNIT_EXPECT_NULL(test, dmc_kobject_get_unless_zero(NULL));
	dmc_kobject_put(NULL);
	KUNIT_EXPECT_EQ(test, dmc_misuse_count(), before);
}

static void kobject_get_of_uninitialized_warns_null(struct kunit *test)
{
	struct dmct_obj *a = dmct_obj_alloc(test, true);
	struct dmc_kobject *got = &a->kobj;

	DMCT_EXPECT_MISUSE(test, 1, got = dmc_kobject_get(&a->kobj));
	KUNIT_EXPECT_NULL(test, got);
}

static void kobject_get_unless_zero_takes_reference_on_live(struct kunit *test)
{
	struct dmct_obj *a = dmct_obj_new(test);
	struct dmc_kobject *got = dmc_kobject_get_unless_zero(&a->kobj);

	KUNIT_EXPECT_PTR_EQ(test, got, &a->kobj);
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&a->kobj), 2U);
	dmc_kobject_put(got);
	dmc_kobject_put(&a->kobj);
}

/* In the release, the object's count is zero: no one may revive it. */
static void kt_try_revive(struct dmct_ctx *ctx, struct dmct_rec *rec)
{
	int *result = ctx->priv;
	struct dmc_kobject *got = dmc_kobject_get_unless_zero(rec->kobj);

	*result = got ? 1 : 2;
}

static void kobject_get_unless_zero_fails_once_dead(struct kunit *test)
{
	struct dmct_ctx *ctx = dmct_ctx(test);
	struct dmct_obj *a = dmct_obj_alloc(test, false);
	struct dmct_rec *rec = a->rec;
	struct dmc_kobject *got;
	int in_release = 0;

	KUNIT_ASSERT_EQ(test, dmct_obj_init(a), 0);
	ctx->priv = &in_release;
	ctx->on_release = kt_try_revive;
	dmc_kobject_put(&a->kobj);
	dmc_kobject_flush_releases();	/* the release runs with the hook */
	ctx->on_release = NULL;

	KUNIT_EXPECT_EQ(test, rec->released, 1U);
	KUNIT_EXPECT_EQ_MSG(test, in_release, 2, "get_unless_zero in release");
	got = dmc_kobject_get_unless_zero(&a->kobj);
	KUNIT_EXPECT_NULL(test, got);
}

/* rename */

static void kobject_rename_changes_name_and_path(struct kunit *test)
{
	struct dmct_obj *a = dmct_obj_add(test, NULL, NULL, "kt-rn-old");
	struct dmct_obj *b = dmct_obj_add(test, &a->kobj, NULL, "b");
	struct dmc_kobject *found;

	KUNIT_EXPECT_EQ(test, dmc_kobject_rename(&a->kobj, "kt-rn-new"), 0);
	DMCT_EXPECT_STREQ(test, dmc_kobject_name(&a->kobj), "kt-rn-new");
	dmct_expect_path(test, &a->kobj, "/kt-rn-new");
	/* the children follow */
	dmct_expect_path(test, &b->kobj, "/kt-rn-new/b");

	found = dmc_kobject_find_child(NULL, "kt-rn-old");
	KUNIT_EXPECT_NULL(test, found);
	dmc_kobject_put(found);
	found = dmc_kobject_find_child(NULL, "kt-rn-new");
	KUNIT_EXPECT_PTR_EQ(test, found, &a->kobj);
	dmc_kobject_put(found);
	dmct_del_put(&b->kobj);
	dmct_del_put(&a->kobj);
}

static void kobject_rename_sends_move_with_devpath_old(struct kunit *test)
{
	struct dmc_kset *k = dmct_kset_create(test, "kt-rnev", NULL, NULL);
	struct dmct_obj *a = dmct_obj_add(test, NULL, k, "old");
	struct dmc_uevent *ev;
	u64 seq0;

	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(&a->kobj, DMC_KOBJ_ADD), 0);
	seq0 = dmct_last_seqnum();
	KUNIT_EXPECT_EQ(test, dmc_kobject_rename(&a->kobj, "new"), 0);

	ev = dmct_log_find(seq0, DMC_KOBJ_MOVE, "/kt-rnev/new");
	KUNIT_ASSERT_NOT_NULL(test, ev);
	DMCT_EXPECT_STREQ(test, dmc_uevent_var(ev, "DEVPATH"), "/kt-rnev/new");
	DMCT_EXPECT_STREQ(test, dmc_uevent_var(ev, "DEVPATH_OLD"),
			  "/kt-rnev/old");
	dmc_uevent_put(ev);
	dmct_del_put(&a->kobj);
	dmct_kset_unregister(test, k);
}

static void kobject_rename_rejects_empty_name(struct kunit *test)
{
	struct dmct_obj *a = dmct_obj_add(test, NULL, NULL, "kt-rn-empty");

	KUNIT_EXPECT_EQ(test, dmc_kobject_rename(&a->kobj, ""), -EINVAL);
	DMCT_EXPECT_STREQ(test, dmc_kobject_name(&a->kobj), "kt-rn-empty");
	dmct_del_put(&a->kobj);
}

static void kobject_rename_rejects_sibling_name(struct kunit *test)
{
	struct dmc_kset *k = dmct_kset_create(test, "kt-rndup", NULL, NULL);
	struct dmct_obj *a = dmct_obj_add(test, NULL, k, "a");
	struct dmct_obj *b = dmct_obj_add(test, NULL, k, "b");
	struct dmc_kobject *found;
	u64 seq0 = dmct_last_seqnum();

	KUNIT_EXPECT_EQ(test, dmc_kobject_rename(&b->kobj, "a"), -EEXIST);
	DMCT_EXPECT_STREQ(test, dmc_kobject_name(&b->kobj), "b");
	found = dmc_kobject_find_child(&k->kobj, "b");
	KUNIT_EXPECT_PTR_EQ(test, found, &b->kobj);
	dmc_kobject_put(found);
	KUNIT_EXPECT_EQ(test, dmct_last_seqnum(), seq0);
	dmct_del_put(&b->kobj);
	dmct_del_put(&a->kobj);
	dmct_kset_unregister(test, k);
}

static void kobject_rename_replaces_slash_with_bang(struct kunit *test)
{
	struct dmct_obj *a = dmct_obj_add(test, NULL, NULL, "kt-rn-slash");

	KUNIT_EXPECT_EQ(test, dmc_kobject_rename(&a->kobj, "kt-x/y"), 0);
	DMCT_EXPECT_STREQ(test, dmc_kobject_name(&a->kobj), "kt-x!y");
	dmct_expect_path(test, &a->kobj, "/kt-x!y");
	dmct_del_put(&a->kobj);
}

/* move */

static void kobject_move_changes_parent_and_moves_reference(struct kunit *test)
{
	struct dmct_obj *p1 = dmct_obj_add(test, NULL, NULL, "kt-mv1");
	struct dmct_obj *p2 = dmct_obj_add(test, NULL, NULL, "kt-mv2");
	struct dmct_obj *c = dmct_obj_add(test, &p1->kobj, NULL, "c");
	unsigned int r1 = dmc_kobject_refcount(&p1->kobj);
	unsigned int r2 = dmc_kobject_refcount(&p2->kobj);
	struct dmc_kobject *found;

	KUNIT_EXPECT_EQ(test, dmc_kobject_move(&c->kobj, &p2->kobj), 0);
	KUNIT_EXPECT_PTR_EQ(test, c->kobj.parent, &p2->kobj);
	dmct_expect_path(test, &c->kobj, "/kt-mv2/c");
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&p1->kobj), r1 - 1);
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&p2->kobj), r2 + 1);

	found = dmc_kobject_find_child(&p1->kobj, "c");
	KUNIT_EXPECT_NULL(test, found);
	dmc_kobject_put(found);
	found = dmc_kobject_find_child(&p2->kobj, "c");
	KUNIT_EXPECT_PTR_EQ(test, found, &c->kobj);
	dmc_kobject_put(found);

	dmct_del_put(&c->kobj);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&p2->kobj), r2);
	dmct_del_put(&p2->kobj);
	dmct_del_put(&p1->kobj);
}

static void kobject_move_sends_move_with_devpath_old(struct kunit *test)
{
	struct dmc_kset *k = dmct_kset_create(test, "kt-mvev", NULL, NULL);
	struct dmct_obj *p1 = dmct_obj_add(test, NULL, k, "p1");
	struct dmct_obj *p2 = dmct_obj_add(test, NULL, k, "p2");
	struct dmct_obj *c = dmct_obj_add(test, &p1->kobj, NULL, "c");
	struct dmc_uevent *ev;
	u64 seq0;

	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(&c->kobj, DMC_KOBJ_ADD), 0);
	seq0 = dmct_last_seqnum();
	KUNIT_EXPECT_EQ(test, dmc_kobject_move(&c->kobj, &p2->kobj), 0);

	ev = dmct_log_find(seq0, DMC_KOBJ_MOVE, "/kt-mvev/p2/c");
	KUNIT_ASSERT_NOT_NULL(test, ev);
	DMCT_EXPECT_STREQ(test, dmc_uevent_var(ev, "DEVPATH_OLD"),
			  "/kt-mvev/p1/c");
	dmc_uevent_put(ev);
	dmct_del_put(&c->kobj);
	dmct_del_put(&p2->kobj);
	dmct_del_put(&p1->kobj);
	dmct_kset_unregister(test, k);
}

static void kobject_move_to_null_goes_under_kset(struct kunit *test)
{
	struct dmc_kset *k = dmct_kset_create(test, "kt-mvk", NULL, NULL);
	struct dmct_obj *p = dmct_obj_add(test, NULL, NULL, "kt-mvk-p");
	struct dmct_obj *c = dmct_obj_add(test, &p->kobj, k, "c");
	unsigned int rp = dmc_kobject_refcount(&p->kobj);

	dmct_expect_path(test, &c->kobj, "/kt-mvk-p/c");
	KUNIT_EXPECT_EQ(test, dmc_kobject_move(&c->kobj, NULL), 0);
	KUNIT_EXPECT_PTR_EQ(test, c->kobj.parent, &k->kobj);
	dmct_expect_path(test, &c->kobj, "/kt-mvk/c");
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&p->kobj), rp - 1);
	dmct_del_put(&c->kobj);
	dmct_del_put(&p->kobj);
	dmct_kset_unregister(test, k);
}

static void kobject_move_to_null_goes_to_top_level(struct kunit *test)
{
	struct dmct_obj *p = dmct_obj_add(test, NULL, NULL, "kt-mvtop-p");
	struct dmct_obj *c = dmct_obj_add(test, &p->kobj, NULL, "kt-mvtop-c");
	unsigned int rp = dmc_kobject_refcount(&p->kobj);
	struct dmc_kobject *found;

	KUNIT_EXPECT_EQ(test, dmc_kobject_move(&c->kobj, NULL), 0);
	KUNIT_EXPECT_NULL(test, c->kobj.parent);
	dmct_expect_path(test, &c->kobj, "/kt-mvtop-c");
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&p->kobj), rp - 1);
	found = dmc_kobject_find_child(NULL, "kt-mvtop-c");
	KUNIT_EXPECT_PTR_EQ(test, found, &c->kobj);
	dmc_kobject_put(found);
	dmct_del_put(&c->kobj);
	dmct_del_put(&p->kobj);
}

static void kobject_move_under_itself_or_descendant_fails(struct kunit *test)
{
	struct dmct_obj *a = dmct_obj_add(test, NULL, NULL, "kt-cycle");
	struct dmct_obj *b = dmct_obj_add(test, &a->kobj, NULL, "b");
	struct dmct_obj *c = dmct_obj_add(test, &b->kobj, NULL, "c");

	KUNIT_EXPECT_EQ(test, dmc_kobject_move(&a->kobj, &a->kobj), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_kobject_move(&a->kobj, &c->kobj), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_kobject_move(&b->kobj, &c->kobj), -EINVAL);
	KUNIT_EXPECT_NULL(test, a->kobj.parent);
	dmct_expect_path(test, &c->kobj, "/kt-cycle/b/c");
	dmct_del_put(&c->kobj);
	dmct_del_put(&b->kobj);
	dmct_del_put(&a->kobj);
}

static void kobject_move_onto_taken_name_fails_eexist(struct kunit *test)
{
	struct dmct_obj *p1 = dmct_obj_add(test, NULL, NULL, "kt-clash1");
	struct dmct_obj *p2 = dmct_obj_add(test, NULL, NULL, "kt-clash2");
	struct dmct_obj *x1 = dmct_obj_add(test, &p1->kobj, NULL, "x");
	struct dmct_obj *x2 = dmct_obj_add(test, &p2->kobj, NULL, "x");
	unsigned int r1 = dmc_kobject_refcount(&p1->kobj);
	unsigned int r2 = dmc_kobject_refcount(&p2->kobj);

	KUNIT_EXPECT_EQ(test, dmc_kobject_move(&x1->kobj, &p2->kobj), -EEXIST);
	KUNIT_EXPECT_PTR_EQ(test, x1->kobj.parent, &p1->kobj);
	dmct_expect_path(test, &x1->kobj, "/kt-clash1/x");
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&p1->kobj), r1);
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&p2->kobj), r2);
	dmct_del_put(&x2->kobj);
	dmct_del_put(&x1->kobj);
	dmct_del_put(&p2->kobj);
	dmct_del_put(&p1->kobj);
}

/* lookups */

static void kobject_get_path_joins_ancestors(struct kunit *test)
{
	struct dmct_obj *a = dmct_obj_add(test, NULL, NULL, "kt-path");
	struct dmct_obj *b = dmct_obj_add(test, &a->kobj, NULL, "b");
	struct dmct_obj *c = dmct_obj_add(test, &b->kobj, NULL, "c");

	dmct_expect_path(test, &a->kobj, "/kt-path");
	dmct_expect_path(test, &b->kobj, "/kt-path/b");
	dmct_expect_path(test, &c->kobj, "/kt-path/b/c");
	dmct_del_put(&c->kobj);
	dmct_del_put(&b->kobj);
	dmct_del_put(&a->kobj);
}

static void kobject_find_child_returns_referenced_child(struct kunit *test)
{
	struct dmct_obj *a = dmct_obj_add(test, NULL, NULL, "kt-find");
	struct dmct_obj *b = dmct_obj_add(test, &a->kobj, NULL, "b");
	unsigned int rb = dmc_kobject_refcount(&b->kobj);
	struct dmc_kobject *found;

	found = dmc_kobject_find_child(&a->kobj, "b");
	KUNIT_EXPECT_PTR_EQ(test, found, &b->kobj);
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&b->kobj), rb + 1);
	dmc_kobject_put(found);

	found = dmc_kobject_find_child(&a->kobj, "nope");
	KUNIT_EXPECT_NULL(test, found);
	dmc_kobject_put(found);
	/* only direct children */
	found = dmc_kobject_find_child(NULL, "b");
	KUNIT_EXPECT_NULL(test, found);
	dmc_kobject_put(found);
	dmct_del_put(&b->kobj);
	dmct_del_put(&a->kobj);
}

static int kobject_test_init(struct kunit *test)
{
	return dmct_init(test, "/kt-");
}

static struct kunit_case kobject_test_cases[] = {
	KUNIT_CASE(kobject_init_rejects_null_ktype),
	KUNIT_CASE(kobject_init_rejects_ktype_without_release),
	KUNIT_CASE(kobject_init_twice_warns_ealready),
	KUNIT_CASE(kobject_release_runs_once_after_last_put),
	KUNIT_CASE(kobject_add_top_level_formats_name_and_path),
	KUNIT_CASE(kobject_add_name_ends_at_a_formatted_nul),
	KUNIT_CASE(kobject_add_rejects_empty_name),
	KUNIT_CASE(kobject_add_rejects_name_longer_than_max),
	KUNIT_CASE(kobject_add_accepts_name_of_max_length),
	KUNIT_CASE(kobject_add_replaces_slash_with_bang),
	KUNIT_CASE(kobject_add_rejects_duplicate_sibling),
	KUNIT_CASE(kobject_add_allows_same_name_under_other_parents),
	KUNIT_CASE(kobject_add_without_init_warns_einval),
	KUNIT_CASE(kobject_add_twice_fails_einval),
	KUNIT_CASE(kobject_add_under_parent_not_in_tree_fails_enoent),
	KUNIT_CASE(kobject_add_without_parent_goes_under_kset),
	KUNIT_CASE(kobject_init_and_add_failure_needs_only_put),
	KUNIT_CASE(kobject_parent_reference_held_until_child_release),
	KUNIT_CASE(kobject_release_order_child_before_parent),
	KUNIT_CASE(kobject_del_takes_object_out_of_tree),
	KUNIT_CASE(kobject_del_deletes_children_deepest_first),
	KUNIT_CASE(kobject_cannot_be_readded_after_del),
	KUNIT_CASE(kobject_last_put_deletes_object_in_tree),
	KUNIT_CASE(kobject_put_on_dead_object_warns_and_does_nothing),
	KUNIT_CASE(kobject_get_and_put_of_null_are_noops),
	KUNIT_CASE(kobject_get_of_uninitialized_warns_null),
	KUNIT_CASE(kobject_get_unless_zero_takes_reference_on_live),
	KUNIT_CASE(kobject_get_unless_zero_fails_once_dead),
	KUNIT_CASE(kobject_rename_changes_name_and_path),
	KUNIT_CASE(kobject_rename_sends_move_with_devpath_old),
	KUNIT_CASE(kobject_rename_rejects_empty_name),
	KUNIT_CASE(kobject_rename_rejects_sibling_name),
	KUNIT_CASE(kobject_rename_replaces_slash_with_bang),
	KUNIT_CASE(kobject_move_changes_parent_and_moves_reference),
	KUNIT_CASE(kobject_move_sends_move_with_devpath_old),
	KUNIT_CASE(kobject_move_to_null_goes_under_kset),
	KUNIT_CASE(kobject_move_to_null_goes_to_top_level),
	KUNIT_CASE(kobject_move_under_itself_or_descendant_fails),
	KUNIT_CASE(kobject_move_onto_taken_name_fails_eexist),
	KUNIT_CASE(kobject_get_path_joins_ancestors),
	KUNIT_CASE(kobject_find_child_returns_referenced_child),
	{}
};

static struct kunit_suite kobject_test_suite = {
	.name = "dmcore-kobject",
	.init = kobject_test_init,
	.exit = dmct_exit,
	.test_cases = kobject_test_cases,
};

kunit_test_suites(&kobject_test_suite);
