/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tree's own files at its root (tree_files.c), and the rules its
 * attribute files follow at open and on an error. Private to dmcfs.c.
 */
#ifndef _DMCORE_TREE_FILES_H
#define _DMCORE_TREE_FILES_H

#include <linux/fs.h>

/**
 * struct dmc_tree_file - one file at the tree's root
 * @name: its name; a top-level object of that name is hidden by it
 * @mode: its permissions
 * @fops: its file operations (with their owner: an open file holds the
 *	module)
 */
struct dmc_tree_file {
	const char *name;
	umode_t mode;
	const struct file_operations *fops;
};

/* The root files, ended by an entry with no name. */
extern const struct dmc_tree_file dmc_tree_files[];
const struct dmc_tree_file *dmc_tree_file_find(const char *name);

ssize_t dmc_tree_errno(ssize_t ret, const char *what);
int dmc_tree_check_open(struct file *file, umode_t mode);

#endif /* _DMCORE_TREE_FILES_H */
