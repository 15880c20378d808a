/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dmcore klists: a list of referenced members with a hashed name index and
 * walks that stay valid while members come and go. The counterpart of
 * Linux's klist (include/linux/klist.h), which has the safe walks but no
 * index: every set in dmcore (kset members, a bus's devices and drivers,
 * a class's devices, a device's children) is one of these.
 *
 * The fields are private to the core; code outside it uses the walks and
 * lookups of the structure that embeds the klist (kset, bus, class).
 */
#ifndef _DMCORE_KLIST_H
#define _DMCORE_KLIST_H

#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <dmcore/hashtab.h>

/**
 * struct dmc_klist_node - membership of one object in one klist
 * @entry: place in the member list
 * @hnode: place in the name index (indexed klists), with the member's
 *	name's hash
 *
 * The member's name is not kept here: the klist asks its @name callback
 * (all members of a klist are the same kind of object).
 */
struct dmc_klist_node {
	struct list_head entry;
	struct dmc_hnode hnode;
};

/**
 * struct dmc_klist - a set of members
 * @lock: protects everything below
 * @list: members in joining order, with iterator cursors among them
 * @iters: active iterators
 * @index: members by name, if @indexed (names may repeat)
 * @indexed: whether @index is kept
 * @count: number of members
 * @get: take a reference on a member unless it is dying (false then)
 * @put: drop that reference; called without @lock, may sleep
 * @name: a member's name, stable while it is a member (renamed only
 *	through dmc_klist_rename()); on an indexed klist a name of
 *	dmc_name_dup(), whose kept hash the index takes
 */
struct dmc_klist {
	spinlock_t lock;	/* protects all of the below */
	struct list_head list;
	struct list_head iters;
	struct dmc_htab index;
	bool indexed;
	unsigned int count;
	bool (*get)(struct dmc_klist_node *n);
	void (*put)(struct dmc_klist_node *n);
	const char *(*name)(const struct dmc_klist_node *n);
};

/**
 * struct dmc_klist_iter - a walk over a klist
 * @k: the klist
 * @cursor: the walk's place in @k->list, just after @cur
 * @node: in @k->iters
 * @cur: the member returned last, referenced until the next step
 */
struct dmc_klist_iter {
	struct dmc_klist *k;
	struct list_head cursor;
	struct list_head node;
	struct dmc_klist_node *cur;
};

#endif /* _DMCORE_KLIST_H */
