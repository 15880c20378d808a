/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dmcore's tracepoints, system "dmcore": probes (start, end with the
 * result and duration), bindings and unbindings, events as they are
 * numbered, system suspend and resume callbacks with their durations.
 * Out of tree: trace.c defines them (CREATE_TRACE_POINTS), Kbuild adds
 * this directory to that file's include path. The arguments are plain
 * strings and numbers, so trace.c uses nothing of the core. On a kernel
 * without CONFIG_TRACEPOINTS (the debug test kernel) they are empty
 * inlines.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM dmcore

#if !defined(_DMC_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _DMC_TRACE_H

#include <linux/tracepoint.h>
#include <linux/types.h>

/* A device's name and its driver's: probe_start, bind, unbind. */
DECLARE_EVENT_CLASS(dmcore_dev_drv,
	TP_PROTO(const char *dev, const char *drv),
	TP_ARGS(dev, drv),
	TP_STRUCT__entry(
		__string(dev, dev)
		__string(drv, drv)
	),
	TP_fast_assign(
		__assign_str(dev, dev);
		__assign_str(drv, drv);
	),
	TP_printk("dev=%s driver=%s", __get_str(dev), __get_str(drv))
);

DEFINE_EVENT(dmcore_dev_drv, dmcore_probe_start,
	TP_PROTO(const char *dev, const char *drv),
	TP_ARGS(dev, drv));

DEFINE_EVENT(dmcore_dev_drv, dmcore_bind,
	TP_PROTO(const char *dev, const char *drv),
	TP_ARGS(dev, drv));

DEFINE_EVENT(dmcore_dev_drv, dmcore_unbind,
	TP_PROTO(const char *dev, const char *drv),
	TP_ARGS(dev, drv));

TRACE_EVENT(dmcore_probe_end,
	TP_PROTO(const char *dev, const char *drv, int ret, u64 ns),
	TP_ARGS(dev, drv, ret, ns),
	TP_STRUCT__entry(
		__string(dev, dev)
		__string(drv, drv)
		__field(int, ret)
		__field(u64, ns)
	),
	TP_fast_assign(
		__assign_str(dev, dev);
		__assign_str(drv, drv);
		__entry->ret = ret;
		__entry->ns = ns;
	),
	TP_printk("dev=%s driver=%s ret=%d ns=%llu", __get_str(dev),
		  __get_str(drv), __entry->ret, __entry->ns)
);

/* A device's system-sleep callback: suspend, resume. */
DECLARE_EVENT_CLASS(dmcore_pm,
	TP_PROTO(const char *dev, int ret, u64 ns),
	TP_ARGS(dev, ret, ns),
	TP_STRUCT__entry(
		__string(dev, dev)
		__field(int, ret)
		__field(u64, ns)
	),
	TP_fast_assign(
		__assign_str(dev, dev);
		__entry->ret = ret;
		__entry->ns = ns;
	),
	TP_printk("dev=%s ret=%d ns=%llu", __get_str(dev), __entry->ret,
		  __entry->ns)
);

DEFINE_EVENT(dmcore_pm, dmcore_suspend,
	TP_PROTO(const char *dev, int ret, u64 ns),
	TP_ARGS(dev, ret, ns));

DEFINE_EVENT(dmcore_pm, dmcore_resume,
	TP_PROTO(const char *dev, int ret, u64 ns),
	TP_ARGS(dev, ret, ns));

/* An event, as it is numbered and logged (event.c). */
TRACE_EVENT(dmcore_uevent,
	TP_PROTO(u64 seqnum, const char *action, const char *devpath),
	TP_ARGS(seqnum, action, devpath),
	TP_STRUCT__entry(
		__field(u64, seqnum)
		__string(action, action)
		__string(devpath, devpath)
	),
	TP_fast_assign(
		__entry->seqnum = seqnum;
		__assign_str(action, action);
		__assign_str(devpath, devpath);
	),
	TP_printk("seqnum=%llu action=%s devpath=%s", __entry->seqnum,
		  __get_str(action), __get_str(devpath))
);

#endif /* _DMC_TRACE_H */

/* Out of tree: define_trace.h finds this file through Kbuild's -I$(src). */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE dmc_trace
#include <trace/define_trace.h>
