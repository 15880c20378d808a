// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore's listeners: code in the kernel told of every change to the
 * model, as sysfs is told of Linux's (fs/sysfs/, fs/kernfs/ are called by
 * lib/kobject.c and drivers/base/ directly; uevents go to netlink from
 * lib/kobject_uevent.c). The debugfs export and control are listeners.
 *
 * The registry: the list of listeners and the calls that tell them of a
 * change. The kobject core (kobject_tree.c) tells of objects entering,
 * leaving, renamed and moved, and of links the model (device_sysfs.c,
 * driver.c) reports; event.c of every event sent. A listener joins and
 * leaves through kobject_tree.c (dmc_listener_register()), which replays
 * the tree to it. This file calls into nothing of dmcore: it is the floor
 * the tree and the events both stand on.
 *
 * The list is read under either of two locks and changed under both:
 * dmc_tree_mutex (kobject_tree.c) for the tree and link callbacks, and
 * dmc_event_mutex, defined here, for the uevent callbacks; event.c
 * numbers its events under dmc_event_mutex, so listeners see SEQNUM
 * order. The kobj_gone callbacks run under neither: the listeners that
 * have one are on a second list, read under dmc_listener_srcu, and their
 * unregistration waits for its readers. The attr_changed callbacks, which
 * dmc_sysfs_notify() may make from any context, are on a third, read
 * under RCU.
 */

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/srcu.h>

#include "base.h"

/* SEQNUM assignment and the listener list for uevents; see base.h. */
DEFINE_MUTEX(dmc_event_mutex);

static LIST_HEAD(dmc_listeners);

/*
 * Listeners that want links told (link_added or link_removed): while
 * there are none, dmc_sysfs_link() and _unlink() skip dmc_tree_mutex.
 */
static unsigned int dmc_link_listeners;

/* Listeners with a uevent callback; dmc_event_mutex. */
static unsigned int dmc_uevent_listeners;

/* Listeners told of objects entering the tree; both mutexes. */
static unsigned int dmc_tree_listeners;

/*
 * The listeners with a kobj_gone callback, and their number; changed under
 * both mutexes, read under dmc_listener_srcu. Only these are walked
 * without the mutexes, and only their unregistration waits for that walk.
 */
static LIST_HEAD(dmc_gone_list);
static unsigned int dmc_gone_listeners;
DEFINE_STATIC_SRCU(dmc_listener_srcu);

/* The listeners with an attr_changed callback; both mutexes, RCU readers. */
static LIST_HEAD(dmc_notify_list);

/**
 * dmc_listeners_watch_tree() - does any listener see objects come and go?
 *
 * A hint, read without a lock: dmc_device_add() uses it to skip checks
 * that only spare listeners the sight of an object added and at once
 * deleted again. A listener registering meanwhile sees that too, which
 * is all it could see of a failed add anyway.
 */
bool dmc_listeners_watch_tree(void)
{
	return READ_ONCE(dmc_tree_listeners);
}

static bool dmc_listener_wants_links(const struct dmc_listener *l)
{
	return l->link_added || l->link_removed;
}

/**
 * dmc_listeners_want_links() - is any listener told of links?
 *
 * Called without dmc_tree_mutex, after the change the link stands for is
 * made: a full barrier orders that change before the read, and
 * dmc_listeners_add() orders its count before its replay of the tree's
 * links, so either this sees the listener or the replay sees the change.
 */
bool dmc_listeners_want_links(void)
{
	smp_mb();	/* the caller's change before the count; pairs with dmc_listeners_add() */
	return READ_ONCE(dmc_link_listeners);
}

/*
 * A listener joins or leaves the list; the caller (kobject_tree.c's
 * dmc_listener_register() and _unregister()) holds dmc_tree_mutex and
 * dmc_event_mutex, so neither kind of callback sees the list change.
 */
void dmc_listeners_add(struct dmc_listener *l)
{
	lockdep_assert_held(&dmc_event_mutex);
	list_add_tail(&l->node, &dmc_listeners);
	if (l->uevent)
		dmc_uevent_listeners++;
	if (l->kobj_gone) {
		list_add_tail_rcu(&l->gone_node, &dmc_gone_list);
		WRITE_ONCE(dmc_gone_listeners, dmc_gone_listeners + 1);
	}
	if (l->attr_changed)
		list_add_tail_rcu(&l->notify_node, &dmc_notify_list);
	if (l->kobj_added)
		WRITE_ONCE(dmc_tree_listeners, dmc_tree_listeners + 1);
	if (dmc_listener_wants_links(l)) {
		WRITE_ONCE(dmc_link_listeners, dmc_link_listeners + 1);
		smp_mb();	/* the count before the replay; see above */
	}
}

void dmc_listeners_del(struct dmc_listener *l)
{
	lockdep_assert_held(&dmc_event_mutex);
	list_del(&l->node);
	if (l->uevent)
		dmc_uevent_listeners--;
	if (l->kobj_gone) {
		list_del_rcu(&l->gone_node);
		WRITE_ONCE(dmc_gone_listeners, dmc_gone_listeners - 1);
	}
	if (l->attr_changed)
		list_del_rcu(&l->notify_node);
	if (l->kobj_added)
		WRITE_ONCE(dmc_tree_listeners, dmc_tree_listeners - 1);
	if (dmc_listener_wants_links(l))
		WRITE_ONCE(dmc_link_listeners, dmc_link_listeners - 1);
}

/*
 * Tell every listener of a change to the tree or its links; the caller
 * (kobject_tree.c) holds dmc_tree_mutex.
 */
void dmc_listeners_kobj_added(struct dmc_kobject *kobj)
{
	struct dmc_listener *l;

	list_for_each_entry(l, &dmc_listeners, node)
		if (l->kobj_added)
			l->kobj_added(l, kobj);
}

void dmc_listeners_kobj_removed(struct dmc_kobject *kobj)
{
	struct dmc_listener *l;

	list_for_each_entry(l, &dmc_listeners, node)
		if (l->kobj_removed)
			l->kobj_removed(l, kobj);
}

/*
 * @kobj left the tree and the caller (kobject.c) holds none of the tree's
 * locks. The count is read without a lock: a listener told of @kobj's
 * removal registered under dmc_tree_mutex before that, and the caller
 * took and released the mutex since, so the count it raised is seen.
 */
void dmc_listeners_kobj_gone(struct dmc_kobject *kobj)
{
	struct dmc_listener *l;
	int idx;

	might_sleep();
	if (!READ_ONCE(dmc_gone_listeners))
		return;
	idx = srcu_read_lock(&dmc_listener_srcu);
	list_for_each_entry_srcu(l, &dmc_gone_list, gone_node,
				 srcu_read_lock_held(&dmc_listener_srcu))
		l->kobj_gone(l, kobj);
	srcu_read_unlock(&dmc_listener_srcu, idx);
}

/*
 * After dmc_listeners_del() of @l, with the mutexes released: wait until
 * no kobj_gone or attr_changed callback of @l can be running.
 */
void dmc_listeners_sync(struct dmc_listener *l)
{
	if (l->kobj_gone)
		synchronize_srcu(&dmc_listener_srcu);
	if (l->attr_changed)
		synchronize_rcu();
}

/* An attribute changed (dmc_sysfs_notify()); any context. */
void dmc_listeners_attr_changed(struct dmc_kobject *kobj, const char *dir,
				const char *attr)
{
	struct dmc_listener *l;

	rcu_read_lock();
	list_for_each_entry_rcu(l, &dmc_notify_list, notify_node)
		l->attr_changed(l, kobj, dir, attr);
	rcu_read_unlock();
}

void dmc_listeners_kobj_renamed(struct dmc_kobject *kobj, const char *old)
{
	struct dmc_listener *l;

	list_for_each_entry(l, &dmc_listeners, node)
		if (l->kobj_renamed)
			l->kobj_renamed(l, kobj, old);
}

void dmc_listeners_kobj_moved(struct dmc_kobject *kobj,
			      struct dmc_kobject *old_parent)
{
	struct dmc_listener *l;

	list_for_each_entry(l, &dmc_listeners, node)
		if (l->kobj_moved)
			l->kobj_moved(l, kobj, old_parent);
}

/*
 * Is any listener told of events? Caller holds dmc_event_mutex; without
 * one, an event is only logged, never formatted as text when sent.
 */
bool dmc_listeners_want_uevents(void)
{
	lockdep_assert_held(&dmc_event_mutex);
	return dmc_uevent_listeners;
}

/* Show an event just numbered and logged; caller holds dmc_event_mutex. */
void dmc_listeners_uevent(const struct dmc_uevent *ev)
{
	struct dmc_listener *l;

	lockdep_assert_held(&dmc_event_mutex);
	list_for_each_entry(l, &dmc_listeners, node)
		if (l->uevent)
			l->uevent(l, ev);
}

void dmc_listeners_link_added(struct dmc_kobject *kobj, const char *name,
			      struct dmc_kobject *target)
{
	struct dmc_listener *l;

	list_for_each_entry(l, &dmc_listeners, node)
		if (l->link_added)
			l->link_added(l, kobj, name, target);
}

void dmc_listeners_link_removed(struct dmc_kobject *kobj, const char *name)
{
	struct dmc_listener *l;

	list_for_each_entry(l, &dmc_listeners, node)
		if (l->link_removed)
			l->link_removed(l, kobj, name);
}

/* At module exit (from dmc_event_exit()): every listener has left. */
void dmc_listener_exit(void)
{
	WARN_ON(!list_empty(&dmc_listeners));
}
