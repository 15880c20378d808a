// SPDX-License-Identifier: GPL-2.0
/*
 * The name indexes of the model: hash tables of hlist buckets, each under
 * its owner's lock (a klist's spinlock, the tree's mutex).
 *
 * Linux's rhashtable, which dmcore used before, resizes in a worker and
 * automatically, so a bulk registration paid for rehashing every member
 * in the background while growing, and again while shrinking. Here the
 * owner resizes in one step, in the task that adds or removes, with a
 * wide margin each way: a table grows fourfold when it holds more than
 * two members per bucket and shrinks fourfold below one member per eight
 * buckets, so neither follows the other during a bulk add or delete. The
 * new bucket array is allocated before the owner takes its lock
 * (dmc_htab_resize_prepare()), swapped in under it
 * (dmc_htab_resize_commit()) and the old one freed after
 * (dmc_htab_resize_finish()). A table that could not grow stays correct,
 * its chains only longer.
 *
 * Every member keeps its full hash: buckets are picked from it and a
 * lookup compares it before the key. Names are hashed with a seed drawn
 * at load, so names chosen by a user cannot be made to collide.
 */

#include <linux/hash.h>
#include <linux/jhash.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "base.h"

#define DMC_HTAB_MIN_BITS	2

static u32 dmc_hash_seed __read_mostly;

/* The hash of @name, with @salt (e.g. a parent's address) mixed in. */
u32 dmc_name_hash(const char *name, unsigned long salt)
{
	return jhash(name, strlen(name), dmc_hash_seed ^ hash_long(salt, 32));
}

void dmc_hash_init(void)
{
	dmc_hash_seed = get_random_u32();
}

/* Give @t its smallest bucket array. Return: 0 or -ENOMEM. */
int dmc_htab_init(struct dmc_htab *t)
{
	t->count = 0;
	t->bits = DMC_HTAB_MIN_BITS;
	t->buckets = kcalloc(1U << t->bits, sizeof(*t->buckets), GFP_KERNEL);
	return t->buckets ? 0 : -ENOMEM;
}

/* The bucket of @hash; the table has buckets. */
struct hlist_head *dmc_htab_bucket(const struct dmc_htab *t, u32 hash)
{
	return &t->buckets[hash_32(hash, t->bits)];
}

/* The size @t should have with @count members: its bits now, or new ones. */
static unsigned int dmc_htab_target_bits(const struct dmc_htab *t,
					 unsigned int count)
{
	unsigned int bits = t->bits;

	if (!t->buckets)
		return count ? DMC_HTAB_MIN_BITS : 0;
	while (count > (2U << bits) && bits < 30)
		bits += 2;
	while (bits > DMC_HTAB_MIN_BITS && count < (1U << bits) / 8)
		bits -= 2;
	return bits;
}

/**
 * dmc_htab_resize_prepare() - allocate buckets for @t's next size, if due
 * @t: the table (read without its lock: a stale read only costs a wasted
 *	allocation, which dmc_htab_resize_commit() notices)
 * @count: the number of members @t will have after the caller's change
 * @r: filled; pass it to dmc_htab_resize_commit() and _finish()
 *
 * Context: may sleep; call without the table's lock if that is a spinlock.
 */
void dmc_htab_resize_prepare(const struct dmc_htab *t, unsigned int count,
			     struct dmc_htab_resize *r)
{
	unsigned int bits = dmc_htab_target_bits(t, count);

	r->buckets = NULL;
	r->from = READ_ONCE(t->buckets);
	r->bits = bits;
	if (bits && (bits != READ_ONCE(t->bits) || !r->from))
		r->buckets = kvcalloc(1U << bits, sizeof(*r->buckets),
				      GFP_KERNEL | __GFP_NOWARN);
}

/**
 * dmc_htab_resize_commit() - swap in the buckets of _prepare(), rehashing
 * @t: the table; the caller holds its lock
 * @r: from dmc_htab_resize_prepare(); afterwards it holds what to free
 *
 * Does nothing when the allocation failed or @t changed size since.
 */
void dmc_htab_resize_commit(struct dmc_htab *t, struct dmc_htab_resize *r)
{
	struct hlist_head *old = t->buckets;
	struct dmc_hnode *pos;
	struct hlist_node *tmp;
	unsigned int i;

	if (!r->buckets || old != r->from)
		return;
	for (i = 0; old && i < (1U << t->bits); i++)
		hlist_for_each_entry_safe(pos, tmp, &old[i], node)
			hlist_add_head(&pos->node,
				       &r->buckets[hash_32(pos->hash, r->bits)]);
	t->buckets = r->buckets;
	t->bits = r->bits;
	r->buckets = old;
}

/* Free what dmc_htab_resize_commit() left; call without the lock. */
void dmc_htab_resize_finish(struct dmc_htab_resize *r)
{
	kvfree(r->buckets);
}

/*
 * Add @n with @hash; caller holds the lock. Return: -ENOMEM if the table
 * has no buckets yet (its first allocation failed).
 */
int dmc_htab_add(struct dmc_htab *t, struct dmc_hnode *n, u32 hash)
{
	if (!t->buckets)
		return -ENOMEM;
	n->hash = hash;
	hlist_add_head(&n->node, dmc_htab_bucket(t, hash));
	t->count++;
	return 0;
}

/* Remove @n, a member; caller holds the lock. */
void dmc_htab_del(struct dmc_htab *t, struct dmc_hnode *n)
{
	hlist_del_init(&n->node);
	t->count--;
}

/* Free the buckets of an empty table. */
void dmc_htab_destroy(struct dmc_htab *t)
{
	WARN_ON(t->count);
	kvfree(t->buckets);
	t->buckets = NULL;
	t->bits = 0;
}
