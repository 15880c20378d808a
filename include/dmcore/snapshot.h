/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The whole model in one consistent read (snapshot.c; the format is in
 * docs/snapshot.md), and the model generation (model_lock.c). The tree's
 * root file "snapshot" serves the text; tools and test modules may take
 * it directly. Nothing in a driver needs them.
 */
#ifndef _DMCORE_SNAPSHOT_H
#define _DMCORE_SNAPSHOT_H

#include <linux/types.h>

char *dmc_model_snapshot(size_t *len);
u64 dmc_model_generation(void);

/*
 * For tests only: when set, called by every snapshot with the model
 * frozen (after the devices are collected, before the text is made), so
 * that a test can show what waits for a snapshot. Must not sleep long or
 * touch the model; set and cleared by one test at a time.
 */
typedef void (*dmc_snapshot_hook_t)(void);
extern dmc_snapshot_hook_t dmc_snapshot_test_hook;

#endif /* _DMCORE_SNAPSHOT_H */
