// SPDX-License-Identifier: GPL-2.0
/*
 * Indexed klists: every set of the model (kset members, a bus's devices
 * and drivers, a class's devices, a device's children) is one of these.
 *
 * Linux's klist (lib/) gives walks that survive removal by keeping a dead
 * node in the list until its walkers let go, and finding a member by name
 * means walking the list. Here a walk owns a cursor node that sits in the
 * list just after the member it returned last, as readdir on dcache-based
 * filesystems does, so a removed member leaves the list at once; and in
 * the sets searched by name, a hashed index (hashtab.c; names may repeat
 * in some sets) finds a member in O(1) expected time. A device's
 * children and a driver's devices have no index of their own: a child is
 * found by name in the tree's (parent, name) index, and nothing looks
 * up a driver's devices by name.
 *
 * The klist's spinlock protects the list, the index and the cursors. The
 * members' get and put give and take the references that walks and
 * lookups hand out; put is called without the lock. Adding and removing
 * may sleep: the index grows and shrinks in the caller's task.
 */

#include <linux/string.h>

#include "base.h"

/*
 * Set up an empty klist, with a name index if @indexed; undone by
 * dmc_klist_destroy(). @get, @put and @name: see struct dmc_klist.
 * Return: 0 or -ENOMEM.
 */
int dmc_klist_init(struct dmc_klist *k,
		   bool (*get)(struct dmc_klist_node *n),
		   void (*put)(struct dmc_klist_node *n),
		   const char *(*name)(const struct dmc_klist_node *n), bool indexed)
{
	spin_lock_init(&k->lock);
	INIT_LIST_HEAD(&k->list);
	INIT_LIST_HEAD(&k->iters);
	memset(&k->index, 0, sizeof(k->index));
	k->indexed = indexed;
	k->count = 0;
	k->get = get;
	k->put = put;
	k->name = name;
	/* The smallest table now, so that the first add cannot fail for it. */
	return indexed ? dmc_htab_init(&k->index) : 0;
}

/* Free the index of an empty klist. */
void dmc_klist_destroy(struct dmc_klist *k)
{
	WARN_ON(k->count || !list_empty(&k->iters));
	dmc_htab_destroy(&k->index);
}

#define dmc_klist_hnode(h)	container_of(h, struct dmc_klist_node, hnode)

/*
 * An indexed member's hash: its name's, kept with the name by
 * dmc_name_dup(), which allocates every name an indexed klist holds.
 */
static u32 dmc_klist_hash(struct dmc_klist *k, const struct dmc_klist_node *n)
{
	return dmc_name_hash_of(k->name(n));
}

/*
 * Is member @n named @name, hashed to @hash? The hash it keeps in the
 * index first: the member's name is not touched unless that matches.
 */
static bool dmc_klist_named(struct dmc_klist *k, const struct dmc_klist_node *n,
			    const char *name, u32 hash)
{
	return n->hnode.hash == hash && !strcmp(k->name(n), name);
}

/* The first member named @name (hashed to @hash), or NULL. Caller holds k->lock. */
static struct dmc_klist_node *__dmc_klist_lookup(struct dmc_klist *k,
						 const char *name, u32 hash)
{
	struct dmc_hnode *h;

	for (h = dmc_htab_first(&k->index, hash); h; h = h->next)
		if (dmc_klist_named(k, dmc_klist_hnode(h), name, hash))
			return dmc_klist_hnode(h);
	return NULL;
}

/*
 * Add @n at the tail, indexed by its name (k->name) if the klist is. With
 * @unique (on an indexed klist), a member with the same name makes it
 * fail with -EEXIST. The klist takes no reference: the member must call
 * dmc_klist_del() before it dies. May sleep (to grow the index).
 */
int dmc_klist_add(struct dmc_klist *k, struct dmc_klist_node *n, bool unique)
{
	struct dmc_htab_resize r = {};
	const char *name = NULL;
	u32 hash = 0;
	int err = 0;

	if (k->indexed) {
		name = k->name(n);
		hash = dmc_name_hash_of(name);
		/* Unlocked: a stale count only wastes an allocation (commit checks). */
		dmc_htab_resize_prepare(&k->index, data_race(k->count) + 1, &r);
	}
	spin_lock(&k->lock);
	if (k->indexed) {
		dmc_htab_resize_commit(&k->index, &r);
		if (unique && __dmc_klist_lookup(k, name, hash))
			err = -EEXIST;
		else
			dmc_htab_add(&k->index, &n->hnode, hash);
	}
	if (!err) {
		list_add_tail(&n->entry, &k->list);
		k->count++;
	}
	spin_unlock(&k->lock);
	dmc_htab_resize_finish(&r);
	return err;
}

/*
 * Remove @n; return whether it was a member. Walks skip it from now on.
 * May sleep (to shrink the index).
 */
bool dmc_klist_del(struct dmc_klist *k, struct dmc_klist_node *n)
{
	struct dmc_htab_resize r = {};
	/* Unlocked: a stale count only wastes an allocation (commit checks). */
	unsigned int count = data_race(k->count);
	bool was = false;

	if (k->indexed && count)
		dmc_htab_resize_prepare(&k->index, count - 1, &r);
	spin_lock(&k->lock);
	if (n->entry.next && !list_empty(&n->entry)) {
		if (k->indexed)
			dmc_htab_del(&k->index, &n->hnode);
		list_del_init(&n->entry);
		k->count--;
		was = true;
	}
	if (k->indexed)
		dmc_htab_resize_commit(&k->index, &r);
	spin_unlock(&k->lock);
	dmc_htab_resize_finish(&r);
	return was;
}

/* Is @n (initialized or zeroed) a member of a klist? */
bool dmc_klist_node_attached(struct dmc_klist_node *n)
{
	return n->entry.next && !list_empty(&n->entry);
}

/*
 * Re-index @n under a new name: @rename(@arg) changes the name k->name
 * gives for @n and returns 0, or fails and leaves it. Runs @rename under the
 * klist lock, so lookups never see a half-renamed member.
 */
int dmc_klist_rename(struct dmc_klist *k, struct dmc_klist_node *n,
		     int (*rename)(void *arg), void *arg)
{
	int err;

	spin_lock(&k->lock);
	if (k->indexed)
		dmc_htab_del(&k->index, &n->hnode);
	err = rename(arg);
	if (k->indexed)
		dmc_htab_add(&k->index, &n->hnode, dmc_klist_hash(k, n));
	spin_unlock(&k->lock);
	return err;
}

/**
 * dmc_klist_rename_many() - re-index one object in several klists at once
 * @m: the klists and the object's node in each; a node not attached is
 *	skipped. With @m[i].unique, an indexed klist must hold no other
 *	member named @name
 * @nr: how many, at most 8 (lockdep's subclasses)
 * @name: the new name, a name of dmc_name_dup()
 * @rename: makes every klist's name() give @name for the object; returns
 *	0, or fails and changes nothing
 * @arg: for @rename
 *
 * All the klists' locks are held (nested in the order given) from the
 * check to the re-indexing, so a lookup in any of them finds the object
 * under its old name or its new one, never neither, and an add of @name
 * to one of them either comes first (then this fails) or finds the
 * object under @name. The caller serializes such calls (dmc_tree_mutex):
 * nothing else holds two klist locks.
 *
 * Return: 0, -EEXIST (nothing changed), or @rename's error.
 */
int dmc_klist_rename_many(const struct dmc_klist_member *m, unsigned int nr,
			  const char *name, int (*rename)(void *arg), void *arg)
{
	u32 hash = dmc_name_hash_of(name);
	struct dmc_klist_node *other;
	unsigned int i;
	int err = 0;

	if (WARN_ON_ONCE(nr > 8))
		return -EINVAL;
	for (i = 0; i < nr; i++) {
		spin_lock_nested(&m[i].k->lock, i);
		__release(&m[i].k->lock);	/* for sparse: one lock per turn */
	}
	for (i = 0; i < nr && !err; i++) {
		if (!m[i].unique || !m[i].k->indexed ||
		    !dmc_klist_node_attached(m[i].n))
			continue;
		other = __dmc_klist_lookup(m[i].k, name, hash);
		if (other && other != m[i].n)
			err = -EEXIST;
	}
	for (i = 0; i < nr && !err; i++)
		if (m[i].k->indexed && dmc_klist_node_attached(m[i].n))
			dmc_htab_del(&m[i].k->index, &m[i].n->hnode);
	if (!err) {
		err = rename(arg);
		for (i = 0; i < nr; i++)
			if (m[i].k->indexed && dmc_klist_node_attached(m[i].n))
				dmc_htab_add(&m[i].k->index, &m[i].n->hnode,
					     dmc_klist_hash(m[i].k, m[i].n));
	}
	for (i = nr; i--; ) {
		__acquire(&m[i].k->lock);	/* for sparse, as above */
		spin_unlock(&m[i].k->lock);
	}
	return err;
}

/*
 * For the invariant checker: is member @n indexed under its name's hash,
 * if @k has an index? Caller holds k->lock.
 */
bool dmc_klist_node_indexed(struct dmc_klist *k, const struct dmc_klist_node *n)
{
	struct dmc_hnode *h;

	if (!k->indexed)
		return true;
	if (n->hnode.hash != dmc_klist_hash(k, n))
		return false;
	for (h = dmc_htab_first(&k->index, n->hnode.hash); h; h = h->next)
		if (h == &n->hnode)
			return true;
	return false;
}

static bool dmc_klist_is_cursor(struct dmc_klist *k, struct list_head *pos);

/*
 * A member named @name, referenced through k->get, or NULL. Through the
 * index, or a walk of the list if the klist has none.
 */
struct dmc_klist_node *dmc_klist_find(struct dmc_klist *k, const char *name)
{
	struct dmc_klist_node *n, *found = NULL;
	struct list_head *pos;
	struct dmc_hnode *h;
	u32 hash;

	spin_lock(&k->lock);
	if (!k->indexed) {
		list_for_each(pos, &k->list) {
			if (dmc_klist_is_cursor(k, pos))
				continue;
			n = list_entry(pos, struct dmc_klist_node, entry);
			if (!strcmp(k->name(n), name) && k->get(n)) {
				found = n;
				break;
			}
		}
		spin_unlock(&k->lock);
		return found;
	}
	hash = dmc_name_hash(name, 0);	/* any string: hashed here */
	for (h = dmc_htab_first(&k->index, hash); h; h = h->next) {
		n = dmc_klist_hnode(h);
		if (dmc_klist_named(k, n, name, hash) && k->get(n)) {
			found = n;
			break;
		}
	}
	spin_unlock(&k->lock);
	return found;
}

unsigned int dmc_klist_count(struct dmc_klist *k)
{
	unsigned int n;

	spin_lock(&k->lock);
	n = k->count;
	spin_unlock(&k->lock);
	return n;
}

/* Begin a walk; always end it with dmc_klist_iter_exit(). */
void dmc_klist_iter_start(struct dmc_klist *k, struct dmc_klist_iter *it)
{
	it->k = k;
	it->cur = NULL;
	spin_lock(&k->lock);
	list_add(&it->cursor, &k->list);
	list_add(&it->node, &k->iters);
	spin_unlock(&k->lock);
}

static bool dmc_klist_is_cursor(struct dmc_klist *k, struct list_head *pos)
{
	struct dmc_klist_iter *it;

	list_for_each_entry(it, &k->iters, node)
		if (&it->cursor == pos)
			return true;
	return false;
}

/*
 * The next live member after the cursor, referenced until the next call
 * or the end of the walk, or NULL at the end. May sleep (it drops the
 * reference on the member returned before).
 */
struct dmc_klist_node *dmc_klist_iter_next(struct dmc_klist_iter *it)
{
	struct dmc_klist_node *prev = it->cur, *n;
	struct dmc_klist *k = it->k;
	struct list_head *pos;

	it->cur = NULL;
	spin_lock(&k->lock);
	for (pos = it->cursor.next; pos != &k->list; pos = pos->next) {
		if (dmc_klist_is_cursor(k, pos))
			continue;
		n = list_entry(pos, struct dmc_klist_node, entry);
		if (k->get(n)) {
			it->cur = n;
			break;
		}
	}
	if (it->cur)
		list_move(&it->cursor, pos);
	else
		list_move_tail(&it->cursor, &k->list);
	spin_unlock(&k->lock);
	if (prev)
		k->put(prev);
	return it->cur;
}

/* End a walk, dropping the reference on the member returned last. */
void dmc_klist_iter_exit(struct dmc_klist_iter *it)
{
	struct dmc_klist *k = it->k;

	spin_lock(&k->lock);
	list_del(&it->cursor);
	list_del(&it->node);
	spin_unlock(&k->lock);
	if (it->cur)
		k->put(it->cur);
	it->cur = NULL;
}
