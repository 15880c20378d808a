// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore's listeners: code in the kernel told of every change to the
 * model, as sysfs is told of Linux's (fs/sysfs/, fs/kernfs/ are called by
 * lib/kobject.c and drivers/base/ directly; uevents go to netlink from
 * lib/kobject_uevent.c). The debugfs export and control are listeners.
 *
 * The registry: the list of listeners, who registers and leaves, the
 * replay of the tree to a new listener, and the calls that tell them of
 * a change. The kobject core (kobject_tree.c) tells of objects entering,
 * leaving, renamed and moved, the model (dm_core.c, driver.c) of links,
 * event.c of every event sent. Of them this file uses only the tree's
 * lock and shape (dmc_tree_mutex, dmc_roots, kobj->children) and, for the
 * replay, dm_core.c's links of a device.
 *
 * The list is read under either of two locks and changed under both:
 * dmc_tree_mutex (kobject_tree.c) for the tree and link callbacks, and
 * dmc_event_mutex, defined here, for the uevent callbacks; event.c
 * numbers its events under dmc_event_mutex, so listeners see SEQNUM
 * order.
 */

#include <linux/export.h>
#include <linux/list.h>
#include <linux/mutex.h>

#include "base.h"

/* SEQNUM assignment and the listener list for uevents; see base.h. */
DEFINE_MUTEX(dmc_event_mutex);

static LIST_HEAD(dmc_listeners);

/* The next object after @kobj in a parents-first walk of the tree. */
static struct dmc_kobject *dmc_tree_next(struct dmc_kobject *kobj)
{
	struct list_head *head;

	if (!list_empty(&kobj->children))
		return list_first_entry(&kobj->children, struct dmc_kobject, sibling);
	for (; kobj; kobj = kobj->parent) {
		head = kobj->parent ? &kobj->parent->children : &dmc_roots;
		if (!list_is_last(&kobj->sibling, head))
			return list_next_entry(kobj, sibling);
	}
	return NULL;
}

/*
 * Tell a new listener of every object already in the tree, parents
 * first, then of every link there is now (a link may point anywhere in
 * the tree, so objects come first). Caller holds dmc_tree_mutex. A walk,
 * not a recursion: the tree can be as deep as its users make it.
 */
static void dmc_tree_replay(struct dmc_listener *l)
{
	struct dmc_kobject *first, *kobj;

	lockdep_assert_held(&dmc_tree_mutex);
	first = list_first_entry_or_null(&dmc_roots, struct dmc_kobject, sibling);
	if (l->kobj_added)
		for (kobj = first; kobj; kobj = dmc_tree_next(kobj))
			l->kobj_added(l, kobj);
	if (l->link_added)
		for (kobj = first; kobj; kobj = dmc_tree_next(kobj))
			if (kobj->ktype && kobj->ktype->replay_links)
				kobj->ktype->replay_links(kobj, l);
}

/**
 * dmc_listener_register() - start telling @l of every change
 * @l: the listener, with the callbacks it wants
 *
 * Before this returns, @l->kobj_added is called for every object already
 * in the tree, parents first, then @l->link_added for every link there is
 * (a link may be told twice: replayed, then announced by a change under
 * way), so the listener starts from a complete picture; events sent
 * before registration are not replayed (read them from the event log).
 *
 * Context: may sleep; takes dmc_tree_mutex and dmc_event_mutex.
 * Return: 0, or -EINVAL for NULL.
 */
int dmc_listener_register(struct dmc_listener *l)
{
	if (!l)
		return -EINVAL;
	mutex_lock(&dmc_tree_mutex);
	mutex_lock(&dmc_event_mutex);
	list_add_tail(&l->node, &dmc_listeners);
	dmc_tree_replay(l);
	mutex_unlock(&dmc_event_mutex);
	mutex_unlock(&dmc_tree_mutex);
	return 0;
}
EXPORT_SYMBOL_GPL(dmc_listener_register);

/**
 * dmc_listener_unregister() - stop telling @l of changes
 * @l: a registered listener
 *
 * When this returns no callback of @l is running or will run.
 *
 * Context: may sleep; takes dmc_tree_mutex and dmc_event_mutex.
 */
void dmc_listener_unregister(struct dmc_listener *l)
{
	if (!l)
		return;
	mutex_lock(&dmc_tree_mutex);
	mutex_lock(&dmc_event_mutex);
	list_del(&l->node);
	mutex_unlock(&dmc_event_mutex);
	mutex_unlock(&dmc_tree_mutex);
}
EXPORT_SYMBOL_GPL(dmc_listener_unregister);

void dmc_listeners_kobj_added(struct dmc_kobject *kobj)
{
	struct dmc_listener *l;

	lockdep_assert_held(&dmc_tree_mutex);
	list_for_each_entry(l, &dmc_listeners, node)
		if (l->kobj_added)
			l->kobj_added(l, kobj);
}

void dmc_listeners_kobj_removed(struct dmc_kobject *kobj)
{
	struct dmc_listener *l;

	lockdep_assert_held(&dmc_tree_mutex);
	list_for_each_entry(l, &dmc_listeners, node)
		if (l->kobj_removed)
			l->kobj_removed(l, kobj);
}

void dmc_listeners_kobj_renamed(struct dmc_kobject *kobj, const char *old)
{
	struct dmc_listener *l;

	lockdep_assert_held(&dmc_tree_mutex);
	list_for_each_entry(l, &dmc_listeners, node)
		if (l->kobj_renamed)
			l->kobj_renamed(l, kobj, old);
}

void dmc_listeners_kobj_moved(struct dmc_kobject *kobj,
			      struct dmc_kobject *old_parent)
{
	struct dmc_listener *l;

	lockdep_assert_held(&dmc_tree_mutex);
	list_for_each_entry(l, &dmc_listeners, node)
		if (l->kobj_moved)
			l->kobj_moved(l, kobj, old_parent);
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

/**
 * dmc_sysfs_link() - tell listeners that @kobj has a link to @target
 * @kobj: where the link lives
 * @name: the link's name
 * @target: what it points to
 *
 * The core keeps no list of links: they follow from the model (a bound
 * device's "driver", a device's "subsystem"...), and the core calls this
 * wherever one appears. Takes dmc_tree_mutex, so links and objects reach
 * listeners in one order.
 */
void dmc_sysfs_link(struct dmc_kobject *kobj, const char *name,
		    struct dmc_kobject *target)
{
	struct dmc_listener *l;

	mutex_lock(&dmc_tree_mutex);
	list_for_each_entry(l, &dmc_listeners, node)
		if (l->link_added)
			l->link_added(l, kobj, name, target);
	mutex_unlock(&dmc_tree_mutex);
}

/* The counterpart of dmc_sysfs_link(). */
void dmc_sysfs_unlink(struct dmc_kobject *kobj, const char *name)
{
	struct dmc_listener *l;

	mutex_lock(&dmc_tree_mutex);
	list_for_each_entry(l, &dmc_listeners, node)
		if (l->link_removed)
			l->link_removed(l, kobj, name);
	mutex_unlock(&dmc_tree_mutex);
}

/* At module exit (from dmc_event_exit()): every listener has left. */
void dmc_listener_exit(void)
{
	WARN_ON(!list_empty(&dmc_listeners));
}
