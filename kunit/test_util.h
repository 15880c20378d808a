/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared scaffolding of dmcore's KUnit suites.
 *
 * The suites use only the public API (include/dmcore/), as an outside
 * module would. Every object a test creates is recorded in the test's
 * context (test->priv), so that the suite's exit can release whatever a
 * failed assertion left behind: the core reports leaked kobjects when it
 * is unloaded, and a leak fails the run.
 *
 * Test objects count their releases: rec->released must end at exactly 1,
 * and rec->release_seq gives the order in which a test's objects died.
 */
#ifndef _DMCORE_KUNIT_TEST_UTIL_H
#define _DMCORE_KUNIT_TEST_UTIL_H

#include <kunit/test.h>
#include <linux/list.h>
#include <linux/printk.h>
#include <linux/spinlock.h>
#include <dmcore/kobject.h>
#include <dmcore/kset.h>
#include <dmcore/event.h>

#define DMCT_MAX_EVENTS		128
#define DMCT_MAX_TREE		64
#define DMCT_MAX_ITERS		4
#define DMCT_PATH_LEN		128
#define DMCT_SHORT_LEN		32

enum dmct_kind {
	DMCT_OBJ,		/* struct dmct_obj, released through dmct_obj_ktype */
	DMCT_KSET,		/* struct dmct_kset, embedded, our release */
	DMCT_CREATED_KSET,	/* from dmc_kset_create_and_add(), core-owned */
};

struct dmct_ctx;

/**
 * struct dmct_rec - what a test knows of one object it created
 * @node: in dmct_ctx.recs, creation order
 * @ctx: the owning test context
 * @kobj: the object's kobject; NULL once its release ran
 * @mem: memory to kfree() at exit (NULL when release freed it)
 * @kind: DMCT_*
 * @initialized: dmc_kobject_init() (or a registration) was called, so the
 *	object must end with a put
 * @free_on_release: the release kfree()s the object
 * @unregistered: for DMCT_CREATED_KSET: dmc_kset_unregister() was called
 * @released: how many times the release ran
 * @release_seq: 1-based rank of this release among the test's releases
 */
struct dmct_rec {
	struct list_head node;
	struct dmct_ctx *ctx;
	struct dmc_kobject *kobj;
	void *mem;
	enum dmct_kind kind;
	bool initialized;
	bool free_on_release;
	bool unregistered;
	unsigned int released;
	unsigned int release_seq;
};

/* A plain test object. */
struct dmct_obj {
	struct dmc_kobject kobj;
	struct dmct_rec *rec;
};

/* A kset embedded in a test structure, with our counting release. */
struct dmct_kset {
	struct dmc_kset kset;
	struct dmct_rec *rec;
};

enum dmct_tree_op {
	DMCT_TREE_ADDED,
	DMCT_TREE_REMOVED,
	DMCT_TREE_RENAMED,
	DMCT_TREE_MOVED,
};

/* One tree callback seen by the test listener (only for our objects). */
struct dmct_tree_rec {
	enum dmct_tree_op op;
	const struct dmc_kobject *kobj;
	const struct dmc_kobject *old_parent;
	char old_name[DMCT_SHORT_LEN];
};

/* One uevent callback seen by the test listener, copied. */
struct dmct_ev_rec {
	u64 seqnum;
	enum dmc_kobject_action action;
	char devpath[DMCT_PATH_LEN];
	char subsystem[DMCT_SHORT_LEN];
};

/**
 * struct dmct_ctx - per-test state, in test->priv
 * @test: the test
 * @lock: protects @recs against listener callbacks, and the records
 * @recs: every object the test created (struct dmct_rec)
 * @nr_released: releases so far (source of release_seq)
 * @misuse_start: dmc_misuse_count() when the test began
 * @misuse_expected: misuse WARNs the test announced so far
 * @prefix: only events whose DEVPATH starts with it are recorded
 * @listener: the test listener, see dmct_listen()
 * @listening: @listener is registered
 * @evs: uevent callbacks recorded
 * @nr_evs: entries used in @evs
 * @evs_lost: matching events that did not fit in @evs
 * @last_seq_seen: SEQNUM of the last uevent callback (any DEVPATH)
 * @seq_disorder: uevent callbacks whose SEQNUM was not above the previous
 * @tree: tree callbacks recorded for the test's own objects
 * @nr_tree: entries used in @tree
 * @iters: iterators started with dmct_iter_start() and not yet ended
 * @capacity_changed: the event log capacity must be restored at exit
 * @on_release: called from every test object's release, before recording
 * @cleanup: suite-specific cleanup, run first at exit
 * @priv: for the test's own use
 */
struct dmct_ctx {
	struct kunit *test;
	spinlock_t lock;		/* recs and the records, vs. callbacks */
	struct list_head recs;
	unsigned int nr_released;
	unsigned long misuse_start;
	unsigned long misuse_expected;
	const char *prefix;

	struct dmc_listener listener;
	bool listening;
	struct dmct_ev_rec evs[DMCT_MAX_EVENTS];
	unsigned int nr_evs;
	unsigned int evs_lost;
	u64 last_seq_seen;
	unsigned int seq_disorder;
	struct dmct_tree_rec tree[DMCT_MAX_TREE];
	unsigned int nr_tree;

	struct dmc_kset_iter *iters[DMCT_MAX_ITERS];
	bool capacity_changed;
	void (*on_release)(struct dmct_ctx *ctx, struct dmct_rec *rec);
	void (*cleanup)(struct dmct_ctx *ctx);
	void *priv;
};

extern const struct dmc_kobj_type dmct_obj_ktype;
extern const struct dmc_kobj_type dmct_kset_ktype;

static inline struct dmct_ctx *dmct_ctx(struct kunit *test)
{
	return test->priv;
}

/* The context of the running test, for hooks that get no argument. */
struct dmct_ctx *dmct_current(void);

int dmct_init(struct kunit *test, const char *prefix);
void dmct_exit(struct kunit *test);

/*
 * Misuse cases: the core WARNs at the caller, and the harness fails the
 * run on any WARNING in the log that is not between these two markers.
 */
#define DMCT_WARN_BEGIN()	pr_info("DMC-EXPECT-WARN-BEGIN\n")
#define DMCT_WARN_END()		pr_info("DMC-EXPECT-WARN-END\n")

void dmct_expect_misuse(struct kunit *test, unsigned long before,
			unsigned long n);

/* Run @stmt, which must raise exactly @n counted misuse WARNs. */
#define DMCT_EXPECT_MISUSE(test, n, stmt)				\
	do {								\
		unsigned long __dmct_before = dmc_misuse_count();	\
									\
		DMCT_WARN_BEGIN();					\
		stmt;							\
		DMCT_WARN_END();					\
		dmct_expect_misuse(test, __dmct_before, n);		\
	} while (0)

/* KUNIT_EXPECT_STREQ that survives a NULL @str (6.1 would oops). */
#define DMCT_EXPECT_STREQ(test, str, want)				\
	KUNIT_EXPECT_STREQ(test, (str) ?: "(null)", want)

/* Objects */
struct dmct_obj *dmct_obj_alloc(struct kunit *test, bool free_on_release);
int dmct_obj_init(struct dmct_obj *obj);
struct dmct_obj *dmct_obj_new(struct kunit *test);
__printf(4, 5)
struct dmct_obj *dmct_obj_add(struct kunit *test, struct dmc_kobject *parent,
			      struct dmc_kset *kset, const char *fmt, ...);
void dmct_del_put(struct dmc_kobject *kobj);

/* Ksets */
struct dmct_kset *dmct_kset_alloc(struct kunit *test, bool free_on_release);
struct dmct_kset *dmct_kset_new(struct kunit *test, const char *name,
				struct dmc_kobject *parent,
				const struct dmc_kset_uevent_ops *ops);
struct dmc_kset *dmct_kset_create(struct kunit *test, const char *name,
				  const struct dmc_kset_uevent_ops *ops,
				  struct dmc_kobject *parent);
void dmct_kset_unregister(struct kunit *test, struct dmc_kset *kset);
void dmct_iter_start(struct kunit *test, struct dmc_kset *kset,
		     struct dmc_kset_iter *iter);
void dmct_iter_exit(struct kunit *test, struct dmc_kset_iter *iter);

/* Paths */
void dmct_expect_path(struct kunit *test, const struct dmc_kobject *kobj,
		      const char *want);

/* Listener */
void dmct_listen(struct kunit *test);
void dmct_unlisten(struct kunit *test);
int dmct_tree_index(struct dmct_ctx *ctx, enum dmct_tree_op op,
		    const struct dmc_kobject *kobj);
int dmct_ev_index(struct dmct_ctx *ctx, enum dmc_kobject_action action,
		  const char *devpath);

/* Event log */
u64 dmct_last_seqnum(void);
struct dmc_uevent *dmct_log_find(u64 after, enum dmc_kobject_action action,
				 const char *devpath);
unsigned int dmct_log_count(u64 after, const char *devpath_prefix);
const char *dmct_ev_var_at(const struct dmc_uevent *ev, unsigned int i);
void dmct_set_capacity(struct kunit *test, unsigned int capacity);

#endif /* _DMCORE_KUNIT_TEST_UTIL_H */
