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
 *
 * One pointer, as Linux's rhash_head: a member's bucket is found again
 * from its key, so the node keeps no hash and no back pointer.
 */
struct dmc_hnode {
	struct dmc_hnode *next;
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
