/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dmcore kobjects: the refcounted, named, parented object every part of
 * the model is built from. Counterpart of include/linux/kobject.h.
 *
 * A dmc_kobject is always embedded in a larger structure. Its memory is
 * freed only by its type's release(), which runs when the last reference
 * is dropped; the creator never frees it directly.
 */
#ifndef _DMCORE_KOBJECT_H
#define _DMCORE_KOBJECT_H

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/stdarg.h>
#include <linux/stringify.h>
#include <dmcore/hashtab.h>
#include <linux/types.h>
#include <dmcore/klist.h>

struct dmc_kobject;
struct dmc_kset;
struct dmc_uevent_env;

/* Longest name a kobject may have, as for a sysfs path component. */
#define DMC_NAME_MAX	255

/**
 * struct dmc_attribute - a named value of a kobject, shown as a file
 * @name: file name; must not contain '/'
 * @mode: permission bits of the file (0444, 0644, 0200...)
 * @break_active: its store runs without the tree's active reference on
 *	the object, holding a reference on the object instead, as a kernfs
 *	store does after kernfs_break_active_protection(): for a store
 *	that may delete objects, its own included, or wait for a deletion
 *	(power/state, a driver's bind and unbind, a bus's drivers_probe run
 *	callbacks that may); a deletion then does not wait for it. The
 *	store's code and data must be kept alive by other means (the core's
 *	driver and bus stores are drained by the unregistration of their
 *	driver or bus; power/state is dmcore's own code, which a mounted
 *	tree keeps loaded). Not in Linux's struct attribute.
 */
struct dmc_attribute {
	const char *name;
	umode_t mode;
	bool break_active;
};

struct dmc_bin_attribute;
struct file;

/**
 * struct dmc_attribute_group - attributes created and removed together
 * @name: subdirectory for the group, or NULL for the object's own directory
 * @is_visible: the mode attribute @n of @attrs has on @kobj, 0 to hide
 *	it; NULL: each attribute's own mode. Bits beyond 0777 are dropped.
 *	Asked when a group is created with dmc_sysfs_create_group() and
 *	again by dmc_sysfs_update_group(), as in Linux; for the groups a
 *	type shows (a ktype's, a device's, its type's, bus's, class's; a
 *	bus's, a driver's), which the tree derives from the model, at each
 *	lookup and listing. Must not sleep for long nor take the tree's locks.
 * @is_bin_visible: the same for attribute @n of @bin_attrs
 * @attrs: NULL-terminated array of attributes, or NULL
 * @bin_attrs: NULL-terminated array of binary attributes, or NULL
 */
struct dmc_attribute_group {
	const char *name;
	umode_t (*is_visible)(struct dmc_kobject *kobj,
			      struct dmc_attribute *attr, int n);
	umode_t (*is_bin_visible)(struct dmc_kobject *kobj,
				  struct dmc_bin_attribute *attr, int n);
	struct dmc_attribute **attrs;
	struct dmc_bin_attribute **bin_attrs;
};

/**
 * struct dmc_bin_attribute - a binary attribute: bytes read and written
 *	at offsets, as Linux's struct bin_attribute
 * @attr: name and mode
 * @size: the file's size; reads and writes are clipped to it (0: no limit)
 * @private: for the owner
 * @read: copy at most @count bytes at offset @off into @buf (at most
 *	PAGE_SIZE per call); return the length (0 at the end) or an errno.
 *	The file is the open file of the tree, or NULL.
 * @write: take @count bytes at @off from @buf; return the length taken
 *	or an errno
 *
 * No mmap: dmcore's tree has no mappable files.
 */
struct dmc_bin_attribute {
	struct dmc_attribute attr;
	size_t size;
	void *private;
	ssize_t (*read)(struct file *file, struct dmc_kobject *kobj,
			struct dmc_bin_attribute *attr, char *buf, loff_t off,
			size_t count);
	ssize_t (*write)(struct file *file, struct dmc_kobject *kobj,
			 struct dmc_bin_attribute *attr, char *buf, loff_t off,
			 size_t count);
};

/*
 * Initialisers, as include/linux/sysfs.h's __ATTR() family: for any
 * structure that starts with a struct dmc_attribute named attr and has
 * show and store methods (struct dmc_kobj_attribute, dmc_device_attribute,
 * dmc_driver_attribute, dmc_bus_attribute, dmc_class_attribute).
 */
#define __DMC_ATTR(_name, _mode, _show, _store) {			\
	.attr = { .name = __stringify(_name),				\
		  .mode = VERIFY_OCTAL_PERMISSIONS(_mode) },		\
	.show = _show,							\
	.store = _store,						\
}

#define __DMC_ATTR_RO_MODE(_name, _mode) {				\
	.attr = { .name = __stringify(_name),				\
		  .mode = VERIFY_OCTAL_PERMISSIONS(_mode) },		\
	.show = _name##_show,						\
}

#define __DMC_ATTR_RO(_name) {						\
	.attr = { .name = __stringify(_name), .mode = 0444 },		\
	.show = _name##_show,						\
}

#define __DMC_ATTR_WO(_name) {						\
	.attr = { .name = __stringify(_name), .mode = 0200 },		\
	.store = _name##_store,						\
}

#define __DMC_ATTR_RW_MODE(_name, _mode) {				\
	.attr = { .name = __stringify(_name),				\
		  .mode = VERIFY_OCTAL_PERMISSIONS(_mode) },		\
	.show = _name##_show,						\
	.store = _name##_store,						\
}

#define __DMC_ATTR_RW(_name) __DMC_ATTR(_name, 0644, _name##_show, _name##_store)

#define __DMC_ATTR_NULL { .attr = { .name = NULL } }

#define __DMC_BIN_ATTR(_name, _mode, _read, _write, _size) {		\
	.attr = { .name = __stringify(_name), .mode = _mode },		\
	.read = _read,							\
	.write = _write,						\
	.size = _size,							\
}

#define __DMC_BIN_ATTR_RO(_name, _size) {				\
	.attr = { .name = __stringify(_name), .mode = 0444 },		\
	.read = _name##_read,						\
	.size = _size,							\
}

#define __DMC_BIN_ATTR_WO(_name, _size) {				\
	.attr = { .name = __stringify(_name), .mode = 0200 },		\
	.write = _name##_write,						\
	.size = _size,							\
}

#define __DMC_BIN_ATTR_RW(_name, _size)					\
	__DMC_BIN_ATTR(_name, 0644, _name##_read, _name##_write, _size)

#define DMC_BIN_ATTR(_name, _mode, _read, _write, _size)		\
struct dmc_bin_attribute dmc_bin_attr_##_name =				\
	__DMC_BIN_ATTR(_name, _mode, _read, _write, _size)

#define DMC_BIN_ATTR_RO(_name, _size)					\
struct dmc_bin_attribute dmc_bin_attr_##_name = __DMC_BIN_ATTR_RO(_name, _size)

#define DMC_BIN_ATTR_WO(_name, _size)					\
struct dmc_bin_attribute dmc_bin_attr_##_name = __DMC_BIN_ATTR_WO(_name, _size)

#define DMC_BIN_ATTR_RW(_name, _size)					\
struct dmc_bin_attribute dmc_bin_attr_##_name = __DMC_BIN_ATTR_RW(_name, _size)

/*
 * DMC_ATTRIBUTE_GROUPS(foo): from foo_attrs[], the group foo_group and
 * the NULL-terminated list foo_groups[], as Linux's ATTRIBUTE_GROUPS().
 */
#define __DMC_ATTRIBUTE_GROUPS(_name)					\
static const struct dmc_attribute_group *_name##_groups[] = {		\
	&_name##_group,							\
	NULL,								\
}

#define DMC_ATTRIBUTE_GROUPS(_name)					\
static const struct dmc_attribute_group _name##_group = {		\
	.attrs = _name##_attrs,						\
};									\
__DMC_ATTRIBUTE_GROUPS(_name)

#define DMC_BIN_ATTRIBUTE_GROUPS(_name)					\
static const struct dmc_attribute_group _name##_group = {		\
	.bin_attrs = _name##_attrs,					\
};									\
__DMC_ATTRIBUTE_GROUPS(_name)

/**
 * struct dmc_sysfs_ops - how a type reads and writes its attributes
 * @show: fill @buf (PAGE_SIZE bytes) with the value; return the length or
 *	a negative errno
 * @store: parse @count bytes of @buf; return @count or a negative errno
 */
struct dmc_sysfs_ops {
	ssize_t (*show)(struct dmc_kobject *kobj, struct dmc_attribute *attr,
			char *buf);
	ssize_t (*store)(struct dmc_kobject *kobj, struct dmc_attribute *attr,
			 const char *buf, size_t count);
};

/**
 * struct dmc_kobj_attribute - an attribute of a plain kobject
 * @attr: name and mode
 * @show: fill @buf (PAGE_SIZE) and return the length, or a negative errno
 * @store: parse @count bytes of @buf; return @count or a negative errno
 *
 * The attributes of dmc_kobject_create_and_add()'s objects (and of any
 * type whose sysfs_ops are dmc_kobj_sysfs_ops), as Linux's struct
 * kobj_attribute; initialise them with __DMC_ATTR() and friends.
 */
struct dmc_kobj_attribute {
	struct dmc_attribute attr;
	ssize_t (*show)(struct dmc_kobject *kobj, struct dmc_kobj_attribute *attr,
			char *buf);
	ssize_t (*store)(struct dmc_kobject *kobj, struct dmc_kobj_attribute *attr,
			 const char *buf, size_t count);
};

extern const struct dmc_sysfs_ops dmc_kobj_sysfs_ops;

struct dmc_listener;

/**
 * struct dmc_kobj_type - behaviour shared by kobjects of one kind
 * @name: short type name used in leak reports and statistics
 * @release: frees the structure embedding the kobject. Mandatory: a type
 *	without one is refused by dmc_kobject_init().
 * @sysfs_ops: attribute access, or NULL when the type has no attributes
 * @default_groups: NULL-terminated attribute groups every object of the
 *	type shows
 * @walk_groups: for types whose groups depend on the object (a device
 *	shows its bus's and class's groups too): call @fn for each group of
 *	@kobj, stopping at a nonzero return. NULL: @default_groups are used.
 * @indexed_elsewhere: the model also finds objects of this type by their
 *	name or parent in indexes of its own (a device in its bus, class,
 *	parent device and driver, and its dev->parent and power order; a
 *	driver in its bus; a bus or class by its own name), which the kobject
 *	core cannot see. dmc_kobject_rename() and dmc_kobject_move() refuse
 *	such objects with -EOPNOTSUPP instead of leaving those indexes stale.
 * @link_names: NULL-terminated names of the links an object of the type
 *	may have (a device's "driver" and "subsystem"), reserved below it:
 *	no child or attribute may take them. NULL: none.
 * @walk_links: the links in @kobj's directory, derived from the model as
 *	it is now (a device's "driver" and "subsystem"; a driver's bound
 *	devices; a bus's devices/ set; a class's members): call @fn for each
 *	(with @name non-NULL, only for the link of that name, found through
 *	an index where the model has one), stopping at a nonzero return.
 *	Called with dmc_tree_mutex held (dmc_kobject_walk_links()). NULL:
 *	the type has no links. The kobject core knows links only through
 *	@link_names and this, never by type.
 */
struct dmc_kobj_type {
	const char *name;
	bool indexed_elsewhere;
	void (*release)(struct dmc_kobject *kobj);
	const struct dmc_sysfs_ops *sysfs_ops;
	const struct dmc_attribute_group **default_groups;
	int (*walk_groups)(struct dmc_kobject *kobj, void *data,
			   int (*fn)(struct dmc_kobject *kobj,
				     const struct dmc_attribute_group *grp,
				     void *data));
	const char * const *link_names;
	int (*walk_links)(struct dmc_kobject *kobj, const char *name, void *data,
			  int (*fn)(struct dmc_kobject *kobj, const char *name,
				    struct dmc_kobject *target, void *data));
};

/* Bits of dmc_kobject.flags; changed atomically (dmc_kobj_set_flag()...). */
enum dmc_kobject_flag {
	DMC_KOBJ_INITIALIZED,		/* dmc_kobject_init() succeeded */
	DMC_KOBJ_IN_TREE,		/* added and not yet deleted */
	DMC_KOBJ_DELETED,		/* was added once; cannot be re-added */
	DMC_KOBJ_ADD_SENT,		/* the "add" event went out */
	DMC_KOBJ_REMOVE_SENT,		/* the "remove" event went out */
	DMC_KOBJ_UEVENT_SUPPRESS,	/* send no events for this object */
	DMC_KOBJ_IS_KSET,		/* embedded in a registered dmc_kset */
	DMC_KOBJ_IS_DEVICE,		/* embedded in a dmc_device (initialized) */
	DMC_KOBJ_KSET_UNINDEXED,	/* a kset whose members are found by a walk */
	DMC_KOBJ_HAS_GROUPS,		/* has groups from dmc_sysfs_create_group() */
};

/**
 * struct dmc_kobject - the core object
 * @name: the object's name; read it with dmc_kobject_name() and set it
 *	only with dmc_kobject_set_name() (or a format to dmc_kobject_add()):
 *	the core allocates it with its hash in front, which its indexes
 *	read, so a name assigned directly would corrupt them
 * @parent: parent in the tree; holds a reference from add until release
 * @kset: set this object belongs to, or NULL
 * @ktype: the object's type; never NULL once initialized
 * @kref: reference count
 * @flags: DMC_KOBJ_* bits, 32 bits beside @kref so that the structure has
 *	no hole; read and changed only through dmc_kobj_test_flag() and
 *	friends
 *
 * The remaining fields belong to the core (see base.h for their locks).
 */
struct dmc_kobject {
	const char *name;
	struct dmc_kobject *parent;
	struct dmc_kset *kset;
	const struct dmc_kobj_type *ktype;
	struct kref kref;
	atomic_t flags;

	/* private to the core */
	struct dmc_klist_node kset_node; /* in kset->members */
	struct dmc_hnode sib_node;	/* in the (parent, name) index */
	struct list_head children;	/* in-tree children */
	struct list_head sibling;	/* in parent->children */
	struct list_head live;		/* every initialized kobject */
};

/* Atomic bit operations on kobj->flags, ordered as the bitops they replace. */
static inline bool dmc_kobj_test_flag(const struct dmc_kobject *kobj,
				      enum dmc_kobject_flag bit)
{
	return atomic_read(&kobj->flags) & BIT(bit);
}

static inline void dmc_kobj_set_flag(struct dmc_kobject *kobj,
				     enum dmc_kobject_flag bit)
{
	atomic_or(BIT(bit), &kobj->flags);
}

static inline void dmc_kobj_clear_flag(struct dmc_kobject *kobj,
				       enum dmc_kobject_flag bit)
{
	atomic_andnot(BIT(bit), &kobj->flags);
}

static inline bool dmc_kobj_test_and_set_flag(struct dmc_kobject *kobj,
					      enum dmc_kobject_flag bit)
{
	return atomic_fetch_or(BIT(bit), &kobj->flags) & BIT(bit);
}

static inline bool dmc_kobj_test_and_clear_flag(struct dmc_kobject *kobj,
						enum dmc_kobject_flag bit)
{
	return atomic_fetch_andnot(BIT(bit), &kobj->flags) & BIT(bit);
}

static inline const char *dmc_kobject_name(const struct dmc_kobject *kobj)
{
	return kobj->name;
}

static inline bool dmc_kobject_in_tree(const struct dmc_kobject *kobj)
{
	return dmc_kobj_test_flag(kobj, DMC_KOBJ_IN_TREE);
}

/**
 * dmc_kobject_get_unless_zero() - take a reference unless the object dies
 * @kobj: the object, or NULL; its memory must be valid (found under a lock
 *	that its removal takes)
 *
 * An inline, as the lookups of the tree below kobject.c take references
 * with it (they never drop one: the last put is kobject.c's).
 *
 * Return: @kobj with a new reference, or NULL if its count already
 * reached zero (its release is running or about to).
 */
static inline struct dmc_kobject * __must_check
dmc_kobject_get_unless_zero(struct dmc_kobject *kobj)
{
	if (!kobj || !kref_get_unless_zero(&kobj->kref))
		return NULL;
	return kobj;
}

int dmc_kobject_init(struct dmc_kobject *kobj, const struct dmc_kobj_type *ktype);
__printf(3, 4) int dmc_kobject_add(struct dmc_kobject *kobj,
				   struct dmc_kobject *parent,
				   const char *fmt, ...);
__printf(4, 5) int dmc_kobject_init_and_add(struct dmc_kobject *kobj,
					    const struct dmc_kobj_type *ktype,
					    struct dmc_kobject *parent,
					    const char *fmt, ...);
void dmc_kobject_del(struct dmc_kobject *kobj);
struct dmc_kobject *dmc_kobject_get(struct dmc_kobject *kobj);
void dmc_kobject_put(struct dmc_kobject *kobj);
int dmc_kobject_rename(struct dmc_kobject *kobj, const char *new_name);
int dmc_kobject_move(struct dmc_kobject *kobj, struct dmc_kobject *new_parent);
char *dmc_kobject_get_path(const struct dmc_kobject *kobj, gfp_t gfp);
__printf(2, 3) int dmc_kobject_set_name(struct dmc_kobject *kobj,
					const char *fmt, ...);
__printf(2, 0) int dmc_kobject_set_name_vargs(struct dmc_kobject *kobj,
					      const char *fmt, va_list vargs);
void dmc_kobject_set_uevent_suppress(struct dmc_kobject *kobj, bool suppress);
struct dmc_kobject *dmc_kobject_find_child(struct dmc_kobject *parent,
					   const char *name);
unsigned int dmc_kobject_refcount(const struct dmc_kobject *kobj);
struct dmc_kobject *dmc_kobject_create_and_add(const char *name,
					       struct dmc_kobject *parent);

int dmc_kobject_walk_groups(struct dmc_kobject *kobj, void *data,
			    int (*fn)(struct dmc_kobject *kobj,
				      const struct dmc_attribute_group *grp,
				      void *data));
int dmc_kobject_walk_links(struct dmc_kobject *kobj, void *data,
			   int (*fn)(struct dmc_kobject *kobj, const char *name,
				     struct dmc_kobject *target, void *data));
struct dmc_kobject *dmc_kobject_find_link(struct dmc_kobject *kobj,
					  const char *name);
ssize_t dmc_kobject_attr_show(struct dmc_kobject *kobj,
			      struct dmc_attribute *attr, char *buf);
ssize_t dmc_kobject_attr_store(struct dmc_kobject *kobj,
			       struct dmc_attribute *attr, const char *buf,
			       size_t count);
void dmc_sysfs_notify(struct dmc_kobject *kobj, const char *dir,
		      const char *attr);
int dmc_sysfs_create_group(struct dmc_kobject *kobj,
			   const struct dmc_attribute_group *grp);
int dmc_sysfs_create_groups(struct dmc_kobject *kobj,
			    const struct dmc_attribute_group **groups);
int dmc_sysfs_update_group(struct dmc_kobject *kobj,
			   const struct dmc_attribute_group *grp);
int dmc_sysfs_update_groups(struct dmc_kobject *kobj,
			    const struct dmc_attribute_group **groups);
void dmc_sysfs_remove_group(struct dmc_kobject *kobj,
			    const struct dmc_attribute_group *grp);
void dmc_sysfs_remove_groups(struct dmc_kobject *kobj,
			     const struct dmc_attribute_group **groups);
int dmc_sysfs_create_file(struct dmc_kobject *kobj,
			  const struct dmc_attribute *attr);
void dmc_sysfs_remove_file(struct dmc_kobject *kobj,
			   const struct dmc_attribute *attr);
int dmc_sysfs_create_bin_file(struct dmc_kobject *kobj,
			      const struct dmc_bin_attribute *attr);
void dmc_sysfs_remove_bin_file(struct dmc_kobject *kobj,
			       const struct dmc_bin_attribute *attr);
struct dmc_kobject *dmc_kobject_lookup_path(const char *path);
void dmc_kobject_flush_releases(void);
unsigned int dmc_kobject_release_delay_ms(void);

/* Misuse counter: incremented by every WARN the core raises at a caller. */
unsigned long dmc_misuse_count(void);
/* Live kobjects, the core's own included (the "stats" file's objects_live). */
unsigned long dmc_kobject_live_count(void);

#endif /* _DMCORE_KOBJECT_H */
