/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dmcore runtime power management. The counterpart of
 * include/linux/pm_runtime.h and of the runtime part of include/linux/pm.h.
 *
 * A device's runtime state is kept by the core (runtime.c); a driver or
 * bus gives its callbacks in a struct dmc_dev_pm_ops. Every function takes
 * a device that was added (dmc_device_add()) and not yet released; on a
 * device never added they do nothing and return -EINVAL.
 */
#ifndef _DMCORE_PM_RUNTIME_H
#define _DMCORE_PM_RUNTIME_H

#include <linux/types.h>

struct dmc_device;

/**
 * enum dmc_rpm_status - a device's runtime PM status, as Linux's rpm_status
 * @DMC_RPM_INVALID: not a status (the last status of an enabled device)
 * @DMC_RPM_ACTIVE: working
 * @DMC_RPM_RESUMING: its runtime_resume callback is running
 * @DMC_RPM_SUSPENDED: suspended
 * @DMC_RPM_SUSPENDING: its runtime_suspend callback is running
 */
enum dmc_rpm_status {
	DMC_RPM_INVALID = -1,
	DMC_RPM_ACTIVE = 0,
	DMC_RPM_RESUMING,
	DMC_RPM_SUSPENDED,
	DMC_RPM_SUSPENDING,
};

/* Flags of __dmc_pm_runtime_idle/suspend/resume(), Linux's RPM_* values. */
#define DMC_RPM_ASYNC		0x01	/* request, done by the workqueue */
#define DMC_RPM_NOWAIT		0x02	/* do not wait for a concurrent one */
#define DMC_RPM_GET_PUT		0x04	/* change the usage count too */
#define DMC_RPM_AUTO		0x08	/* honour the autosuspend delay */

/**
 * struct dmc_dev_pm_ops - a driver's or bus's power callbacks
 * @prepare: before a system suspend, under the device lock and the
 *	power-transition mutex; a positive return lets a device that is
 *	runtime-suspended stay so through the system sleep, its suspend and
 *	resume callbacks skipped (Linux's direct_complete)
 * @runtime_suspend: power the device down; 0, or -EBUSY/-EAGAIN to stay
 *	active (retried later), another error to stay active with the error
 *	recorded (runtime PM then refuses until dmc_pm_runtime_set_active()
 *	or _set_suspended() clears it)
 * @runtime_resume: power it up; an error leaves it suspended
 * @runtime_idle: the device may be idle: 0 lets the core suspend it,
 *	nonzero keeps it active
 *
 * The runtime callbacks run with no core lock held, in the caller's
 * thread or in the core's workqueue, never two of one device at once.
 * They must not take the device lock (a probe or remove holding it waits
 * for them), nor call dmc_pm_runtime_barrier(), _disable() or a
 * synchronous call on their own device. A bus's callback is used when
 * the bus has one, else the bound driver's; no callback means success.
 */
struct dmc_dev_pm_ops {
	int (*prepare)(struct dmc_device *dev);
	int (*runtime_suspend)(struct dmc_device *dev);
	int (*runtime_resume)(struct dmc_device *dev);
	int (*runtime_idle)(struct dmc_device *dev);
};

int __dmc_pm_runtime_idle(struct dmc_device *dev, int rpmflags);
int __dmc_pm_runtime_suspend(struct dmc_device *dev, int rpmflags);
int __dmc_pm_runtime_resume(struct dmc_device *dev, int rpmflags);
int __dmc_pm_runtime_set_status(struct dmc_device *dev, unsigned int status);
void __dmc_pm_runtime_disable(struct dmc_device *dev, bool check_resume);
void __dmc_pm_runtime_use_autosuspend(struct dmc_device *dev, bool use);

void dmc_pm_runtime_enable(struct dmc_device *dev);
int dmc_pm_runtime_barrier(struct dmc_device *dev);
void dmc_pm_runtime_forbid(struct dmc_device *dev);
void dmc_pm_runtime_allow(struct dmc_device *dev);
void dmc_pm_runtime_get_noresume(struct dmc_device *dev);
void dmc_pm_runtime_put_noidle(struct dmc_device *dev);
void dmc_pm_runtime_mark_last_busy(struct dmc_device *dev);
void dmc_pm_runtime_set_autosuspend_delay(struct dmc_device *dev, int delay);
bool dmc_pm_runtime_enabled(struct dmc_device *dev);
bool dmc_pm_runtime_suspended(struct dmc_device *dev);
bool dmc_pm_runtime_active(struct dmc_device *dev);
bool dmc_pm_runtime_status_suspended(struct dmc_device *dev);
enum dmc_rpm_status dmc_pm_runtime_status(struct dmc_device *dev);
int dmc_pm_runtime_usage(struct dmc_device *dev);
int dmc_pm_runtime_active_children(struct dmc_device *dev);
int dmc_pm_runtime_autosuspend_delay(struct dmc_device *dev);

static inline int dmc_pm_runtime_idle(struct dmc_device *dev)
{
	return __dmc_pm_runtime_idle(dev, 0);
}

static inline int dmc_pm_runtime_suspend(struct dmc_device *dev)
{
	return __dmc_pm_runtime_suspend(dev, 0);
}

static inline int dmc_pm_runtime_autosuspend(struct dmc_device *dev)
{
	return __dmc_pm_runtime_suspend(dev, DMC_RPM_AUTO);
}

static inline int dmc_pm_runtime_resume(struct dmc_device *dev)
{
	return __dmc_pm_runtime_resume(dev, 0);
}

static inline int dmc_pm_request_idle(struct dmc_device *dev)
{
	return __dmc_pm_runtime_idle(dev, DMC_RPM_ASYNC);
}

static inline int dmc_pm_request_resume(struct dmc_device *dev)
{
	return __dmc_pm_runtime_resume(dev, DMC_RPM_ASYNC);
}

static inline int dmc_pm_request_autosuspend(struct dmc_device *dev)
{
	return __dmc_pm_runtime_suspend(dev, DMC_RPM_ASYNC | DMC_RPM_AUTO);
}

/* A usage reference and an asynchronous resume request. */
static inline int dmc_pm_runtime_get(struct dmc_device *dev)
{
	return __dmc_pm_runtime_resume(dev, DMC_RPM_GET_PUT | DMC_RPM_ASYNC);
}

/*
 * A usage reference and a synchronous resume; the reference stays even
 * when the resume fails (put it back with dmc_pm_runtime_put_noidle()).
 * Return: 1 if active already, 0 resumed, or a negative errno.
 */
static inline int dmc_pm_runtime_get_sync(struct dmc_device *dev)
{
	return __dmc_pm_runtime_resume(dev, DMC_RPM_GET_PUT);
}

/* As dmc_pm_runtime_get_sync(), but the reference is dropped on failure. */
static inline int dmc_pm_runtime_resume_and_get(struct dmc_device *dev)
{
	int ret = __dmc_pm_runtime_resume(dev, DMC_RPM_GET_PUT);

	if (ret < 0) {
		dmc_pm_runtime_put_noidle(dev);
		return ret;
	}
	return 0;
}

/* Drop a usage reference; an idle check is queued when it was the last. */
static inline int dmc_pm_runtime_put(struct dmc_device *dev)
{
	return __dmc_pm_runtime_idle(dev, DMC_RPM_GET_PUT | DMC_RPM_ASYNC);
}

static inline int dmc_pm_runtime_put_sync(struct dmc_device *dev)
{
	return __dmc_pm_runtime_idle(dev, DMC_RPM_GET_PUT);
}

static inline int dmc_pm_runtime_put_autosuspend(struct dmc_device *dev)
{
	return __dmc_pm_runtime_suspend(dev, DMC_RPM_GET_PUT | DMC_RPM_ASYNC |
					DMC_RPM_AUTO);
}

static inline int dmc_pm_runtime_put_sync_autosuspend(struct dmc_device *dev)
{
	return __dmc_pm_runtime_suspend(dev, DMC_RPM_GET_PUT | DMC_RPM_AUTO);
}

static inline int dmc_pm_runtime_put_sync_suspend(struct dmc_device *dev)
{
	return __dmc_pm_runtime_suspend(dev, DMC_RPM_GET_PUT);
}

static inline int dmc_pm_runtime_set_active(struct dmc_device *dev)
{
	return __dmc_pm_runtime_set_status(dev, DMC_RPM_ACTIVE);
}

static inline int dmc_pm_runtime_set_suspended(struct dmc_device *dev)
{
	return __dmc_pm_runtime_set_status(dev, DMC_RPM_SUSPENDED);
}

static inline void dmc_pm_runtime_disable(struct dmc_device *dev)
{
	__dmc_pm_runtime_disable(dev, true);
}

static inline void dmc_pm_runtime_use_autosuspend(struct dmc_device *dev)
{
	__dmc_pm_runtime_use_autosuspend(dev, true);
}

static inline void dmc_pm_runtime_dont_use_autosuspend(struct dmc_device *dev)
{
	__dmc_pm_runtime_use_autosuspend(dev, false);
}

#endif /* _DMCORE_PM_RUNTIME_H */
