/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dmcore ksets: a kobject that is also a set of kobjects. Counterpart of
 * struct kset in include/linux/kobject.h.
 *
 * A kset gives its members a subsystem for their events (and may filter,
 * rename or extend those events) and finds a member by name in O(1)
 * expected time through a hashed name index.
 */
#ifndef _DMCORE_KSET_H
#define _DMCORE_KSET_H

#include <dmcore/klist.h>
#include <dmcore/kobject.h>

/**
 * struct dmc_kset_uevent_ops - a kset's say in its members' events
 * @filter: return 0 to drop the event for @kobj, nonzero to send it
 * @name: return the SUBSYSTEM value for @kobj (default: the kset's name)
 * @uevent: add variables with dmc_add_uevent_var(); a negative return
 *	cancels the event and is passed to the sender
 *
 * All three are called without core locks held and may sleep. As in
 * Linux, an event holds no reference on the kset while it calls them (the
 * kset may be unregistered meanwhile): the ops, and the string @name
 * returns, must live as long as the module that provides them.
 */
struct dmc_kset_uevent_ops {
	int (*filter)(const struct dmc_kobject *kobj);
	const char *(*name)(const struct dmc_kobject *kobj);
	int (*uevent)(const struct dmc_kobject *kobj,
		      struct dmc_uevent_env *env);
};

/**
 * struct dmc_kset - a set of kobjects
 * @kobj: the kset's own kobject (its directory and refcount)
 * @uevent_ops: event hooks for members, or NULL
 * @members: the members, indexed by name; private to the core
 */
struct dmc_kset {
	struct dmc_kobject kobj;
	const struct dmc_kset_uevent_ops *uevent_ops;
	struct dmc_klist members;
};

/**
 * struct dmc_kset_iter - position of a walk over a kset's members
 * @it: the underlying klist walk; private to the core
 *
 * The walk is safe against members joining and leaving: the iterator keeps
 * a cursor in the member list and a reference on the member it returned
 * last. Initialize with dmc_kset_iter_start(), always end with
 * dmc_kset_iter_exit().
 */
struct dmc_kset_iter {
	struct dmc_klist_iter it;
};

static inline struct dmc_kset *to_dmc_kset(struct dmc_kobject *kobj)
{
	return kobj ? container_of(kobj, struct dmc_kset, kobj) : NULL;
}

int dmc_kset_register(struct dmc_kset *kset);
void dmc_kset_unregister(struct dmc_kset *kset);
struct dmc_kset *dmc_kset_create_and_add(const char *name,
					 const struct dmc_kset_uevent_ops *ops,
					 struct dmc_kobject *parent);
struct dmc_kset *dmc_kset_get(struct dmc_kset *kset);
void dmc_kset_put(struct dmc_kset *kset);
struct dmc_kobject *dmc_kset_find_obj(struct dmc_kset *kset, const char *name);
unsigned int dmc_kset_count(struct dmc_kset *kset);

void dmc_kset_iter_start(struct dmc_kset *kset, struct dmc_kset_iter *iter);
struct dmc_kobject *dmc_kset_iter_next(struct dmc_kset_iter *iter);
void dmc_kset_iter_exit(struct dmc_kset_iter *iter);

#endif /* _DMCORE_KSET_H */
