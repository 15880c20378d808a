/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dmcore's self-check: the model's invariants, checked from inside the
 * core (invariants.c), and the live-object census. For test modules such
 * as the torture run (torture/); nothing in a driver needs them.
 */
#ifndef _DMCORE_INVARIANTS_H
#define _DMCORE_INVARIANTS_H

#include <linux/bits.h>

/* Nothing changes the model during the check: half-done states count. */
#define DMC_INV_QUIESCENT	BIT(0)
/*
 * Check the checker: while it holds their locks, the check spoils the
 * kept hash of the first object of the tree and of the first member of
 * the first non-empty indexed klist, then restores them; each must count
 * as one violation (nobody else sees the spoiled state).
 */
#define DMC_INV_SELFTEST	BIT(1)

unsigned int dmc_check_invariants(unsigned int flags);
unsigned long dmc_live_objects(void);

#endif /* _DMCORE_INVARIANTS_H */
