// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore-kset: sets of kobjects, one rule per case.
 *
 * Registration (created and embedded), membership and the references it
 * holds, lookup by name (also among 5,000 members) and walks that
 * survive members leaving and joining. Top-level names start with "ks-".
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include "test_util.h"

#define KS_NR		5
#define KS_BULK_NR	5000

static void ks_add_members(struct kunit *test, struct dmc_kset *k,
			   struct dmct_obj **m, int n)
{
	int i;

	for (i = 0; i < n; i++)
		m[i] = dmct_obj_add(test, NULL, k, "m%d", i);
}

static void ks_del_put_members(struct dmct_obj **m, int n)
{
	int i;

	for (i = n - 1; i >= 0; i--)
		dmct_del_put(&m[i]->kobj);
}

/* registration */

static void kset_create_and_add_puts_kset_in_tree(struct kunit *test)
{
	struct dmc_kset *k = dmct_kset_create(test, "ks-new", NULL, NULL);
	struct dmc_kobject *found;

	KUNIT_EXPECT_TRUE(test, dmc_kobject_in_tree(&k->kobj));
	dmct_expect_path(test, &k->kobj, "/ks-new");
	KUNIT_EXPECT_EQ(test, dmc_kset_count(k), 0U);
	found = dmc_kobject_find_child(NULL, "ks-new");
	KUNIT_EXPECT_PTR_EQ(test, found, &k->kobj);
	dmc_kobject_put(found);

	dmct_kset_unregister(test, k);
	found = dmc_kobject_find_child(NULL, "ks-new");
	KUNIT_EXPECT_NULL(test, found);
	dmc_kobject_put(found);
}

static void kset_create_and_add_under_parent(struct kunit *test)
{
	struct dmct_obj *p = dmct_obj_add(test, NULL, NULL, "ks-parent");
	unsigned int rp = dmc_kobject_refcount(&p->kobj);
	struct dmc_kset *k = dmct_kset_create(test, "sub", NULL, &p->kobj);

	dmct_expect_path(test, &k->kobj, "/ks-parent/sub");
	KUNIT_EXPECT_PTR_EQ(test, k->kobj.parent, &p->kobj);
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&p->kobj), rp + 1);
	dmct_kset_unregister(test, k);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&p->kobj), rp);
	dmct_del_put(&p->kobj);
}

static void kset_create_and_add_duplicate_returns_null(struct kunit *test)
{
	struct dmc_kset *k = dmct_kset_create(test, "ks-twin", NULL, NULL);
	struct dmc_kset *k2 = dmc_kset_create_and_add("ks-twin", NULL, NULL);

	KUNIT_EXPECT_NULL(test, k2);
	if (k2)
		dmc_kset_unregister(k2);
	dmct_kset_unregister(test, k);
}

static void kset_register_embedded_release_runs_once(struct kunit *test)
{
	struct dmct_kset *ks = dmct_kset_new(test, "ks-emb", NULL, NULL);
	struct dmct_rec *rec = ks->rec;

	KUNIT_EXPECT_TRUE(test, dmc_kobject_in_tree(&ks->kset.kobj));
	dmct_expect_path(test, &ks->kset.kobj, "/ks-emb");
	KUNIT_EXPECT_EQ(test, rec->released, 0U);
	dmc_kset_unregister(&ks->kset);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, rec->released, 1U);
}

static void kset_register_failure_ends_with_put(struct kunit *test)
{
	struct dmct_kset *first = dmct_kset_new(test, "ks-edup", NULL, NULL);
	struct dmct_kset *second = dmct_kset_alloc(test, true);
	struct dmct_rec *rec = second->rec;

	KUNIT_ASSERT_EQ(test, dmc_kobject_set_name(&second->kset.kobj,
						   "ks-edup"), 0);
	KUNIT_EXPECT_EQ(test, dmc_kset_register(&second->kset), -EEXIST);
	rec->initialized = true;
	KUNIT_EXPECT_FALSE(test, dmc_kobject_in_tree(&second->kset.kobj));
	dmc_kset_put(&second->kset);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, rec->released, 1U);
	dmc_kset_unregister(&first->kset);
}

/*
 * A kset may itself be a member of another (its kobj.kset). While it is,
 * it holds the parent and the kset reference on the outer kset, and no
 * more: once it is gone, the outer kset is released by its last put.
 */
static void kset_nested_kset_is_member_of_outer(struct kunit *test)
{
	struct dmct_kset *outer = dmct_kset_new(test, "ks-outer", NULL, NULL);
	struct dmct_kset *inner = dmct_kset_alloc(test, true);
	struct dmct_rec *router = outer->rec, *rinner = inner->rec;
	struct dmc_kobject *okobj = &outer->kset.kobj;
	unsigned int rk = dmc_kobject_refcount(okobj);
	struct dmc_kobject *found;
	int err;

	KUNIT_ASSERT_EQ(test, dmc_kobject_set_name(&inner->kset.kobj, "inner"),
			0);
	inner->kset.kobj.kset = &outer->kset;
	err = dmc_kset_register(&inner->kset);
	rinner->initialized = true;
	KUNIT_ASSERT_EQ(test, err, 0);

	dmct_expect_path(test, &inner->kset.kobj, "/ks-outer/inner");
	KUNIT_EXPECT_EQ(test, dmc_kset_count(&outer->kset), 1U);
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(okobj), rk + 2);
	found = dmc_kset_find_obj(&outer->kset, "inner");
	KUNIT_EXPECT_PTR_EQ(test, found, &inner->kset.kobj);
	dmc_kobject_put(found);

	dmc_kset_unregister(&inner->kset);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, rinner->released, 1U);
	KUNIT_EXPECT_EQ(test, dmc_kset_count(&outer->kset), 0U);
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(okobj), rk);
	dmc_kset_unregister(&outer->kset);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, router->released, 1U);
}

/* membership */

static void kset_members_join_and_are_counted(struct kunit *test)
{
	struct dmc_kset *k = dmct_kset_create(test, "ks-join", NULL, NULL);
	struct dmct_obj *m[KS_NR];

	ks_add_members(test, k, m, 2);
	KUNIT_EXPECT_EQ(test, dmc_kset_count(k), 2U);
	KUNIT_EXPECT_PTR_EQ(test, m[0]->kobj.kset, k);
	KUNIT_EXPECT_PTR_EQ(test, m[1]->kobj.parent, &k->kobj);
	ks_del_put_members(m, 2);
	KUNIT_EXPECT_EQ(test, dmc_kset_count(k), 0U);
	dmct_kset_unregister(test, k);
}

/* A member whose parent is elsewhere holds exactly the kset reference. */
static void kset_member_holds_kset_reference_until_del(struct kunit *test)
{
	struct dmc_kset *k = dmct_kset_create(test, "ks-ref", NULL, NULL);
	struct dmct_obj *p = dmct_obj_add(test, NULL, NULL, "ks-ref-parent");
	unsigned int rk = dmc_kobject_refcount(&k->kobj);
	struct dmct_obj *m = dmct_obj_add(test, &p->kobj, k, "m");

	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&k->kobj), rk + 1);
	dmc_kobject_del(&m->kobj);
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&k->kobj), rk);
	KUNIT_EXPECT_EQ(test, dmc_kset_count(k), 0U);
	dmc_kobject_put(&m->kobj);
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&k->kobj), rk);
	dmct_del_put(&p->kobj);
	dmct_kset_unregister(test, k);
}

/* Under the kset itself, a member holds a parent and a kset reference. */
static void kset_member_under_kset_holds_two_references(struct kunit *test)
{
	struct dmc_kset *k = dmct_kset_create(test, "ks-ref2", NULL, NULL);
	unsigned int rk = dmc_kobject_refcount(&k->kobj);
	struct dmct_obj *m = dmct_obj_add(test, NULL, k, "m");

	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&k->kobj), rk + 2);
	dmc_kobject_del(&m->kobj);
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&k->kobj), rk + 1);
	dmc_kobject_put(&m->kobj);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&k->kobj), rk);
	dmct_kset_unregister(test, k);
}

static void kset_del_leaves_kset(struct kunit *test)
{
	struct dmc_kset *k = dmct_kset_create(test, "ks-leave", NULL, NULL);
	struct dmct_obj *m[KS_NR];
	struct dmc_kset_iter it;
	struct dmc_kobject *found;

	ks_add_members(test, k, m, 2);
	dmc_kobject_del(&m[0]->kobj);
	KUNIT_EXPECT_EQ(test, dmc_kset_count(k), 1U);
	found = dmc_kset_find_obj(k, "m0");
	KUNIT_EXPECT_NULL(test, found);
	dmc_kobject_put(found);

	dmct_iter_start(test, k, &it);
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&it), &m[1]->kobj);
	KUNIT_EXPECT_NULL(test, dmc_kset_iter_next(&it));
	dmct_iter_exit(test, &it);

	dmc_kobject_put(&m[0]->kobj);
	dmct_del_put(&m[1]->kobj);
	dmct_kset_unregister(test, k);
}

static void kset_unregister_keeps_kset_until_members_released(struct kunit *test)
{
	struct dmct_kset *ks = dmct_kset_new(test, "ks-unreg", NULL, NULL);
	struct dmct_rec *rks = ks->rec;
	struct dmct_obj *m = dmct_obj_add(test, NULL, &ks->kset, "m");
	struct dmct_rec *rm = m->rec;

	dmc_kset_unregister(&ks->kset);
	KUNIT_EXPECT_FALSE(test, dmc_kobject_in_tree(&ks->kset.kobj));
	/* the member under it was deleted with it, but lives on */
	KUNIT_EXPECT_FALSE(test, dmc_kobject_in_tree(&m->kobj));
	KUNIT_EXPECT_EQ(test, rks->released, 0U);

	dmc_kobject_put(&m->kobj);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, rm->released, 1U);
	KUNIT_EXPECT_EQ(test, rks->released, 1U);
	KUNIT_EXPECT_LT(test, rm->release_seq, rks->release_seq);
}

static void kset_member_elsewhere_keeps_unregistered_kset(struct kunit *test)
{
	struct dmct_kset *ks = dmct_kset_new(test, "ks-away", NULL, NULL);
	struct dmct_rec *rks = ks->rec;
	struct dmct_obj *p = dmct_obj_add(test, NULL, NULL, "ks-away-parent");
	struct dmct_obj *m = dmct_obj_add(test, &p->kobj, &ks->kset, "m");

	dmc_kset_unregister(&ks->kset);
	KUNIT_EXPECT_TRUE(test, dmc_kobject_in_tree(&m->kobj));
	KUNIT_EXPECT_EQ(test, rks->released, 0U);
	dmc_kobject_del(&m->kobj);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, rks->released, 1U);
	dmc_kobject_put(&m->kobj);
	dmct_del_put(&p->kobj);
}

/* lookup */

static void kset_find_obj_returns_referenced_member(struct kunit *test)
{
	struct dmc_kset *k = dmct_kset_create(test, "ks-find", NULL, NULL);
	struct dmct_obj *m[KS_NR];
	struct dmc_kobject *found;
	unsigned int r;

	ks_add_members(test, k, m, 3);
	r = dmc_kobject_refcount(&m[1]->kobj);
	found = dmc_kset_find_obj(k, "m1");
	KUNIT_EXPECT_PTR_EQ(test, found, &m[1]->kobj);
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&m[1]->kobj), r + 1);
	dmc_kobject_put(found);
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&m[1]->kobj), r);
	ks_del_put_members(m, 3);
	dmct_kset_unregister(test, k);
}

static void kset_find_obj_missing_returns_null(struct kunit *test)
{
	struct dmc_kset *k = dmct_kset_create(test, "ks-miss", NULL, NULL);
	struct dmct_obj *m[KS_NR];
	struct dmct_obj *outsider = dmct_obj_add(test, &k->kobj, NULL, "x");
	struct dmc_kobject *found;

	ks_add_members(test, k, m, 2);
	found = dmc_kset_find_obj(k, "m2");
	KUNIT_EXPECT_NULL(test, found);
	dmc_kobject_put(found);
	found = dmc_kset_find_obj(k, "m");
	KUNIT_EXPECT_NULL(test, found);
	dmc_kobject_put(found);
	/* a child of the kset's kobject that is not a member */
	found = dmc_kset_find_obj(k, "x");
	KUNIT_EXPECT_NULL(test, found);
	dmc_kobject_put(found);
	ks_del_put_members(m, 2);
	dmct_del_put(&outsider->kobj);
	dmct_kset_unregister(test, k);
}

static void kset_find_obj_follows_rename(struct kunit *test)
{
	struct dmc_kset *k = dmct_kset_create(test, "ks-rename", NULL, NULL);
	struct dmct_obj *m = dmct_obj_add(test, NULL, k, "old");
	struct dmc_kobject *found;

	KUNIT_ASSERT_EQ(test, dmc_kobject_rename(&m->kobj, "new"), 0);
	found = dmc_kset_find_obj(k, "new");
	KUNIT_EXPECT_PTR_EQ(test, found, &m->kobj);
	dmc_kobject_put(found);
	found = dmc_kset_find_obj(k, "old");
	KUNIT_EXPECT_NULL(test, found);
	dmc_kobject_put(found);
	dmct_del_put(&m->kobj);
	dmct_kset_unregister(test, k);
}

/* Members under different parents may share a name. */
static void kset_find_obj_handles_members_sharing_a_name(struct kunit *test)
{
	struct dmc_kset *k = dmct_kset_create(test, "ks-share", NULL, NULL);
	struct dmct_obj *p1 = dmct_obj_add(test, NULL, NULL, "ks-share-p1");
	struct dmct_obj *p2 = dmct_obj_add(test, NULL, NULL, "ks-share-p2");
	struct dmct_obj *x1 = dmct_obj_add(test, &p1->kobj, k, "x");
	struct dmct_obj *x2 = dmct_obj_add(test, &p2->kobj, k, "x");
	struct dmc_kobject *found;

	KUNIT_EXPECT_EQ(test, dmc_kset_count(k), 2U);
	found = dmc_kset_find_obj(k, "x");
	KUNIT_EXPECT_TRUE(test, found == &x1->kobj || found == &x2->kobj);
	dmc_kobject_put(found);

	dmc_kobject_del(&x1->kobj);
	found = dmc_kset_find_obj(k, "x");
	KUNIT_EXPECT_PTR_EQ(test, found, &x2->kobj);
	dmc_kobject_put(found);
	dmc_kobject_put(&x1->kobj);
	dmct_del_put(&x2->kobj);
	dmct_del_put(&p2->kobj);
	dmct_del_put(&p1->kobj);
	dmct_kset_unregister(test, k);
}

/* 5,000 members, counted by the release; memory in one array. */
struct ks_bulk_obj {
	struct dmc_kobject kobj;
	bool released;
};

struct ks_bulk {
	struct ks_bulk_obj *objs;
	unsigned int nr_init;
	unsigned int nr_released;
};

static void ks_bulk_release(struct dmc_kobject *kobj)
{
	struct ks_bulk_obj *o = container_of(kobj, struct ks_bulk_obj, kobj);
	struct ks_bulk *bulk = dmct_current()->priv;

	o->released = true;
	bulk->nr_released++;
}

static const struct dmc_kobj_type ks_bulk_ktype = {
	.name = "ks_bulk",
	.release = ks_bulk_release,
};

static void ks_bulk_cleanup(struct dmct_ctx *ctx)
{
	struct ks_bulk *bulk = ctx->priv;
	unsigned int i;

	for (i = bulk->nr_init; i-- > 0; ) {
		struct ks_bulk_obj *o = &bulk->objs[i];

		while (!o->released && dmc_kobject_refcount(&o->kobj))
			dmc_kobject_put(&o->kobj);
		if (!(i % 1024))
			cond_resched();
	}
	if (bulk->nr_released == bulk->nr_init)
		kvfree(bulk->objs);	/* else leak rather than free under the core */
	bulk->objs = NULL;
	bulk->nr_init = 0;
}

static void kset_find_obj_among_5000_members(struct kunit *test)
{
	struct dmct_ctx *ctx = dmct_ctx(test);
	struct dmc_kset *k = dmct_kset_create(test, "ks-bulk", NULL, NULL);
	struct dmc_kobject *found;
	struct ks_bulk *bulk;
	unsigned int i, wrong = 0;
	char name[16];
	int err;

	bulk = kunit_kzalloc(test, sizeof(*bulk), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, bulk);
	bulk->objs = kvcalloc(KS_BULK_NR, sizeof(*bulk->objs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, bulk->objs);
	ctx->priv = bulk;
	ctx->cleanup = ks_bulk_cleanup;

	for (i = 0; i < KS_BULK_NR; i++) {
		struct dmc_kobject *kobj = &bulk->objs[i].kobj;

		KUNIT_ASSERT_EQ(test, dmc_kobject_init(kobj, &ks_bulk_ktype), 0);
		bulk->nr_init++;
		kobj->kset = k;
		err = dmc_kobject_add(kobj, NULL, "m%u", i);
		KUNIT_ASSERT_EQ_MSG(test, err, 0, "add of m%u", i);
		if (!(i % 256))
			cond_resched();
	}
	KUNIT_EXPECT_EQ(test, dmc_kset_count(k), KS_BULK_NR);

	for (i = 0; i < KS_BULK_NR; i++) {
		snprintf(name, sizeof(name), "m%u", i);
		found = dmc_kset_find_obj(k, name);
		if (found != &bulk->objs[i].kobj)
			wrong++;
		dmc_kobject_put(found);
		if (!(i % 256))
			cond_resched();
	}
	KUNIT_EXPECT_EQ(test, wrong, 0U);
	found = dmc_kset_find_obj(k, "m5000");
	KUNIT_EXPECT_NULL(test, found);
	dmc_kobject_put(found);

	/* every last put deletes a member still in the tree */
	for (i = KS_BULK_NR; i-- > 0; ) {
		dmc_kobject_put(&bulk->objs[i].kobj);
		if (!(i % 256))
			cond_resched();
	}
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, bulk->nr_released, KS_BULK_NR);
	KUNIT_EXPECT_EQ(test, dmc_kset_count(k), 0U);
	dmct_kset_unregister(test, k);
}

/* iteration */

static void kset_iter_returns_members_in_join_order(struct kunit *test)
{
	struct dmc_kset *k = dmct_kset_create(test, "ks-walk", NULL, NULL);
	struct dmct_obj *m[KS_NR];
	struct dmc_kset_iter it;
	int i;

	ks_add_members(test, k, m, KS_NR);
	dmct_iter_start(test, k, &it);
	for (i = 0; i < KS_NR; i++)
		KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&it), &m[i]->kobj);
	KUNIT_EXPECT_NULL(test, dmc_kset_iter_next(&it));
	dmct_iter_exit(test, &it);
	ks_del_put_members(m, KS_NR);
	dmct_kset_unregister(test, k);
}

static void kset_iter_on_empty_kset_returns_null(struct kunit *test)
{
	struct dmc_kset *k = dmct_kset_create(test, "ks-empty", NULL, NULL);
	struct dmc_kset_iter it;

	dmct_iter_start(test, k, &it);
	KUNIT_EXPECT_NULL(test, dmc_kset_iter_next(&it));
	dmct_iter_exit(test, &it);
	dmct_kset_unregister(test, k);
}

static void kset_iter_references_member_until_next_call(struct kunit *test)
{
	struct dmc_kset *k = dmct_kset_create(test, "ks-iref", NULL, NULL);
	struct dmct_obj *m[KS_NR];
	unsigned int r0, r1;
	struct dmc_kset_iter it;

	ks_add_members(test, k, m, 2);
	r0 = dmc_kobject_refcount(&m[0]->kobj);
	r1 = dmc_kobject_refcount(&m[1]->kobj);
	dmct_iter_start(test, k, &it);
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&it), &m[0]->kobj);
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&m[0]->kobj), r0 + 1);
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&it), &m[1]->kobj);
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&m[0]->kobj), r0);
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&m[1]->kobj), r1 + 1);
	/* ending the walk early drops the last reference too */
	dmct_iter_exit(test, &it);
	KUNIT_EXPECT_EQ(test, dmc_kobject_refcount(&m[1]->kobj), r1);
	ks_del_put_members(m, 2);
	dmct_kset_unregister(test, k);
}

static void kset_iter_survives_deleting_current(struct kunit *test)
{
	struct dmc_kset *k = dmct_kset_create(test, "ks-delcur", NULL, NULL);
	struct dmct_obj *m[KS_NR];
	struct dmc_kset_iter it;

	ks_add_members(test, k, m, KS_NR);
	dmct_iter_start(test, k, &it);
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&it), &m[0]->kobj);
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&it), &m[1]->kobj);
	dmc_kobject_del(&m[1]->kobj);
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&it), &m[2]->kobj);
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&it), &m[3]->kobj);
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&it), &m[4]->kobj);
	KUNIT_EXPECT_NULL(test, dmc_kset_iter_next(&it));
	dmct_iter_exit(test, &it);
	ks_del_put_members(m, KS_NR);
	dmct_kset_unregister(test, k);
}

/* The walk's reference is the last one: the member dies inside next(). */
static void kset_iter_survives_release_of_current(struct kunit *test)
{
	struct dmc_kset *k = dmct_kset_create(test, "ks-relcur", NULL, NULL);
	struct dmct_obj *m[KS_NR];
	struct dmct_rec *r1;
	struct dmc_kset_iter it;

	ks_add_members(test, k, m, 3);
	r1 = m[1]->rec;
	dmct_iter_start(test, k, &it);
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&it), &m[0]->kobj);
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&it), &m[1]->kobj);
	dmct_del_put(&m[1]->kobj);
	KUNIT_EXPECT_EQ(test, r1->released, 0U);
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&it), &m[2]->kobj);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, r1->released, 1U);
	KUNIT_EXPECT_NULL(test, dmc_kset_iter_next(&it));
	dmct_iter_exit(test, &it);
	dmct_del_put(&m[2]->kobj);
	dmct_del_put(&m[0]->kobj);
	dmct_kset_unregister(test, k);
}

static void kset_iter_skips_deleted_next_member(struct kunit *test)
{
	struct dmc_kset *k = dmct_kset_create(test, "ks-delnext", NULL, NULL);
	struct dmct_obj *m[KS_NR];
	struct dmc_kset_iter it;

	ks_add_members(test, k, m, KS_NR);
	dmct_iter_start(test, k, &it);
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&it), &m[0]->kobj);
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&it), &m[1]->kobj);
	dmc_kobject_del(&m[2]->kobj);
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&it), &m[3]->kobj);
	/* the current and the next one together */
	dmc_kobject_del(&m[3]->kobj);
	dmc_kobject_del(&m[4]->kobj);
	KUNIT_EXPECT_NULL(test, dmc_kset_iter_next(&it));
	dmct_iter_exit(test, &it);
	ks_del_put_members(m, KS_NR);
	dmct_kset_unregister(test, k);
}

static void kset_iter_handles_deletion_of_other_members(struct kunit *test)
{
	struct dmc_kset *k = dmct_kset_create(test, "ks-delother", NULL, NULL);
	struct dmct_obj *m[KS_NR];
	struct dmc_kset_iter it;

	ks_add_members(test, k, m, KS_NR);
	dmct_iter_start(test, k, &it);
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&it), &m[0]->kobj);
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&it), &m[1]->kobj);
	dmc_kobject_del(&m[0]->kobj);	/* behind the walk */
	dmc_kobject_del(&m[3]->kobj);	/* ahead of it */
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&it), &m[2]->kobj);
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&it), &m[4]->kobj);
	KUNIT_EXPECT_NULL(test, dmc_kset_iter_next(&it));
	dmct_iter_exit(test, &it);
	KUNIT_EXPECT_EQ(test, dmc_kset_count(k), 3U);
	ks_del_put_members(m, KS_NR);
	dmct_kset_unregister(test, k);
}

static void kset_iter_sees_members_added_at_end(struct kunit *test)
{
	struct dmc_kset *k = dmct_kset_create(test, "ks-grow", NULL, NULL);
	struct dmct_obj *m[KS_NR];
	struct dmc_kset_iter it;

	ks_add_members(test, k, m, 2);
	dmct_iter_start(test, k, &it);
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&it), &m[0]->kobj);
	m[2] = dmct_obj_add(test, NULL, k, "m2");
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&it), &m[1]->kobj);
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&it), &m[2]->kobj);
	/* joining while the walk stands at the end */
	m[3] = dmct_obj_add(test, NULL, k, "m3");
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&it), &m[3]->kobj);
	KUNIT_EXPECT_NULL(test, dmc_kset_iter_next(&it));
	dmct_iter_exit(test, &it);
	ks_del_put_members(m, 4);
	dmct_kset_unregister(test, k);
}

static void kset_iter_two_walks_are_independent(struct kunit *test)
{
	struct dmc_kset *k = dmct_kset_create(test, "ks-twowalks", NULL, NULL);
	struct dmct_obj *m[KS_NR];
	struct dmc_kset_iter a, b;

	ks_add_members(test, k, m, KS_NR);
	dmct_iter_start(test, k, &a);
	dmct_iter_start(test, k, &b);
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&a), &m[0]->kobj);
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&b), &m[0]->kobj);
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&b), &m[1]->kobj);
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&b), &m[2]->kobj);
	/* b stands on m2, a just before m1 */
	dmc_kobject_del(&m[1]->kobj);
	dmc_kobject_del(&m[2]->kobj);
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&a), &m[3]->kobj);
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&b), &m[3]->kobj);
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&a), &m[4]->kobj);
	KUNIT_EXPECT_NULL(test, dmc_kset_iter_next(&a));
	KUNIT_EXPECT_PTR_EQ(test, dmc_kset_iter_next(&b), &m[4]->kobj);
	KUNIT_EXPECT_NULL(test, dmc_kset_iter_next(&b));
	dmct_iter_exit(test, &b);
	dmct_iter_exit(test, &a);
	ks_del_put_members(m, KS_NR);
	dmct_kset_unregister(test, k);
}

static int kset_test_init(struct kunit *test)
{
	return dmct_init(test, "/ks-");
}

static struct kunit_case kset_test_cases[] = {
	KUNIT_CASE(kset_create_and_add_puts_kset_in_tree),
	KUNIT_CASE(kset_create_and_add_under_parent),
	KUNIT_CASE(kset_create_and_add_duplicate_returns_null),
	KUNIT_CASE(kset_register_embedded_release_runs_once),
	KUNIT_CASE(kset_register_failure_ends_with_put),
	KUNIT_CASE(kset_nested_kset_is_member_of_outer),
	KUNIT_CASE(kset_members_join_and_are_counted),
	KUNIT_CASE(kset_member_holds_kset_reference_until_del),
	KUNIT_CASE(kset_member_under_kset_holds_two_references),
	KUNIT_CASE(kset_del_leaves_kset),
	KUNIT_CASE(kset_unregister_keeps_kset_until_members_released),
	KUNIT_CASE(kset_member_elsewhere_keeps_unregistered_kset),
	KUNIT_CASE(kset_find_obj_returns_referenced_member),
	KUNIT_CASE(kset_find_obj_missing_returns_null),
	KUNIT_CASE(kset_find_obj_follows_rename),
	KUNIT_CASE(kset_find_obj_handles_members_sharing_a_name),
	KUNIT_CASE(kset_find_obj_among_5000_members),
	KUNIT_CASE(kset_iter_returns_members_in_join_order),
	KUNIT_CASE(kset_iter_on_empty_kset_returns_null),
	KUNIT_CASE(kset_iter_references_member_until_next_call),
	KUNIT_CASE(kset_iter_survives_deleting_current),
	KUNIT_CASE(kset_iter_survives_release_of_current),
	KUNIT_CASE(kset_iter_skips_deleted_next_member),
	KUNIT_CASE(kset_iter_handles_deletion_of_other_members),
	KUNIT_CASE(kset_iter_sees_members_added_at_end),
	KUNIT_CASE(kset_iter_two_walks_are_independent),
	{}
};

static struct kunit_suite kset_test_suite = {
	.name = "dmcore-kset",
	.init = kset_test_init,
	.exit = dmct_exit,
	.test_cases = kset_test_cases,
};

kunit_test_suites(&kset_test_suite);
