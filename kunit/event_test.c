// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore-event: events, the event log and listeners, one rule per case.
 *
 * The variables of an event and their order, where SUBSYSTEM comes from,
 * the kset's filter and hooks, the bounds on variables, SEQNUM order in
 * the log and at listeners, the log's overflow accounting and the tree
 * callbacks. Top-level names start with "ev-".
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "test_util.h"

/* kset hooks */

static int ev_filter_drop(const struct dmc_kobject *kobj)
{
	return 0;
}

static const struct dmc_kset_uevent_ops ev_drop_ops = {
	.filter = ev_filter_drop,
};

static const char *ev_subsys_name(const struct dmc_kobject *kobj)
{
	return "ev-named";
}

static const struct dmc_kset_uevent_ops ev_name_ops = {
	.name = ev_subsys_name,
};

static int ev_add_kset_var(const struct dmc_kobject *kobj,
			   struct dmc_uevent_env *env)
{
	return dmc_add_uevent_var(env, "KSET_VAR=%s", dmc_kobject_name(kobj));
}

static const struct dmc_kset_uevent_ops ev_var_ops = {
	.uevent = ev_add_kset_var,
};

static int ev_hook_fails(const struct dmc_kobject *kobj,
			 struct dmc_uevent_env *env)
{
	return -EIO;
}

static const struct dmc_kset_uevent_ops ev_fail_ops = {
	.uevent = ev_hook_fails,
};

/* What the filling hooks did, in the test context's priv. */
struct ev_fill {
	int added;
	int err;
	const char *big;
};

/* Add variables until the core refuses one; the event still goes out. */
static int ev_fill_vars(const struct dmc_kobject *kobj,
			struct dmc_uevent_env *env)
{
	struct ev_fill *f = dmct_current()->priv;
	int err;

	while (f->added < 2 * DMC_UEVENT_NUM_ENVP) {
		err = dmc_add_uevent_var(env, "V%d=1", f->added);
		if (err) {
			f->err = err;
			break;
		}
		f->added++;
	}
	return 0;
}

static const struct dmc_kset_uevent_ops ev_fill_vars_ops = {
	.uevent = ev_fill_vars,
};

/* Add one oversized variable and pass the verdict on. */
static int ev_fill_bytes(const struct dmc_kobject *kobj,
			 struct dmc_uevent_env *env)
{
	struct ev_fill *f = dmct_current()->priv;

	f->err = dmc_add_uevent_var(env, "HUGE=%s", f->big);
	return f->err;
}

static const struct dmc_kset_uevent_ops ev_fill_bytes_ops = {
	.uevent = ev_fill_bytes,
};

static void ev_expect_nothing_sent(struct kunit *test,
				   const struct dmc_event_stats *before)
{
	struct dmc_event_stats now;

	dmc_event_log_stats(&now);
	KUNIT_EXPECT_EQ(test, now.last_seqnum, before->last_seqnum);
	KUNIT_EXPECT_EQ(test, now.sent, before->sent);
}

/* A kset and one member "a", the usual subject of an event. */
static struct dmct_obj *ev_member(struct kunit *test, const char *kset_name,
				  const struct dmc_kset_uevent_ops *ops)
{
	struct dmc_kset *k = dmct_kset_create(test, kset_name, ops, NULL);

	return dmct_obj_add(test, NULL, k, "a");
}

/* variables */

static void event_fixed_vars_come_first_in_order(struct kunit *test)
{
	struct dmct_obj *a = ev_member(test, "ev-fix", NULL);
	u64 seq0 = dmct_last_seqnum();
	struct dmc_uevent *ev;
	char seq[32];

	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(&a->kobj, DMC_KOBJ_CHANGE), 0);
	ev = dmct_log_find(seq0, DMC_KOBJ_CHANGE, "/ev-fix/a");
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_EQ(test, ev->seqnum, seq0 + 1);
	KUNIT_EXPECT_EQ(test, ev->nvars, 4U);
	snprintf(seq, sizeof(seq), "SEQNUM=%llu", ev->seqnum);
	DMCT_EXPECT_STREQ(test, dmct_ev_var_at(ev, 0), "ACTION=change");
	DMCT_EXPECT_STREQ(test, dmct_ev_var_at(ev, 1), "DEVPATH=/ev-fix/a");
	DMCT_EXPECT_STREQ(test, dmct_ev_var_at(ev, 2), "SUBSYSTEM=ev-fix");
	DMCT_EXPECT_STREQ(test, dmct_ev_var_at(ev, 3), seq);
	DMCT_EXPECT_STREQ(test, ev->devpath, "/ev-fix/a");
	DMCT_EXPECT_STREQ(test, ev->subsystem, "ev-fix");
	dmc_uevent_put(ev);
}

static void event_caller_vars_then_kset_vars(struct kunit *test)
{
	static const char * const envp[] = { "FOO=1", "BAR=two", NULL };
	struct dmct_obj *a = ev_member(test, "ev-order", &ev_var_ops);
	u64 seq0 = dmct_last_seqnum();
	struct dmc_uevent *ev;

	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent_env(&a->kobj, DMC_KOBJ_ADD,
						     envp), 0);
	ev = dmct_log_find(seq0, DMC_KOBJ_ADD, "/ev-order/a");
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_EQ(test, ev->nvars, 7U);
	DMCT_EXPECT_STREQ(test, dmct_ev_var_at(ev, 0), "ACTION=add");
	DMCT_EXPECT_STREQ(test, dmct_ev_var_at(ev, 4), "FOO=1");
	DMCT_EXPECT_STREQ(test, dmct_ev_var_at(ev, 5), "BAR=two");
	DMCT_EXPECT_STREQ(test, dmct_ev_var_at(ev, 6), "KSET_VAR=a");
	dmc_uevent_put(ev);
}

static void event_uevent_var_looks_up_whole_keys(struct kunit *test)
{
	static const char * const envp[] = { "FOO=bar=baz", "DEVX=1", NULL };
	struct dmct_obj *a = ev_member(test, "ev-var", NULL);
	u64 seq0 = dmct_last_seqnum();
	struct dmc_uevent *ev;
	char seq[32];

	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent_env(&a->kobj, DMC_KOBJ_ADD,
						     envp), 0);
	ev = dmct_log_find(seq0, DMC_KOBJ_ADD, "/ev-var/a");
	KUNIT_ASSERT_NOT_NULL(test, ev);
	snprintf(seq, sizeof(seq), "%llu", ev->seqnum);
	DMCT_EXPECT_STREQ(test, dmc_uevent_var(ev, "ACTION"), "add");
	DMCT_EXPECT_STREQ(test, dmc_uevent_var(ev, "DEVPATH"), "/ev-var/a");
	DMCT_EXPECT_STREQ(test, dmc_uevent_var(ev, "SUBSYSTEM"), "ev-var");
	DMCT_EXPECT_STREQ(test, dmc_uevent_var(ev, "SEQNUM"), seq);
	DMCT_EXPECT_STREQ(test, dmc_uevent_var(ev, "FOO"), "bar=baz");
	DMCT_EXPECT_STREQ(test, dmc_uevent_var(ev, "DEVX"), "1");
	KUNIT_EXPECT_NULL(test, dmc_uevent_var(ev, "DEV"));
	KUNIT_EXPECT_NULL(test, dmc_uevent_var(ev, "MISSING"));
	dmc_uevent_put(ev);
}

/* subsystem */

static void event_subsystem_from_kset_name_hook(struct kunit *test)
{
	struct dmct_obj *a = ev_member(test, "ev-nm", &ev_name_ops);
	u64 seq0 = dmct_last_seqnum();
	struct dmc_uevent *ev;

	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(&a->kobj, DMC_KOBJ_ADD), 0);
	ev = dmct_log_find(seq0, DMC_KOBJ_ADD, "/ev-nm/a");
	KUNIT_ASSERT_NOT_NULL(test, ev);
	DMCT_EXPECT_STREQ(test, dmc_uevent_var(ev, "SUBSYSTEM"), "ev-named");
	DMCT_EXPECT_STREQ(test, ev->subsystem, "ev-named");
	dmc_uevent_put(ev);
}

static void event_subsystem_found_walking_up_parents(struct kunit *test)
{
	struct dmct_obj *p = ev_member(test, "ev-up", NULL);
	struct dmct_obj *c = dmct_obj_add(test, &p->kobj, NULL, "c");
	struct dmct_obj *g = dmct_obj_add(test, &c->kobj, NULL, "g");
	u64 seq0 = dmct_last_seqnum();
	struct dmc_uevent *ev;

	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(&g->kobj, DMC_KOBJ_ADD), 0);
	ev = dmct_log_find(seq0, DMC_KOBJ_ADD, "/ev-up/a/c/g");
	KUNIT_ASSERT_NOT_NULL(test, ev);
	DMCT_EXPECT_STREQ(test, dmc_uevent_var(ev, "SUBSYSTEM"), "ev-up");
	dmc_uevent_put(ev);
}

/* The object's own kset is found before its parent's (whose filter drops). */
static void event_own_kset_wins_over_parent_kset(struct kunit *test)
{
	struct dmct_obj *p = ev_member(test, "ev-outer", &ev_drop_ops);
	struct dmc_kset *k2 = dmct_kset_create(test, "ev-inner", NULL, NULL);
	struct dmct_obj *c = dmct_obj_add(test, &p->kobj, k2, "c");
	u64 seq0 = dmct_last_seqnum();
	struct dmc_uevent *ev;

	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(&c->kobj, DMC_KOBJ_ADD), 0);
	ev = dmct_log_find(seq0, DMC_KOBJ_ADD, "/ev-outer/a/c");
	KUNIT_ASSERT_NOT_NULL(test, ev);
	DMCT_EXPECT_STREQ(test, dmc_uevent_var(ev, "SUBSYSTEM"), "ev-inner");
	dmc_uevent_put(ev);
}

static void event_without_kset_fails_einval(struct kunit *test)
{
	struct dmct_obj *a = dmct_obj_add(test, NULL, NULL, "ev-orphan");
	struct dmct_obj *c = dmct_obj_add(test, &a->kobj, NULL, "c");
	struct dmc_event_stats st;

	dmc_event_log_stats(&st);
	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(&a->kobj, DMC_KOBJ_ADD),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(&c->kobj, DMC_KOBJ_ADD),
			-EINVAL);
	ev_expect_nothing_sent(test, &st);
}

/* kset hooks */

static void event_filter_drop_returns_zero_sends_nothing(struct kunit *test)
{
	struct dmct_obj *a = ev_member(test, "ev-drop", &ev_drop_ops);
	struct dmc_event_stats st;

	dmct_listen(test);
	dmc_event_log_stats(&st);
	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(&a->kobj, DMC_KOBJ_ADD), 0);
	ev_expect_nothing_sent(test, &st);
	KUNIT_EXPECT_EQ(test, dmct_ctx(test)->nr_evs, 0U);
}

static void event_hook_error_cancels_event(struct kunit *test)
{
	struct dmct_obj *a = ev_member(test, "ev-hookerr", &ev_fail_ops);
	struct dmc_event_stats st;

	dmc_event_log_stats(&st);
	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(&a->kobj, DMC_KOBJ_CHANGE),
			-EIO);
	ev_expect_nothing_sent(test, &st);
}

static void event_add_uevent_var_stops_at_64_vars(struct kunit *test)
{
	struct dmct_obj *a = ev_member(test, "ev-fillv", &ev_fill_vars_ops);
	u64 seq0 = dmct_last_seqnum();
	struct dmc_uevent *ev;
	struct ev_fill fill = { };

	dmct_ctx(test)->priv = &fill;
	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(&a->kobj, DMC_KOBJ_CHANGE), 0);
	KUNIT_EXPECT_EQ(test, fill.err, -E2BIG);
	KUNIT_EXPECT_EQ(test, fill.added, DMC_UEVENT_NUM_ENVP - 4);
	ev = dmct_log_find(seq0, DMC_KOBJ_CHANGE, "/ev-fillv/a");
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_EQ(test, ev->nvars, DMC_UEVENT_NUM_ENVP);
	KUNIT_EXPECT_TRUE(test, str_has_prefix(dmct_ev_var_at(ev, 3) ?: "",
					       "SEQNUM="));
	DMCT_EXPECT_STREQ(test, dmct_ev_var_at(ev, DMC_UEVENT_NUM_ENVP - 1),
			  "V59=1");
	dmc_uevent_put(ev);
}

static void event_add_uevent_var_refuses_oversized_string(struct kunit *test)
{
	struct dmct_obj *a = ev_member(test, "ev-fillb", &ev_fill_bytes_ops);
	struct ev_fill fill = { };
	struct dmc_event_stats st;
	char *big;

	big = kunit_kzalloc(test, DMC_UEVENT_BUFFER_SIZE + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, big);
	memset(big, 'x', DMC_UEVENT_BUFFER_SIZE);
	fill.big = big;
	dmct_ctx(test)->priv = &fill;

	dmc_event_log_stats(&st);
	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(&a->kobj, DMC_KOBJ_CHANGE),
			-E2BIG);
	KUNIT_EXPECT_EQ(test, fill.err, -E2BIG);
	ev_expect_nothing_sent(test, &st);
}

/* caller variables */

static void event_env_entry_without_equals_fails_einval(struct kunit *test)
{
	static const char * const envp[] = { "OK=1", "NOEQUALS", NULL };
	struct dmct_obj *a = ev_member(test, "ev-noeq", NULL);
	struct dmc_event_stats st;

	dmc_event_log_stats(&st);
	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent_env(&a->kobj, DMC_KOBJ_CHANGE,
						     envp), -EINVAL);
	ev_expect_nothing_sent(test, &st);
}

static void event_env_entry_with_empty_key_fails_einval(struct kunit *test)
{
	static const char * const envp[] = { "=value", NULL };
	struct dmct_obj *a = ev_member(test, "ev-nokey", NULL);
	struct dmc_event_stats st;

	dmc_event_log_stats(&st);
	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent_env(&a->kobj, DMC_KOBJ_CHANGE,
						     envp), -EINVAL);
	ev_expect_nothing_sent(test, &st);
}

/* 4 fixed + 60 is the most; 61 is -E2BIG and sends nothing. */
static void event_more_than_64_vars_fails_e2big(struct kunit *test)
{
	const int nr = DMC_UEVENT_NUM_ENVP - 4 + 1;
	struct dmct_obj *a = ev_member(test, "ev-many", NULL);
	struct dmc_event_stats st;
	struct dmc_uevent *ev;
	const char **envp;
	char *strs;
	u64 seq0;
	int i;

	envp = kunit_kcalloc(test, nr + 1, sizeof(*envp), GFP_KERNEL);
	strs = kunit_kcalloc(test, nr, 8, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, envp);
	KUNIT_ASSERT_NOT_NULL(test, strs);
	for (i = 0; i < nr; i++) {
		snprintf(strs + 8 * i, 8, "V%d=1", i);
		envp[i] = strs + 8 * i;
	}

	dmc_event_log_stats(&st);
	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent_env(&a->kobj, DMC_KOBJ_CHANGE,
						     envp), -E2BIG);
	ev_expect_nothing_sent(test, &st);

	envp[nr - 1] = NULL;
	seq0 = dmct_last_seqnum();
	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent_env(&a->kobj, DMC_KOBJ_CHANGE,
						     envp), 0);
	ev = dmct_log_find(seq0, DMC_KOBJ_CHANGE, "/ev-many/a");
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_EQ(test, ev->nvars, DMC_UEVENT_NUM_ENVP);
	dmc_uevent_put(ev);
}

/*
 * The strings, NULs included, may fill DMC_UEVENT_BUFFER_SIZE exactly; one
 * byte more is -E2BIG. The fixed four count, SEQNUM included.
 */
static void event_vars_over_buffer_size_fail_e2big(struct kunit *test)
{
	const char *envp[2] = { };
	struct dmct_obj *a = ev_member(test, "ev-bytes", NULL);
	struct dmc_event_stats st;
	size_t fixed, fill;
	char seq[32];
	char *big;

	big = kunit_kzalloc(test, DMC_UEVENT_BUFFER_SIZE + 2, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, big);
	envp[0] = big;

	dmc_event_log_stats(&st);
	snprintf(seq, sizeof(seq), "SEQNUM=%llu", st.last_seqnum + 1);
	fixed = sizeof("ACTION=change") + sizeof("DEVPATH=/ev-bytes/a") +
		sizeof("SUBSYSTEM=ev-bytes") + strlen(seq) + 1;
	fill = DMC_UEVENT_BUFFER_SIZE - fixed;	/* "B=xxx...\0" */

	memset(big, 'x', fill);			/* one byte over */
	memcpy(big, "B=", 2);
	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent_env(&a->kobj, DMC_KOBJ_CHANGE,
						     envp), -E2BIG);
	ev_expect_nothing_sent(test, &st);

	big[fill - 1] = '\0';			/* exactly full */
	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent_env(&a->kobj, DMC_KOBJ_CHANGE,
						     envp), 0);
	KUNIT_EXPECT_EQ(test, dmct_last_seqnum(), st.last_seqnum + 1);
}

/* suppression, add and remove */

static void event_suppressed_object_sends_nothing(struct kunit *test)
{
	struct dmct_obj *a = ev_member(test, "ev-quiet", NULL);
	struct dmct_obj *b = dmct_obj_add(test, NULL, a->kobj.kset, "b");
	struct dmc_event_stats st;
	u64 seq0;

	dmc_kobject_set_uevent_suppress(&a->kobj, true);
	dmc_event_log_stats(&st);
	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(&a->kobj, DMC_KOBJ_ADD), 0);
	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(&a->kobj, DMC_KOBJ_CHANGE), 0);
	ev_expect_nothing_sent(test, &st);

	/* a sibling is not affected */
	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(&b->kobj, DMC_KOBJ_ADD), 0);
	KUNIT_EXPECT_EQ(test, dmct_last_seqnum(), st.last_seqnum + 1);

	seq0 = dmct_last_seqnum();
	dmc_kobject_del(&a->kobj);
	KUNIT_EXPECT_EQ(test, dmct_last_seqnum(), seq0);
}

static void event_del_sends_remove_once_after_add(struct kunit *test)
{
	struct dmct_obj *a = ev_member(test, "ev-rm", NULL);
	struct dmc_uevent *ev;
	u64 seq0;

	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(&a->kobj, DMC_KOBJ_ADD), 0);
	seq0 = dmct_last_seqnum();
	dmc_kobject_del(&a->kobj);
	ev = dmct_log_find(seq0, DMC_KOBJ_REMOVE, "/ev-rm/a");
	KUNIT_EXPECT_NOT_NULL(test, ev);
	if (ev)
		DMCT_EXPECT_STREQ(test, dmc_uevent_var(ev, "ACTION"), "remove");
	dmc_uevent_put(ev);
	/* the last put of a deleted object sends nothing more */
	dmc_kobject_put(&a->kobj);
	KUNIT_EXPECT_EQ(test, dmct_log_count(seq0, "/ev-rm/a"), 1U);
}

static void event_del_without_add_sends_nothing(struct kunit *test)
{
	struct dmct_obj *a = ev_member(test, "ev-norm", NULL);
	struct dmct_obj *b = dmct_obj_add(test, NULL, a->kobj.kset, "b");
	u64 seq0;

	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(&a->kobj, DMC_KOBJ_CHANGE), 0);
	seq0 = dmct_last_seqnum();
	dmc_kobject_del(&a->kobj);
	dmct_del_put(&b->kobj);		/* nor does a last put */
	dmc_kobject_put(&a->kobj);
	KUNIT_EXPECT_EQ(test, dmct_last_seqnum(), seq0);
}

static void event_action_names(struct kunit *test)
{
	static const char * const names[DMC_KOBJ_NR_ACTIONS] = {
		[DMC_KOBJ_ADD] = "add",
		[DMC_KOBJ_REMOVE] = "remove",
		[DMC_KOBJ_CHANGE] = "change",
		[DMC_KOBJ_MOVE] = "move",
		[DMC_KOBJ_ONLINE] = "online",
		[DMC_KOBJ_OFFLINE] = "offline",
		[DMC_KOBJ_BIND] = "bind",
		[DMC_KOBJ_UNBIND] = "unbind",
	};
	int i;

	for (i = 0; i < DMC_KOBJ_NR_ACTIONS; i++)
		DMCT_EXPECT_STREQ(test, dmc_kobject_action_name(i), names[i]);
}

/* SEQNUM and the log */

static void event_seqnums_are_contiguous_in_log(struct kunit *test)
{
	struct dmct_obj *a = ev_member(test, "ev-seq", NULL);
	struct dmct_obj *b = dmct_obj_add(test, NULL, a->kobj.kset, "b");
	struct dmc_event_stats st0, st1;
	struct dmc_uevent *ev;
	u64 pos, missed = 0, expect;
	int i;

	dmc_event_log_stats(&st0);
	for (i = 0; i < 10; i++)
		KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(i & 1 ? &b->kobj : &a->kobj,
							 DMC_KOBJ_CHANGE), 0);
	dmc_event_log_stats(&st1);
	KUNIT_EXPECT_EQ(test, st1.last_seqnum, st0.last_seqnum + 10);
	KUNIT_EXPECT_EQ(test, st1.sent, st0.sent + 10);

	pos = st0.last_seqnum + 1;
	for (expect = pos; (ev = dmc_event_log_next(&pos, &missed)); expect++) {
		KUNIT_EXPECT_EQ(test, ev->seqnum, expect);
		KUNIT_EXPECT_EQ(test, missed, 0ULL);
		dmc_uevent_put(ev);
		if (expect > st1.last_seqnum)
			break;
	}
	KUNIT_EXPECT_EQ(test, expect, st1.last_seqnum + 1);
}

static void event_log_next_returns_own_copies(struct kunit *test)
{
	struct dmct_obj *a = ev_member(test, "ev-next", NULL);
	struct dmc_uevent *ev, *again;
	u64 seq0, pos, missed = 1;
	int i;

	seq0 = dmct_last_seqnum();
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(&a->kobj,
							 DMC_KOBJ_CHANGE), 0);
	pos = seq0 + 1;
	for (i = 0; i < 3; i++) {
		ev = dmc_event_log_next(&pos, &missed);
		KUNIT_ASSERT_NOT_NULL(test, ev);
		KUNIT_EXPECT_EQ(test, ev->seqnum, seq0 + 1 + i);
		KUNIT_EXPECT_EQ(test, pos, ev->seqnum + 1);
		KUNIT_EXPECT_EQ(test, missed, 0ULL);
		/* The log keeps a binary record: the text is the reader's own. */
		KUNIT_EXPECT_EQ(test, kref_read(&ev->kref), 1U);
		dmc_uevent_put(ev);
	}
	KUNIT_EXPECT_NULL(test, dmc_event_log_next(&pos, &missed));
	KUNIT_EXPECT_EQ(test, pos, seq0 + 4);

	/* Two reads of one event: two copies, the same text. */
	pos = seq0 + 2;
	ev = dmc_event_log_next(&pos, &missed);
	pos = seq0 + 2;
	again = dmc_event_log_next(&pos, &missed);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_ASSERT_NOT_NULL(test, again);
	KUNIT_EXPECT_PTR_NE(test, ev, again);
	KUNIT_EXPECT_EQ(test, ev->len, again->len);
	KUNIT_EXPECT_EQ(test, memcmp(ev->buf, again->buf, ev->len), 0);
	DMCT_EXPECT_STREQ(test, dmc_uevent_var(again, "ACTION"), "change");
	DMCT_EXPECT_STREQ(test, again->devpath, "/ev-next/a");
	dmc_uevent_put(ev);
	dmc_uevent_put(again);
}

/*
 * The log holds capacity * 128 bytes of records (16 KiB at least): big
 * events run out of bytes before the count, and the oldest go, counted.
 */
static void event_log_drops_oldest_when_bytes_run_out(struct kunit *test)
{
	struct ev_fill *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	struct dmct_obj *a = ev_member(test, "ev-bytes", &ev_fill_bytes_ops);
	struct dmc_event_stats st1, st2;
	struct dmc_uevent *ev;
	u64 first, pos, missed;
	char *big;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, f);
	big = kunit_kzalloc(test, 1501, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, big);
	memset(big, 'x', 1500);
	f->big = big;
	dmct_current()->priv = f;
	dmct_set_capacity(test, 100);
	dmc_event_log_stats(&st1);
	first = st1.last_seqnum + 1;
	for (i = 0; i < 30; i++)
		KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(&a->kobj, DMC_KOBJ_CHANGE), 0);
	dmc_event_log_stats(&st2);
	KUNIT_EXPECT_EQ(test, st2.last_seqnum, first + 29);
	/* 16 KiB hold ten of these at most, and at least eight. */
	KUNIT_EXPECT_LE(test, st2.queued, 10U);
	KUNIT_EXPECT_GE(test, st2.queued, 8U);
	KUNIT_EXPECT_EQ(test, st2.dropped, st1.dropped + st1.queued + 30 - st2.queued);

	pos = first;
	ev = dmc_event_log_next(&pos, &missed);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_EQ(test, missed, 30ULL - st2.queued);
	KUNIT_EXPECT_EQ(test, ev->seqnum, first + 30 - st2.queued);
	dmc_uevent_put(ev);
	/* Every kept one whole, across the ring's wrap. */
	for (i = 1; i < st2.queued; i++) {
		ev = dmc_event_log_next(&pos, &missed);
		KUNIT_ASSERT_NOT_NULL(test, ev);
		KUNIT_EXPECT_EQ(test, missed, 0ULL);
		DMCT_EXPECT_STREQ(test, dmc_uevent_var(ev, "HUGE"), big);
		DMCT_EXPECT_STREQ(test, ev->devpath, "/ev-bytes/a");
		dmc_uevent_put(ev);
	}
	KUNIT_EXPECT_NULL(test, dmc_event_log_next(&pos, &missed));
}

/* The race below: events of two sizes, each all one letter. */
static const char *ev_race_pad;

static int ev_race_hook(const struct dmc_kobject *kobj, struct dmc_uevent_env *env)
{
	return dmc_add_uevent_var(env, "PAD=%s", READ_ONCE(ev_race_pad));
}

static const struct dmc_kset_uevent_ops ev_race_ops = {
	.uevent = ev_race_hook,
};

struct ev_race {
	struct dmc_kobject *kobj;
	const char *pads[2];
	int sent;
	int errors;
	struct completion done;
};

static int ev_race_send(void *data)
{
	struct ev_race *r = data;
	int i;

	for (i = 0; i < 3000; i++) {
		WRITE_ONCE(ev_race_pad, r->pads[i % 3 == 0]);
		if (dmc_kobject_uevent(r->kobj, DMC_KOBJ_CHANGE))
			r->errors++;
		else
			r->sent++;
		if (!(i % 64))
			cond_resched();
	}
	complete(&r->done);
	return 0;
}

/*
 * A reader copies events out of a small log while a sender appends and
 * pushes the oldest out: every event read is whole (its padding one of
 * the two sent, whole), and SEQNUMs read plus those missed add up.
 */
static void event_log_reader_races_senders(struct kunit *test)
{
	struct dmct_obj *a = ev_member(test, "ev-race", &ev_race_ops);
	struct dmc_event_stats st;
	struct task_struct *t;
	struct dmc_uevent *ev;
	u64 pos, missed, seen = 0, lost = 0, want;
	struct ev_race *r;
	const char *pad;
	char *big;
	bool done = false;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	big = kunit_kzalloc(test, 1201, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_NOT_NULL(test, big);
	memset(big, 'y', 1200);
	r->kobj = &a->kobj;
	r->pads[0] = "z";
	r->pads[1] = big;
	init_completion(&r->done);
	ev_race_pad = r->pads[0];
	dmct_set_capacity(test, 8);
	dmc_event_log_stats(&st);
	pos = st.last_seqnum + 1;
	want = pos;

	t = kthread_create(ev_race_send, r, "ev-race");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	get_task_struct(t);
	wake_up_process(t);
	while (!done) {
		done = completion_done(&r->done);
		while ((ev = dmc_event_log_next(&pos, &missed))) {
			KUNIT_EXPECT_EQ(test, ev->seqnum, want + missed);
			want = ev->seqnum + 1;
			seen++;
			lost += missed;
			pad = dmc_uevent_var(ev, "PAD");
			if (!pad || (strcmp(pad, "z") && strcmp(pad, big)))
				KUNIT_FAIL(test, "event %llu torn: PAD is %.16s (%zu bytes)",
					   ev->seqnum, pad ?: "(none)", pad ? strlen(pad) : 0);
			DMCT_EXPECT_STREQ(test, ev->devpath, "/ev-race/a");
			dmc_uevent_put(ev);
		}
		cond_resched();
	}
	wait_for_completion(&r->done);
	kthread_stop(t);
	put_task_struct(t);
	KUNIT_EXPECT_EQ(test, r->errors, 0);
	KUNIT_EXPECT_EQ(test, seen + lost, (u64)r->sent);
	KUNIT_EXPECT_GT(test, seen, 0ULL);
}

static void event_log_overflow_drops_oldest_and_counts(struct kunit *test)
{
	struct dmct_obj *a = ev_member(test, "ev-ovf", NULL);
	struct dmc_event_stats st1, st2;
	struct dmc_uevent *ev;
	u64 first, pos, missed = 0;
	int i;

	dmct_set_capacity(test, 4);
	dmc_event_log_stats(&st1);
	KUNIT_EXPECT_EQ(test, st1.capacity, 4U);
	KUNIT_EXPECT_LE(test, st1.queued, 4U);
	first = st1.last_seqnum + 1;

	for (i = 0; i < 10; i++)
		KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(&a->kobj,
							 DMC_KOBJ_CHANGE), 0);
	dmc_event_log_stats(&st2);
	KUNIT_EXPECT_EQ(test, st2.queued, 4U);
	KUNIT_EXPECT_EQ(test, st2.dropped, st1.dropped + st1.queued + 10 - 4);
	KUNIT_EXPECT_EQ(test, st2.last_seqnum, first + 9);

	pos = first;
	ev = dmc_event_log_next(&pos, &missed);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_EQ(test, ev->seqnum, first + 6);
	KUNIT_EXPECT_EQ(test, missed, 6ULL);
	dmc_uevent_put(ev);
}

static void event_log_rejects_capacity_zero_or_over_max(struct kunit *test)
{
	struct dmc_event_stats st0, st1;

	dmc_event_log_stats(&st0);
	KUNIT_EXPECT_EQ(test, dmc_event_log_set_capacity(0), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_event_log_set_capacity(DMC_EVENT_LOG_MAX + 1),
			-EINVAL);
	dmc_event_log_stats(&st1);
	KUNIT_EXPECT_EQ(test, st1.capacity, st0.capacity);
	KUNIT_EXPECT_EQ(test, st1.dropped, st0.dropped);
}

/* listeners */

static void event_listener_sees_events_in_seqnum_order(struct kunit *test)
{
	struct dmct_ctx *ctx = dmct_ctx(test);
	struct dmct_obj *a = ev_member(test, "ev-lis", NULL);
	u64 seq0;
	int i;

	dmct_listen(test);
	seq0 = dmct_last_seqnum();
	for (i = 0; i < 10; i++)
		KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(&a->kobj,
							 i ? DMC_KOBJ_CHANGE :
							 DMC_KOBJ_ADD), 0);
	KUNIT_ASSERT_EQ(test, ctx->nr_evs, 10U);
	for (i = 0; i < 10; i++) {
		KUNIT_EXPECT_EQ(test, ctx->evs[i].seqnum, seq0 + 1 + i);
		KUNIT_EXPECT_STREQ(test, ctx->evs[i].devpath, "/ev-lis/a");
		KUNIT_EXPECT_STREQ(test, ctx->evs[i].subsystem, "ev-lis");
	}
	KUNIT_EXPECT_EQ(test, ctx->evs[0].action, DMC_KOBJ_ADD);
	KUNIT_EXPECT_EQ(test, ctx->seq_disorder, 0U);
}

#define EV_CONC_PER_THREAD	200

struct ev_sender {
	struct dmc_kobject *kobj;
	struct completion done;
	int errors;
};

static int ev_sender_fn(void *data)
{
	struct ev_sender *s = data;
	int i;

	for (i = 0; i < EV_CONC_PER_THREAD; i++)
		if (dmc_kobject_uevent(s->kobj, DMC_KOBJ_CHANGE))
			s->errors++;
	complete(&s->done);
	return 0;
}

static void event_listener_order_holds_with_concurrent_senders(struct kunit *test)
{
	struct dmct_ctx *ctx = dmct_ctx(test);
	struct dmct_obj *a = ev_member(test, "ev-conc", NULL);
	struct dmct_obj *b = dmct_obj_add(test, NULL, a->kobj.kset, "b");
	struct ev_sender s[2] = { { .kobj = &a->kobj }, { .kobj = &b->kobj } };
	struct task_struct *t;
	u64 seq0;
	int i, started = 0;

	dmct_listen(test);
	seq0 = dmct_last_seqnum();
	for (i = 0; i < 2; i++) {
		init_completion(&s[i].done);
		t = kthread_run(ev_sender_fn, &s[i], "dmct-sender%d", i);
		KUNIT_EXPECT_FALSE(test, IS_ERR(t));
		if (IS_ERR(t))
			break;
		started++;
	}
	for (i = 0; i < started; i++)
		wait_for_completion(&s[i].done);
	KUNIT_ASSERT_EQ(test, started, 2);

	KUNIT_EXPECT_EQ(test, s[0].errors + s[1].errors, 0);
	KUNIT_EXPECT_EQ(test, ctx->seq_disorder, 0U);
	KUNIT_EXPECT_EQ(test, ctx->nr_evs + ctx->evs_lost,
			2U * EV_CONC_PER_THREAD);
	KUNIT_EXPECT_EQ(test, dmct_last_seqnum(),
			seq0 + 2 * EV_CONC_PER_THREAD);
	KUNIT_EXPECT_EQ(test, dmct_log_count(seq0, "/ev-conc/"),
			2U * EV_CONC_PER_THREAD);
}

/*
 * An event holds no reference on the kset that gives its object a
 * subsystem (event.c). A sender racing with its object's deletion and
 * with the kset's last put must get 0 or -ENOENT, and never read the
 * kset once freed (KASAN on the debug kernel; the put frees it at once,
 * or release_delay_ms later in the delayed run). The kset is unregistered
 * first and the object hangs under a parent of its own, so its membership
 * is the kset's last reference, dropped by the delete right after the
 * object leaves the tree.
 */
#define EV_RACE_ROUNDS	20

struct ev_racer {
	struct dmc_kobject *kobj;
	struct completion started, done;
	atomic_t stop;
	atomic_t sent, gone;
	int other;
};

static int ev_racer_fn(void *data)
{
	struct ev_racer *r = data;
	bool first = true;
	int err;

	while (!atomic_read(&r->stop)) {
		err = dmc_kobject_uevent(r->kobj, DMC_KOBJ_CHANGE);
		if (!err)
			atomic_inc(&r->sent);
		else if (err == -ENOENT)
			atomic_inc(&r->gone);
		else
			r->other++;
		if (first)
			complete(&r->started);
		first = false;
		cond_resched();
	}
	complete(&r->done);
	return 0;
}

static void event_sender_races_kset_release(struct kunit *test)
{
	unsigned int sent = 0, gone = 0;
	struct task_struct *t;
	struct dmct_obj *p, *a;
	struct dmc_kset *k;
	struct ev_racer r;
	char name[32];
	int i, wait;

	for (i = 0; i < EV_RACE_ROUNDS; i++) {
		snprintf(name, sizeof(name), "ev-race-k%d", i);
		k = dmct_kset_create(test, name, &ev_var_ops, NULL);
		p = dmct_obj_add(test, NULL, NULL, "ev-race-p%d", i);
		a = dmct_obj_add(test, &p->kobj, k, "a");
		memset(&r, 0, sizeof(r));
		r.kobj = &a->kobj;
		init_completion(&r.started);
		init_completion(&r.done);
		t = kthread_run(ev_racer_fn, &r, "dmct-racer");
		KUNIT_ASSERT_FALSE(test, IS_ERR(t));
		wait_for_completion(&r.started);

		dmct_kset_unregister(test, k);	/* a's membership is left */
		dmc_kobject_del(&a->kobj);	/* drops it, freeing k */
		/* Let the sender meet the object out of the tree (<= 5 s). */
		for (wait = 0; !atomic_read(&r.gone) && wait < 5000; wait++)
			usleep_range(1000, 2000);
		atomic_set(&r.stop, 1);
		wait_for_completion(&r.done);

		KUNIT_EXPECT_EQ(test, r.other, 0);
		KUNIT_EXPECT_GT(test, atomic_read(&r.gone), 0);
		sent += atomic_read(&r.sent);
		gone += atomic_read(&r.gone);
		dmc_kobject_put(&a->kobj);
		dmct_del_put(&p->kobj);
	}
	kunit_info(test, "%u events sent, %u refused after the delete\n",
		   sent, gone);
}

static void event_listener_replay_reports_parents_first(struct kunit *test)
{
	struct dmct_ctx *ctx = dmct_ctx(test);
	struct dmct_obj *a = dmct_obj_add(test, NULL, NULL, "ev-replay");
	struct dmct_obj *b = dmct_obj_add(test, &a->kobj, NULL, "b");
	struct dmct_obj *c = dmct_obj_add(test, &b->kobj, NULL, "c");
	int ia, ib, ic;

	dmct_listen(test);
	ia = dmct_tree_index(ctx, DMCT_TREE_ADDED, &a->kobj);
	ib = dmct_tree_index(ctx, DMCT_TREE_ADDED, &b->kobj);
	ic = dmct_tree_index(ctx, DMCT_TREE_ADDED, &c->kobj);
	KUNIT_EXPECT_GE(test, ia, 0);
	KUNIT_EXPECT_LT(test, ia, ib);
	KUNIT_EXPECT_LT(test, ib, ic);
	KUNIT_EXPECT_EQ(test, ctx->nr_tree, 3U);
}

static void event_listener_sees_parent_added_before_child(struct kunit *test)
{
	struct dmct_ctx *ctx = dmct_ctx(test);
	struct dmct_obj *a, *b;
	int ia, ib;

	dmct_listen(test);
	a = dmct_obj_add(test, NULL, NULL, "ev-added");
	b = dmct_obj_add(test, &a->kobj, NULL, "b");
	ia = dmct_tree_index(ctx, DMCT_TREE_ADDED, &a->kobj);
	ib = dmct_tree_index(ctx, DMCT_TREE_ADDED, &b->kobj);
	KUNIT_EXPECT_GE(test, ia, 0);
	KUNIT_EXPECT_LT(test, ia, ib);
}

static void event_listener_sees_children_removed_before_parent(struct kunit *test)
{
	struct dmct_ctx *ctx = dmct_ctx(test);
	struct dmct_obj *a = dmct_obj_add(test, NULL, NULL, "ev-removed");
	struct dmct_obj *b = dmct_obj_add(test, &a->kobj, NULL, "b");
	struct dmct_obj *c = dmct_obj_add(test, &b->kobj, NULL, "c");
	int ia, ib, ic;

	dmct_listen(test);
	dmc_kobject_del(&a->kobj);
	ia = dmct_tree_index(ctx, DMCT_TREE_REMOVED, &a->kobj);
	ib = dmct_tree_index(ctx, DMCT_TREE_REMOVED, &b->kobj);
	ic = dmct_tree_index(ctx, DMCT_TREE_REMOVED, &c->kobj);
	KUNIT_EXPECT_GE(test, ic, 0);
	KUNIT_EXPECT_LT(test, ic, ib);
	KUNIT_EXPECT_LT(test, ib, ia);
}

static void event_listener_told_of_rename_and_move(struct kunit *test)
{
	struct dmct_ctx *ctx = dmct_ctx(test);
	struct dmct_obj *p1 = dmct_obj_add(test, NULL, NULL, "ev-tell1");
	struct dmct_obj *p2 = dmct_obj_add(test, NULL, NULL, "ev-tell2");
	struct dmct_obj *c = dmct_obj_add(test, &p1->kobj, NULL, "c");
	int i;

	dmct_listen(test);
	KUNIT_EXPECT_EQ(test, dmc_kobject_rename(&c->kobj, "c2"), 0);
	KUNIT_EXPECT_EQ(test, dmc_kobject_move(&c->kobj, &p2->kobj), 0);

	i = dmct_tree_index(ctx, DMCT_TREE_RENAMED, &c->kobj);
	KUNIT_ASSERT_GE(test, i, 0);
	KUNIT_EXPECT_STREQ(test, ctx->tree[i].old_name, "c");
	i = dmct_tree_index(ctx, DMCT_TREE_MOVED, &c->kobj);
	KUNIT_ASSERT_GE(test, i, 0);
	KUNIT_EXPECT_PTR_EQ(test, ctx->tree[i].old_parent, &p1->kobj);
}

static void event_listener_unregister_stops_callbacks(struct kunit *test)
{
	struct dmct_ctx *ctx = dmct_ctx(test);
	struct dmct_obj *a = ev_member(test, "ev-unreg", NULL);
	struct dmct_obj *b;
	unsigned int nr_tree;

	dmct_listen(test);
	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(&a->kobj, DMC_KOBJ_ADD), 0);
	KUNIT_EXPECT_EQ(test, ctx->nr_evs, 1U);
	dmct_unlisten(test);
	nr_tree = ctx->nr_tree;

	KUNIT_EXPECT_EQ(test, dmc_kobject_uevent(&a->kobj, DMC_KOBJ_CHANGE), 0);
	b = dmct_obj_add(test, NULL, a->kobj.kset, "b");
	dmct_del_put(&b->kobj);
	KUNIT_EXPECT_EQ(test, ctx->nr_evs, 1U);
	KUNIT_EXPECT_EQ(test, ctx->nr_tree, nr_tree);
}

/*
 * kobj_gone: told after kobj_removed, in the deleting task, with the
 * tree's locks free (the callback takes dmc_tree_mutex itself: held, it
 * would deadlock and lockdep would say so). A callback that sleeps holds
 * up its deleter and dmc_listener_unregister(), nothing else.
 */
struct ev_gone {
	struct dmc_listener l;
	struct dmc_kobject *watch;	/* the object it looks for */
	struct dmc_kobject *removed;	/* @watch, once kobj_removed told it */
	bool block;			/* sleep in kobj_gone until @release */
	bool removed_first;
	bool found_after;		/* @watch still found under its parent */
	unsigned int refs_at_gone;	/* @watch's count when told it is gone */
	atomic_t gone;
	struct completion entered;
	struct completion release;
};

static void ev_gone_removed(struct dmc_listener *l, struct dmc_kobject *kobj)
{
	struct ev_gone *g = container_of(l, struct ev_gone, l);

	if (kobj == g->watch)
		WRITE_ONCE(g->removed, kobj);
}

static void ev_gone_gone(struct dmc_listener *l, struct dmc_kobject *kobj)
{
	struct ev_gone *g = container_of(l, struct ev_gone, l);
	struct dmc_kobject *found;

	if (kobj != g->watch)
		return;
	g->removed_first = READ_ONCE(g->removed) == kobj;
	g->refs_at_gone = kref_read(&kobj->kref);
	found = dmc_kobject_find_child(kobj->parent, kobj->name);
	g->found_after = !!found;
	dmc_kobject_put(found);
	atomic_inc(&g->gone);
	complete(&g->entered);
	if (g->block)
		wait_for_completion(&g->release);
}

static void ev_gone_init(struct ev_gone *g, struct dmc_kobject *watch, bool block)
{
	memset(g, 0, sizeof(*g));
	g->l.kobj_removed = ev_gone_removed;
	g->l.kobj_gone = ev_gone_gone;
	g->watch = watch;
	g->block = block;
	init_completion(&g->entered);
	init_completion(&g->release);
}

static void event_listener_gone_follows_removed_without_tree_lock(struct kunit *test)
{
	struct dmct_obj *p = dmct_obj_add(test, NULL, NULL, "ev-gone");
	struct dmct_obj *c = dmct_obj_add(test, &p->kobj, NULL, "c");
	struct ev_gone *g = kunit_kzalloc(test, sizeof(*g), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, g);
	ev_gone_init(g, &c->kobj, false);
	KUNIT_ASSERT_EQ(test, dmc_listener_register(&g->l), 0);
	dmc_kobject_del(&c->kobj);
	dmc_listener_unregister(&g->l);
	KUNIT_EXPECT_EQ(test, atomic_read(&g->gone), 1);
	KUNIT_EXPECT_TRUE(test, g->removed_first);
	KUNIT_EXPECT_FALSE(test, g->found_after);
}

/*
 * kobj_gone on the release path: the last put of an object still in the
 * tree deletes it (Linux's kobject_cleanup() does the same), and the
 * listener is told it is gone there too, after kobj_removed, with its
 * count at zero (so it must take no reference), before the release runs;
 * with release_delay_ms, in the worker that releases it.
 */
static void event_listener_gone_on_last_put_without_del(struct kunit *test)
{
	struct dmct_obj *p = dmct_obj_add(test, NULL, NULL, "ev-gone-put");
	struct dmct_obj *c = dmct_obj_add(test, &p->kobj, NULL, "c");
	struct dmct_rec *rec = c->rec;
	struct ev_gone *g = kunit_kzalloc(test, sizeof(*g), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, g);
	ev_gone_init(g, &c->kobj, false);
	KUNIT_ASSERT_EQ(test, dmc_listener_register(&g->l), 0);
	KUNIT_ASSERT_EQ(test, rec->released, 0U);
	dmc_kobject_put(&c->kobj);	/* the last: the add took none of its own */
	dmc_kobject_flush_releases();
	dmc_listener_unregister(&g->l);
	KUNIT_EXPECT_EQ(test, atomic_read(&g->gone), 1);
	KUNIT_EXPECT_TRUE(test, g->removed_first);
	KUNIT_EXPECT_EQ(test, g->refs_at_gone, 0U);
	KUNIT_EXPECT_FALSE(test, g->found_after);
	KUNIT_EXPECT_EQ(test, rec->released, 1U);
}

struct ev_gone_job {
	void (*fn)(struct ev_gone_job *j);
	struct ev_gone *g;
	struct dmc_kobject *kobj;
	struct completion done;
};

static int ev_gone_job_fn(void *data)
{
	struct ev_gone_job *j = data;

	j->fn(j);
	complete(&j->done);
	return 0;
}

static void ev_gone_job_del(struct ev_gone_job *j)
{
	dmc_kobject_del(j->kobj);
}

static void ev_gone_job_unregister(struct ev_gone_job *j)
{
	dmc_listener_unregister(&j->g->l);
}

static struct task_struct *ev_gone_start(struct ev_gone_job *j,
					 void (*fn)(struct ev_gone_job *j),
					 struct ev_gone *g, struct dmc_kobject *kobj)
{
	struct task_struct *t;

	j->fn = fn;
	j->g = g;
	j->kobj = kobj;
	init_completion(&j->done);
	t = kthread_create(ev_gone_job_fn, j, "ev-gone");
	if (!IS_ERR(t)) {
		get_task_struct(t);	/* its state is read after it may have exited */
		wake_up_process(t);
	}
	return t;
}

/*
 * Has @t gone to sleep uninterruptibly (a wait for a completion, an SRCU
 * grace period, a lock) and stayed asleep for three looks 20 ms apart?
 * Gives up after 10 s.
 */
static bool ev_task_blocked(struct task_struct *t)
{
	int seen = 0, i;

	for (i = 0; i < 500 && seen < 3; i++) {
		if (READ_ONCE(t->__state) == TASK_UNINTERRUPTIBLE)
			seen++;
		else
			seen = 0;
		msleep(20);
	}
	return seen >= 3;
}

static void event_listener_gone_sleeping_holds_up_only_its_deleter(struct kunit *test)
{
	struct dmct_obj *p = dmct_obj_add(test, NULL, NULL, "ev-gone-sleep");
	struct dmct_obj *c = dmct_obj_add(test, &p->kobj, NULL, "c");
	struct dmct_obj *e = dmct_obj_add(test, &p->kobj, NULL, "e");
	bool entered, del_early, unreg_blocked, unreg_early, e_gone, done;
	struct ev_gone_job *del, *unreg;
	struct task_struct *t, *tu;
	struct ev_gone *g;

	/*
	 * Not test-managed: if a thread never finishes, the listener stays
	 * registered and it and the jobs are leaked (kmemleak reports them)
	 * rather than freed under the threads.
	 */
	g = kzalloc(sizeof(*g) + 2 * sizeof(*del), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, g);
	del = (struct ev_gone_job *)(g + 1);
	unreg = del + 1;
	/* No assertion from here on: a thread would be left asleep. */
	ev_gone_init(g, &c->kobj, true);
	if (dmc_listener_register(&g->l)) {
		kfree(g);
		KUNIT_FAIL(test, "register");
		return;
	}
	t = ev_gone_start(del, ev_gone_job_del, g, &c->kobj);
	if (IS_ERR(t)) {
		dmc_listener_unregister(&g->l);
		kfree(g);
		KUNIT_FAIL(test, "kthread: %ld", PTR_ERR(t));
		return;
	}
	put_task_struct(t);
	entered = wait_for_completion_timeout(&g->entered, 10 * HZ);
	del_early = completion_done(&del->done);

	/* The tree is free while the deleter sleeps in kobj_gone. */
	dmc_kobject_del(&e->kobj);
	e_gone = !dmc_kobject_in_tree(&e->kobj);

	/* Unregistration waits for the callback in flight. */
	tu = ev_gone_start(unreg, ev_gone_job_unregister, g, NULL);
	if (IS_ERR(tu)) {
		complete(&g->release);
		if (wait_for_completion_timeout(&del->done, 10 * HZ)) {
			dmc_listener_unregister(&g->l);
			kfree(g);
		}
		KUNIT_FAIL(test, "kthread: %ld", PTR_ERR(tu));
		return;
	}
	/* Asleep in its wait, and not done, while the callback still runs. */
	unreg_blocked = ev_task_blocked(tu);
	unreg_early = completion_done(&unreg->done);
	put_task_struct(tu);
	complete(&g->release);
	done = wait_for_completion_timeout(&del->done, 10 * HZ) &&
	       wait_for_completion_timeout(&unreg->done, 10 * HZ);
	if (!done) {
		KUNIT_FAIL(test, "deleter or unregistration still running after 10 s");
		return;	/* @g is left to them */
	}

	KUNIT_EXPECT_TRUE(test, entered);
	KUNIT_EXPECT_TRUE(test, e_gone);
	KUNIT_EXPECT_FALSE(test, del_early);
	KUNIT_EXPECT_TRUE(test, unreg_blocked);
	KUNIT_EXPECT_FALSE(test, unreg_early);
	KUNIT_EXPECT_EQ(test, atomic_read(&g->gone), 1);
	KUNIT_EXPECT_TRUE(test, g->removed_first);
	KUNIT_EXPECT_FALSE(test, dmc_kobject_in_tree(&c->kobj));
	kfree(g);
}

static int event_test_init(struct kunit *test)
{
	return dmct_init(test, "/ev-");
}

static struct kunit_case event_test_cases[] = {
	KUNIT_CASE(event_fixed_vars_come_first_in_order),
	KUNIT_CASE(event_caller_vars_then_kset_vars),
	KUNIT_CASE(event_uevent_var_looks_up_whole_keys),
	KUNIT_CASE(event_subsystem_from_kset_name_hook),
	KUNIT_CASE(event_subsystem_found_walking_up_parents),
	KUNIT_CASE(event_own_kset_wins_over_parent_kset),
	KUNIT_CASE(event_without_kset_fails_einval),
	KUNIT_CASE(event_filter_drop_returns_zero_sends_nothing),
	KUNIT_CASE(event_hook_error_cancels_event),
	KUNIT_CASE(event_add_uevent_var_stops_at_64_vars),
	KUNIT_CASE(event_add_uevent_var_refuses_oversized_string),
	KUNIT_CASE(event_env_entry_without_equals_fails_einval),
	KUNIT_CASE(event_env_entry_with_empty_key_fails_einval),
	KUNIT_CASE(event_more_than_64_vars_fails_e2big),
	KUNIT_CASE(event_vars_over_buffer_size_fail_e2big),
	KUNIT_CASE(event_suppressed_object_sends_nothing),
	KUNIT_CASE(event_del_sends_remove_once_after_add),
	KUNIT_CASE(event_del_without_add_sends_nothing),
	KUNIT_CASE(event_action_names),
	KUNIT_CASE(event_seqnums_are_contiguous_in_log),
	KUNIT_CASE(event_log_next_returns_own_copies),
	KUNIT_CASE(event_log_overflow_drops_oldest_and_counts),
	KUNIT_CASE(event_log_drops_oldest_when_bytes_run_out),
	KUNIT_CASE(event_log_reader_races_senders),
	KUNIT_CASE(event_log_rejects_capacity_zero_or_over_max),
	KUNIT_CASE(event_listener_sees_events_in_seqnum_order),
	KUNIT_CASE(event_listener_order_holds_with_concurrent_senders),
	KUNIT_CASE(event_sender_races_kset_release),
	KUNIT_CASE(event_listener_replay_reports_parents_first),
	KUNIT_CASE(event_listener_sees_parent_added_before_child),
	KUNIT_CASE(event_listener_sees_children_removed_before_parent),
	KUNIT_CASE(event_listener_told_of_rename_and_move),
	KUNIT_CASE(event_listener_unregister_stops_callbacks),
	KUNIT_CASE(event_listener_gone_follows_removed_without_tree_lock),
	KUNIT_CASE(event_listener_gone_sleeping_holds_up_only_its_deleter),
	KUNIT_CASE(event_listener_gone_on_last_put_without_del),
	{}
};

static struct kunit_suite event_test_suite = {
	.name = "dmcore-event",
	.init = event_test_init,
	.exit = dmct_exit,
	.test_cases = event_test_cases,
};

kunit_test_suites(&event_test_suite);
