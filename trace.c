// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore's tracepoints (dmc_trace.h, system "dmcore"), defined here and
 * only here. Their arguments are strings and numbers, so this file uses
 * nothing of the core and stands on the lowest floor: any file may trace.
 */

#define CREATE_TRACE_POINTS
#include "dmc_trace.h"
