// SPDX-License-Identifier: GPL-2.0
/*
 * dmcfs: the model as a filesystem of dmcore's own ("mount -t dmcore"),
 * built on lookup: the counterpart of fs/kernfs and fs/sysfs, mounted at
 * /sys/kernel/debug/dmcore by sysfs_export.c. Attributes are read and
 * written through show/store and polled (dmc_sysfs_notify()); the root
 * has the tree's own files (tree_files.c: events, control, stats).
 *
 * Nothing is kept per object while nobody looks. A lookup answers from
 * the model: a child object, an attribute or named group (the object's
 * groups), or a link (dmc_kobject_find_link()). Only an object someone
 * looked at has a node (struct dmcfs_node), found by the object's
 * address in a hash table, pointed at by the inodes made for it and freed
 * with the last of them; a node holds no reference on its object. Unused
 * dentries (and so their inodes and nodes) stay in the dcache until its
 * shrinker frees them, as kernfs's do; each use revalidates them.
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
 * The files: dmcfs_node.c (nodes, active references, the listener),
 * dmcfs_file.c (attribute files), this one (inodes, lookup, readdir,
 * links, the superblock), dmcfs.h between them. The core never calls
 * them: the filesystem is a listener on core events.
 */

#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/pagemap.h>
#include <linux/slab.h>
#include <linux/statfs.h>

#include "clients.h"
#include "dmcfs.h"
#include "tree_files.h"
#define DMCFS_MAGIC		0x646d6373	/* "dmcs" */

static struct kmem_cache *dmcfs_inode_cachep;

/* ---- inodes ----------------------------------------------------------------- */

static const struct inode_operations dmcfs_dir_iops;
static const struct file_operations dmcfs_dir_fops;
static const struct inode_operations dmcfs_file_iops;
static const struct inode_operations dmcfs_link_iops;

/*
 * A new inode of @sb for what @node/@kind/@grp/@attr say (for a root
 * file, @attr is its struct dmc_tree_file); takes a node reference.
 */
static struct inode *dmcfs_new_inode(struct super_block *sb, struct dmcfs_node *node,
				     enum dmcfs_kind kind,
				     const struct dmc_attribute_group *grp,
				     void *attr, umode_t mode)
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
		inode->i_mode = S_IFREG | mode;
		inode->i_op = &dmcfs_file_iops;
		inode->i_fop = &dmcfs_attr_fops;
		inode->i_size = PAGE_SIZE;
		break;
	case DMCFS_BIN:
		inode->i_mode = S_IFREG | mode;
		inode->i_op = &dmcfs_file_iops;
		inode->i_fop = &dmcfs_bin_fops;
		inode->i_size = container_of(di->attr, struct dmc_bin_attribute, attr)->size;
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

/*
 * Is @grp (as a walk gives it: alive) the group directory @dir? Named
 * groups of one name are one directory, as in sysfs. A directory is
 * known by its name, never by the group an inode recorded, which may be
 * gone (removed, its module unloaded) by now.
 */
static bool dmcfs_in_dir(const struct dmc_attribute_group *grp, const char *dir)
{
	return dir ? grp->name && !strcmp(grp->name, dir) : !grp->name;
}

/* The group directory name of @dentry's directory (@pdi), or NULL. */
static const char *dmcfs_dir_name(struct dmcfs_inode *pdi, struct dentry *dir)
{
	return pdi->kind == DMCFS_GROUP ? (const char *)dir->d_name.name : NULL;
}

struct dmcfs_find {
	const char *name;
	const char *dir;	/* look in this group directory only */
	const struct dmc_attribute_group *found_grp;
	struct dmc_attribute *found_attr;	/* NULL: the group */
	bool bin;
	umode_t mode;
};

/*
 * A named group @f->name, or a shown attribute @f->name (binary or not)
 * of an unnamed group (of the groups named @f->dir, in a group's directory).
 */
static int dmcfs_find_in_group(struct dmc_kobject *kobj,
			       const struct dmc_attribute_group *grp, void *data)
{
	struct dmcfs_find *f = data;
	unsigned int i;
	umode_t mode;

	if (!dmcfs_in_dir(grp, f->dir)) {
		if (!f->dir && grp->name && !strcmp(grp->name, f->name)) {
			f->found_grp = grp;
			return 1;
		}
		return 0;
	}
	for (i = 0; grp->attrs && grp->attrs[i]; i++) {
		if (strcmp(grp->attrs[i]->name, f->name))
			continue;
		mode = dmc_group_attr_mode(kobj, grp, i, false);
		if (mode) {
			f->found_grp = grp;
			f->found_attr = grp->attrs[i];
			f->mode = mode;
			return 1;
		}
	}
	for (i = 0; grp->bin_attrs && grp->bin_attrs[i]; i++) {
		if (strcmp(grp->bin_attrs[i]->attr.name, f->name))
			continue;
		mode = dmc_group_attr_mode(kobj, grp, i, true);
		if (mode) {
			f->found_grp = grp;
			f->found_attr = &grp->bin_attrs[i]->attr;
			f->bin = true;
			f->mode = mode;
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
	struct dmcfs_find f = { .name = name, .dir = dmcfs_dir_name(pdi, dentry->d_parent) };
	struct dmc_kobject *kobj = NULL, *child = NULL, *target = NULL;
	const struct dmc_tree_file *tf;
	struct dmcfs_node *spare, *node;
	struct inode *inode = NULL;

	/* The root's own files first: they hide a top-level object's name. */
	tf = pdi->node ? NULL : dmc_tree_file_find(name);
	if (tf) {
		inode = dmcfs_new_inode(dir->i_sb, NULL, DMCFS_ROOT_FILE, NULL, (void *)tf, 0);
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
			inode = dmcfs_new_inode(dir->i_sb, node, DMCFS_DIR, NULL, NULL, 0);
			dmcfs_node_put(node);
			if (!inode)
				inode = ERR_PTR(-ENOMEM);
			goto out;
		}
	}
	if (kobj && dmc_kobject_walk_groups(kobj, &f, dmcfs_find_in_group) > 0) {
		inode = dmcfs_new_inode(dir->i_sb, pdi->node,
					!f.found_attr ? DMCFS_GROUP :
					f.bin ? DMCFS_BIN : DMCFS_ATTR,
					f.found_grp, f.found_attr, f.mode);
		if (!inode)
			inode = ERR_PTR(-ENOMEM);
		goto out;
	}
	if (kobj && pdi->kind == DMCFS_DIR) {
		target = dmc_kobject_find_link(kobj, name);
		if (target) {
			inode = dmcfs_new_inode(dir->i_sb, pdi->node, DMCFS_LINK, NULL, NULL, 0);
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
 * Is the group or attribute of @di still there, the same, with the same
 * mode (a group removed, or updated with another is_visible() answer,
 * leaves a stale dentry)? @kobj is @di's object, held active.
 */
static bool dmcfs_file_valid(struct dmc_kobject *kobj, struct dmcfs_inode *di,
			     struct dentry *dentry)
{
	struct dmcfs_find f = { .name = dentry->d_name.name };
	struct dentry *parent;
	bool found;

	if (di->kind == DMCFS_GROUP) {
		/* a group directory: a group of that name, whichever */
		return dmc_kobject_walk_groups(kobj, &f, dmcfs_find_in_group) > 0 &&
		       !f.found_attr;
	}
	parent = dget_parent(dentry);
	f.dir = dmcfs_dir_name(DMCFS_I(d_inode(parent)), parent);
	found = dmc_kobject_walk_groups(kobj, &f, dmcfs_find_in_group) > 0;
	dput(parent);
	/* Pointers compared only: @di's may be stale. */
	return found && f.found_grp == di->grp && f.found_attr == di->attr &&
	       (di->vfs_inode.i_mode & 0777) == f.mode;
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
	} else {
		valid = dmcfs_file_valid(kobj, di, dentry);
	}
	dmcfs_active_put(di->node);
	dmc_kobject_put(target);
	return valid;
}

/*
 * Dentries stay cached once unused, as kernfs's: a walk over the tree
 * pays each lookup once, and the dcache's shrinker (memory pressure,
 * drop_caches) frees them with their inodes and nodes. A cached dentry
 * is revalidated at every use, so one left by a removed object is
 * dropped on its next lookup.
 */
static const struct dentry_operations dmcfs_dops = {
	.d_revalidate = dmcfs_d_revalidate,
};

/* ---- readdir ----------------------------------------------------------------- */

/*
 * A listing is gathered once per pass over the directory, when it starts
 * (at position 2, after "." and ".."), under an active reference, into a
 * buffer of "<type><name>\0" records kept with the open directory; the
 * getdents() calls of the pass emit from it through a cursor, so a pass
 * over a directory of N entries costs O(N), whatever the batch size. A
 * pass shows the directory as it was when it started (POSIX leaves
 * entries added or removed meanwhile unspecified); rewinddir() starts a
 * new one.
 */
struct dmcfs_names {
	char *buf;
	size_t len, size;
	const char *dir;	/* a group directory's name, or NULL */
	int err;
};

/* struct dmcfs_dir: an open directory's listing and its cursor */
struct dmcfs_dir {
	struct dmcfs_names nm;
	size_t off;		/* the record at position @pos */
	loff_t pos;
	bool listed;
};

static void dmcfs_names_add(struct dmcfs_names *nm, unsigned char type, const char *name)
{
	size_t need = strlen(name) + 2, size;
	char *p;

	if (nm->err)
		return;
	if (nm->len + need > nm->size) {
		/* kvmalloc: a directory of a million devices is megabytes */
		size = max(nm->size * 2, nm->len + need + 256);
		p = kvmalloc(size, GFP_KERNEL);
		if (!p) {
			nm->err = -ENOMEM;
			return;
		}
		if (nm->buf)
			memcpy(p, nm->buf, nm->len);
		kvfree(nm->buf);
		nm->buf = p;
		nm->size = size;
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
	unsigned int i;

	if (!dmcfs_in_dir(grp, nm->dir)) {
		if (!nm->dir && grp->name && !dmcfs_names_has(nm, grp->name))
			dmcfs_names_add(nm, DT_DIR, grp->name);
		return 0;
	}
	for (i = 0; grp->attrs && grp->attrs[i]; i++)
		if (dmc_group_attr_mode(kobj, grp, i, false))
			dmcfs_names_add(nm, DT_REG, grp->attrs[i]->name);
	for (i = 0; grp->bin_attrs && grp->bin_attrs[i]; i++)
		if (dmc_group_attr_mode(kobj, grp, i, true))
			dmcfs_names_add(nm, DT_REG, grp->bin_attrs[i]->attr.name);
	return 0;
}

static int dmcfs_names_link(struct dmc_kobject *kobj, const char *name,
			    struct dmc_kobject *target, void *data)
{
	dmcfs_names_add(data, DT_LNK, name);
	return 0;
}

/* Gather the names of @di's directory into @nm; 0 or -ENOMEM. */
static int dmcfs_list(struct dmcfs_inode *di, struct dentry *dentry, struct dmcfs_names *nm)
{
	const struct dmc_tree_file *tf;
	struct dmc_kobject *kobj = NULL, *k;

	nm->dir = dmcfs_dir_name(di, dentry);
	if (di->node) {
		kobj = dmcfs_active_get(di->node);
		if (!kobj)
			return 0;	/* removed: empty, as kernfs shows it */
	}
	if (!di->node)
		for (tf = dmc_tree_files; tf->name; tf++)
			dmcfs_names_add(nm, DT_REG, tf->name);
	if (di->kind == DMCFS_DIR) {
		mutex_lock(&dmc_tree_mutex);
		list_for_each_entry(k, kobj ? &kobj->children : &dmc_roots, sibling)
			if (kobj || !dmc_tree_file_find(k->name))
				dmcfs_names_add(nm, DT_DIR, k->name);
		mutex_unlock(&dmc_tree_mutex);
	}
	if (kobj) {
		dmc_kobject_walk_groups(kobj, nm, dmcfs_names_group);
		if (di->kind == DMCFS_DIR)
			dmc_kobject_walk_links(kobj, nm, dmcfs_names_link);
		dmcfs_active_put(di->node);
	}
	return nm->err;
}

static int dmcfs_dir_open(struct inode *inode, struct file *file)
{
	struct dmcfs_dir *d = kzalloc(sizeof(*d), GFP_KERNEL);

	file->private_data = d;
	return d ? 0 : -ENOMEM;
}

static int dmcfs_dir_release(struct inode *inode, struct file *file)
{
	struct dmcfs_dir *d = file->private_data;

	kvfree(d->nm.buf);
	kfree(d);
	return 0;
}

/* getdents() calls on one open directory are serialized by its f_pos lock. */
static int dmcfs_readdir(struct file *file, struct dir_context *ctx)
{
	struct dmcfs_dir *d = file->private_data;
	size_t n;
	char *p;
	int err;

	if (!dir_emit_dots(file, ctx))
		return 0;
	if (ctx->pos == 2 || !d->listed) {
		kvfree(d->nm.buf);
		memset(&d->nm, 0, sizeof(d->nm));
		d->listed = true;
		d->off = 0;
		d->pos = 2;
		err = dmcfs_list(DMCFS_I(file_inode(file)), file->f_path.dentry, &d->nm);
		if (err) {
			d->listed = false;
			return err;
		}
	}
	if (d->pos != ctx->pos) {	/* after a seek: find the record again */
		d->off = 0;
		d->pos = 2;
		while (d->pos < ctx->pos && d->off < d->nm.len) {
			d->off += strlen(d->nm.buf + d->off + 1) + 2;
			d->pos++;
		}
	}
	while (d->off < d->nm.len) {
		p = d->nm.buf + d->off;
		n = strlen(p + 1);
		if (!dir_emit(ctx, p + 1, n, 1, *p))
			break;
		d->off += n + 2;
		ctx->pos = ++d->pos;
	}
	return 0;
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
	.open = dmcfs_dir_open,
	.release = dmcfs_dir_release,
	.read = generic_read_dir,
	.iterate_shared = dmcfs_readdir,
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
	root = dmcfs_new_inode(sb, NULL, DMCFS_DIR, NULL, NULL, 0);
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
 * dmc_fs_submount() - mount the filesystem on @mountpoint, for an automount
 * @mountpoint: the automount's dentry
 *
 * Return: the new mount (one reference) or an ERR_PTR().
 */
struct vfsmount *dmc_fs_submount(struct dentry *mountpoint)
{
	return vfs_submount(mountpoint, &dmcfs_type, "dmcore", NULL);
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
