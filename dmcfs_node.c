// SPDX-License-Identifier: GPL-2.0
/*
 * dmcfs's nodes and active references (the filesystem "dmcore", see
 * dmcfs.c): a node per object someone looked at, found by the object's
 * address; the active references every callback takes on it; the
 * listener that deactivates a node when its object leaves the tree
 * (kobj_removed, under dmc_tree_mutex) and drains it after
 * (kobj_gone), and wakes the pollers of an attribute dmc_sysfs_notify()
 * names (attr_changed). The counterpart of the node half of
 * fs/kernfs/dir.c (kernfs_get_active(), kernfs_drain()) and of
 * kernfs_notify().
 */

#include <linux/hashtable.h>
#include <linux/lockdep.h>
#include <linux/rculist.h>
#include <linux/slab.h>

#include "dmcfs.h"

#define DMCFS_HASH_BITS		10

static DEFINE_HASHTABLE(dmcfs_nodes, DMCFS_HASH_BITS);
static DEFINE_SPINLOCK(dmcfs_lock);	/* dmcfs_nodes, node->kobj */
static DECLARE_WAIT_QUEUE_HEAD(dmcfs_drain_wq);

/*
 * The active references, as lockdep sees them: one class for all of
 * them (as a read lock taken around each show and store, a write lock
 * taken by every deletion's drain, whether or not anyone looks), so that
 * lockdep reports a deleter holding a lock that a show or store takes
 * (docs/dmcfs.md, "the drain waits for show() code") the first time both
 * orders are seen, not the day they meet.
 */
#ifdef CONFIG_DEBUG_LOCK_ALLOC
static struct lock_class_key dmcfs_active_key;
static struct lockdep_map dmcfs_active_map =
	STATIC_LOCKDEP_MAP_INIT("dmcfs_active", &dmcfs_active_key);
#define dmcfs_active_acquire()	rwsem_acquire_read(&dmcfs_active_map, 0, 0, _RET_IP_)
#define dmcfs_active_release()	rwsem_release(&dmcfs_active_map, _RET_IP_)
#define dmcfs_drain_acquire()	rwsem_acquire(&dmcfs_active_map, 0, 0, _RET_IP_)
#define dmcfs_drain_release()	rwsem_release(&dmcfs_active_map, _RET_IP_)
#else
#define dmcfs_active_acquire()	do { } while (0)
#define dmcfs_active_release()	do { } while (0)
#define dmcfs_drain_acquire()	do { } while (0)
#define dmcfs_drain_release()	do { } while (0)
#endif

/* ---- nodes and active references ------------------------------------------- */

static struct dmcfs_node *dmcfs_node_find(const struct dmc_kobject *kobj)
{
	struct dmcfs_node *n;

	hash_for_each_possible_rcu(dmcfs_nodes, n, hash, (unsigned long)kobj,
				   lockdep_is_held(&dmcfs_lock))
		if (n->key == kobj)
			return n;
	return NULL;
}

void dmcfs_node_put(struct dmcfs_node *n)
{
	if (!n)
		return;
	spin_lock(&dmcfs_lock);
	if (!refcount_dec_and_test(&n->refs)) {
		spin_unlock(&dmcfs_lock);
		return;
	}
	if (!hlist_unhashed(&n->hash))
		hash_del_rcu(&n->hash);
	spin_unlock(&dmcfs_lock);
	kfree_rcu(n, rcu);
}

/*
 * The node of @kobj, referenced, made if need be. Caller holds
 * dmc_tree_mutex and saw @kobj in the tree, so that the object's
 * kobj_removed, which runs under that mutex, comes after and finds it.
 */
struct dmcfs_node *dmcfs_node_get(struct dmc_kobject *kobj, struct dmcfs_node *spare)
{
	struct dmcfs_node *n;

	lockdep_assert_held(&dmc_tree_mutex);
	spin_lock(&dmcfs_lock);
	n = dmcfs_node_find(kobj);
	if (n) {
		refcount_inc(&n->refs);
	} else if (spare) {
		n = spare;
		n->key = kobj;
		n->kobj = kobj;
		atomic_set(&n->active, 0);
		refcount_set(&n->refs, 1);	/* the caller's */
		spin_lock_init(&n->open_lock);
		INIT_LIST_HEAD(&n->opens);
		init_waitqueue_head(&n->poll_wq);
		hash_add_rcu(dmcfs_nodes, &n->hash, (unsigned long)kobj);
	}
	spin_unlock(&dmcfs_lock);
	return n;
}

/* Begin a use of @n's object: the object, or NULL once it left the tree. */
struct dmc_kobject *dmcfs_active_get(struct dmcfs_node *n)
{
	struct dmc_kobject *kobj;

	if (!atomic_inc_unless_negative(&n->active))
		return NULL;
	kobj = READ_ONCE(n->kobj);
	if (!kobj && atomic_dec_return(&n->active) == DMCFS_DEACTIVATED)
		wake_up_all(&dmcfs_drain_wq);
	if (kobj)
		dmcfs_active_acquire();
	return kobj;
}

void dmcfs_active_put(struct dmcfs_node *n)
{
	dmcfs_active_release();
	if (atomic_dec_return(&n->active) == DMCFS_DEACTIVATED)
		wake_up_all(&dmcfs_drain_wq);
}

/* The listener: deactivate under the tree mutex, drain after it. */
static void dmcfs_kobj_removed(struct dmc_listener *l, struct dmc_kobject *kobj)
{
	struct dmcfs_node *n;

	/* RCU: the last inode of the node may go once the lock is dropped. */
	rcu_read_lock();
	spin_lock(&dmcfs_lock);
	n = dmcfs_node_find(kobj);
	if (n && n->kobj) {
		WRITE_ONCE(n->kobj, NULL);
		atomic_add(DMCFS_DEACTIVATED, &n->active);
	}
	spin_unlock(&dmcfs_lock);
	if (n)
		wake_up_interruptible_all(&n->poll_wq);	/* POLLERR now */
	rcu_read_unlock();
}

static bool dmcfs_same_dir(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

/* dmc_sysfs_notify(): wake the pollers of that attribute; any context. */
static void dmcfs_attr_changed(struct dmc_listener *l, struct dmc_kobject *kobj,
			       const char *dir, const char *attr)
{
	struct dmcfs_open *of;
	struct dmcfs_node *n;
	unsigned long flags;
	bool woke = false;

	rcu_read_lock();
	n = dmcfs_node_find(kobj);
	if (n) {
		spin_lock_irqsave(&n->open_lock, flags);
		list_for_each_entry(of, &n->opens, node_entry) {
			if (strcmp(of->name, attr) || !dmcfs_same_dir(of->dir, dir))
				continue;
			atomic_inc(&of->event);
			woke = true;
		}
		spin_unlock_irqrestore(&n->open_lock, flags);
		if (woke)
			wake_up_interruptible_all(&n->poll_wq);
	}
	rcu_read_unlock();
}

static void dmcfs_kobj_gone(struct dmc_listener *l, struct dmc_kobject *kobj)
{
	struct dmcfs_node *n;

	/* Every deletion, so that lockdep learns what deleters hold. */
	dmcfs_drain_acquire();
	spin_lock(&dmcfs_lock);
	n = dmcfs_node_find(kobj);
	if (n && !n->kobj) {
		hash_del_rcu(&n->hash);	/* no lookup finds it again */
		refcount_inc(&n->refs);
	} else {
		n = NULL;
	}
	spin_unlock(&dmcfs_lock);
	if (n)
		wait_event(dmcfs_drain_wq,
			   atomic_read(&n->active) == DMCFS_DEACTIVATED);
	dmcfs_drain_release();
	dmcfs_node_put(n);
}

struct dmc_listener dmcfs_listener = {
	.kobj_removed = dmcfs_kobj_removed,
	.kobj_gone = dmcfs_kobj_gone,
	.attr_changed = dmcfs_attr_changed,
};
