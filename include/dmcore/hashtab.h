/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dmcore's hash tables: the name indexes of klists and of the tree. A
 * table of hlist buckets under its owner's lock (a spinlock or a mutex),
 * grown and shrunk in one step when the owner asks, outside any worker.
 * The fields are private to the core (hashtab.c).
 */
#ifndef _DMCORE_HASHTAB_H
#define _DMCORE_HASHTAB_H

#include <linux/list.h>
#include <linux/types.h>

/**
 * struct dmc_hnode - a member of a struct dmc_htab
 * @node: in its bucket
 * @hash: the member's full hash, kept for resizing and compared first
 */
struct dmc_hnode {
	struct hlist_node node;
	u32 hash;
};

/**
 * struct dmc_htab - a hash table of struct dmc_hnode
 * @buckets: 1 << @bits buckets, or NULL before the first member
 * @bits: log2 of the number of buckets
 * @count: members
 */
struct dmc_htab {
	struct hlist_head *buckets;
	unsigned int bits;
	unsigned int count;
};

#endif /* _DMCORE_HASHTAB_H */
