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
 * Buckets are singly linked; a member keeps the hash it was added with,
 * so a lookup walking a bucket compares hashes without touching the
 * other members' names, and removal and resizing need no key.
 * Names are hashed with a seed drawn at load, so names chosen by a user
 * cannot be made to collide.
 *
 * The names the indexes hold (kobjects' names, the names deferred
 * devices wait for) are allocated by dmc_name_dup(), which keeps the
 * name's hash and length in front of it (paths are built from the
 * lengths without walking the strings): adding, removing and rehashing a member
 * then reads its hash instead of hashing its name again, and a lookup
 * compares hashes before it compares strings. An index salts that hash
 * with its own value (a parent's address) by dmc_name_salt(); a lookup
 * of any string hashes it the same way with dmc_name_hash().
 */

#include <linux/hash.h>
#include <linux/jhash.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "base.h"

#define DMC_HTAB_MIN_BITS	2

static u32 dmc_hash_seed __read_mostly;

/**
 * dmc_name_salt() - a name's hash as an index salted with @salt keeps it
 * @hash: the name's hash (dmc_name_hash_of(), or dmc_name_hash() with 0)
 * @salt: the index's salt, e.g. a parent's address; 0 for none
 *
 * Undone by the same call: dmc_name_salt(dmc_name_salt(h, s), s) == h.
 */
u32 dmc_name_salt(u32 hash, unsigned long salt)
{
	return hash ^ (salt ? hash_long(salt, 32) : 0);
}

/* The hash of any string @name, salted with @salt as dmc_name_salt() does. */
u32 dmc_name_hash(const char *name, unsigned long salt)
{
	return dmc_name_salt(jhash(name, strlen(name), dmc_hash_seed), salt);
}

/**
 * dmc_name_dup() - a copy of a name that keeps its hash and its length
 * @name: the name, final (a name must not change once copied)
 * @len: strlen(@name); the copy stops at a NUL before it anyway, so its
 *	kept hash is always that of the string lookups will see
 *
 * Return: the copy, to free with dmc_name_free() only; NULL without
 * memory.
 */
char *dmc_name_dup(const char *name, size_t len)
{
	struct dmc_name *n;

	len = strnlen(name, len);
	n = kmalloc(struct_size(n, str, len + 1), GFP_KERNEL);
	if (!n)
		return NULL;
	memcpy(n->str, name, len);
	n->str[len] = '\0';
	n->len = len;
	n->hash = jhash(n->str, len, dmc_hash_seed);
	return n->str;
}

/* Free a name of dmc_name_dup(); NULL is allowed. */
void dmc_name_free(const char *name)
{
	if (name)
		kfree(container_of(name, struct dmc_name, str[0]));
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

/* The first member of @hash's bucket, to walk with ->next. */
struct dmc_hnode *dmc_htab_first(const struct dmc_htab *t, u32 hash)
{
	return t->buckets ? t->buckets[hash_32(hash, t->bits)] : NULL;
}

/* The size @t should have with @count members: its bits now, or new ones. */
static unsigned int dmc_htab_target_bits(const struct dmc_htab *t,
					 unsigned int count)
{
	unsigned int bits = t->bits;

	while (count > (2U << bits) && bits < 30)
		bits += 2;
	while (bits > DMC_HTAB_MIN_BITS && count < (1U << bits) / 8)
		bits -= 2;
	return bits;
}

/**
 * dmc_htab_resize_prepare() - allocate buckets for @t's next size, if due
 * @t: the table, initialized (read without its lock: a stale read only
 *	costs a wasted allocation, which dmc_htab_resize_commit() notices)
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
	if (r->from && bits != READ_ONCE(t->bits))
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
	struct dmc_hnode **old = t->buckets, *pos, *next, **b;
	unsigned int i;

	if (!r->buckets || old != r->from)
		return;
	for (i = 0; i < (1U << t->bits); i++) {
		for (pos = old[i]; pos; pos = next) {
			next = pos->next;
			b = &r->buckets[hash_32(pos->hash, r->bits)];
			pos->next = *b;
			*b = pos;
		}
	}
	t->buckets = r->buckets;
	t->bits = r->bits;
	r->buckets = old;
}

/* Free what dmc_htab_resize_commit() left; call without the lock. */
void dmc_htab_resize_finish(struct dmc_htab_resize *r)
{
	if (r->buckets)
		kvfree(r->buckets);
}

/* Add @n with @hash, which @n keeps; caller holds the lock. */
void dmc_htab_add(struct dmc_htab *t, struct dmc_hnode *n, u32 hash)
{
	struct dmc_hnode **b = &t->buckets[hash_32(hash, t->bits)];

	n->hash = hash;
	n->next = *b;
	*b = n;
	t->count++;
}

/*
 * Remove @n, a member; caller holds the lock. Walks its bucket (two
 * members on average) to find what points to it.
 */
void dmc_htab_del(struct dmc_htab *t, struct dmc_hnode *n)
{
	struct dmc_hnode **pp = &t->buckets[hash_32(n->hash, t->bits)];

	while (*pp && *pp != n)
		pp = &(*pp)->next;
	if (WARN_ON_ONCE(!*pp))
		return;
	*pp = n->next;
	n->next = NULL;
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
