/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The control engine behind /sys/kernel/debug/dmcore/control (control.c):
 * one command per write makes or removes buses, classes, drivers, devices
 * and links, or suspends and resumes the model. Private to dmcore.ko.
 */
#ifndef _DMCORE_CONTROL_H
#define _DMCORE_CONTROL_H

#include <linux/types.h>

int dmc_control_init(void);
void dmc_control_exit(void);
int dmc_control_exec(const char *buf, size_t count);

#endif /* _DMCORE_CONTROL_H */
