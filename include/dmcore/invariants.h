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

unsigned int dmc_check_invariants(unsigned int flags);
unsigned long dmc_live_objects(void);

#endif /* _DMCORE_INVARIANTS_H */
