/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The filesystem "dmcore", private to its three files, as fs/kernfs's
 * kernfs-internal.h: dmcfs_node.c (nodes, active references, the
 * listener: the counterpart of fs/kernfs/dir.c's node half), dmcfs_file.c
 * (attribute files: fs/kernfs/file.c, fs/sysfs/file.c), dmcfs.c (inodes,
 * lookup, readdir, links, the superblock: fs/kernfs/inode.c, dir.c's
 * lookup half, symlink.c, mount.c). See dmcfs.c for the design.
 */
#ifndef _DMCORE_DMCFS_H
#define _DMCORE_DMCFS_H

#include <linux/fs.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

#include "base.h"

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
 * @poll_wq: the pollers of its open files
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
	wait_queue_head_t poll_wq;
	struct rcu_head rcu;
};

enum dmcfs_kind {
	DMCFS_DIR,		/* an object's directory (the root: no node) */
	DMCFS_GROUP,		/* a named attribute group's directory */
	DMCFS_ATTR,		/* an attribute */
	DMCFS_BIN,		/* a binary attribute (@attr: its struct's attr) */
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

static inline struct dmcfs_inode *DMCFS_I(struct inode *inode)
{
	return container_of(inode, struct dmcfs_inode, vfs_inode);
}

/* struct dmcfs_open: one open attribute file */
struct dmcfs_open {
	struct mutex lock;		/* reads and writes on this open file */
	char *page;			/* the value, from a read at position 0 */
	ssize_t len;
	struct dmcfs_node *node;	/* held by the file's inode */
	struct dmc_attribute *attr;
	const struct dmc_attribute_group *grp;
	bool bin;			/* @attr is a struct dmc_bin_attribute's */
	char *name;			/* @attr's name, and its group's (or */
	char *dir;			/* NULL), copied: both may go first */
	struct list_head node_entry;	/* in node->opens */
	atomic_t event;			/* bumped by a notify */
	int seen;			/* @event at the last snapshot */
};

/* dmcfs_node.c */
extern struct dmc_listener dmcfs_listener;
struct dmcfs_node *dmcfs_node_get(struct dmc_kobject *kobj, struct dmcfs_node *spare);
void dmcfs_node_put(struct dmcfs_node *n);
struct dmc_kobject *dmcfs_active_get(struct dmcfs_node *n);
void dmcfs_active_put(struct dmcfs_node *n);

/* dmcfs_file.c */
extern const struct file_operations dmcfs_attr_fops;
extern const struct file_operations dmcfs_bin_fops;

#endif /* _DMCORE_DMCFS_H */
