// SPDX-License-Identifier: GPL-2.0
/*
 * Shared scaffolding of dmcore's KUnit suites: counted test objects, a
 * recording listener, event log helpers and the exit-time cleanup that
 * keeps a failed case from leaking kobjects into the next one.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "test_util.h"

static struct dmct_ctx *dmct_cur;

struct dmct_ctx *dmct_current(void)
{
	return dmct_cur;
}

/* ---------------------------------------------------------------------- */
/* Releases */

static void dmct_record_release(struct dmct_rec *rec)
{
	struct dmct_ctx *ctx = rec->ctx;
	unsigned long flags;

	if (ctx->on_release)
		ctx->on_release(ctx, rec);

	spin_lock_irqsave(&ctx->lock, flags);
	rec->released++;
	rec->release_seq = ++ctx->nr_released;
	rec->kobj = NULL;
	if (rec->free_on_release)
		rec->mem = NULL;
	spin_unlock_irqrestore(&ctx->lock, flags);
}

static void dmct_obj_release(struct dmc_kobject *kobj)
{
	struct dmct_obj *obj = container_of(kobj, struct dmct_obj, kobj);
	struct dmct_rec *rec = obj->rec;
	bool free = rec->free_on_release;

	dmct_record_release(rec);
	if (free)
		kfree(obj);
}

static void dmct_kset_release(struct dmc_kobject *kobj)
{
	struct dmct_kset *ks = container_of(to_dmc_kset(kobj),
					    struct dmct_kset, kset);
	struct dmct_rec *rec = ks->rec;
	bool free = rec->free_on_release;

	dmct_record_release(rec);
	if (free)
		kfree(ks);
}

const struct dmc_kobj_type dmct_obj_ktype = {
	.name = "dmct_obj",
	.release = dmct_obj_release,
};

const struct dmc_kobj_type dmct_kset_ktype = {
	.name = "dmct_kset",
	.release = dmct_kset_release,
};

/* ---------------------------------------------------------------------- */
/* Records */

static struct dmct_rec *dmct_rec_new(struct kunit *test, enum dmct_kind kind,
				     void *mem, struct dmc_kobject *kobj,
				     bool free_on_release)
{
	struct dmct_ctx *ctx = dmct_ctx(test);
	struct dmct_rec *rec;
	unsigned long flags;

	rec = kunit_kzalloc(test, sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return NULL;
	rec->ctx = ctx;
	rec->kind = kind;
	rec->mem = mem;
	rec->kobj = kobj;
	rec->free_on_release = free_on_release;

	spin_lock_irqsave(&ctx->lock, flags);
	list_add_tail(&rec->node, &ctx->recs);
	spin_unlock_irqrestore(&ctx->lock, flags);
	return rec;
}

/* Caller holds ctx->lock. */
static struct dmct_rec *dmct_find_rec(struct dmct_ctx *ctx,
				      const struct dmc_kobject *kobj)
{
	struct dmct_rec *rec;

	list_for_each_entry(rec, &ctx->recs, node)
		if (rec->kobj == kobj)
			return rec;
	return NULL;
}

/**
 * dmct_obj_alloc() - a zeroed, uninitialized test object
 * @test: the test
 * @free_on_release: true: the release frees it (KASAN sees any use after
 *	release); false: the memory stays valid until the test's exit, so the
 *	test may look at a dead object
 */
struct dmct_obj *dmct_obj_alloc(struct kunit *test, bool free_on_release)
{
	struct dmct_obj *obj;

	obj = kzalloc(sizeof(*obj), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, obj);
	obj->rec = dmct_rec_new(test, DMCT_OBJ, obj, &obj->kobj,
				free_on_release);
	if (!obj->rec)
		kfree(obj);
	KUNIT_ASSERT_NOT_NULL(test, obj->rec);
	return obj;
}

/* dmc_kobject_init() with the counting type; marks the record on success. */
int dmct_obj_init(struct dmct_obj *obj)
{
	int err = dmc_kobject_init(&obj->kobj, &dmct_obj_ktype);

	if (!err)
		obj->rec->initialized = true;
	return err;
}

/* An initialized test object (one reference, freed by its release). */
struct dmct_obj *dmct_obj_new(struct kunit *test)
{
	struct dmct_obj *obj = dmct_obj_alloc(test, true);

	KUNIT_ASSERT_EQ(test, dmct_obj_init(obj), 0);
	return obj;
}

/**
 * dmct_obj_add() - an initialized test object, added to the tree
 * @test: the test
 * @parent: its parent or NULL
 * @kset: its kset or NULL
 * @fmt: its name
 *
 * The test owns the initial reference; the add must succeed.
 */
struct dmct_obj *dmct_obj_add(struct kunit *test, struct dmc_kobject *parent,
			      struct dmc_kset *kset, const char *fmt, ...)
{
	struct dmct_obj *obj = dmct_obj_new(test);
	va_list args;
	char *name;
	int err;

	va_start(args, fmt);
	name = kvasprintf(GFP_KERNEL, fmt, args);
	va_end(args);
	KUNIT_ASSERT_NOT_NULL(test, name);

	obj->kobj.kset = kset;
	err = dmc_kobject_add(&obj->kobj, parent, "%s", name);
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "add of %s", name);
	kfree(name);
	return obj;
}

void dmct_del_put(struct dmc_kobject *kobj)
{
	dmc_kobject_del(kobj);
	dmc_kobject_put(kobj);
}

/* A zeroed embedded kset with the counting release, not registered. */
struct dmct_kset *dmct_kset_alloc(struct kunit *test, bool free_on_release)
{
	struct dmct_kset *ks;

	ks = kzalloc(sizeof(*ks), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ks);
	ks->rec = dmct_rec_new(test, DMCT_KSET, ks, &ks->kset.kobj,
			       free_on_release);
	if (!ks->rec)
		kfree(ks);
	KUNIT_ASSERT_NOT_NULL(test, ks->rec);
	ks->kset.kobj.ktype = &dmct_kset_ktype;
	return ks;
}

/**
 * dmct_kset_new() - an embedded kset, registered
 * @test: the test
 * @name: its name
 * @parent: its parent kobject or NULL
 * @ops: its uevent_ops or NULL
 *
 * Ends with dmc_kset_unregister(), or at exit.
 */
struct dmct_kset *dmct_kset_new(struct kunit *test, const char *name,
				struct dmc_kobject *parent,
				const struct dmc_kset_uevent_ops *ops)
{
	struct dmct_kset *ks = dmct_kset_alloc(test, true);
	int err;

	KUNIT_ASSERT_EQ(test, dmc_kobject_set_name(&ks->kset.kobj, "%s", name), 0);
	ks->kset.kobj.parent = parent;
	ks->kset.uevent_ops = ops;
	err = dmc_kset_register(&ks->kset);
	/* registered or not, it now ends with a put */
	ks->rec->initialized = true;
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "register of kset %s", name);
	return ks;
}

/* A kset from dmc_kset_create_and_add(); ends with dmct_kset_unregister(). */
struct dmc_kset *dmct_kset_create(struct kunit *test, const char *name,
				  const struct dmc_kset_uevent_ops *ops,
				  struct dmc_kobject *parent)
{
	struct dmc_kset *kset = dmc_kset_create_and_add(name, ops, parent);
	struct dmct_rec *rec;

	KUNIT_ASSERT_NOT_NULL_MSG(test, kset, "create kset %s", name);
	rec = dmct_rec_new(test, DMCT_CREATED_KSET, NULL, &kset->kobj, false);
	if (!rec)
		dmc_kset_unregister(kset);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	rec->initialized = true;
	return kset;
}

void dmct_kset_unregister(struct kunit *test, struct dmc_kset *kset)
{
	struct dmct_ctx *ctx = dmct_ctx(test);
	struct dmct_rec *rec;
	unsigned long flags;

	spin_lock_irqsave(&ctx->lock, flags);
	rec = dmct_find_rec(ctx, &kset->kobj);
	if (rec && rec->kind == DMCT_CREATED_KSET) {
		rec->unregistered = true;
		rec->kobj = NULL;
	}
	spin_unlock_irqrestore(&ctx->lock, flags);
	dmc_kset_unregister(kset);
}

void dmct_iter_start(struct kunit *test, struct dmc_kset *kset,
		     struct dmc_kset_iter *iter)
{
	struct dmct_ctx *ctx = dmct_ctx(test);
	int i;

	for (i = 0; i < DMCT_MAX_ITERS; i++)
		if (!ctx->iters[i])
			break;
	KUNIT_ASSERT_LT(test, i, DMCT_MAX_ITERS);
	dmc_kset_iter_start(kset, iter);
	ctx->iters[i] = iter;
}

void dmct_iter_exit(struct kunit *test, struct dmc_kset_iter *iter)
{
	struct dmct_ctx *ctx = dmct_ctx(test);
	int i;

	for (i = 0; i < DMCT_MAX_ITERS; i++)
		if (ctx->iters[i] == iter)
			ctx->iters[i] = NULL;
	dmc_kset_iter_exit(iter);
}

void dmct_expect_path(struct kunit *test, const struct dmc_kobject *kobj,
		      const char *want)
{
	char *path = dmc_kobject_get_path(kobj, GFP_KERNEL);

	DMCT_EXPECT_STREQ(test, path, want);
	kfree(path);
}

void dmct_expect_misuse(struct kunit *test, unsigned long before,
			unsigned long n)
{
	dmct_ctx(test)->misuse_expected += n;
	KUNIT_EXPECT_EQ_MSG(test, dmc_misuse_count() - before, n,
			    "misuse WARNs counted");
}

/* ---------------------------------------------------------------------- */
/* Listener */

static struct dmct_ctx *listener_ctx(struct dmc_listener *l)
{
	return container_of(l, struct dmct_ctx, listener);
}

static void dmct_tree_record(struct dmct_ctx *ctx, enum dmct_tree_op op,
			     struct dmc_kobject *kobj,
			     const struct dmc_kobject *old_parent,
			     const char *old_name)
{
	struct dmct_tree_rec *t;
	unsigned long flags;

	spin_lock_irqsave(&ctx->lock, flags);
	if (dmct_find_rec(ctx, kobj) && ctx->nr_tree < DMCT_MAX_TREE) {
		t = &ctx->tree[ctx->nr_tree++];
		t->op = op;
		t->kobj = kobj;
		t->old_parent = old_parent;
		strscpy(t->old_name, old_name ?: "", sizeof(t->old_name));
	}
	spin_unlock_irqrestore(&ctx->lock, flags);
}

static void dmct_l_added(struct dmc_listener *l, struct dmc_kobject *kobj)
{
	dmct_tree_record(listener_ctx(l), DMCT_TREE_ADDED, kobj, NULL, NULL);
}

static void dmct_l_removed(struct dmc_listener *l, struct dmc_kobject *kobj)
{
	dmct_tree_record(listener_ctx(l), DMCT_TREE_REMOVED, kobj, NULL, NULL);
}

static void dmct_l_renamed(struct dmc_listener *l, struct dmc_kobject *kobj,
			   const char *old_name)
{
	dmct_tree_record(listener_ctx(l), DMCT_TREE_RENAMED, kobj, NULL,
			 old_name);
}

static void dmct_l_moved(struct dmc_listener *l, struct dmc_kobject *kobj,
			 struct dmc_kobject *old_parent)
{
	dmct_tree_record(listener_ctx(l), DMCT_TREE_MOVED, kobj, old_parent,
			 NULL);
}

static void dmct_l_uevent(struct dmc_listener *l, const struct dmc_uevent *ev)
{
	struct dmct_ctx *ctx = listener_ctx(l);
	const char *devpath = ev->devpath ?: "";
	struct dmct_ev_rec *r;
	unsigned long flags;

	spin_lock_irqsave(&ctx->lock, flags);
	if (ctx->last_seq_seen && ev->seqnum <= ctx->last_seq_seen)
		ctx->seq_disorder++;
	ctx->last_seq_seen = ev->seqnum;
	if (!ctx->prefix || str_has_prefix(devpath, ctx->prefix)) {
		if (ctx->nr_evs < DMCT_MAX_EVENTS) {
			r = &ctx->evs[ctx->nr_evs++];
			r->seqnum = ev->seqnum;
			r->action = ev->action;
			strscpy(r->devpath, devpath, sizeof(r->devpath));
			strscpy(r->subsystem, ev->subsystem ?: "",
				sizeof(r->subsystem));
		} else {
			ctx->evs_lost++;
		}
	}
	spin_unlock_irqrestore(&ctx->lock, flags);
}

/* Register the recording listener; unregistered at exit at the latest. */
void dmct_listen(struct kunit *test)
{
	struct dmct_ctx *ctx = dmct_ctx(test);

	ctx->listener.kobj_added = dmct_l_added;
	ctx->listener.kobj_removed = dmct_l_removed;
	ctx->listener.kobj_renamed = dmct_l_renamed;
	ctx->listener.kobj_moved = dmct_l_moved;
	ctx->listener.uevent = dmct_l_uevent;
	KUNIT_ASSERT_EQ(test, dmc_listener_register(&ctx->listener), 0);
	ctx->listening = true;
}

void dmct_unlisten(struct kunit *test)
{
	struct dmct_ctx *ctx = dmct_ctx(test);

	if (ctx->listening) {
		dmc_listener_unregister(&ctx->listener);
		ctx->listening = false;
	}
}

/* Index of the first recorded @op on @kobj, or -1. */
int dmct_tree_index(struct dmct_ctx *ctx, enum dmct_tree_op op,
		    const struct dmc_kobject *kobj)
{
	unsigned int i;

	for (i = 0; i < ctx->nr_tree; i++)
		if (ctx->tree[i].op == op && ctx->tree[i].kobj == kobj)
			return i;
	return -1;
}

/* Index of the first recorded uevent @action on @devpath, or -1. */
int dmct_ev_index(struct dmct_ctx *ctx, enum dmc_kobject_action action,
		  const char *devpath)
{
	unsigned int i;

	for (i = 0; i < ctx->nr_evs; i++)
		if (ctx->evs[i].action == action &&
		    !strcmp(ctx->evs[i].devpath, devpath))
			return i;
	return -1;
}

/* ---------------------------------------------------------------------- */
/* Event log */

u64 dmct_last_seqnum(void)
{
	struct dmc_event_stats st;

	dmc_event_log_stats(&st);
	return st.last_seqnum;
}

/*
 * The first logged event after SEQNUM @after with @action and @devpath,
 * referenced (dmc_uevent_put() it), or NULL.
 */
struct dmc_uevent *dmct_log_find(u64 after, enum dmc_kobject_action action,
				 const char *devpath)
{
	struct dmc_uevent *ev;
	u64 pos = after + 1, missed;

	while ((ev = dmc_event_log_next(&pos, &missed))) {
		if (ev->action == action && ev->devpath &&
		    !strcmp(ev->devpath, devpath))
			return ev;
		if (pos <= ev->seqnum) {	/* no progress: give up */
			dmc_uevent_put(ev);
			break;
		}
		dmc_uevent_put(ev);
	}
	return NULL;
}

/* How many logged events after @after have a DEVPATH starting with @prefix. */
unsigned int dmct_log_count(u64 after, const char *prefix)
{
	struct dmc_uevent *ev;
	u64 pos = after + 1, missed;
	unsigned int n = 0;

	while ((ev = dmc_event_log_next(&pos, &missed))) {
		bool stuck = pos <= ev->seqnum;

		if (ev->devpath && str_has_prefix(ev->devpath, prefix))
			n++;
		dmc_uevent_put(ev);
		if (stuck)
			break;
	}
	return n;
}

/* The @i-th "KEY=VALUE" string of @ev, or NULL past the end. */
const char *dmct_ev_var_at(const struct dmc_uevent *ev, unsigned int i)
{
	const char *p = ev->buf, *end = ev->buf + ev->len;

	if (i >= ev->nvars)
		return NULL;
	while (i--) {
		p += strnlen(p, end - p) + 1;
		if (p >= end)
			return NULL;
	}
	return p;
}

/* Change the log capacity; the default comes back at exit. */
void dmct_set_capacity(struct kunit *test, unsigned int capacity)
{
	dmct_ctx(test)->capacity_changed = true;
	KUNIT_ASSERT_EQ(test, dmc_event_log_set_capacity(capacity), 0);
}

/* ---------------------------------------------------------------------- */
/* Setup and teardown */

int dmct_init(struct kunit *test, const char *prefix)
{
	struct dmct_ctx *ctx;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ctx->test = test;
	spin_lock_init(&ctx->lock);
	INIT_LIST_HEAD(&ctx->recs);
	ctx->prefix = prefix;
	ctx->misuse_start = dmc_misuse_count();
	test->priv = ctx;
	dmct_cur = ctx;
	return 0;
}

static bool dmct_rec_live(const struct dmct_rec *rec)
{
	if (rec->kind == DMCT_CREATED_KSET)
		return !rec->unregistered;
	return rec->initialized && !rec->released && rec->kobj;
}

/* Does @rec's object hold a reference on @target (as child or member)? */
static bool dmct_rec_pins(const struct dmct_rec *rec,
			  const struct dmc_kobject *target)
{
	const struct dmc_kobject *kobj = rec->kobj;

	return kobj->parent == target ||
	       (kobj->kset && &kobj->kset->kobj == target);
}

/* Drop every reference left on a leaf object, or unregister a kset. */
static void dmct_force_release(struct dmct_rec *rec)
{
	unsigned int n = 0;

	if (rec->kind == DMCT_CREATED_KSET) {
		struct dmc_kset *kset = to_dmc_kset(rec->kobj);

		rec->unregistered = true;
		rec->kobj = NULL;
		dmc_kset_unregister(kset);
		return;
	}
	while (!rec->released) {
		/* a last put may have left the release pending: run it */
		dmc_kobject_flush_releases();
		if (rec->released)
			break;
		if (!dmc_kobject_refcount(rec->kobj) || ++n > 100000) {
			/* the core lost it: leak rather than free under it */
			rec->kobj = NULL;
			rec->mem = NULL;
			return;
		}
		dmc_kobject_put(rec->kobj);
	}
}

/*
 * Release what the test left behind, leaves first, so that a child's
 * reference on its parent (or a member's on its kset) is never dropped by
 * force: only the test's own extra references are.
 */
static void dmct_cleanup_objects(struct dmct_ctx *ctx)
{
	struct dmct_rec *rec, *other, *victim;

	for (;;) {
		victim = NULL;
		list_for_each_entry_reverse(rec, &ctx->recs, node) {
			bool pinned = false;

			if (!dmct_rec_live(rec))
				continue;
			list_for_each_entry(other, &ctx->recs, node) {
				if (other != rec && dmct_rec_live(other) &&
				    dmct_rec_pins(other, rec->kobj)) {
					pinned = true;
					break;
				}
			}
			if (!pinned) {
				victim = rec;
				break;
			}
		}
		if (!victim)
			break;
		dmct_force_release(victim);
	}
}

void dmct_exit(struct kunit *test)
{
	struct dmct_ctx *ctx = dmct_ctx(test);
	struct dmct_rec *rec;
	unsigned int i;

	if (!ctx)
		return;

	KUNIT_EXPECT_EQ_MSG(test, dmc_misuse_count() - ctx->misuse_start,
			    ctx->misuse_expected, "unexpected misuse WARNs");

	dmct_unlisten(test);
	for (i = 0; i < DMCT_MAX_ITERS; i++)
		if (ctx->iters[i])
			dmct_iter_exit(test, ctx->iters[i]);
	if (ctx->cleanup)
		ctx->cleanup(ctx);

	dmct_cleanup_objects(ctx);
	/* with release_delay_ms, the last puts' releases may still wait */
	dmc_kobject_flush_releases();

	list_for_each_entry(rec, &ctx->recs, node) {
		if (rec->kind != DMCT_CREATED_KSET && rec->initialized &&
		    rec->released != 1)
			KUNIT_FAIL(test, "a test object was released %u times",
				   rec->released);
		if (rec->mem && (!rec->initialized || rec->released))
			kfree(rec->mem);
		rec->mem = NULL;
	}

	if (ctx->capacity_changed)
		KUNIT_EXPECT_EQ(test,
				dmc_event_log_set_capacity(DMC_EVENT_LOG_DEFAULT),
				0);
	ctx->on_release = NULL;
	dmct_cur = NULL;
}

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit suites of dmcore: kobjects, ksets and events");
