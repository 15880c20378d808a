/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dmcore's private header.
 *
 * Nothing outside of the dmcore core (the .c files at the top of this
 * tree) should ever include this file or touch these fields, just as
 * with the private header of Linux's drivers/base/.
 *
 * Locking, outermost first. A lock may be taken while holding any lock
 * above it, never one below it.
 *
 *   dmc_tree_mutex   (mutex)    the shape of the tree: DMC_KOBJ_IN_TREE,
 *                               kobj->children/sibling, the (parent, name)
 *                               index, the root list, and the listener list
 *                               for tree callbacks. Held across tree
 *                               listener callbacks; never across events or
 *                               any caller-supplied callback.
 *   dmc_event_mutex  (mutex)    SEQNUM assignment and the listener list for
 *                               uevent callbacks, so listeners see events
 *                               in SEQNUM order.
 *   dmc_ring_lock    (spinlock) the event log ring and its counters.
 *   klist->lock      (spinlock) a klist's members, index and cursors
 *                               (kset members, bus devices and drivers...).
 *   dmc_name_lock    (rwlock)   kobj->name and kobj->parent of objects in
 *                               the tree, so a path can be built while a
 *                               rename or move runs elsewhere.
 *   dmc_live_lock    (spinlock) the list of live kobjects (leak report).
 *
 * kobj->kref and kobj->flags are atomic. kobj->kset and kobj->ktype are
 * written only before the object is added.
 */
#ifndef _DMCORE_BASE_H
#define _DMCORE_BASE_H

#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/bug.h>
#include <dmcore/kobject.h>
#include <dmcore/kset.h>
#include <dmcore/event.h>

extern struct mutex dmc_tree_mutex;
extern rwlock_t dmc_name_lock;

/*
 * DMC_MISUSE - report a caller's misuse of the API: a rate-limited WARN
 * (with a backtrace pointing at the caller) that is also counted, so tests
 * can check it fired.
 */
void dmc_count_misuse(void);
#define DMC_MISUSE(cond, fmt, ...)					\
({									\
	bool __c = !!(cond);						\
	if (unlikely(__c)) {						\
		dmc_count_misuse();					\
		WARN_RATELIMIT(1, "dmcore: " fmt, ##__VA_ARGS__);	\
	}								\
	unlikely(__c);							\
})

/* kobject.c */
int dmc_kobject_tree_init(void);
void dmc_kobject_tree_exit(void);
unsigned long dmc_kobject_live_count(void);
unsigned long dmc_kobject_report_leaks(void);
int dmc_kobject_check_name(const char *name);
void dmc_tree_replay(struct dmc_listener *l);
int dmc_kobject_swap_name(struct dmc_kobject *kobj, char *name,
			  const char **old_name);

/* klist.c */
int dmc_klist_init(struct dmc_klist *k,
		   bool (*get)(struct dmc_klist_node *n),
		   void (*put)(struct dmc_klist_node *n));
void dmc_klist_destroy(struct dmc_klist *k);
int dmc_klist_add(struct dmc_klist *k, struct dmc_klist_node *n,
		  const char * const *name, bool unique);
bool dmc_klist_del(struct dmc_klist *k, struct dmc_klist_node *n);
bool dmc_klist_node_attached(struct dmc_klist_node *n);
int dmc_klist_rename(struct dmc_klist *k, struct dmc_klist_node *n,
		     int (*rename)(void *arg), void *arg);
struct dmc_klist_node *dmc_klist_find(struct dmc_klist *k, const char *name);
unsigned int dmc_klist_count(struct dmc_klist *k);
void dmc_klist_iter_start(struct dmc_klist *k, struct dmc_klist_iter *it);
struct dmc_klist_node *dmc_klist_iter_next(struct dmc_klist_iter *it);
void dmc_klist_iter_exit(struct dmc_klist_iter *it);

/* kset.c */
int dmc_kset_join(struct dmc_kobject *kobj);
void dmc_kset_leave(struct dmc_kobject *kobj);
int dmc_kset_rename_member(struct dmc_kobject *kobj, char *new_name,
			   const char **old_name);
void dmc_kset_cleanup(struct dmc_kset *kset);
extern const struct dmc_kobj_type dmc_kset_ktype;

/* event.c */
struct dmc_kset *dmc_kobject_subsystem_kset(const struct dmc_kobject *kobj);
int dmc_event_init(unsigned int capacity);
void dmc_event_exit(void);
void dmc_listeners_kobj_added(struct dmc_kobject *kobj);
void dmc_listeners_kobj_removed(struct dmc_kobject *kobj);
void dmc_listeners_kobj_renamed(struct dmc_kobject *kobj, const char *old);
void dmc_listeners_kobj_moved(struct dmc_kobject *kobj,
			      struct dmc_kobject *old_parent);

/* dm_core.c: the roots of the tree */
extern struct dmc_kset *dmc_devices_kset;
extern struct dmc_kset *dmc_bus_kset;
extern struct dmc_kset *dmc_class_kset;

/* sysfs_export.c: the debugfs mirror, a listener like any other */
int dmc_export_init(void);
void dmc_export_exit(void);

#endif /* _DMCORE_BASE_H */
