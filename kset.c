// SPDX-License-Identifier: GPL-2.0
/*
 * Sets of kobjects; the counterpart of the kset half of lib/kobject.c.
 *
 * Where Linux's kset_find_obj() walks the member list, a dmcore kset keeps
 * its members in an indexed klist (klist.c), so finding a member by name
 * takes O(1) expected time whatever the size of the set, and walking the
 * set stays safe while members join and leave.
 *
 * Here: a kset's registration and its calls (get and put, find, count,
 * iteration), on top of kobject.c. Joining and leaving a kset, as an
 * object enters and leaves the tree, is kobject_tree.c's.
 */

#include <linux/export.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "base.h"

/* The release of the ksets made by __dmc_kset_create_and_add(). */
void dmc_kset_release(struct dmc_kobject *kobj)
{
	kfree(to_dmc_kset(kobj));
}

/* The type of ksets made by dmc_kset_create_and_add(). */
const struct dmc_kobj_type dmc_kset_ktype = {
	.name = "kset",
	.release = dmc_kset_release,
};

static bool dmc_kset_member_get(struct dmc_klist_node *n)
{
	return dmc_kobject_get_unless_zero(container_of(n, struct dmc_kobject,
							kset_node));
}

static void dmc_kset_member_put(struct dmc_klist_node *n)
{
	dmc_kobject_put(container_of(n, struct dmc_kobject, kset_node));
}

static const char *dmc_kset_member_name(const struct dmc_klist_node *n)
{
	return container_of(n, struct dmc_kobject, kset_node)->name;
}

/*
 * Set up the member list and, unless the kset was made by
 * __dmc_kset_create_and_add() without one, its name index; destroyed by
 * the kset's cleanup (kobject.c).
 */
static int dmc_kset_init_members(struct dmc_kset *kset)
{
	int err;

	err = dmc_klist_init(&kset->members, dmc_kset_member_get, dmc_kset_member_put,
			     dmc_kset_member_name,
			     !dmc_kobj_test_flag(&kset->kobj, DMC_KOBJ_KSET_UNINDEXED));
	if (err)
		return err;
	dmc_kobj_set_flag(&kset->kobj, DMC_KOBJ_IS_KSET);
	return 0;
}

/**
 * dmc_kset_get() - take a reference on a kset
 * @kset: the kset, or NULL
 *
 * Return: @kset, or NULL.
 */
struct dmc_kset *dmc_kset_get(struct dmc_kset *kset)
{
	return kset ? to_dmc_kset(dmc_kobject_get(&kset->kobj)) : NULL;
}
EXPORT_SYMBOL_GPL(dmc_kset_get);

/**
 * dmc_kset_put() - drop a reference on a kset
 * @kset: the kset, or NULL
 */
void dmc_kset_put(struct dmc_kset *kset)
{
	if (kset)
		dmc_kobject_put(&kset->kobj);
}
EXPORT_SYMBOL_GPL(dmc_kset_put);

/**
 * dmc_kset_register() - initialize and add a kset
 * @kset: the kset. The caller has set its name (dmc_kobject_set_name()),
 *	@kset->kobj.ktype (with a release that frees the kset) and may have
 *	set @kset->kobj.parent, @kset->kobj.kset and @kset->uevent_ops.
 *
 * Sends "add" for the kset when an ancestor gives it a subsystem. A
 * preset @kset->kobj.parent is the parent to add under; the reference on
 * it is taken by the add, so a failure anywhere leaves the parent's count
 * as it was (the kset's parent pointer is then NULL).
 *
 * Context: may sleep.
 * Return: 0 or a negative errno. On failure call dmc_kset_put(), except
 * for -EINVAL from a missing ktype or release, where nothing was taken
 * and the caller frees the kset itself, and for a kset registered
 * already, which stays as it was.
 */
int dmc_kset_register(struct dmc_kset *kset)
{
	struct dmc_kobject *parent;
	struct dmc_kset *subsys;
	int err;

	if (!kset)
		return -EINVAL;
	if (dmc_kobj_test_flag(&kset->kobj, DMC_KOBJ_IS_KSET)) {
		pr_err_ratelimited("dmcore: kset '%s' registered twice\n",
				   kset->kobj.name);
		return -EINVAL;
	}
	/*
	 * A preset parent is only named, not referenced: dmc_kobject_add()
	 * takes the reference, and keeps it only if it succeeds. Until then
	 * the kset must not point at it, or the put the caller makes after
	 * a failure (the release drops kobj->parent) would drop a reference
	 * nobody took.
	 */
	parent = kset->kobj.parent;
	kset->kobj.parent = NULL;
	if (!dmc_kobj_test_flag(&kset->kobj, DMC_KOBJ_INITIALIZED)) {
		err = dmc_kobject_init(&kset->kobj, kset->kobj.ktype);
		if (err)
			return err;
	}
	if (!kset->kobj.name) {
		pr_err_ratelimited("dmcore: kset %p registered without a name\n", kset);
		return -EINVAL;
	}
	err = dmc_kset_init_members(kset);
	if (err)
		return err;
	err = dmc_kobject_add(&kset->kobj, parent, NULL);
	if (err)
		return err;
	read_lock(&dmc_name_lock);
	subsys = dmc_kobject_subsystem_kset(&kset->kobj);
	read_unlock(&dmc_name_lock);
	if (subsys)
		dmc_kobject_uevent(&kset->kobj, DMC_KOBJ_ADD);
	return 0;
}
EXPORT_SYMBOL_GPL(dmc_kset_register);

/**
 * dmc_kset_unregister() - delete a kset and drop the registration reference
 * @kset: a registered kset, or NULL
 *
 * Members whose parent is the kset are deleted with it; members elsewhere
 * in the tree keep their reference on the kset until they leave it.
 *
 * Context: may sleep.
 */
void dmc_kset_unregister(struct dmc_kset *kset)
{
	if (!kset)
		return;
	dmc_kobject_del(&kset->kobj);
	dmc_kset_put(kset);
}
EXPORT_SYMBOL_GPL(dmc_kset_unregister);

/*
 * dmc_kset_create_and_add(), with a name index of the members or
 * without one (dmc_kset_find_obj() then walks them, as Linux's does):
 * the core's devices/ kset, of every device, serves no lookup, and an
 * index there would cost every device add and delete a hash operation.
 * @ktype: the kset's type, NULL for dmc_kset_ktype; its release must be
 * dmc_kset_release() (a bus's devices/ set has links: its own type).
 */
struct dmc_kset *__dmc_kset_create_and_add(const char *name,
					   const struct dmc_kset_uevent_ops *ops,
					   struct dmc_kobject *parent, bool indexed,
					   const struct dmc_kobj_type *ktype)
{
	struct dmc_kset *kset;
	int err;

	if (!name)
		return NULL;
	kset = kzalloc(sizeof(*kset), GFP_KERNEL);
	if (!kset)
		return NULL;
	err = dmc_kobject_set_name(&kset->kobj, "%s", name);
	if (err) {
		kfree(kset);
		return NULL;
	}
	kset->kobj.parent = parent;
	kset->uevent_ops = ops;
	err = dmc_kobject_init(&kset->kobj, ktype ?: &dmc_kset_ktype);
	if (err) {
		dmc_name_free(kset->kobj.name);
		kfree(kset);
		return NULL;
	}
	if (!indexed)
		dmc_kobj_set_flag(&kset->kobj, DMC_KOBJ_KSET_UNINDEXED);
	err = dmc_kset_register(kset);
	if (err) {
		dmc_kset_put(kset);
		return NULL;
	}
	return kset;
}

/**
 * dmc_kset_create_and_add() - allocate and register a kset
 * @name: its name
 * @ops: event hooks for its members, or NULL
 * @parent: parent kobject, or NULL for the top level
 *
 * Context: may sleep.
 * Return: the kset, holding one reference for the caller (end with
 * dmc_kset_unregister()), or NULL on any error (already logged).
 */
struct dmc_kset *dmc_kset_create_and_add(const char *name,
					 const struct dmc_kset_uevent_ops *ops,
					 struct dmc_kobject *parent)
{
	return __dmc_kset_create_and_add(name, ops, parent, true, NULL);
}
EXPORT_SYMBOL_GPL(dmc_kset_create_and_add);

/**
 * dmc_kset_find_obj() - find a member of a kset by name
 * @kset: the kset
 * @name: the member's name
 *
 * O(1) expected time (Linux walks the member list; so does the core's
 * own devices/ kset, which keeps no index). If several members
 * share the name (they then have different parents), any one of them is
 * returned.
 *
 * Context: any context that may take a spinlock.
 * Return: the member with a new reference (the caller puts it), or NULL.
 */
struct dmc_kobject *dmc_kset_find_obj(struct dmc_kset *kset, const char *name)
{
	struct dmc_klist_node *n;

	if (!kset || !name || !dmc_kobj_test_flag(&kset->kobj, DMC_KOBJ_IS_KSET))
		return NULL;
	n = dmc_klist_find(&kset->members, name);
	return n ? container_of(n, struct dmc_kobject, kset_node) : NULL;
}
EXPORT_SYMBOL_GPL(dmc_kset_find_obj);

/**
 * dmc_kset_count() - number of members
 * @kset: the kset
 *
 * Return: the member count at the time of the call.
 */
unsigned int dmc_kset_count(struct dmc_kset *kset)
{
	if (!kset || !dmc_kobj_test_flag(&kset->kobj, DMC_KOBJ_IS_KSET))
		return 0;
	return dmc_klist_count(&kset->members);
}
EXPORT_SYMBOL_GPL(dmc_kset_count);

/**
 * dmc_kset_iter_start() - begin a walk over a kset's members
 * @kset: a registered kset; the caller holds a reference for the walk
 * @iter: the iterator, owned by the caller
 *
 * Must be paired with dmc_kset_iter_exit().
 */
void dmc_kset_iter_start(struct dmc_kset *kset, struct dmc_kset_iter *iter)
{
	dmc_klist_iter_start(&kset->members, &iter->it);
}
EXPORT_SYMBOL_GPL(dmc_kset_iter_start);

/**
 * dmc_kset_iter_next() - the next member of the walk
 * @iter: an iterator started with dmc_kset_iter_start()
 *
 * Drops the reference on the member returned before. Members that left
 * the set are never returned once they left; members that joined behind
 * the cursor are returned in joining order.
 *
 * Context: may sleep (the previous member's put may release it).
 * Return: the next member, referenced until the next call or
 * dmc_kset_iter_exit(), or NULL at the end.
 */
struct dmc_kobject *dmc_kset_iter_next(struct dmc_kset_iter *iter)
{
	struct dmc_klist_node *n = dmc_klist_iter_next(&iter->it);

	return n ? container_of(n, struct dmc_kobject, kset_node) : NULL;
}
EXPORT_SYMBOL_GPL(dmc_kset_iter_next);

/**
 * dmc_kset_iter_exit() - end a walk
 * @iter: the iterator
 *
 * Drops the reference on the member returned last, if any.
 */
void dmc_kset_iter_exit(struct dmc_kset_iter *iter)
{
	dmc_klist_iter_exit(&iter->it);
}
EXPORT_SYMBOL_GPL(dmc_kset_iter_exit);
