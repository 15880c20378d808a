// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore's refcounted, named, parented objects; the counterpart of the
 * kobject code in Linux's lib/.
 *
 * The life of a kobject: its name, init, get and put, add and del, and
 * the release path (the last put deletes what is still in the tree, runs
 * the type's release, then puts the parent, in a loop rather than by
 * recursion); rename and move with their "move" event; then the plain
 * directory type. Entering and leaving the tree and a kset, the (parent,
 * name) index, paths and the index's half of rename and move are in
 * kobject_tree.c, below this file: it sends no event and drops no
 * reference, handing back those to drop. The delayed release, the census
 * of live objects and the misuse counter are in kobject_debug.c, the
 * attribute calls in kobject_attr.c.
 *
 * The tree keeps one invariant: the parent of an object in the tree is in
 * the tree. Deleting a parent therefore deletes its children first.
 */

#include <linux/delay.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/ratelimit.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "base.h"

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

/* Format a name, replace '/' (a path separator) with '!', as Linux does. */
static __printf(1, 0) char *dmc_format_name(const char *fmt, va_list vargs,
					    int *err)
{
	char buf[64], *s = buf, *long_name = NULL, *name = NULL;
	va_list aq;
	int len;

	/* Formatted once for the common short name, twice for a long one. */
	va_copy(aq, vargs);
	len = vsnprintf(buf, sizeof(buf), fmt, aq);
	va_end(aq);
	if (len >= sizeof(buf)) {
		long_name = kvasprintf(GFP_KERNEL, fmt, vargs);
		if (!long_name) {
			*err = -ENOMEM;
			return NULL;
		}
		s = long_name;
	}
	strreplace(s, '/', '!');
	*err = dmc_kobject_check_name(s);
	if (*err) {
		pr_err_ratelimited("dmcore: bad kobject name '%.32s%s': %s\n",
				   s, strlen(s) > 32 ? "..." : "",
				   *err == -EINVAL ? "empty" : "too long");
	} else {
		/* strlen(): a "%c" of 0 ends the name where lookups will. */
		name = dmc_name_dup(s, strlen(s));
		if (!name)
			*err = -ENOMEM;
	}
	kfree(long_name);
	return name;
}

static __printf(2, 0) int __dmc_kobject_set_name_vargs(struct dmc_kobject *kobj,
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
	dmc_name_free(old);
	return 0;
}

/**
 * dmc_kobject_set_name_vargs() - set the name of a kobject not yet in the tree
 * @kobj: the object; must not be in the tree (use dmc_kobject_rename())
 * @fmt: printf-style format of the name
 * @vargs: its arguments
 *
 * A '/' in the result is replaced by '!'. The name is formatted once
 * (twice if longer than 63 bytes) and freed when the object is released.
 * For wrappers with their own variadic arguments, as dmc_device_set_name().
 *
 * Context: may sleep.
 * Return: 0, -EINVAL (NULL @kobj or @fmt, empty name, object in the
 * tree), -ENAMETOOLONG or -ENOMEM; on error the old name is kept.
 */
int dmc_kobject_set_name_vargs(struct dmc_kobject *kobj, const char *fmt,
			       va_list vargs)
{
	if (!kobj)
		return -EINVAL;
	if (dmc_kobject_in_tree(kobj)) {
		pr_err_ratelimited("dmcore: set_name on '%s' in the tree; use rename\n",
				   kobj->name);
		return -EINVAL;
	}
	return __dmc_kobject_set_name_vargs(kobj, fmt, vargs);
}
EXPORT_SYMBOL_GPL(dmc_kobject_set_name_vargs);

/**
 * dmc_kobject_set_name() - set the name of a kobject not yet in the tree
 * @kobj: the object; must not be in the tree (use dmc_kobject_rename())
 * @fmt: printf-style format of the name
 *
 * As dmc_kobject_set_name_vargs().
 *
 * Context: may sleep.
 * Return: as dmc_kobject_set_name_vargs().
 */
int dmc_kobject_set_name(struct dmc_kobject *kobj, const char *fmt, ...)
{
	va_list vargs;
	int err;

	va_start(vargs, fmt);
	err = dmc_kobject_set_name_vargs(kobj, fmt, vargs);
	va_end(vargs);
	return err;
}
EXPORT_SYMBOL_GPL(dmc_kobject_set_name);

/* ---- init, get, put ---------------------------------------------------- */

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

	dmc_kobject_live_add(kobj);
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

/*
 * The count reached zero: delete, release, and return the parent to put.
 * Called by dmc_kobject_put(), or later through dmc_kobject_release_delayed().
 */
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

	dmc_kobject_live_del(kobj);

	/* Every member held a reference: the set is empty by now. */
	if (dmc_kobj_test_flag(kobj, DMC_KOBJ_IS_KSET))
		dmc_klist_destroy(&to_dmc_kset(kobj)->members);

	/* Only the type frees; the name and the parent go after it. */
	ktype->release(kobj);
	dmc_name_free(name);
	return parent;
}

/* A delayed release is due (kobject_debug.c's worker): as the last put. */
static void dmc_kobject_release_delayed(struct dmc_kobject *kobj)
{
	dmc_kobject_put(dmc_kobject_cleanup(kobj));
}

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
		if (dmc_kobject_release_later(kobj, dmc_kobject_release_delayed))
			return;
		kobj = dmc_kobject_cleanup(kobj);
	}
}
EXPORT_SYMBOL_GPL(dmc_kobject_put);

/* ---- add and del (the tree itself: kobject_tree.c) --------------------- */

/*
 * dmc_kobject_add() without a format: the name set before by
 * dmc_kobject_set_name() (the only way to name a kobject: the indexes
 * read the hash it keeps with the name) is kept, as Linux's
 * kobject_add() keeps it for a NULL format, and only checked.
 */
static int dmc_kobject_keep_name(struct dmc_kobject *kobj)
{
	int err;

	if (!kobj->name) {
		pr_err_ratelimited("dmcore: kobject %p added without a name\n", kobj);
		return -EINVAL;
	}
	err = dmc_kobject_check_name(kobj->name);
	if (err) {
		pr_err_ratelimited("dmcore: bad kobject name '%.32s'\n", kobj->name);
		return err;
	}
	/* dmc_kobject_set_name() made it path-safe ('/' replaced). */
	return 0;
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

	if (fmt)
		err = __dmc_kobject_set_name_vargs(kobj, fmt, vargs);
	else
		err = dmc_kobject_keep_name(kobj);
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
 * @fmt: printf-style format of the name; a '/' is replaced by '!'. NULL
 *	keeps the name @kobj has (set with dmc_kobject_set_name()), as
 *	Linux's kobject_add() does.
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

/*
 * The deepest in-tree descendant of @kobj, referenced and marked deleted
 * (under dmc_tree_mutex, so no child can be added or moved under it
 * after); NULL if none. A descendant whose last reference is gone is
 * being deleted by its own release: wait for that to finish rather than
 * touch it.
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
		/* Deleted for good from here on: nothing is added under it. */
		if (leaf)
			dmc_kobj_set_flag(leaf, DMC_KOBJ_DELETED);
		mutex_unlock(&dmc_tree_mutex);
		if (leaf || pos == kobj)
			return leaf;
		usleep_range(500, 1000);
	}
}

/*
 * Send "remove" once if "add" went out, then leave the tree and drop the
 * reference on the kset left (which may free it).
 */
static void dmc_kobject_del_one(struct dmc_kobject *kobj)
{
	struct dmc_kset *kset;

	if (dmc_kobj_test_flag(kobj, DMC_KOBJ_ADD_SENT) &&
	    !dmc_kobj_test_and_set_flag(kobj, DMC_KOBJ_REMOVE_SENT))
		dmc_kobject_uevent(kobj, DMC_KOBJ_REMOVE);
	kset = __dmc_kobject_del(kobj);
	/* The groups added to it go with its directory, as in sysfs. */
	dmc_kobject_groups_drop(kobj);
	if (kset)
		dmc_kobject_put(&kset->kobj);
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
		dmc_kobject_del_one(leaf);
		dmc_kobject_put(leaf);
	}
	dmc_kobject_del_one(kobj);
}
EXPORT_SYMBOL_GPL(dmc_kobject_del);

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
	.sysfs_ops = &dmc_kobj_sysfs_ops,
};

/**
 * dmc_kobject_create_and_add() - make a plain directory kobject
 * @name: its name
 * @parent: its parent, or NULL for the top level
 *
 * Its attributes, added with dmc_sysfs_create_group() or
 * dmc_sysfs_create_file(), are struct dmc_kobj_attribute (its type's
 * sysfs_ops are dmc_kobj_sysfs_ops), as with Linux's
 * kobject_create_and_add().
 *
 * Context: may sleep.
 * Return: the kobject, holding one reference for the caller (end with
 * dmc_kobject_del() and dmc_kobject_put(), or a last dmc_kobject_put()
 * alone), or NULL on error (logged).
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

/* ---- rename and move (the index's half: kobject_tree.c) ------------ */

/*
 * "DEVPATH_OLD=<path>" for the "move" event of a rename or move (also
 * dmc_device_rename() and dmc_device_move()'s); NULL: -ENOMEM.
 */
char *dmc_kobject_devpath_old(const struct dmc_kobject *kobj)
{
	char *old_path, *devpath_old;

	old_path = dmc_kobject_get_path(kobj, GFP_KERNEL);
	devpath_old = old_path ? kasprintf(GFP_KERNEL, "DEVPATH_OLD=%s", old_path) : NULL;
	kfree(old_path);
	return devpath_old;
}

/* After a rename or move: send "move" with @devpath_old, then free it. */
void dmc_kobject_send_move(struct dmc_kobject *kobj, char *devpath_old)
{
	const char *envp[2] = { devpath_old, NULL };

	dmc_kobject_uevent_env(kobj, DMC_KOBJ_MOVE, envp);
	kfree(devpath_old);
}

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
	pr_err_ratelimited("dmcore: kobject %s of %s '%s' refused: the model indexes a %s by name and parent, which this would leave stale%s\n",
			   op, kobj->ktype->name, kobj->name ?: "(unnamed)",
			   kobj->ktype->name,
			   dmc_kobj_test_flag(kobj, DMC_KOBJ_IS_DEVICE) ?
			   (op[0] == 'r' ? "; use dmc_device_rename()" :
			    "; use dmc_device_move()") : "");
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
 * see. Rename a device with dmc_device_rename(), as Linux renames one
 * with device_rename(), not kobject_rename().
 *
 * Context: may sleep; takes dmc_tree_mutex.
 * Return: 0, -EINVAL (NULL argument, empty name, object not in the tree),
 * -ENAMETOOLONG, -EEXIST (a sibling has that name), -EOPNOTSUPP (the
 * kobject of a device, driver, bus or class; logged), -ENOMEM. On error
 * nothing changed.
 */
int dmc_kobject_rename(struct dmc_kobject *kobj, const char *new_name)
{
	char *tmp, *name, *devpath_old;
	int err;

	if (!kobj || !new_name)
		return -EINVAL;
	if (dmc_kobject_refuse_raw(kobj, "rename"))
		return -EOPNOTSUPP;
	tmp = kstrdup(new_name, GFP_KERNEL);
	if (!tmp)
		return -ENOMEM;
	strreplace(tmp, '/', '!');
	err = dmc_kobject_check_name(tmp);
	if (err) {
		pr_err_ratelimited("dmcore: rename of '%s': bad name\n", kobj->name);
		kfree(tmp);
		return err;
	}
	/* The final name, with its hash for the indexes. */
	name = dmc_name_dup(tmp, strlen(tmp));
	kfree(tmp);
	if (!name)
		return -ENOMEM;
	devpath_old = dmc_kobject_devpath_old(kobj);
	if (!devpath_old) {
		err = -ENOMEM;
		goto out_free;
	}
	err = __dmc_kobject_rename(kobj, name);
	if (err) {
		kfree(devpath_old);
		goto out_free;
	}
	dmc_kobject_send_move(kobj, devpath_old);
	return 0;

out_free:
	dmc_name_free(name);
	return err < 0 ? err : 0;
}
EXPORT_SYMBOL_GPL(dmc_kobject_rename);

/**
 * dmc_kobject_move() - give an object in the tree a new parent
 * @kobj: the object; the caller holds a reference
 * @new_parent: the new parent, in the tree, on which the caller holds a
 *	reference; NULL means the object's kset, or the top level if it has
 *	none
 *
 * The reference on the old parent moves to the new one. Sends a "move"
 * event with DEVPATH_OLD.
 *
 * The kobject of a device, driver, bus or class is refused, as by
 * dmc_kobject_rename(): a device's dev->parent, its place in its old
 * parent's children and in the power order would stay behind. Move a
 * device with dmc_device_move(), as Linux moves one with device_move().
 *
 * Context: may sleep; takes dmc_tree_mutex.
 * Return: 0, -EINVAL (NULL @kobj, not in the tree, @new_parent is @kobj
 * or below it), -ENOENT (@new_parent not in the tree or being deleted),
 * -EEXIST (name taken under @new_parent), -EOPNOTSUPP (the kobject of a
 * device, driver, bus or class; logged), -ENOMEM. On error nothing
 * changed.
 */
int dmc_kobject_move(struct dmc_kobject *kobj, struct dmc_kobject *new_parent)
{
	struct dmc_kobject *old_parent;
	char *devpath_old;
	int err;

	if (!kobj)
		return -EINVAL;
	if (dmc_kobject_refuse_raw(kobj, "move"))
		return -EOPNOTSUPP;
	if (!new_parent && kobj->kset)
		new_parent = &kobj->kset->kobj;

	devpath_old = dmc_kobject_devpath_old(kobj);
	if (!devpath_old)
		return -ENOMEM;
	err = __dmc_kobject_move(kobj, new_parent, &old_parent);
	if (err) {
		kfree(devpath_old);
		return err < 0 ? err : 0;
	}
	dmc_kobject_put(old_parent);
	dmc_kobject_send_move(kobj, devpath_old);
	return 0;
}
EXPORT_SYMBOL_GPL(dmc_kobject_move);

/* ---- module load and unload --------------------------------------------- */

/*
 * The kobject core's setup at module load: the delayed release (when
 * release_delay_ms asks for it), then the (parent, name) index.
 */
int dmc_kobject_tree_init(void)
{
	int err;

	err = dmc_kobject_release_init();
	if (err)
		return err;
	err = dmc_kobject_index_init();
	if (err)
		dmc_kobject_release_exit();
	return err;
}

/* At module exit: run the delayed releases left, then drop the index. */
void dmc_kobject_tree_exit(void)
{
	dmc_kobject_release_exit();
	dmc_kobject_index_exit();
}
