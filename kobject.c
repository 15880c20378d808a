// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore's refcounted, named, parented objects; the counterpart of the
 * kobject code in Linux's lib/.
 *
 * Names are unique among siblings. Linux learns of a duplicate only when
 * sysfs refuses the directory; dmcore keeps one hashed index keyed by
 * (parent, name), so a duplicate is found in O(1) expected time, before
 * anything changed, and the index also serves dmc_kobject_find_child().
 *
 * The tree keeps one invariant: the parent of an object in the tree is in
 * the tree. Deleting a parent therefore deletes its children first.
 */

#include <linux/delay.h>
#include <linux/export.h>
#include <linux/hash.h>
#include <linux/jhash.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/ratelimit.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "base.h"

/*
 * dmcore's CONFIG_DEBUG_KOBJECT_RELEASE: with release_delay_ms set, a
 * kobject's release runs that long after its last put, from a worker, so
 * that whoever still uses the object after its last put touches memory
 * that is still there but already dead (a refcount_t warning on a get,
 * a misuse WARN on a put) or, once the release ran, freed (KASAN).
 */
#define DMC_RELEASE_DELAY_MAX_MS	10000

static unsigned int release_delay_ms;
module_param(release_delay_ms, uint, 0444);
MODULE_PARM_DESC(release_delay_ms,
		 "run each kobject's release this many ms after its last put (0: at once; at most 10000), to catch use after the last put");

/* The shape of the tree and the tree listeners; see base.h. */
DEFINE_MUTEX(dmc_tree_mutex);
DEFINE_RWLOCK(dmc_name_lock);

/* Top-level objects (no parent): the children of the tree's root. */
LIST_HEAD(dmc_roots);

/* Every initialized kobject, for the leak report at module exit. */
static DEFINE_SPINLOCK(dmc_live_lock);
static LIST_HEAD(dmc_live);
static unsigned long dmc_live_nr;

static atomic_long_t dmc_misuse_nr = ATOMIC_LONG_INIT(0);

void dmc_count_misuse(void)
{
	atomic_long_inc(&dmc_misuse_nr);
}

/**
 * dmc_misuse_count() - how many misuse WARNs the core has raised
 *
 * Every WARN the core raises at a caller's mistake (an uninitialized
 * object, a type without release, a put of a dead object...) increments
 * this counter, rate limit or not. Tests read it to check that a misuse
 * was detected.
 *
 * Return: the number of misuse reports since the module was loaded.
 */
unsigned long dmc_misuse_count(void)
{
	return atomic_long_read(&dmc_misuse_nr);
}
EXPORT_SYMBOL_GPL(dmc_misuse_count);

/* ---- the (parent, name) index ---------------------------------------- */

struct dmc_sib_key {
	const struct dmc_kobject *parent;
	const char *name;
};

static u32 dmc_sib_hash(const struct dmc_kobject *parent, const char *name,
			u32 seed)
{
	return jhash(name, strlen(name), seed ^ hash_ptr(parent, 32));
}

static u32 dmc_sib_hashfn(const void *data, u32 len, u32 seed)
{
	const struct dmc_sib_key *key = data;

	return dmc_sib_hash(key->parent, key->name, seed);
}

static u32 dmc_sib_obj_hashfn(const void *data, u32 len, u32 seed)
{
	const struct dmc_kobject *kobj = data;

	return dmc_sib_hash(kobj->parent, kobj->name, seed);
}

static int dmc_sib_cmpfn(struct rhashtable_compare_arg *arg, const void *obj)
{
	const struct dmc_sib_key *key = arg->key;
	const struct dmc_kobject *kobj = obj;

	return kobj->parent != key->parent || strcmp(kobj->name, key->name);
}

static const struct rhashtable_params dmc_sib_params = {
	.head_offset = offsetof(struct dmc_kobject, sib_node),
	.hashfn = dmc_sib_hashfn,
	.obj_hashfn = dmc_sib_obj_hashfn,
	.obj_cmpfn = dmc_sib_cmpfn,
	.automatic_shrinking = true,
};

static struct rhashtable dmc_sib_index;

/* Caller holds dmc_tree_mutex. */
static struct dmc_kobject *dmc_sib_lookup(const struct dmc_kobject *parent,
					  const char *name)
{
	struct dmc_sib_key key = { .parent = parent, .name = name };

	return rhashtable_lookup_fast(&dmc_sib_index, &key, dmc_sib_params);
}

/* ---- names ------------------------------------------------------------ */

/**
 * dmc_kobject_check_name() - is @name acceptable as a kobject name?
 * @name: candidate, after '/' replacement
 *
 * Return: 0, -EINVAL for an empty name, -ENAMETOOLONG past DMC_NAME_MAX.
 */
int dmc_kobject_check_name(const char *name)
{
	size_t len = strnlen(name, DMC_NAME_MAX + 1);

	if (!len)
		return -EINVAL;
	if (len > DMC_NAME_MAX)
		return -ENAMETOOLONG;
	return 0;
}

/* One group of the parent: does it give a file or directory @data? */
static int dmc_name_in_group(struct dmc_kobject *kobj,
			     const struct dmc_attribute_group *grp, void *data)
{
	struct dmc_attribute **a;

	if (grp->name)
		return !strcmp(grp->name, data);
	for (a = grp->attrs; a && *a; a++)
		if (!strcmp((*a)->name, data))
			return 1;
	return 0;
}

/**
 * dmc_kobject_name_reserved() - is @name one of @parent's own entries?
 * @parent: a kobject, or NULL for the top level
 * @name: a candidate name for a child of @parent, or for a link in it
 *
 * The model's reserved names. An object's directory holds its children,
 * its attributes (a named group is a subdirectory) and the links the
 * core makes in it; these share one namespace, as in sysfs, so a child
 * may not take the name of an attribute or attribute group of its
 * parent, nor, under a device, "driver" or "subsystem" (the links of a
 * device). The same rule refuses to bind a device named like a file of
 * the driver (bind, unbind, uevent, the driver's own attributes), where
 * the driver's link to the device would go. Enforced by the core, with
 * or without the debugfs export.
 *
 * Return: true if @name is reserved under @parent.
 */
bool dmc_kobject_name_reserved(struct dmc_kobject *parent, const char *name)
{
	static const char * const dev_links[] = { "driver", "subsystem" };
	unsigned int i;

	if (!parent || !name)
		return false;
	if (dmc_kobject_is_device(parent))
		for (i = 0; i < ARRAY_SIZE(dev_links); i++)
			if (!strcmp(name, dev_links[i]))
				return true;
	return dmc_kobject_walk_groups(parent, (void *)name, dmc_name_in_group) > 0;
}

/* Format a name, replace '/' (a path separator) with '!', as Linux does. */
static __printf(1, 0) char *dmc_format_name(const char *fmt, va_list vargs,
					    int *err)
{
	char *name;

	name = kvasprintf(GFP_KERNEL, fmt, vargs);
	if (!name) {
		*err = -ENOMEM;
		return NULL;
	}
	strreplace(name, '/', '!');
	*err = dmc_kobject_check_name(name);
	if (*err) {
		pr_err_ratelimited("dmcore: bad kobject name '%.32s%s': %s\n",
				   name, strlen(name) > 32 ? "..." : "",
				   *err == -EINVAL ? "empty" : "too long");
		kfree(name);
		return NULL;
	}
	return name;
}

static __printf(2, 0) int dmc_kobject_set_name_vargs(struct dmc_kobject *kobj,
						     const char *fmt,
						     va_list vargs)
{
	const char *old;
	char *name;
	int err;

	if (!fmt) {
		pr_err_ratelimited("dmcore: kobject name format is NULL\n");
		return -EINVAL;
	}
	name = dmc_format_name(fmt, vargs, &err);
	if (!name)
		return err;
	old = kobj->name;
	kobj->name = name;
	kfree(old);
	return 0;
}

/**
 * dmc_kobject_set_name() - set the name of a kobject not yet in the tree
 * @kobj: the object; must not be in the tree (use dmc_kobject_rename())
 * @fmt: printf-style format of the name
 *
 * A '/' in the result is replaced by '!'. The name is freed when the
 * object is released.
 *
 * Return: 0, -EINVAL (NULL @kobj, empty name, object in the tree),
 * -ENAMETOOLONG or -ENOMEM; on error the old name is kept.
 */
int dmc_kobject_set_name(struct dmc_kobject *kobj, const char *fmt, ...)
{
	va_list vargs;
	int err;

	if (!kobj)
		return -EINVAL;
	if (dmc_kobject_in_tree(kobj)) {
		pr_err_ratelimited("dmcore: set_name on '%s' in the tree; use rename\n",
				   kobj->name);
		return -EINVAL;
	}
	va_start(vargs, fmt);
	err = dmc_kobject_set_name_vargs(kobj, fmt, vargs);
	va_end(vargs);
	return err;
}
EXPORT_SYMBOL_GPL(dmc_kobject_set_name);

/* ---- init, get, put ---------------------------------------------------- */

static const char *dmc_ktype_name(const struct dmc_kobject *kobj)
{
	return kobj->ktype && kobj->ktype->name ? kobj->ktype->name : "kobject";
}

/**
 * dmc_kobject_init() - initialize a kobject embedded in a larger structure
 * @kobj: the object, zeroed memory apart from a name or kset the caller
 *	may already have set
 * @ktype: its type; must have a release function
 *
 * On success the object holds one reference, owned by the caller: from
 * now on only dmc_kobject_put() may free it (through @ktype->release).
 * Typically followed by dmc_kobject_add().
 *
 * Return: 0; -EINVAL (with a WARN) if @ktype or its release is missing,
 * -EALREADY (with a WARN) if @kobj was already initialized. On error
 * nothing was taken: the caller frees its memory itself.
 */
int dmc_kobject_init(struct dmc_kobject *kobj, const struct dmc_kobj_type *ktype)
{
	if (!kobj) {
		pr_err_ratelimited("dmcore: init of a NULL kobject\n");
		return -EINVAL;
	}
	if (DMC_MISUSE(!ktype || !ktype->release,
		       "kobject '%s' (%p): type %s has no release function, refused\n",
		       kobj->name ?: "(unnamed)", kobj,
		       ktype ? (ktype->name ?: "(unnamed)") : "(NULL)"))
		return -EINVAL;
	if (DMC_MISUSE(dmc_kobj_test_flag(kobj, DMC_KOBJ_INITIALIZED),
		       "kobject '%s' (%p): initialized twice\n",
		       kobj->name ?: "(unnamed)", kobj))
		return -EALREADY;

	kref_init(&kobj->kref);
	kobj->ktype = ktype;
	INIT_LIST_HEAD(&kobj->children);
	INIT_LIST_HEAD(&kobj->sibling);
	atomic_set(&kobj->flags, BIT(DMC_KOBJ_INITIALIZED) |
		   (atomic_read(&kobj->flags) & BIT(DMC_KOBJ_UEVENT_SUPPRESS)));

	spin_lock(&dmc_live_lock);
	list_add_tail(&kobj->live, &dmc_live);
	dmc_live_nr++;
	spin_unlock(&dmc_live_lock);
	return 0;
}
EXPORT_SYMBOL_GPL(dmc_kobject_init);

/**
 * dmc_kobject_get() - take a reference
 * @kobj: the object, or NULL
 *
 * The caller must already hold a reference (or otherwise know the object
 * cannot be released meanwhile); to take one from a lookup where the
 * object may be dying, use dmc_kobject_get_unless_zero().
 *
 * Return: @kobj, or NULL for NULL or (with a WARN) an uninitialized object.
 */
struct dmc_kobject *dmc_kobject_get(struct dmc_kobject *kobj)
{
	if (!kobj)
		return NULL;
	if (DMC_MISUSE(!dmc_kobj_test_flag(kobj, DMC_KOBJ_INITIALIZED),
		       "get of uninitialized kobject '%s' (%p)\n",
		       kobj->name ?: "(unnamed)", kobj))
		return NULL;
	kref_get(&kobj->kref);
	return kobj;
}
EXPORT_SYMBOL_GPL(dmc_kobject_get);

/**
 * dmc_kobject_get_unless_zero() - take a reference unless the object dies
 * @kobj: the object, or NULL; its memory must be valid (found under a lock
 *	that its removal takes)
 *
 * Return: @kobj with a new reference, or NULL if its count already
 * reached zero (its release is running or about to).
 */
struct dmc_kobject *dmc_kobject_get_unless_zero(struct dmc_kobject *kobj)
{
	if (!kobj)
		return NULL;
	if (!kref_get_unless_zero(&kobj->kref))
		return NULL;
	return kobj;
}
EXPORT_SYMBOL_GPL(dmc_kobject_get_unless_zero);

/**
 * dmc_kobject_refcount() - current reference count, for tests and reports
 * @kobj: the object
 *
 * Return: the count; only a snapshot.
 */
unsigned int dmc_kobject_refcount(const struct dmc_kobject *kobj)
{
	return kobj ? kref_read(&kobj->kref) : 0;
}
EXPORT_SYMBOL_GPL(dmc_kobject_refcount);

static void dmc_kobject_del_one(struct dmc_kobject *kobj);

/* The count reached zero: delete, release, and return the parent to put. */
static struct dmc_kobject *dmc_kobject_cleanup(struct dmc_kobject *kobj)
{
	const struct dmc_kobj_type *ktype = kobj->ktype;
	struct dmc_kobject *parent = kobj->parent;
	const char *name = kobj->name;

	pr_debug("dmcore: releasing %s '%s'\n", dmc_ktype_name(kobj), name);

	/* Dropped without dmc_kobject_del(): delete now, as Linux does. */
	if (dmc_kobject_in_tree(kobj)) {
		dmc_kobj_set_flag(kobj, DMC_KOBJ_DELETED);
		dmc_kobject_del_one(kobj);
	}

	spin_lock(&dmc_live_lock);
	list_del(&kobj->live);
	dmc_live_nr--;
	spin_unlock(&dmc_live_lock);

	if (dmc_kobj_test_flag(kobj, DMC_KOBJ_IS_KSET))
		dmc_kset_cleanup(to_dmc_kset(kobj));

	/* Only the type frees; the name and the parent go after it. */
	ktype->release(kobj);
	kfree(name);
	return parent;
}

/* ---- delayed release (release_delay_ms) --------------------------------- */

/*
 * A release waiting for its time. The list is in put order, and so in
 * due order since the delay is fixed at load; one worker takes the due
 * ones from its head. Items are allocated at the last put so that the
 * kobject itself stays as small as without the option.
 */
struct dmc_release_item {
	struct list_head node;
	struct dmc_kobject *kobj;
	unsigned long due;		/* jiffies */
};

static DEFINE_SPINLOCK(dmc_release_lock);
static LIST_HEAD(dmc_release_list);
static unsigned long dmc_release_nr;	/* queued or running, under the lock */
static unsigned int dmc_release_flushing; /* flushers; under the lock */
static DECLARE_WAIT_QUEUE_HEAD(dmc_release_wait);
static struct workqueue_struct *dmc_release_wq;

static void dmc_release_worker(struct work_struct *work);
static DECLARE_DELAYED_WORK(dmc_release_work, dmc_release_worker);

/*
 * The count of @kobj reached zero: queue its release for later. Return
 * false to release it now (no delay, or no memory for the queue item).
 */
static bool dmc_kobject_release_later(struct dmc_kobject *kobj)
{
	unsigned long delay = msecs_to_jiffies(release_delay_ms);
	struct dmc_release_item *item;
	bool first;

	if (!release_delay_ms || !dmc_release_wq)
		return false;
	item = kmalloc(sizeof(*item), GFP_KERNEL);
	if (!item)
		return false;
	item->kobj = kobj;
	item->due = jiffies + delay;
	spin_lock(&dmc_release_lock);
	first = list_empty(&dmc_release_list);
	list_add_tail(&item->node, &dmc_release_list);
	dmc_release_nr++;
	/* A later item never makes the worker run earlier than the first. */
	if (first)
		queue_delayed_work(dmc_release_wq, &dmc_release_work,
				   dmc_release_flushing ? 0 : delay);
	spin_unlock(&dmc_release_lock);
	pr_debug("dmcore: release of %s '%s' in %u ms\n", kobj->ktype->name,
		 kobj->name, release_delay_ms);
	return true;
}

/* Run the releases that are due (all of them while someone flushes). */
static void dmc_release_worker(struct work_struct *work)
{
	struct dmc_release_item *item;
	struct dmc_kobject *kobj;

	spin_lock(&dmc_release_lock);
	while ((item = list_first_entry_or_null(&dmc_release_list,
						struct dmc_release_item, node))) {
		if (!dmc_release_flushing && time_before(jiffies, item->due)) {
			queue_delayed_work(dmc_release_wq, &dmc_release_work,
					   item->due - jiffies);
			break;
		}
		list_del(&item->node);
		spin_unlock(&dmc_release_lock);

		kobj = item->kobj;
		kfree(item);
		/* As the last put would have: release, then the parent. */
		dmc_kobject_put(dmc_kobject_cleanup(kobj));

		spin_lock(&dmc_release_lock);
		if (!--dmc_release_nr)
			wake_up_all(&dmc_release_wait);
	}
	spin_unlock(&dmc_release_lock);
}

static bool dmc_release_idle(void)
{
	bool idle;

	spin_lock(&dmc_release_lock);
	idle = !dmc_release_nr;
	spin_unlock(&dmc_release_lock);
	return idle;
}

/**
 * dmc_kobject_flush_releases() - run every delayed release now and wait
 *
 * With the module parameter release_delay_ms set, a kobject's release
 * runs that long after its last put. This runs every release still
 * waiting at once, and those they cause (a parent whose last reference
 * was its child's), and returns when none is left. Without the parameter
 * every release already ran at its last put and this returns at once.
 *
 * For tests that check a release ran, and for module exit before the
 * leak report. Whoever calls it must hold no lock a release may take.
 *
 * Context: may sleep.
 */
void dmc_kobject_flush_releases(void)
{
	might_sleep();
	if (!dmc_release_wq)
		return;
	spin_lock(&dmc_release_lock);
	if (!dmc_release_nr) {
		spin_unlock(&dmc_release_lock);
		return;
	}
	dmc_release_flushing++;
	mod_delayed_work(dmc_release_wq, &dmc_release_work, 0);
	spin_unlock(&dmc_release_lock);

	wait_event(dmc_release_wait, dmc_release_idle());

	spin_lock(&dmc_release_lock);
	dmc_release_flushing--;
	spin_unlock(&dmc_release_lock);
}
EXPORT_SYMBOL_GPL(dmc_kobject_flush_releases);

/**
 * dmc_kobject_release_delay_ms() - the release delay dmcore was loaded with
 *
 * Return: the module parameter release_delay_ms: 0 when a release runs
 * at the last put, else how many milliseconds after it.
 */
unsigned int dmc_kobject_release_delay_ms(void)
{
	return release_delay_ms;
}
EXPORT_SYMBOL_GPL(dmc_kobject_release_delay_ms);

/**
 * dmc_kobject_put() - drop a reference
 * @kobj: the object, or NULL
 *
 * The last put deletes the object if it is still in the tree (sending
 * "remove" if "add" was sent), runs its type's release, frees its name
 * and only then drops its reference on the parent, so that a parent
 * always outlives its children. May sleep.
 *
 * A put on an object whose count is already zero is reported with a WARN
 * and ignored, as far as it can be detected (the memory must still be
 * valid for that).
 *
 * Releasing a parent whose last reference was its child's continues in a
 * loop here rather than by recursion, so a long chain of objects cannot
 * overflow the stack.
 *
 * With the module parameter release_delay_ms set, all of this (delete,
 * release, the parent's put) runs that long later in a worker instead,
 * as Linux does under CONFIG_DEBUG_KOBJECT_RELEASE: the object must not
 * be touched after the last put either way. dmc_kobject_flush_releases()
 * waits for those still pending.
 */
void dmc_kobject_put(struct dmc_kobject *kobj)
{
	might_sleep();
	while (kobj) {
		if (DMC_MISUSE(!dmc_kobj_test_flag(kobj, DMC_KOBJ_INITIALIZED),
			       "put of uninitialized kobject '%s' (%p)\n",
			       kobj->name ?: "(unnamed)", kobj))
			return;
		if (DMC_MISUSE(!kref_read(&kobj->kref),
			       "put of dead kobject '%s' (%p)\n",
			       kobj->name ?: "(unnamed)", kobj))
			return;
		if (!refcount_dec_and_test(&kobj->kref.refcount))
			return;
		if (dmc_kobject_release_later(kobj))
			return;
		kobj = dmc_kobject_cleanup(kobj);
	}
}
EXPORT_SYMBOL_GPL(dmc_kobject_put);

/* ---- add and del -------------------------------------------------------- */

static int __dmc_kobject_add(struct dmc_kobject *kobj)
{
	struct dmc_kobject *parent = kobj->parent;
	struct dmc_sib_key key = { .parent = parent, .name = kobj->name };
	int err;

	mutex_lock(&dmc_tree_mutex);
	if (parent && (!dmc_kobject_in_tree(parent) ||
		       dmc_kobj_test_flag(parent, DMC_KOBJ_DELETED))) {
		pr_err_ratelimited("dmcore: cannot add '%s': parent '%s' is not in the tree\n",
				   kobj->name, parent->name);
		err = -ENOENT;
		goto out_unlock;
	}
	if (dmc_kobject_name_reserved(parent, kobj->name)) {
		pr_err_ratelimited("dmcore: cannot add '%s': '%s' has a file or link of that name\n",
				   kobj->name, parent->name);
		err = -EEXIST;
		goto out_unlock;
	}
	err = rhashtable_lookup_insert_key(&dmc_sib_index, &key, &kobj->sib_node,
					   dmc_sib_params);
	if (err) {
		if (err == -EEXIST)
			pr_err_ratelimited("dmcore: cannot add '%s': '%s%s%s' exists\n",
					   kobj->name, parent ? parent->name : "",
					   parent ? "/" : "", kobj->name);
		goto out_unlock;
	}
	err = dmc_kset_join(kobj);
	if (err)
		goto out_unindex;

	list_add_tail(&kobj->sibling, parent ? &parent->children : &dmc_roots);
	dmc_kobj_set_flag(kobj, DMC_KOBJ_IN_TREE);
	dmc_listeners_kobj_added(kobj);
	mutex_unlock(&dmc_tree_mutex);
	return 0;

out_unindex:
	rhashtable_remove_fast(&dmc_sib_index, &kobj->sib_node, dmc_sib_params);
out_unlock:
	mutex_unlock(&dmc_tree_mutex);
	return err;
}

static __printf(3, 0) int dmc_kobject_add_vargs(struct dmc_kobject *kobj,
						struct dmc_kobject *parent,
						const char *fmt, va_list vargs)
{
	int err;

	if (!kobj)
		return -EINVAL;
	if (DMC_MISUSE(!dmc_kobj_test_flag(kobj, DMC_KOBJ_INITIALIZED),
		       "add of uninitialized kobject '%s' (%p)\n",
		       kobj->name ?: "(unnamed)", kobj))
		return -EINVAL;
	if (dmc_kobj_test_flag(kobj, DMC_KOBJ_IN_TREE) ||
	    dmc_kobj_test_flag(kobj, DMC_KOBJ_DELETED)) {
		pr_err_ratelimited("dmcore: kobject '%s' added twice\n", kobj->name);
		return -EINVAL;
	}

	err = dmc_kobject_set_name_vargs(kobj, fmt, vargs);
	if (err)
		return err;

	if (!parent && kobj->kset)
		parent = &kobj->kset->kobj;
	kobj->parent = dmc_kobject_get(parent);

	err = __dmc_kobject_add(kobj);
	if (err) {
		kobj->parent = NULL;
		dmc_kobject_put(parent);
	}
	return err;
}

/**
 * dmc_kobject_add() - name a kobject and put it into the tree
 * @kobj: an initialized object, not yet added
 * @parent: its parent, or NULL: then the kobject's kset (if set) is the
 *	parent, else the object is top-level
 * @fmt: printf-style format of the name; a '/' is replaced by '!'
 *
 * Takes a reference on the parent, held until @kobj is released, and on
 * the kset while @kobj is a member. Does not send the "add" event: send
 * it with dmc_kobject_uevent() once the object is set up, as Linux does.
 *
 * Whatever the result, the caller still holds its reference and ends with
 * dmc_kobject_put(); after a failure that is the only call allowed.
 *
 * Context: may sleep; takes dmc_tree_mutex.
 * Return: 0, or -EINVAL (bad name, uninitialized object, added before),
 * -ENAMETOOLONG, -ENOENT (parent not in the tree), -EEXIST (a sibling has
 * that name), -ENOMEM.
 */
int dmc_kobject_add(struct dmc_kobject *kobj, struct dmc_kobject *parent,
		    const char *fmt, ...)
{
	va_list vargs;
	int err;

	va_start(vargs, fmt);
	err = dmc_kobject_add_vargs(kobj, parent, fmt, vargs);
	va_end(vargs);
	return err;
}
EXPORT_SYMBOL_GPL(dmc_kobject_add);

/**
 * dmc_kobject_init_and_add() - dmc_kobject_init() then dmc_kobject_add()
 * @kobj: the object
 * @ktype: its type, with a release
 * @parent: parent or NULL, as for dmc_kobject_add()
 * @fmt: name format
 *
 * Return: 0 or a negative errno. If initialization failed (-EINVAL for a
 * type without release, -EALREADY) nothing was taken and the caller frees
 * its memory; if the add failed the caller must dmc_kobject_put().
 */
int dmc_kobject_init_and_add(struct dmc_kobject *kobj,
			     const struct dmc_kobj_type *ktype,
			     struct dmc_kobject *parent, const char *fmt, ...)
{
	va_list vargs;
	int err;

	err = dmc_kobject_init(kobj, ktype);
	if (err)
		return err;
	va_start(vargs, fmt);
	err = dmc_kobject_add_vargs(kobj, parent, fmt, vargs);
	va_end(vargs);
	return err;
}
EXPORT_SYMBOL_GPL(dmc_kobject_init_and_add);

/* Take @kobj out of the tree; its children are already out. */
static void __dmc_kobject_del(struct dmc_kobject *kobj)
{
	mutex_lock(&dmc_tree_mutex);
	if (!dmc_kobj_test_and_clear_flag(kobj, DMC_KOBJ_IN_TREE)) {
		mutex_unlock(&dmc_tree_mutex);
		return;
	}
	WARN_ON(!list_empty(&kobj->children));
	dmc_listeners_kobj_removed(kobj);
	list_del_init(&kobj->sibling);
	rhashtable_remove_fast(&dmc_sib_index, &kobj->sib_node, dmc_sib_params);
	mutex_unlock(&dmc_tree_mutex);
	/* Outside the tree lock: dropping the kset may free it. */
	dmc_kset_leave(kobj);
}

/*
 * The deepest in-tree descendant of @kobj, referenced; NULL if none. A
 * descendant whose last reference is gone is being deleted by its own
 * release: wait for that to finish rather than touch it.
 */
static struct dmc_kobject *dmc_first_leaf(struct dmc_kobject *kobj)
{
	struct dmc_kobject *pos, *leaf;

	for (;;) {
		mutex_lock(&dmc_tree_mutex);
		pos = kobj;
		while (!list_empty(&pos->children))
			pos = list_first_entry(&pos->children,
					       struct dmc_kobject, sibling);
		leaf = pos == kobj ? NULL : dmc_kobject_get_unless_zero(pos);
		mutex_unlock(&dmc_tree_mutex);
		if (leaf || pos == kobj)
			return leaf;
		usleep_range(500, 1000);
	}
}

/* Send "remove" once if "add" went out, then leave the tree. */
static void dmc_kobject_del_one(struct dmc_kobject *kobj)
{
	if (dmc_kobj_test_flag(kobj, DMC_KOBJ_ADD_SENT) &&
	    !dmc_kobj_test_and_set_flag(kobj, DMC_KOBJ_REMOVE_SENT))
		dmc_kobject_uevent(kobj, DMC_KOBJ_REMOVE);
	__dmc_kobject_del(kobj);
}

/**
 * dmc_kobject_del() - take a kobject out of the tree
 * @kobj: the object, or NULL
 *
 * Sends "remove" if "add" was sent, leaves the kset (dropping that
 * reference) and removes the object from the tree; an object cannot be
 * added again afterwards. Children still in the tree are deleted first,
 * deepest first, each with its own "remove" event, so that nothing in the
 * tree ever hangs under a deleted parent. The reference on the parent is
 * kept until @kobj is released. The caller's own reference is untouched:
 * end with dmc_kobject_put().
 *
 * Context: may sleep; takes dmc_tree_mutex.
 */
void dmc_kobject_del(struct dmc_kobject *kobj)
{
	struct dmc_kobject *leaf;

	if (!kobj)
		return;
	if (!dmc_kobject_in_tree(kobj)) {
		pr_err_ratelimited("dmcore: del of '%s', which is not in the tree\n",
				   kobj->name ?: "(unnamed)");
		return;
	}
	/* From here on no child can be added under @kobj. */
	if (dmc_kobj_test_and_set_flag(kobj, DMC_KOBJ_DELETED))
		return;		/* another caller is deleting it */
	while ((leaf = dmc_first_leaf(kobj))) {
		pr_debug("dmcore: deleting '%s' with its parent '%s'\n",
			 leaf->name, kobj->name);
		/* Deleted for good, as by dmc_kobject_del(): no re-add. */
		dmc_kobj_set_flag(leaf, DMC_KOBJ_DELETED);
		dmc_kobject_del_one(leaf);
		dmc_kobject_put(leaf);
	}
	dmc_kobject_del_one(kobj);
}
EXPORT_SYMBOL_GPL(dmc_kobject_del);

/* ---- rename and move ----------------------------------------------------- */

/* @kobj's path into @buf (NULL: just measure); caller holds dmc_name_lock. */
static size_t dmc_fill_path(const struct dmc_kobject *kobj, char *buf,
			    size_t size)
{
	const struct dmc_kobject *pos;
	size_t len = 0, n;

	for (pos = kobj; pos; pos = pos->parent)
		len += strlen(pos->name) + 1;
	if (!buf || len + 1 > size)
		return len;
	buf[len] = '\0';
	n = len;
	for (pos = kobj; pos; pos = pos->parent) {
		size_t l = strlen(pos->name);

		n -= l;
		memcpy(buf + n, pos->name, l);
		buf[--n] = '/';
	}
	return len;
}

/**
 * dmc_kobject_get_path() - the object's path from the root, "/a/b/c"
 * @kobj: a named object
 * @gfp: allocation flags
 *
 * Safe against concurrent rename and move of any ancestor.
 *
 * Return: a string the caller kfree()s, or NULL on allocation failure or
 * for an unnamed object.
 */
char *dmc_kobject_get_path(const struct dmc_kobject *kobj, gfp_t gfp)
{
	size_t len, got;
	char *path;

	if (!kobj || !kobj->name)
		return NULL;
	for (;;) {
		read_lock(&dmc_name_lock);
		len = dmc_fill_path(kobj, NULL, 0);
		read_unlock(&dmc_name_lock);

		path = kmalloc(len + 1, gfp);
		if (!path)
			return NULL;
		read_lock(&dmc_name_lock);
		got = dmc_fill_path(kobj, path, len + 1);
		read_unlock(&dmc_name_lock);
		if (got == len)
			return path;
		kfree(path);	/* renamed meanwhile: measure again */
	}
}
EXPORT_SYMBOL_GPL(dmc_kobject_get_path);

/*
 * Devices, drivers, buses and classes are also found by name (and a
 * device by parent) in the model's own indexes, which the kobject core
 * cannot update: refuse to rename or move them behind the model's back.
 */
static bool dmc_kobject_refuse_raw(const struct dmc_kobject *kobj,
				   const char *op)
{
	if (!kobj->ktype || !kobj->ktype->indexed_elsewhere)
		return false;
	pr_err_ratelimited("dmcore: %s of %s '%s' refused: the model indexes a %s by name and parent, kobject %s would leave them stale\n",
			   op, kobj->ktype->name, kobj->name ?: "(unnamed)",
			   kobj->ktype->name, op);
	return true;
}

/**
 * dmc_kobject_rename() - change the name of an object in the tree
 * @kobj: the object; the caller holds a reference
 * @new_name: the new name; a '/' is replaced by '!'
 *
 * Sends a "move" event with DEVPATH_OLD. Pointers previously returned by
 * dmc_kobject_name() become invalid, as in Linux. The object's kset
 * index follows the new name; a lookup by name running meanwhile finds
 * the object under its old name or its new one, never neither.
 *
 * The kobject of a device, driver, bus or class (a type with
 * @indexed_elsewhere) is refused: the model keeps those by name in its
 * bus, class, driver and children indexes too, which this function cannot
 * see. Linux renames a device with device_rename(), not kobject_rename();
 * dmcore has no device rename.
 *
 * Context: may sleep; takes dmc_tree_mutex.
 * Return: 0, -EINVAL (NULL argument, empty name, object not in the tree),
 * -ENAMETOOLONG, -EEXIST (a sibling has that name), -EOPNOTSUPP (the
 * kobject of a device, driver, bus or class; logged), -ENOMEM. On error
 * nothing changed.
 */
int dmc_kobject_rename(struct dmc_kobject *kobj, const char *new_name)
{
	const char *envp[2] = { NULL, NULL };
	char *name, *old_path, *devpath_old;
	const char *old_name;
	int err;

	if (!kobj || !new_name)
		return -EINVAL;
	if (dmc_kobject_refuse_raw(kobj, "rename"))
		return -EOPNOTSUPP;
	name = kstrdup(new_name, GFP_KERNEL);
	if (!name)
		return -ENOMEM;
	strreplace(name, '/', '!');
	err = dmc_kobject_check_name(name);
	if (err) {
		pr_err_ratelimited("dmcore: rename of '%s': bad name\n", kobj->name);
		goto out_free;
	}
	old_path = dmc_kobject_get_path(kobj, GFP_KERNEL);
	devpath_old = old_path ? kasprintf(GFP_KERNEL, "DEVPATH_OLD=%s", old_path) : NULL;
	kfree(old_path);
	if (!devpath_old) {
		err = -ENOMEM;
		goto out_free;
	}

	mutex_lock(&dmc_tree_mutex);
	if (!dmc_kobject_in_tree(kobj)) {
		pr_err_ratelimited("dmcore: rename of '%s', which is not in the tree\n",
				   kobj->name);
		err = -EINVAL;
		goto out_unlock;
	}
	if (!strcmp(kobj->name, name)) {
		err = 0;
		goto out_unlock;
	}
	if (dmc_sib_lookup(kobj->parent, name) ||
	    dmc_kobject_name_reserved(kobj->parent, name)) {
		pr_err_ratelimited("dmcore: cannot rename '%s' to '%s': exists\n",
				   kobj->name, name);
		err = -EEXIST;
		goto out_unlock;
	}
	err = dmc_kset_rename_member(kobj, name, &old_name);
	if (err)
		goto out_unlock;
	dmc_listeners_kobj_renamed(kobj, old_name);
	mutex_unlock(&dmc_tree_mutex);

	kfree(old_name);
	envp[0] = devpath_old;
	dmc_kobject_uevent_env(kobj, DMC_KOBJ_MOVE, envp);
	kfree(devpath_old);
	return 0;

out_unlock:
	mutex_unlock(&dmc_tree_mutex);
	kfree(devpath_old);
out_free:
	kfree(name);
	return err;
}
EXPORT_SYMBOL_GPL(dmc_kobject_rename);

/*
 * Swap @kobj's name for @name in both indexes; caller holds
 * dmc_tree_mutex and has checked for a sibling clash. Used by kset.c's
 * dmc_kset_rename_member() with the kset lock held.
 */
int dmc_kobject_swap_name(struct dmc_kobject *kobj, char *name,
			  const char **old_name)
{
	int err;

	lockdep_assert_held(&dmc_tree_mutex);
	rhashtable_remove_fast(&dmc_sib_index, &kobj->sib_node, dmc_sib_params);
	write_lock(&dmc_name_lock);
	*old_name = kobj->name;
	kobj->name = name;
	write_unlock(&dmc_name_lock);
	err = rhashtable_insert_fast(&dmc_sib_index, &kobj->sib_node,
				     dmc_sib_params);
	if (err) {
		write_lock(&dmc_name_lock);
		kobj->name = *old_name;
		write_unlock(&dmc_name_lock);
		/* The slot we just left is free again: this cannot fail. */
		WARN_ON(rhashtable_insert_fast(&dmc_sib_index, &kobj->sib_node,
					       dmc_sib_params));
		*old_name = NULL;
	}
	return err;
}

static bool dmc_is_ancestor(const struct dmc_kobject *a,
			    const struct dmc_kobject *kobj)
{
	for (; kobj; kobj = kobj->parent)
		if (kobj == a)
			return true;
	return false;
}

/**
 * dmc_kobject_move() - give an object in the tree a new parent
 * @kobj: the object; the caller holds a reference
 * @new_parent: the new parent, in the tree; NULL means the object's kset,
 *	or the top level if it has none
 *
 * The reference on the old parent moves to the new one. Sends a "move"
 * event with DEVPATH_OLD.
 *
 * The kobject of a device, driver, bus or class is refused, as by
 * dmc_kobject_rename(): a device's dev->parent, its place in its old
 * parent's children and in the power order would stay behind. Linux moves
 * a device with device_move(); dmcore has no device move.
 *
 * Context: may sleep; takes dmc_tree_mutex.
 * Return: 0, -EINVAL (NULL @kobj, not in the tree, @new_parent is @kobj
 * or below it), -ENOENT (@new_parent not in the tree), -EEXIST (name
 * taken under @new_parent), -EOPNOTSUPP (the kobject of a device, driver,
 * bus or class; logged), -ENOMEM. On error nothing changed.
 */
int dmc_kobject_move(struct dmc_kobject *kobj, struct dmc_kobject *new_parent)
{
	const char *envp[2] = { NULL, NULL };
	struct dmc_kobject *old_parent;
	char *old_path, *devpath_old;
	int err;

	if (!kobj)
		return -EINVAL;
	if (dmc_kobject_refuse_raw(kobj, "move"))
		return -EOPNOTSUPP;
	if (!new_parent && kobj->kset)
		new_parent = &kobj->kset->kobj;

	old_path = dmc_kobject_get_path(kobj, GFP_KERNEL);
	devpath_old = old_path ? kasprintf(GFP_KERNEL, "DEVPATH_OLD=%s", old_path) : NULL;
	kfree(old_path);
	if (!devpath_old)
		return -ENOMEM;

	mutex_lock(&dmc_tree_mutex);
	err = -EINVAL;
	if (!dmc_kobject_in_tree(kobj)) {
		pr_err_ratelimited("dmcore: move of '%s', which is not in the tree\n",
				   kobj->name);
		goto out_unlock;
	}
	if (new_parent && dmc_is_ancestor(kobj, new_parent)) {
		pr_err_ratelimited("dmcore: cannot move '%s' under itself\n", kobj->name);
		goto out_unlock;
	}
	err = -ENOENT;
	if (new_parent && !dmc_kobject_in_tree(new_parent)) {
		pr_err_ratelimited("dmcore: cannot move '%s': new parent '%s' is not in the tree\n",
				   kobj->name, new_parent->name);
		goto out_unlock;
	}
	err = 0;
	old_parent = kobj->parent;
	if (old_parent == new_parent)
		goto out_unlock;
	if (dmc_sib_lookup(new_parent, kobj->name) ||
	    dmc_kobject_name_reserved(new_parent, kobj->name)) {
		pr_err_ratelimited("dmcore: cannot move '%s': name taken under '%s'\n",
				   kobj->name, new_parent ? new_parent->name : "/");
		err = -EEXIST;
		goto out_unlock;
	}

	rhashtable_remove_fast(&dmc_sib_index, &kobj->sib_node, dmc_sib_params);
	write_lock(&dmc_name_lock);
	kobj->parent = dmc_kobject_get(new_parent);
	write_unlock(&dmc_name_lock);
	err = rhashtable_insert_fast(&dmc_sib_index, &kobj->sib_node,
				     dmc_sib_params);
	if (err) {
		write_lock(&dmc_name_lock);
		kobj->parent = old_parent;
		write_unlock(&dmc_name_lock);
		WARN_ON(rhashtable_insert_fast(&dmc_sib_index, &kobj->sib_node,
					       dmc_sib_params));
		mutex_unlock(&dmc_tree_mutex);
		dmc_kobject_put(new_parent);
		kfree(devpath_old);
		return err;
	}
	list_move_tail(&kobj->sibling,
		       new_parent ? &new_parent->children : &dmc_roots);
	dmc_listeners_kobj_moved(kobj, old_parent);
	mutex_unlock(&dmc_tree_mutex);

	dmc_kobject_put(old_parent);
	envp[0] = devpath_old;
	dmc_kobject_uevent_env(kobj, DMC_KOBJ_MOVE, envp);
	kfree(devpath_old);
	return 0;

out_unlock:
	mutex_unlock(&dmc_tree_mutex);
	kfree(devpath_old);
	return err;
}
EXPORT_SYMBOL_GPL(dmc_kobject_move);

/**
 * dmc_kobject_find_child() - look up a child by name
 * @parent: the parent, or NULL for the top level
 * @name: the child's name
 *
 * O(1) expected time through the (parent, name) index.
 *
 * Context: may sleep; takes dmc_tree_mutex.
 * Return: the child with a new reference (put it), or NULL.
 */
struct dmc_kobject *dmc_kobject_find_child(struct dmc_kobject *parent,
					   const char *name)
{
	struct dmc_kobject *kobj;

	if (!name)
		return NULL;
	mutex_lock(&dmc_tree_mutex);
	kobj = dmc_kobject_get_unless_zero(dmc_sib_lookup(parent, name));
	mutex_unlock(&dmc_tree_mutex);
	return kobj;
}
EXPORT_SYMBOL_GPL(dmc_kobject_find_child);

/**
 * dmc_kobject_set_uevent_suppress() - stop or resume events for an object
 * @kobj: the object
 * @suppress: true to drop every event of @kobj until cleared
 */
void dmc_kobject_set_uevent_suppress(struct dmc_kobject *kobj, bool suppress)
{
	if (!kobj)
		return;
	if (suppress)
		dmc_kobj_set_flag(kobj, DMC_KOBJ_UEVENT_SUPPRESS);
	else
		dmc_kobj_clear_flag(kobj, DMC_KOBJ_UEVENT_SUPPRESS);
}
EXPORT_SYMBOL_GPL(dmc_kobject_set_uevent_suppress);

static void dmc_dir_release(struct dmc_kobject *kobj)
{
	kfree(kobj);
}

static const struct dmc_kobj_type dmc_dir_ktype = {
	.name = "dir",
	.release = dmc_dir_release,
};

/**
 * dmc_kobject_create_and_add() - make a plain directory kobject
 * @name: its name
 * @parent: its parent, or NULL for the top level
 *
 * Context: may sleep.
 * Return: the kobject, holding one reference for the caller (end with
 * dmc_kobject_del() and dmc_kobject_put()), or NULL on error (logged).
 */
struct dmc_kobject *dmc_kobject_create_and_add(const char *name,
					       struct dmc_kobject *parent)
{
	struct dmc_kobject *kobj;

	if (!name)
		return NULL;
	kobj = kzalloc(sizeof(*kobj), GFP_KERNEL);
	if (!kobj)
		return NULL;
	if (dmc_kobject_init(kobj, &dmc_dir_ktype)) {
		kfree(kobj);
		return NULL;
	}
	if (dmc_kobject_add(kobj, parent, "%s", name)) {
		dmc_kobject_put(kobj);
		return NULL;
	}
	return kobj;
}
EXPORT_SYMBOL_GPL(dmc_kobject_create_and_add);

/* ---- attributes ------------------------------------------------------------ */

/**
 * dmc_kobject_walk_groups() - call @fn for each attribute group of @kobj
 * @kobj: the object
 * @data: passed to @fn
 * @fn: called for each group; a nonzero return stops the walk
 *
 * The groups are the type's walk_groups() when it has one (a device has
 * its own, its type's, its bus's and its class's), else its
 * default_groups. This is how a view such as the debugfs export learns
 * which files an object has.
 *
 * Return: the first nonzero value of @fn, or 0.
 */
int dmc_kobject_walk_groups(struct dmc_kobject *kobj, void *data,
			    int (*fn)(struct dmc_kobject *kobj,
				      const struct dmc_attribute_group *grp,
				      void *data))
{
	const struct dmc_attribute_group **g;
	int ret = 0;

	if (!kobj || !kobj->ktype || !fn)
		return 0;
	if (kobj->ktype->walk_groups)
		return kobj->ktype->walk_groups(kobj, data, fn);
	for (g = kobj->ktype->default_groups; g && *g && !ret; g++)
		ret = fn(kobj, *g, data);
	return ret;
}
EXPORT_SYMBOL_GPL(dmc_kobject_walk_groups);

/**
 * dmc_kobject_attr_show() - read an attribute through the object's type
 * @kobj: the object; the caller holds a reference
 * @attr: one of its attributes
 * @buf: a PAGE_SIZE buffer
 *
 * Context: may sleep.
 * Return: the length written, -EIO if the type cannot show it, or the
 * show method's error.
 */
ssize_t dmc_kobject_attr_show(struct dmc_kobject *kobj,
			      struct dmc_attribute *attr, char *buf)
{
	const struct dmc_sysfs_ops *ops = kobj->ktype ? kobj->ktype->sysfs_ops : NULL;
	ssize_t ret;

	if (!ops || !ops->show)
		return -EIO;
	ret = ops->show(kobj, attr, buf);
	if (ret > (ssize_t)PAGE_SIZE) {
		pr_err_ratelimited("dmcore: show of '%s' returned %zd bytes\n",
				   attr->name, ret);
		ret = PAGE_SIZE;
	}
	return ret;
}
EXPORT_SYMBOL_GPL(dmc_kobject_attr_show);

/**
 * dmc_kobject_attr_store() - write an attribute through the object's type
 * @kobj: the object; the caller holds a reference
 * @attr: one of its attributes
 * @buf: the value, NUL-terminated
 * @count: its length
 *
 * Context: may sleep.
 * Return: @count or the store method's result, -EIO if the type cannot
 * store it.
 */
ssize_t dmc_kobject_attr_store(struct dmc_kobject *kobj,
			       struct dmc_attribute *attr, const char *buf,
			       size_t count)
{
	const struct dmc_sysfs_ops *ops = kobj->ktype ? kobj->ktype->sysfs_ops : NULL;

	if (!ops || !ops->store)
		return -EIO;
	return ops->store(kobj, attr, buf, count);
}
EXPORT_SYMBOL_GPL(dmc_kobject_attr_store);

/**
 * dmc_kobject_lookup_path() - find an object by its path
 * @path: "/devices/a/b" (the leading '/' may be left out)
 *
 * Each component is looked up in the (parent, name) index.
 *
 * Context: may sleep; takes dmc_tree_mutex.
 * Return: the object with a reference (put it), or NULL.
 */
struct dmc_kobject *dmc_kobject_lookup_path(const char *path)
{
	struct dmc_kobject *kobj = NULL, *next;
	const char *p = path, *slash;
	char name[DMC_NAME_MAX + 1];
	size_t len;

	if (!path)
		return NULL;
	mutex_lock(&dmc_tree_mutex);
	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		slash = strchrnul(p, '/');
		len = slash - p;
		if (len > DMC_NAME_MAX)
			goto fail;
		memcpy(name, p, len);
		name[len] = '\0';
		next = dmc_sib_lookup(kobj, name);
		if (!next)
			goto fail;
		kobj = next;
		p = slash;
	}
	kobj = dmc_kobject_get_unless_zero(kobj);
	mutex_unlock(&dmc_tree_mutex);
	return kobj;
fail:
	mutex_unlock(&dmc_tree_mutex);
	return NULL;
}
EXPORT_SYMBOL_GPL(dmc_kobject_lookup_path);

/* ---- whole-tree helpers for the module and the listeners ----------------- */

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
void dmc_tree_replay(struct dmc_listener *l)
{
	struct dmc_kobject *first, *kobj;

	lockdep_assert_held(&dmc_tree_mutex);
	first = list_first_entry_or_null(&dmc_roots, struct dmc_kobject, sibling);
	if (l->kobj_added)
		for (kobj = first; kobj; kobj = dmc_tree_next(kobj))
			l->kobj_added(l, kobj);
	if (l->link_added)
		for (kobj = first; kobj; kobj = dmc_tree_next(kobj))
			if (dmc_kobject_is_device(kobj))
				dmc_device_replay_links(l, to_dmc_device(kobj));
}

/*
 * Count live kobjects by type name into @names/@counts (at most @max
 * distinct types, the rest under "other"); return the number of types.
 */
unsigned int dmc_kobject_live_by_type(const char **names, unsigned long *counts,
				      unsigned int max)
{
	struct dmc_kobject *kobj;
	unsigned int n = 0, i;
	const char *name;

	spin_lock(&dmc_live_lock);
	list_for_each_entry(kobj, &dmc_live, live) {
		name = dmc_ktype_name(kobj);
		for (i = 0; i < n; i++)
			if (!strcmp(names[i], name))
				break;
		if (i == n) {
			if (n == max) {
				i = max - 1;
				names[i] = "other";
			} else {
				names[n++] = name;
			}
		}
		counts[i]++;
	}
	spin_unlock(&dmc_live_lock);
	return n;
}

/**
 * dmc_kobject_live_count() - how many kobjects are alive
 *
 * Every kobject from dmc_kobject_init() until its release, the core's
 * own included. Tests compare it before and after an operation that
 * failed (e.g. under fault injection) to see that nothing was left
 * behind; the "stats" file shows it too.
 *
 * Context: any context that may take a spinlock.
 * Return: the number of live kobjects.
 */
unsigned long dmc_kobject_live_count(void)
{
	unsigned long n;

	spin_lock(&dmc_live_lock);
	n = dmc_live_nr;
	spin_unlock(&dmc_live_lock);
	return n;
}
EXPORT_SYMBOL_GPL(dmc_kobject_live_count);

/*
 * Log every kobject still alive; return how many. Delayed releases run
 * first: an object whose last put came is not a leak.
 */
unsigned long dmc_kobject_report_leaks(void)
{
	struct dmc_kobject *kobj;
	unsigned long n = 0;

	dmc_kobject_flush_releases();

	spin_lock(&dmc_live_lock);
	list_for_each_entry(kobj, &dmc_live, live) {
		pr_err("dmcore: LEAK: %s '%s' refcount=%u\n", dmc_ktype_name(kobj),
		       kobj->name ?: "(unnamed)", kref_read(&kobj->kref));
		n++;
	}
	spin_unlock(&dmc_live_lock);
	return n;
}

int dmc_kobject_tree_init(void)
{
	int err;

	if (release_delay_ms > DMC_RELEASE_DELAY_MAX_MS) {
		pr_err("dmcore: release_delay_ms=%u out of range 0..%u\n",
		       release_delay_ms, DMC_RELEASE_DELAY_MAX_MS);
		return -EINVAL;
	}
	if (release_delay_ms) {
		dmc_release_wq = alloc_ordered_workqueue("dmc_release", 0);
		if (!dmc_release_wq)
			return -ENOMEM;
		pr_info("dmcore: kobject releases run %u ms after the last put\n",
			release_delay_ms);
	}
	err = rhashtable_init(&dmc_sib_index, &dmc_sib_params);
	if (err && dmc_release_wq) {
		destroy_workqueue(dmc_release_wq);
		dmc_release_wq = NULL;
	}
	return err;
}

void dmc_kobject_tree_exit(void)
{
	if (dmc_release_wq) {
		dmc_kobject_flush_releases();
		cancel_delayed_work_sync(&dmc_release_work);
		destroy_workqueue(dmc_release_wq);
		dmc_release_wq = NULL;
	}
	rhashtable_destroy(&dmc_sib_index);
}
