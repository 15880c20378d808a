// SPDX-License-Identifier: GPL-2.0
/*
 * Indexed klists: every set of the model (kset members, a bus's devices
 * and drivers, a class's devices, a device's children) is one of these.
 *
 * Linux's klist (lib/) gives walks that survive removal by keeping a dead
 * node in the list until its walkers let go, and finding a member by name
 * means walking the list. Here a walk owns a cursor node that sits in the
 * list just after the member it returned last, as readdir on dcache-based
 * filesystems does, so a removed member leaves the list at once; and a
 * hashed index (an rhltable, as names may repeat in some sets) finds a
 * member by name in O(1) expected time.
 *
 * The klist's spinlock protects the list, the index and the cursors. The
 * members' get and put give and take the references that walks and
 * lookups hand out; put is called without the lock.
 */

#include <linux/jhash.h>
#include <linux/rhashtable.h>
#include <linux/string.h>

#include "base.h"

static u32 dmc_klist_hashfn(const void *data, u32 len, u32 seed)
{
	const char *name = data;

	return jhash(name, strlen(name), seed);
}

static u32 dmc_klist_obj_hashfn(const void *data, u32 len, u32 seed)
{
	const struct dmc_klist_node *n = data;

	return dmc_klist_hashfn(*n->name, 0, seed);
}

static int dmc_klist_cmpfn(struct rhashtable_compare_arg *arg, const void *obj)
{
	const struct dmc_klist_node *n = obj;

	return strcmp(*n->name, arg->key);
}

static const struct rhashtable_params dmc_klist_params = {
	.head_offset = offsetof(struct dmc_klist_node, hnode),
	.hashfn = dmc_klist_hashfn,
	.obj_hashfn = dmc_klist_obj_hashfn,
	.obj_cmpfn = dmc_klist_cmpfn,
	/*
	 * Most klists are a device's children and stay empty: start with the
	 * smallest table (4 buckets) instead of rhashtable's default 64, which
	 * cost every device a 1 KiB allocation. Sets that grow are resized.
	 */
	.nelem_hint = 2,
	.automatic_shrinking = true,
};

/* Set up an empty klist; undone by dmc_klist_destroy(). */
int dmc_klist_init(struct dmc_klist *k,
		   bool (*get)(struct dmc_klist_node *n),
		   void (*put)(struct dmc_klist_node *n))
{
	spin_lock_init(&k->lock);
	INIT_LIST_HEAD(&k->list);
	INIT_LIST_HEAD(&k->iters);
	k->count = 0;
	k->get = get;
	k->put = put;
	return rhltable_init(&k->index, &dmc_klist_params);
}

/* Free the index of an empty klist. */
void dmc_klist_destroy(struct dmc_klist *k)
{
	WARN_ON(k->count || !list_empty(&k->iters));
	rhltable_destroy(&k->index);
}

/* Caller holds k->lock and rcu_read_lock(). */
static struct dmc_klist_node *__dmc_klist_lookup(struct dmc_klist *k,
						 const char *name)
{
	struct rhlist_head *list = rhltable_lookup(&k->index, name,
						   dmc_klist_params);

	return list ? container_of(list, struct dmc_klist_node, hnode) : NULL;
}

/*
 * Add @n at the tail, indexed by *@name. With @unique, a member with the
 * same name makes it fail with -EEXIST. The klist takes no reference: the
 * member must call dmc_klist_del() before it dies.
 */
int dmc_klist_add(struct dmc_klist *k, struct dmc_klist_node *n,
		  const char * const *name, bool unique)
{
	int err = 0;

	n->name = name;
	spin_lock(&k->lock);
	if (unique) {
		rcu_read_lock();
		if (__dmc_klist_lookup(k, *name))
			err = -EEXIST;
		rcu_read_unlock();
	}
	if (!err)
		err = rhltable_insert(&k->index, &n->hnode, dmc_klist_params);
	if (!err) {
		list_add_tail(&n->entry, &k->list);
		k->count++;
	}
	spin_unlock(&k->lock);
	return err;
}

/* Remove @n; return whether it was a member. Walks skip it from now on. */
bool dmc_klist_del(struct dmc_klist *k, struct dmc_klist_node *n)
{
	bool was = false;

	spin_lock(&k->lock);
	if (n->entry.next && !list_empty(&n->entry)) {
		rhltable_remove(&k->index, &n->hnode, dmc_klist_params);
		list_del_init(&n->entry);
		k->count--;
		was = true;
	}
	spin_unlock(&k->lock);
	return was;
}

/* Is @n (initialized or zeroed) a member of a klist? */
bool dmc_klist_node_attached(struct dmc_klist_node *n)
{
	return n->entry.next && !list_empty(&n->entry);
}

/*
 * Re-index @n under a new name: @rename(@arg) changes the name @n->name
 * points to and returns 0, or fails and leaves it. Runs @rename under the
 * klist lock, so lookups never see a half-renamed member.
 */
int dmc_klist_rename(struct dmc_klist *k, struct dmc_klist_node *n,
		     int (*rename)(void *arg), void *arg)
{
	int err, err2;

	spin_lock(&k->lock);
	rhltable_remove(&k->index, &n->hnode, dmc_klist_params);
	err = rename(arg);
	err2 = rhltable_insert(&k->index, &n->hnode, dmc_klist_params);
	spin_unlock(&k->lock);
	WARN_ON(err2);
	return err;
}

/* A member named @name, referenced through k->get, or NULL. */
struct dmc_klist_node *dmc_klist_find(struct dmc_klist *k, const char *name)
{
	struct dmc_klist_node *n, *found = NULL;
	struct rhlist_head *list, *pos;

	spin_lock(&k->lock);
	rcu_read_lock();
	list = rhltable_lookup(&k->index, name, dmc_klist_params);
	rhl_for_each_entry_rcu(n, pos, list, hnode) {
		if (k->get(n)) {
			found = n;
			break;
		}
	}
	rcu_read_unlock();
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
