// SPDX-License-Identifier: GPL-2.0
/*
 * dmcfs: the model as a filesystem of dmcore's own ("mount -t dmcore"),
 * built on lookup: the counterpart of fs/kernfs and fs/sysfs; beside the
 * debugfs mirror until step 6 of docs/dmcfs.md. Attributes are read and
 * written through show/store and polled (dmc_sysfs_notify()); the root
 * has the tree's own files (tree_files.c: events, control, stats).
 *
 * Nothing is kept per object while nobody looks. A lookup answers from
 * the model: a child object, an attribute or named group (the object's
 * groups), or a link (dmc_kobject_find_link()). Only an object someone
 * looked at has a node (struct dmcfs_node), found by the object's
 * address in a hash table, pointed at by the inodes made for it and freed
 * with the last of them; a node holds no reference on its object.
 *
 * Lifetime, as kernfs's active references: every callback that reaches
 * an object through a node takes an active reference on the node first
 * and gives up (-ENODEV, or a negative lookup) once the node is
 * deactivated. The listener's kobj_removed, run under dmc_tree_mutex when
 * the object leaves the tree, deactivates its node; kobj_gone, run by the
 * deleting task after that mutex is dropped and before the object can be
 * released, waits for the active references to drain. A node is made
 * only under dmc_tree_mutex for an object still in the tree, so an
 * object's removal never misses a node made for it.
 *
 * The core never calls this file: it is a listener, like the mirror.
 */

#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/hashtable.h>
#include <linux/module.h>
#include <linux/namei.h>
#include <linux/pagemap.h>
#include <linux/poll.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/statfs.h>
#include <linux/uio.h>
#include <linux/wait.h>

#include "base.h"
#include "clients.h"
#include "tree_files.h"

#define DMCFS_MAGIC		0x646d6373	/* "dmcs" */
#define DMCFS_HASH_BITS		10
#define DMCFS_DEACTIVATED	(INT_MIN / 2)

/*
 * struct dmcfs_node - an object someone looked at
 * @hash: in dmcfs_nodes, by @key, until the object is gone
 * @key: the object's address (also once @kobj is cleared)
 * @kobj: the object, or NULL once it left the tree
 * @active: callbacks under way on @kobj; DMCFS_DEACTIVATED added when
 *	it left the tree
 * @refs: one per inode, and kobj_gone's while it drains; the table holds
 *	none: the last put takes the node out of it (both under dmcfs_lock)
 * @opens: the open attribute files of the object (struct dmcfs_open),
 *	which dmc_sysfs_notify() wakes; under @open_lock, taken with
 *	interrupts off (a notify may come from any context)
 * @rcu: the node is freed after a grace period: a notify finds it under
 *	RCU only
 */
struct dmcfs_node {
	struct hlist_node hash;
	const struct dmc_kobject *key;
	struct dmc_kobject *kobj;
	atomic_t active;
	refcount_t refs;
	spinlock_t open_lock;	/* @opens */
	struct list_head opens;
	struct rcu_head rcu;
};

enum dmcfs_kind {
	DMCFS_DIR,		/* an object's directory (the root: no node) */
	DMCFS_GROUP,		/* a named attribute group's directory */
	DMCFS_ATTR,		/* an attribute */
	DMCFS_LINK,		/* a link, resolved when followed */
	DMCFS_ROOT_FILE,	/* events, control, stats (tree_files.c) */
};

/*
 * struct dmcfs_inode - what an inode of the tree is
 * @node: the object it belongs to; NULL for the root
 * @kind: see enum dmcfs_kind
 * @grp: the named group (DMCFS_GROUP), or the attribute's group
 * @attr: the attribute (DMCFS_ATTR); valid while @node is active
 * @vfs_inode: the inode
 */
struct dmcfs_inode {
	struct dmcfs_node *node;
	enum dmcfs_kind kind;
	const struct dmc_attribute_group *grp;
	struct dmc_attribute *attr;
	struct inode vfs_inode;
};

static DEFINE_HASHTABLE(dmcfs_nodes, DMCFS_HASH_BITS);
static DEFINE_SPINLOCK(dmcfs_lock);	/* dmcfs_nodes, node->kobj */
static DECLARE_WAIT_QUEUE_HEAD(dmcfs_drain_wq);
static DECLARE_WAIT_QUEUE_HEAD(dmcfs_poll_wq);	/* every poller of an attribute */
static struct kmem_cache *dmcfs_inode_cachep;

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

static inline struct dmcfs_inode *DMCFS_I(struct inode *inode)
{
	return container_of(inode, struct dmcfs_inode, vfs_inode);
}

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

static void dmcfs_node_put(struct dmcfs_node *n)
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
static struct dmcfs_node *dmcfs_node_get(struct dmc_kobject *kobj,
					 struct dmcfs_node *spare)
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
		hash_add_rcu(dmcfs_nodes, &n->hash, (unsigned long)kobj);
	}
	spin_unlock(&dmcfs_lock);
	return n;
}

/* Begin a use of @n's object: the object, or NULL once it left the tree. */
static struct dmc_kobject *dmcfs_active_get(struct dmcfs_node *n)
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

static void dmcfs_active_put(struct dmcfs_node *n)
{
	dmcfs_active_release();
	if (atomic_dec_return(&n->active) == DMCFS_DEACTIVATED)
		wake_up_all(&dmcfs_drain_wq);
}

/* The listener: deactivate under the tree mutex, drain after it. */
static void dmcfs_kobj_removed(struct dmc_listener *l, struct dmc_kobject *kobj)
{
	struct dmcfs_node *n;

	spin_lock(&dmcfs_lock);
	n = dmcfs_node_find(kobj);
	if (n && n->kobj) {
		WRITE_ONCE(n->kobj, NULL);
		atomic_add(DMCFS_DEACTIVATED, &n->active);
	}
	spin_unlock(&dmcfs_lock);
	if (n)
		wake_up_interruptible_all(&dmcfs_poll_wq);	/* POLLERR now */
}

static bool dmcfs_same_group_name(const struct dmc_attribute_group *grp,
				  const char *dir)
{
	if (!grp || !grp->name)
		return !dir;
	return dir && !strcmp(grp->name, dir);
}

/* struct dmcfs_open: one open attribute file */
struct dmcfs_open {
	struct mutex lock;		/* reads on this open file */
	char *page;			/* the value, from a read at position 0 */
	ssize_t len;
	struct dmcfs_node *node;	/* held by the file's inode */
	struct dmc_attribute *attr;
	const struct dmc_attribute_group *grp;
	struct list_head node_entry;	/* in node->opens */
	atomic_t event;			/* bumped by a notify */
	int seen;			/* @event at the last snapshot */
};

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
			if (strcmp(of->attr->name, attr) ||
			    !dmcfs_same_group_name(of->grp, dir))
				continue;
			atomic_inc(&of->event);
			woke = true;
		}
		spin_unlock_irqrestore(&n->open_lock, flags);
	}
	rcu_read_unlock();
	if (woke)
		wake_up_interruptible_all(&dmcfs_poll_wq);
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

static struct dmc_listener dmcfs_listener = {
	.kobj_removed = dmcfs_kobj_removed,
	.kobj_gone = dmcfs_kobj_gone,
	.attr_changed = dmcfs_attr_changed,
};

/* ---- inodes ----------------------------------------------------------------- */

static const struct inode_operations dmcfs_dir_iops;
static const struct file_operations dmcfs_dir_fops;
static const struct file_operations dmcfs_attr_fops;
static const struct inode_operations dmcfs_file_iops;
static const struct inode_operations dmcfs_link_iops;

/*
 * A new inode of @sb for what @node/@kind/@grp/@attr say (for a root
 * file, @attr is its struct dmc_tree_file); takes a node reference.
 */
static struct inode *dmcfs_new_inode(struct super_block *sb, struct dmcfs_node *node,
				     enum dmcfs_kind kind,
				     const struct dmc_attribute_group *grp,
				     void *attr)
{
	const struct dmc_tree_file *tf = attr;
	struct inode *inode = new_inode(sb);
	struct dmcfs_inode *di;

	if (!inode)
		return NULL;
	di = DMCFS_I(inode);
	di->node = node;
	if (node)
		refcount_inc(&node->refs);
	di->kind = kind;
	di->grp = grp;
	di->attr = attr;
	inode->i_ino = get_next_ino();
	inode->i_atime = current_time(inode);
	inode->i_mtime = inode->i_atime;
	inode->i_ctime = inode->i_atime;
	switch (kind) {
	case DMCFS_DIR:
	case DMCFS_GROUP:
		inode->i_mode = S_IFDIR | 0755;
		inode->i_op = &dmcfs_dir_iops;
		inode->i_fop = &dmcfs_dir_fops;
		set_nlink(inode, 2);
		break;
	case DMCFS_ATTR:
		inode->i_mode = S_IFREG | (di->attr->mode & 0777);
		inode->i_op = &dmcfs_file_iops;
		inode->i_fop = &dmcfs_attr_fops;
		inode->i_size = PAGE_SIZE;
		break;
	case DMCFS_LINK:
		inode->i_mode = S_IFLNK | 0777;
		inode->i_op = &dmcfs_link_iops;
		break;
	case DMCFS_ROOT_FILE:
		di->attr = NULL;
		inode->i_mode = S_IFREG | tf->mode;
		inode->i_op = &dmcfs_file_iops;
		inode->i_fop = tf->fops;
		break;
	}
	return inode;
}

static struct inode *dmcfs_alloc_inode(struct super_block *sb)
{
	struct dmcfs_inode *di = alloc_inode_sb(sb, dmcfs_inode_cachep, GFP_KERNEL);

	if (!di)
		return NULL;
	di->node = NULL;
	return &di->vfs_inode;
}

static void dmcfs_free_inode(struct inode *inode)
{
	kmem_cache_free(dmcfs_inode_cachep, DMCFS_I(inode));
}

static void dmcfs_evict_inode(struct inode *inode)
{
	truncate_inode_pages_final(&inode->i_data);
	clear_inode(inode);
	dmcfs_node_put(DMCFS_I(inode)->node);
	DMCFS_I(inode)->node = NULL;
}

static const struct super_operations dmcfs_sops = {
	.alloc_inode = dmcfs_alloc_inode,
	.free_inode = dmcfs_free_inode,
	.evict_inode = dmcfs_evict_inode,
	.drop_inode = generic_delete_inode,	/* nothing kept once unused */
	.statfs = simple_statfs,
};

/* ---- lookup ------------------------------------------------------------------ */

/* Named groups of one name are one directory, as in sysfs. */
static bool dmcfs_same_group(const struct dmc_attribute_group *a,
			     const struct dmc_attribute_group *b)
{
	return a == b || (a->name && b->name && !strcmp(a->name, b->name));
}

struct dmcfs_find {
	const char *name;
	const struct dmc_attribute_group *grp;	/* look in this group only */
	const struct dmc_attribute_group *found_grp;
	struct dmc_attribute *found_attr;
};

/* A named group @f->name, or an attribute @f->name of an unnamed group. */
static int dmcfs_find_in_group(struct dmc_kobject *kobj,
			       const struct dmc_attribute_group *grp, void *data)
{
	struct dmcfs_find *f = data;
	struct dmc_attribute **a;

	if (f->grp ? !dmcfs_same_group(grp, f->grp) : !!grp->name) {
		if (!f->grp && grp->name && !strcmp(grp->name, f->name)) {
			f->found_grp = grp;
			return 1;
		}
		return 0;
	}
	for (a = grp->attrs; a && *a; a++) {
		if (!strcmp((*a)->name, f->name)) {
			f->found_grp = grp;
			f->found_attr = *a;
			return 1;
		}
	}
	return 0;
}

/*
 * The node of the child @name of @parent (NULL: the top level), found
 * through the tree's index, made under the tree mutex while the child is
 * still in the tree; referenced, or NULL. *@child is the child with a
 * reference, which the caller drops once it holds no active reference:
 * that put may be the child's last, and its release may delete objects
 * whose kobj_gone waits for active references to drain.
 */
static struct dmcfs_node *dmcfs_child_node(struct dmc_kobject *parent, const char *name,
					   struct dmcfs_node **spare,
					   struct dmc_kobject **child)
{
	struct dmcfs_node *node = NULL;

	*child = dmc_kobject_find_child(parent, name);
	if (!*child)
		return NULL;
	mutex_lock(&dmc_tree_mutex);
	if (dmc_kobject_in_tree(*child))
		node = dmcfs_node_get(*child, *spare);
	mutex_unlock(&dmc_tree_mutex);
	if (node == *spare)
		*spare = NULL;
	return node;
}

static struct dentry *dmcfs_lookup(struct inode *dir, struct dentry *dentry,
				   unsigned int flags)
{
	struct dmcfs_inode *pdi = DMCFS_I(dir);
	const char *name = dentry->d_name.name;
	struct dmcfs_find f = { .name = name, .grp = pdi->grp };
	struct dmc_kobject *kobj = NULL, *child = NULL, *target = NULL;
	const struct dmc_tree_file *tf;
	struct dmcfs_node *spare, *node;
	struct inode *inode = NULL;

	/* The root's own files first: they hide a top-level object's name. */
	tf = pdi->node ? NULL : dmc_tree_file_find(name);
	if (tf) {
		inode = dmcfs_new_inode(dir->i_sb, NULL, DMCFS_ROOT_FILE, NULL, (void *)tf);
		return d_splice_alias(inode ?: ERR_PTR(-ENOMEM), dentry);
	}
	if (pdi->node) {
		kobj = dmcfs_active_get(pdi->node);
		if (!kobj)
			return ERR_PTR(-ENOENT);
	}
	spare = kzalloc(sizeof(*spare), GFP_KERNEL);
	if (!spare) {
		inode = ERR_PTR(-ENOMEM);
		goto out;
	}
	if (pdi->kind == DMCFS_DIR) {
		node = dmcfs_child_node(kobj, name, &spare, &child);
		if (node) {
			inode = dmcfs_new_inode(dir->i_sb, node, DMCFS_DIR, NULL, NULL);
			dmcfs_node_put(node);
			if (!inode)
				inode = ERR_PTR(-ENOMEM);
			goto out;
		}
	}
	if (kobj && dmc_kobject_walk_groups(kobj, &f, dmcfs_find_in_group) > 0) {
		inode = dmcfs_new_inode(dir->i_sb, pdi->node,
					f.found_attr ? DMCFS_ATTR : DMCFS_GROUP,
					f.found_grp, f.found_attr);
		if (!inode)
			inode = ERR_PTR(-ENOMEM);
		goto out;
	}
	if (kobj && pdi->kind == DMCFS_DIR) {
		target = dmc_kobject_find_link(kobj, name);
		if (target) {
			inode = dmcfs_new_inode(dir->i_sb, pdi->node, DMCFS_LINK, NULL, NULL);
			if (!inode)
				inode = ERR_PTR(-ENOMEM);
		}
	}
out:
	kfree(spare);
	if (pdi->node)
		dmcfs_active_put(pdi->node);
	/* Only now: a last put may delete objects and wait for their drain. */
	dmc_kobject_put(child);
	dmc_kobject_put(target);
	if (!inode)
		return d_splice_alias(NULL, dentry);	/* negative */
	return d_splice_alias(inode, dentry);
}

/*
 * A dentry stays valid while its object (or, for a file, a group or a
 * link, its directory's object) is in the tree and, for an object's
 * directory, still has that name under that parent. Negative dentries are
 * never trusted: the model changes without telling the dcache.
 */
static int dmcfs_d_revalidate(struct dentry *dentry, unsigned int flags)
{
	struct dmc_kobject *kobj, *target, *pkobj;
	struct dmcfs_inode *di, *pdi;
	struct dentry *parent;
	struct inode *inode;
	int valid = 1;

	if (flags & LOOKUP_RCU)
		return -ECHILD;
	inode = d_inode(dentry);
	if (!inode)
		return 0;
	di = DMCFS_I(inode);
	if (!di->node)
		return 1;	/* the root */
	kobj = dmcfs_active_get(di->node);
	if (!kobj)
		return 0;
	target = NULL;
	if (di->kind == DMCFS_DIR) {
		/* Renamed or moved: its name and parent, under the name lock. */
		parent = dget_parent(dentry);
		pdi = DMCFS_I(d_inode(parent));
		pkobj = pdi->node ? READ_ONCE(pdi->node->kobj) : NULL;
		read_lock(&dmc_name_lock);
		valid = (!pdi->node || pkobj) && kobj->parent == pkobj &&
			!strcmp(kobj->name, dentry->d_name.name);
		read_unlock(&dmc_name_lock);
		dput(parent);
	} else if (di->kind == DMCFS_LINK) {
		target = dmc_kobject_find_link(kobj, dentry->d_name.name);
		valid = !!target;
	}
	dmcfs_active_put(di->node);
	dmc_kobject_put(target);
	return valid;
}

static const struct dentry_operations dmcfs_dops = {
	.d_revalidate = dmcfs_d_revalidate,
	.d_delete = always_delete_dentry,
};

/* ---- readdir ----------------------------------------------------------------- */

/*
 * The names of a directory, gathered under an active reference into a
 * buffer of "<type><name>\0" records and emitted from ctx->pos. The
 * position is an index into that sequence: quadratic over a directory of
 * very many entries (docs/dmcfs.md: a cursor before step 6).
 */
struct dmcfs_names {
	char *buf;
	size_t len, size;
	const struct dmc_attribute_group *grp;
	int err;
};

static void dmcfs_names_add(struct dmcfs_names *nm, unsigned char type, const char *name)
{
	size_t need = strlen(name) + 2;
	char *p;

	if (nm->err)
		return;
	if (nm->len + need > nm->size) {
		p = krealloc(nm->buf, max(nm->size * 2, nm->len + need + 256), GFP_KERNEL);
		if (!p) {
			nm->err = -ENOMEM;
			return;
		}
		nm->buf = p;
		nm->size = ksize(p);
	}
	nm->buf[nm->len] = type;
	strcpy(nm->buf + nm->len + 1, name);
	nm->len += need;
}

static bool dmcfs_names_has(struct dmcfs_names *nm, const char *name)
{
	char *p;

	for (p = nm->buf; p && p < nm->buf + nm->len; p += strlen(p + 1) + 2)
		if (!strcmp(p + 1, name))
			return true;
	return false;
}

static int dmcfs_names_group(struct dmc_kobject *kobj,
			     const struct dmc_attribute_group *grp, void *data)
{
	struct dmcfs_names *nm = data;
	struct dmc_attribute **a;

	if (nm->grp ? !dmcfs_same_group(grp, nm->grp) : !!grp->name) {
		if (!nm->grp && grp->name && !dmcfs_names_has(nm, grp->name))
			dmcfs_names_add(nm, DT_DIR, grp->name);
		return 0;
	}
	for (a = grp->attrs; a && *a; a++)
		dmcfs_names_add(nm, DT_REG, (*a)->name);
	return 0;
}

static int dmcfs_names_link(struct dmc_kobject *kobj, const char *name,
			    struct dmc_kobject *target, void *data)
{
	dmcfs_names_add(data, DT_LNK, name);
	return 0;
}

static int dmcfs_readdir(struct file *file, struct dir_context *ctx)
{
	struct dmcfs_inode *di = DMCFS_I(file_inode(file));
	struct dmcfs_names nm = { .grp = di->grp };
	const struct dmc_tree_file *tf;
	struct dmc_kobject *kobj = NULL, *k;
	loff_t i = 2;
	char *p;

	if (!dir_emit_dots(file, ctx))
		return 0;
	if (di->node) {
		kobj = dmcfs_active_get(di->node);
		if (!kobj)
			return 0;	/* removed: empty, as kernfs shows it */
	}
	if (!di->node)
		for (tf = dmc_tree_files; tf->name; tf++)
			dmcfs_names_add(&nm, DT_REG, tf->name);
	if (di->kind == DMCFS_DIR) {
		mutex_lock(&dmc_tree_mutex);
		list_for_each_entry(k, kobj ? &kobj->children : &dmc_roots, sibling)
			if (kobj || !dmc_tree_file_find(k->name))
				dmcfs_names_add(&nm, DT_DIR, k->name);
		mutex_unlock(&dmc_tree_mutex);
	}
	if (kobj) {
		dmc_kobject_walk_groups(kobj, &nm, dmcfs_names_group);
		if (di->kind == DMCFS_DIR)
			dmc_kobject_walk_links(kobj, &nm, dmcfs_names_link);
		dmcfs_active_put(di->node);
	}
	for (p = nm.buf; !nm.err && p && p < nm.buf + nm.len; p += strlen(p + 1) + 2, i++) {
		if (i < ctx->pos)
			continue;
		if (!dir_emit(ctx, p + 1, strlen(p + 1), 1, *p))
			break;
		ctx->pos = i + 1;
	}
	kfree(nm.buf);
	return nm.err;
}

/*
 * Modes and owners are the model's: not changed through the tree. A
 * truncation (the O_TRUNC of a shell's ">") and times are accepted and
 * change nothing, as sysfs ignores them.
 */
static int dmcfs_setattr(struct user_namespace *mnt_userns, struct dentry *dentry,
			 struct iattr *iattr)
{
	if (iattr->ia_valid & (ATTR_MODE | ATTR_UID | ATTR_GID | ATTR_KILL_SUID |
			       ATTR_KILL_SGID))
		return -EPERM;
	return 0;
}

static const struct inode_operations dmcfs_dir_iops = {
	.lookup = dmcfs_lookup,
	.setattr = dmcfs_setattr,
};

static const struct inode_operations dmcfs_file_iops = {
	.setattr = dmcfs_setattr,
};

static const struct file_operations dmcfs_dir_fops = {
	.read = generic_read_dir,
	.iterate_shared = dmcfs_readdir,
	.llseek = generic_file_llseek,
};

/* ---- attributes ---------------------------------------------------------------- */

/*
 * Opening checks the mode as sysfs does (root passes the permission check
 * of a 0444 file opened for writing) and puts the file on its node's
 * list, where dmc_sysfs_notify() finds it.
 */
static int dmcfs_attr_open(struct inode *inode, struct file *file)
{
	struct dmcfs_inode *di = DMCFS_I(inode);
	struct dmcfs_open *of;
	int err;

	err = dmc_tree_check_open(file, di->attr->mode);
	if (err)
		return err;
	of = kzalloc(sizeof(*of), GFP_KERNEL);
	if (!of)
		return -ENOMEM;
	mutex_init(&of->lock);
	of->node = di->node;
	of->attr = di->attr;
	of->grp = di->grp;
	spin_lock_irq(&of->node->open_lock);
	list_add_tail(&of->node_entry, &of->node->opens);
	spin_unlock_irq(&of->node->open_lock);
	file->private_data = of;
	return 0;
}

/*
 * A read at position 0 calls show() and keeps the value; a read further
 * on continues in it, as sysfs's seq_file does, so a reader in small
 * pieces never gets a torn value and a poller re-reads with lseek(0).
 * Once the object left the tree a read at 0 fails with ENODEV; the rest
 * of a value read before still comes.
 */
static ssize_t dmcfs_attr_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct dmcfs_open *of = iocb->ki_filp->private_data;
	struct dmc_kobject *kobj;
	size_t n;
	char *page;
	ssize_t len;

	if (mutex_lock_interruptible(&of->lock))
		return -ERESTARTSYS;
	if (!of->page || iocb->ki_pos == 0) {
		page = (char *)get_zeroed_page(GFP_KERNEL);
		if (!page) {
			len = -ENOMEM;
			goto out;
		}
		kobj = dmcfs_active_get(of->node);
		if (!kobj) {
			free_page((unsigned long)page);
			len = -ENODEV;
			goto out;
		}
		of->seen = atomic_read(&of->event);
		len = dmc_kobject_attr_show(kobj, of->attr, page);
		dmcfs_active_put(of->node);
		if (len < 0) {
			free_page((unsigned long)page);
			len = dmc_tree_errno(len, of->attr->name);
			goto out;
		}
		if (of->page)
			free_page((unsigned long)of->page);
		of->page = page;
		of->len = len;
	}
	len = 0;
	if (iocb->ki_pos >= 0 && iocb->ki_pos < of->len) {
		n = copy_to_iter(of->page + iocb->ki_pos, of->len - iocb->ki_pos, to);
		if (!n && iov_iter_count(to)) {
			len = -EFAULT;
			goto out;
		}
		iocb->ki_pos += n;
		len = n;
	}
out:
	mutex_unlock(&of->lock);
	return len;
}

/* Each write() is one store() of the whole buffer, as in sysfs. */
static ssize_t dmcfs_attr_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct dmcfs_open *of = iocb->ki_filp->private_data;
	size_t count = iov_iter_count(from);
	struct dmc_kobject *kobj;
	ssize_t ret;
	char *kbuf;

	if (count >= PAGE_SIZE)
		return -E2BIG;
	kbuf = kmalloc(count + 1, GFP_KERNEL);
	if (!kbuf)
		return -ENOMEM;
	if (!copy_from_iter_full(kbuf, count, from)) {
		kfree(kbuf);
		return -EFAULT;
	}
	kbuf[count] = '\0';
	kobj = dmcfs_active_get(of->node);
	if (!kobj) {
		kfree(kbuf);
		return -ENODEV;
	}
	ret = dmc_kobject_attr_store(kobj, of->attr, kbuf, count);
	dmcfs_active_put(of->node);
	kfree(kbuf);
	return dmc_tree_errno(ret, of->attr->name);
}

/*
 * As kernfs_fop_poll(): readable and writable always; POLLERR|POLLPRI
 * once the attribute was notified since the value was last read at
 * position 0, or once the object left the tree.
 */
static __poll_t dmcfs_attr_poll(struct file *file, poll_table *wait)
{
	struct dmcfs_open *of = file->private_data;

	poll_wait(file, &dmcfs_poll_wq, wait);
	if (!READ_ONCE(of->node->kobj) || READ_ONCE(of->seen) != atomic_read(&of->event))
		return DEFAULT_POLLMASK | EPOLLERR | EPOLLPRI;
	return DEFAULT_POLLMASK;
}

static int dmcfs_attr_release(struct inode *inode, struct file *file)
{
	struct dmcfs_open *of = file->private_data;

	spin_lock_irq(&of->node->open_lock);
	list_del(&of->node_entry);
	spin_unlock_irq(&of->node->open_lock);
	if (of->page)
		free_page((unsigned long)of->page);
	kfree(of);
	return 0;
}

static const struct file_operations dmcfs_attr_fops = {
	.owner = THIS_MODULE,
	.open = dmcfs_attr_open,
	.read_iter = dmcfs_attr_read_iter,
	.write_iter = dmcfs_attr_write_iter,
	.poll = dmcfs_attr_poll,
	.release = dmcfs_attr_release,
	.llseek = generic_file_llseek,
};

/* ---- links ------------------------------------------------------------------- */

/*
 * Resolved when followed: as many "../" as the link's directory has path
 * components, then the target's path, both as they are now.
 */
static const char *dmcfs_get_link(struct dentry *dentry, struct inode *inode,
				  struct delayed_call *done)
{
	struct dmcfs_inode *di = DMCFS_I(inode);
	struct dmc_kobject *kobj, *target;
	char *from = NULL, *to = NULL, *rel = ERR_PTR(-ENOENT), *p;
	size_t depth = 0, len;

	if (!dentry)
		return ERR_PTR(-ECHILD);
	kobj = dmcfs_active_get(di->node);
	if (!kobj)
		return ERR_PTR(-ENOENT);
	target = dmc_kobject_find_link(kobj, dentry->d_name.name);
	if (target) {
		from = dmc_kobject_get_path(kobj, GFP_KERNEL);
		to = dmc_kobject_get_path(target, GFP_KERNEL);
	}
	dmcfs_active_put(di->node);
	if (!target)
		goto out;
	dmc_kobject_put(target);	/* not under the active reference */
	rel = ERR_PTR(-ENOMEM);
	if (!from || !to)
		goto out;
	for (p = from; *p; p++)
		depth += *p == '/';
	len = depth * 3 + strlen(to);
	rel = kmalloc(len + 1, GFP_KERNEL);
	if (!rel) {
		rel = ERR_PTR(-ENOMEM);
		goto out;
	}
	for (p = rel; depth--; p += 3)
		memcpy(p, "../", 3);
	strscpy(p, to + 1, len + 1 - (p - rel));
	set_delayed_call(done, kfree_link, rel);
out:
	kfree(from);
	kfree(to);
	return rel;
}

static const struct inode_operations dmcfs_link_iops = {
	.get_link = dmcfs_get_link,
	.setattr = dmcfs_setattr,
};

/* ---- the filesystem ---------------------------------------------------------- */

static int dmcfs_fill_super(struct super_block *sb, struct fs_context *fc)
{
	struct inode *root;

	sb->s_blocksize = PAGE_SIZE;
	sb->s_blocksize_bits = PAGE_SHIFT;
	sb->s_magic = DMCFS_MAGIC;
	sb->s_op = &dmcfs_sops;
	sb->s_d_op = &dmcfs_dops;
	sb->s_time_gran = 1;
	root = dmcfs_new_inode(sb, NULL, DMCFS_DIR, NULL, NULL);
	if (!root)
		return -ENOMEM;
	sb->s_root = d_make_root(root);
	return sb->s_root ? 0 : -ENOMEM;
}

static int dmcfs_get_tree(struct fs_context *fc)
{
	return get_tree_single(fc, dmcfs_fill_super);
}

static const struct fs_context_operations dmcfs_context_ops = {
	.get_tree = dmcfs_get_tree,
};

static int dmcfs_init_fs_context(struct fs_context *fc)
{
	fc->ops = &dmcfs_context_ops;
	return 0;
}

static struct file_system_type dmcfs_type = {
	.owner = THIS_MODULE,
	.name = "dmcore",
	.init_fs_context = dmcfs_init_fs_context,
	.kill_sb = kill_anon_super,
};

static void dmcfs_inode_init_once(void *p)
{
	inode_init_once(&((struct dmcfs_inode *)p)->vfs_inode);
}

/**
 * dmc_fs_init() - register the filesystem "dmcore" and its listener
 *
 * Context: module init, after the core is up.
 * Return: 0 or a negative errno, with nothing left registered.
 */
int dmc_fs_init(void)
{
	int err;

	dmcfs_inode_cachep = kmem_cache_create("dmcfs_inode", sizeof(struct dmcfs_inode),
					       0, SLAB_RECLAIM_ACCOUNT | SLAB_ACCOUNT,
					       dmcfs_inode_init_once);
	if (!dmcfs_inode_cachep)
		return -ENOMEM;
	err = dmc_listener_register(&dmcfs_listener);
	if (err)
		goto err_cache;
	err = register_filesystem(&dmcfs_type);
	if (err)
		goto err_listener;
	return 0;

err_listener:
	dmc_listener_unregister(&dmcfs_listener);
err_cache:
	kmem_cache_destroy(dmcfs_inode_cachep);
	return err;
}

/**
 * dmc_fs_exit() - unregister the filesystem
 *
 * Context: module exit; no superblock is left (a mounted one holds the
 * module), so no inode and no node is either.
 */
void dmc_fs_exit(void)
{
	unregister_filesystem(&dmcfs_type);
	dmc_listener_unregister(&dmcfs_listener);
	rcu_barrier();	/* inodes freed by RCU */
	kmem_cache_destroy(dmcfs_inode_cachep);
}
