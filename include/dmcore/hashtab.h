/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dmcore's hash tables: the name indexes of klists and of the tree. A
 * table of singly linked buckets under its owner's lock (a spinlock or a
 * mutex), grown and shrunk in one step when the owner asks, outside any
 * worker. The fields are private to the core (hashtab.c).
 */
#ifndef _DMCORE_HASHTAB_H
#define _DMCORE_HASHTAB_H

#include <linux/types.h>

/**
 * struct dmc_hnode - a member of a struct dmc_htab
 * @next: the next member in its bucket
 * @hash: the hash it was added with
 *
 * Unlike Linux's rhash_head, the node keeps its hash: a lookup compares
 * it before it touches the member (whose name is one or two more cache
 * lines away), and removal and resizing need no key.
 */
struct dmc_hnode {
	struct dmc_hnode *next;
	u32 hash;
};

/**
 * struct dmc_htab - a hash table of struct dmc_hnode
 * @buckets: 1 << @bits buckets, or NULL before dmc_htab_init()
 * @bits: log2 of the number of buckets
 * @count: members
 */
struct dmc_htab {
	struct dmc_hnode **buckets;
	unsigned int bits;
	unsigned int count;
};

#endif /* _DMCORE_HASHTAB_H */
