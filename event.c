// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore's events ("uevents") and the event log; the counterpart of
 * Linux's kobject_uevent code in lib/.
 *
 * Linux hands an event to netlink and to a usermode helper. dmcore keeps
 * every event in a bounded ring, the event log, where readers find them by
 * SEQNUM, and hands it to listeners registered in the kernel (listener.c).
 * The log holds compact binary records in one preallocated buffer and
 * formats an event as text only when someone reads it, so sending one
 * allocates nothing (the variables are built in a per-CPU spare buffer).
 * A full log drops its oldest event and counts the drop.
 *
 * Sending an event:
 *   1. the subsystem is the first kset found walking up from the object,
 *      and ACTION and DEVPATH are set in the same hold of dmc_name_lock
 *      (so DEVPATH is the path the object had when the event was sent);
 *   2. the object's suppression bit, then the kset's filter may drop it;
 *   3. SUBSYSTEM is set, then the sender's variables, then the kset's
 *      uevent() hook adds its own;
 *   4. under dmc_event_mutex (listener.c) the event gets the next SEQNUM,
 *      enters the log and is shown to every listener, so all of them see
 *      SEQNUM order; readers sleeping on the log are woken.
 * An event that fails before step 4 consumes no SEQNUM.
 */

#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/ratelimit.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "base.h"
#include "dmc_trace.h"

static DECLARE_WAIT_QUEUE_HEAD(dmc_event_waitq);
static DEFINE_SPINLOCK(dmc_ring_lock);

/* SEQNUM of the last event sent; dmc_event_mutex. */
static u64 dmc_seqnum;

/*
 * One event as the log keeps it: ACTION and SEQNUM in binary, DEVPATH
 * and SUBSYSTEM as strings, then the sender's and the kset's variables
 * as sent, "KEY=VALUE\0" one after the other. It is formatted into a
 * struct dmc_uevent only when read (dmc_event_log_next()) or shown to a
 * listener. DEVPATH is the path the object had when the event was sent:
 * a later rename or move does not rewrite the log.
 */
struct dmc_event_rec {
	u64 seqnum;
	u16 size;		/* bytes, header included, a multiple of 8 */
	u16 devpath_len;	/* without its NUL, as subsys_len */
	u16 subsys_len;
	u16 vars_len;		/* the further variables, NULs included */
	u8 action;
	u8 nvars;		/* the further variables */
	char data[];		/* devpath\0 subsystem\0 vars */
};

/*
 * The event log: records one after the other in a byte ring, and the
 * offset of each in a ring of @capacity entries; dmc_ring_lock, changed
 * only under dmc_event_mutex too. SEQNUMs in it are contiguous. A record
 * never wraps: one that does not fit before the end goes to the start.
 */
static struct dmc_event_ring {
	u32 *offs;		/* offs[(head + i) % capacity]: the i-th oldest */
	char *data;
	unsigned int capacity;	/* events */
	unsigned int bytes;	/* of @data */
	unsigned int head;
	unsigned int count;
	unsigned int tail;	/* where the next record goes */
	u64 sent;
	u64 dropped;
} dmc_ring;

/* Bytes of records the log keeps per event of its capacity, at least. */
#define DMC_EVENT_REC_AVG	128
#define DMC_EVENT_RING_MIN	(16 * 1024)

static unsigned int dmc_event_ring_bytes(unsigned int capacity)
{
	return max_t(unsigned int, capacity * DMC_EVENT_REC_AVG,
		     DMC_EVENT_RING_MIN);
}

static const char * const dmc_action_names[DMC_KOBJ_NR_ACTIONS] = {
	[DMC_KOBJ_ADD] = "add",
	[DMC_KOBJ_REMOVE] = "remove",
	[DMC_KOBJ_CHANGE] = "change",
	[DMC_KOBJ_MOVE] = "move",
	[DMC_KOBJ_ONLINE] = "online",
	[DMC_KOBJ_OFFLINE] = "offline",
	[DMC_KOBJ_BIND] = "bind",
	[DMC_KOBJ_UNBIND] = "unbind",
};

/**
 * dmc_kobject_action_name() - the ACTION string of an action
 * @action: the action
 *
 * Return: "add", "remove", ... or NULL for an invalid action.
 */
const char *dmc_kobject_action_name(enum dmc_kobject_action action)
{
	if ((unsigned int)action >= DMC_KOBJ_NR_ACTIONS)
		return NULL;
	return dmc_action_names[action];
}
EXPORT_SYMBOL_GPL(dmc_kobject_action_name);

/**
 * dmc_kobject_action_parse() - parse an ACTION string written by a user
 * @buf: the text, e.g. "change\n"; need not be NUL-terminated
 * @count: its length; one trailing newline is ignored
 * @action: where the action is stored on success
 *
 * Return: 0, or -EINVAL if @buf names no action.
 */
int dmc_kobject_action_parse(const char *buf, size_t count,
			     enum dmc_kobject_action *action)
{
	unsigned int i;
	size_t len;

	if (count && buf[count - 1] == '\n')
		count--;
	for (i = 0; i < DMC_KOBJ_NR_ACTIONS; i++) {
		len = strlen(dmc_action_names[i]);
		if (len == count && !strncmp(buf, dmc_action_names[i], len)) {
			*action = i;
			return 0;
		}
	}
	return -EINVAL;
}
EXPORT_SYMBOL_GPL(dmc_kobject_action_parse);

/**
 * dmc_add_uevent_var() - add a "KEY=VALUE" variable to an event
 * @env: the event being built (passed to a kset's uevent() hook)
 * @fmt: printf-style format of the whole "KEY=VALUE" string
 *
 * Return: 0, or -E2BIG when the event already has DMC_UEVENT_NUM_ENVP
 * variables or the string does not fit in what is left of the
 * DMC_UEVENT_BUFFER_SIZE bytes; the event is then unchanged.
 */
int dmc_add_uevent_var(struct dmc_uevent_env *env, const char *fmt, ...)
{
	size_t room;
	va_list args;
	int len;

	/* The last slot is SEQNUM's, filled when the event is sent. */
	if (env->envp_idx >= ARRAY_SIZE(env->envp) - 1) {
		pr_warn_ratelimited("dmcore: event has more than %d variables\n",
				    DMC_UEVENT_NUM_ENVP);
		return -E2BIG;
	}
	room = sizeof(env->buf) - env->buflen;
	va_start(args, fmt);
	len = vsnprintf(&env->buf[env->buflen], room, fmt, args);
	va_end(args);
	if (len >= room) {
		env->buf[env->buflen] = '\0';
		pr_warn_ratelimited("dmcore: event variables exceed %d bytes\n",
				    DMC_UEVENT_BUFFER_SIZE);
		return -E2BIG;
	}
	env->envp[env->envp_idx++] = &env->buf[env->buflen];
	env->buflen += len + 1;
	return 0;
}
EXPORT_SYMBOL_GPL(dmc_add_uevent_var);

/* A caller-supplied variable must look like KEY=VALUE with a non-empty KEY. */
static bool dmc_var_valid(const char *var)
{
	const char *eq = strchr(var, '=');

	return eq && eq != var;
}

/* The number of decimal digits of @v. */
static unsigned int dmc_u64_digits(u64 v)
{
	unsigned int n = 1;

	while (v >= 10) {
		v = div_u64(v, 10);
		n++;
	}
	return n;
}

/* Write @v in decimal at @buf, without a NUL. Return: its length. */
static unsigned int dmc_u64_put(char *buf, u64 v)
{
	unsigned int n = dmc_u64_digits(v), i = n;
	u32 rem;

	do {
		v = div_u64_rem(v, 10, &rem);
		buf[--i] = '0' + rem;
	} while (i);
	return n;
}

/* The bytes of "KEY=VALUE\0" strings of @rec formatted, SEQNUM included. */
static size_t dmc_event_rec_text_len(const struct dmc_event_rec *rec)
{
	return strlen("ACTION=") + strlen(dmc_action_names[rec->action]) + 1 +
	       strlen("DEVPATH=") + rec->devpath_len + 1 +
	       strlen("SUBSYSTEM=") + rec->subsys_len + 1 +
	       strlen("SEQNUM=") + dmc_u64_digits(rec->seqnum) + 1 +
	       rec->vars_len;
}

/* Write "<key><value>\0" at @p. Return: the bytes written. */
static size_t dmc_put_var(char *p, const char *key, size_t klen,
			  const char *value, size_t len)
{
	memcpy(p, key, klen);
	memcpy(p + klen, value, len);
	p[klen + len] = '\0';
	return klen + len + 1;
}

/*
 * A struct dmc_uevent holding @rec as text: ACTION, DEVPATH, SUBSYSTEM,
 * SEQNUM, then the further variables. @ev has room for
 * dmc_event_rec_text_len(@rec) bytes.
 */
static void dmc_event_rec_format(const struct dmc_event_rec *rec,
				 struct dmc_uevent *ev)
{
	const char *action = dmc_action_names[rec->action];
	const char *d = rec->data;
	char *p = ev->buf;
	char num[24];

	kref_init(&ev->kref);
	ev->seqnum = rec->seqnum;
	ev->action = rec->action;
	p += dmc_put_var(p, "ACTION=", strlen("ACTION="), action, strlen(action));
	ev->devpath = p + strlen("DEVPATH=");
	p += dmc_put_var(p, "DEVPATH=", strlen("DEVPATH="), d, rec->devpath_len);
	d += rec->devpath_len + 1;
	ev->subsystem = p + strlen("SUBSYSTEM=");
	p += dmc_put_var(p, "SUBSYSTEM=", strlen("SUBSYSTEM="), d, rec->subsys_len);
	d += rec->subsys_len + 1;
	p += dmc_put_var(p, "SEQNUM=", strlen("SEQNUM="), num,
			 dmc_u64_put(num, rec->seqnum));
	memcpy(p, d, rec->vars_len);
	p += rec->vars_len;
	ev->nvars = 4 + rec->nvars;
	ev->len = p - ev->buf;
}

/*
 * The record @env becomes: its size, header included. @env holds
 * ACTION, DEVPATH and SUBSYSTEM first, its strings one after the other
 * in its buffer.
 */
static size_t dmc_event_rec_size(const struct dmc_uevent_env *env)
{
	return ALIGN(sizeof(struct dmc_event_rec) + env->buflen, 8);
}

/* Write the record of @env at @rec, with @seqnum. */
static void dmc_event_rec_fill(struct dmc_event_rec *rec,
			       const struct dmc_uevent_env *env,
			       enum dmc_kobject_action action, u64 seqnum)
{
	const char *devpath = env->envp[1] + strlen("DEVPATH=");
	const char *subsys = env->envp[2] + strlen("SUBSYSTEM=");
	const char *vars = env->envp_idx > 3 ? env->envp[3] : env->buf + env->buflen;
	char *p = rec->data;

	rec->seqnum = seqnum;
	rec->size = dmc_event_rec_size(env);
	rec->action = action;
	rec->nvars = env->envp_idx - 3;
	rec->devpath_len = subsys - strlen("SUBSYSTEM=") - devpath - 1;
	rec->subsys_len = vars - subsys - 1;
	rec->vars_len = env->buf + env->buflen - vars;
	memcpy(p, devpath, rec->devpath_len + 1);
	p += rec->devpath_len + 1;
	memcpy(p, subsys, rec->subsys_len + 1);
	p += rec->subsys_len + 1;
	memcpy(p, vars, rec->vars_len);
}

/* The slot of the @i-th oldest record (@i <= count): no division. */
static unsigned int dmc_ring_slot(const struct dmc_event_ring *r, unsigned int i)
{
	i += r->head;
	return i >= r->capacity ? i - r->capacity : i;
}

/* The @i-th oldest record of the log; dmc_ring_lock or dmc_event_mutex. */
static struct dmc_event_rec *dmc_ring_rec(const struct dmc_event_ring *r,
					  unsigned int i)
{
	return (struct dmc_event_rec *)(r->data + r->offs[dmc_ring_slot(r, i)]);
}

/* Drop the oldest record; dmc_ring_lock. */
static void dmc_ring_drop(struct dmc_event_ring *r)
{
	r->head = dmc_ring_slot(r, 1);
	r->count--;
	r->dropped++;
}

/*
 * Where a record of @size bytes goes, dropping the oldest records until
 * one entry and @size contiguous bytes are free; dmc_ring_lock. @size is
 * at most the ring's bytes.
 */
static unsigned int dmc_ring_reserve(struct dmc_event_ring *r, unsigned int size)
{
	unsigned int oldest;

	for (;;) {
		if (!r->count)
			return 0;
		oldest = r->offs[r->head];
		if (r->count < r->capacity) {
			if (r->tail > oldest) {
				/* Used: [oldest, tail). */
				if (r->bytes - r->tail >= size)
					return r->tail;
				if (oldest >= size)
					return 0;
			} else if (oldest - r->tail >= size) {
				/* Used: [oldest, end) and [0, tail). */
				return r->tail;
			}
		}
		dmc_ring_drop(r);
	}
}

/* Append @env's record as event @seqnum; caller holds the mutex. */
static void dmc_event_log_append(const struct dmc_uevent_env *env,
				 enum dmc_kobject_action action, u64 seqnum)
{
	struct dmc_event_ring *r = &dmc_ring;
	unsigned int size = dmc_event_rec_size(env), off;

	spin_lock(&dmc_ring_lock);
	off = dmc_ring_reserve(r, size);
	dmc_event_rec_fill((struct dmc_event_rec *)(r->data + off), env,
			   action, seqnum);
	r->offs[dmc_ring_slot(r, r->count)] = off;
	r->tail = off + size;
	r->count++;
	r->sent++;
	spin_unlock(&dmc_ring_lock);
}

static void dmc_uevent_release(struct kref *kref)
{
	kfree(container_of(kref, struct dmc_uevent, kref));
}

/**
 * dmc_uevent_get() - take a reference on a logged event
 * @ev: the event
 *
 * Return: @ev.
 */
struct dmc_uevent *dmc_uevent_get(struct dmc_uevent *ev)
{
	if (ev)
		kref_get(&ev->kref);
	return ev;
}
EXPORT_SYMBOL_GPL(dmc_uevent_get);

/**
 * dmc_uevent_put() - drop a reference on a logged event
 * @ev: the event, or NULL
 */
void dmc_uevent_put(struct dmc_uevent *ev)
{
	if (ev)
		kref_put(&ev->kref, dmc_uevent_release);
}
EXPORT_SYMBOL_GPL(dmc_uevent_put);

/**
 * dmc_uevent_var() - look up a variable of an event
 * @ev: the event
 * @key: the variable's name, e.g. "DEVPATH"
 *
 * Return: the value (inside @ev, valid while it is referenced), or NULL.
 */
const char *dmc_uevent_var(const struct dmc_uevent *ev, const char *key)
{
	size_t klen = strlen(key);
	const char *s = ev->buf;
	unsigned int i;

	for (i = 0; i < ev->nvars; i++) {
		if (!strncmp(s, key, klen) && s[klen] == '=')
			return s + klen + 1;
		s += strlen(s) + 1;
	}
	return NULL;
}
EXPORT_SYMBOL_GPL(dmc_uevent_var);

static int __dmc_kobject_uevent_env(struct dmc_kobject *kobj,
				    enum dmc_kobject_action action,
				    const char * const envp_ext[], bool synth);

/**
 * dmc_kobject_uevent_env() - send an event with extra variables
 * @kobj: the object the event is about; the caller holds a reference
 * @action: what happened
 * @envp_ext: NULL-terminated "KEY=VALUE" strings to add, or NULL
 *
 * Sending "add" or "remove" records that in @kobj's flags, which decides
 * whether dmc_kobject_del() sends "remove".
 *
 * Context: may sleep; takes dmc_event_mutex. Must not be called from a
 * listener's uevent callback.
 * Return: 0 when the event was sent or deliberately dropped (suppressed,
 * filtered out, no subsystem name); -EINVAL for a bad argument, a
 * malformed variable or an object without a kset above it; -ENOENT for an
 * object not in the tree; -E2BIG past the bounds on variables; -ENOMEM;
 * or the error of the kset's uevent() hook. On error nothing was sent and
 * no SEQNUM was used.
 */
int dmc_kobject_uevent_env(struct dmc_kobject *kobj,
			   enum dmc_kobject_action action,
			   const char * const envp_ext[])
{
	return __dmc_kobject_uevent_env(kobj, action, envp_ext, false);
}
EXPORT_SYMBOL_GPL(dmc_kobject_uevent_env);

/**
 * dmc_kobject_synth_uevent() - send an event again on a user's request
 * @kobj: the object; the caller holds a reference
 * @action: DMC_KOBJ_ADD, DMC_KOBJ_REMOVE or DMC_KOBJ_CHANGE
 *
 * What writing "add", "remove" or "change" to a uevent file does, as in
 * Linux: the event goes out with SYNTH=1 and changes nothing in the
 * model, not even whether dmc_kobject_del() will send "remove".
 *
 * Context: may sleep.
 * Return: as dmc_kobject_uevent_env(); -EINVAL for any other action.
 */
int dmc_kobject_synth_uevent(struct dmc_kobject *kobj,
			     enum dmc_kobject_action action)
{
	static const char * const synth[] = { "SYNTH=1", NULL };

	if (action != DMC_KOBJ_ADD && action != DMC_KOBJ_REMOVE &&
	    action != DMC_KOBJ_CHANGE)
		return -EINVAL;
	return __dmc_kobject_uevent_env(kobj, action, synth, true);
}
EXPORT_SYMBOL_GPL(dmc_kobject_synth_uevent);

/**
 * dmc_kobject_uevent_store() - what writing to a uevent file does
 * @kobj: the object; the caller holds a reference
 * @buf: the text written, e.g. "change\n"
 * @count: its length
 *
 * Shared by the uevent files of devices, drivers and buses.
 *
 * Return: @count, or -EINVAL (logged) for anything but add, remove or
 * change, or the error of dmc_kobject_synth_uevent().
 */
ssize_t dmc_kobject_uevent_store(struct dmc_kobject *kobj, const char *buf,
				 size_t count)
{
	enum dmc_kobject_action action;
	int err;

	err = dmc_kobject_action_parse(buf, count, &action);
	if (!err)
		err = dmc_kobject_synth_uevent(kobj, action);
	if (err == -EINVAL)
		pr_err_ratelimited("dmcore: %s/uevent: '%.*s' is not add, remove or change\n",
				   kobj->name, (int)min_t(size_t, count, 16), buf);
	return err ?: count;
}
EXPORT_SYMBOL_GPL(dmc_kobject_uevent_store);

/* May @kobj send an event of @action at all? */
static int dmc_uevent_check(struct dmc_kobject *kobj,
			    enum dmc_kobject_action action)
{
	if (!kobj || (unsigned int)action >= DMC_KOBJ_NR_ACTIONS)
		return -EINVAL;
	if (DMC_MISUSE(!dmc_kobj_test_flag(kobj, DMC_KOBJ_INITIALIZED),
		       "event for uninitialized kobject %p\n", kobj))
		return -EINVAL;
	return 0;
}

/*
 * Start a variable "<key><value>" at the end of @env's buffer, with
 * @need bytes for the value and its NUL. Return: where the value goes,
 * or NULL (and a warning) when the event is full.
 */
static char *dmc_uevent_var_start(struct dmc_uevent_env *env, const char *key,
				  size_t klen, size_t need)
{
	char *p = &env->buf[env->buflen];

	if (env->envp_idx >= ARRAY_SIZE(env->envp) - 1 ||
	    klen + need > sizeof(env->buf) - env->buflen) {
		pr_warn_ratelimited("dmcore: event variables exceed %d bytes or %d variables\n",
				    DMC_UEVENT_BUFFER_SIZE, DMC_UEVENT_NUM_ENVP);
		return NULL;
	}
	memcpy(p, key, klen);
	return p + klen;
}

/* End the variable begun above, its value @len bytes long. */
static void dmc_uevent_var_end(struct dmc_uevent_env *env, size_t klen, size_t len)
{
	char *p = &env->buf[env->buflen];

	p[klen + len] = '\0';
	env->envp[env->envp_idx++] = p;
	env->buflen += klen + len + 1;
}

/* "<key><value>" without a format, for the fixed variables. */
static int dmc_uevent_add_str(struct dmc_uevent_env *env, const char *key,
			      size_t klen, const char *value)
{
	size_t len = strlen(value);
	char *p = dmc_uevent_var_start(env, key, klen, len + 1);

	if (!p)
		return -E2BIG;
	memcpy(p, value, len);
	dmc_uevent_var_end(env, klen, len);
	return 0;
}

/*
 * DEVPATH, written straight into the event; dmc_name_lock held. Return:
 * 0, -E2BIG (no room for the variable) or -ENAMETOOLONG (the path does
 * not fit).
 */
static int dmc_uevent_add_devpath(struct dmc_uevent_env *env,
				  const struct dmc_kobject *kobj)
{
	size_t klen = strlen("DEVPATH=");
	char *p = dmc_uevent_var_start(env, "DEVPATH=", klen, 1);
	int len;

	if (!p)
		return -E2BIG;
	len = __dmc_kobject_path_into(kobj, p, sizeof(env->buf) - env->buflen - klen);
	if (len < 0)
		return -ENAMETOOLONG;
	dmc_uevent_var_end(env, klen, len);
	return 0;
}

/*
 * What an event needs of the kset that gives its object a subsystem: the
 * uevent ops and the name, copied while the kset is known to be alive.
 * Like Linux's kobject_uevent_env(), an event holds no reference on the
 * kset, so the ops are called after the kset may have gone: they, and
 * the string their name() returns, must live as long as the module that
 * owns them (struct dmc_kset_uevent_ops), not as long as the kset.
 */
struct dmc_uevent_kset {
	const struct dmc_kset_uevent_ops *ops;
	char name[DMC_NAME_MAX + 1];
};

/*
 * Find the kset giving @kobj its subsystem and copy what the event needs
 * of it into @ks, under dmc_name_lock (dmc_kobject_subsystem_kset()); in
 * the same hold, @env's first two variables, ACTION and DEVPATH.
 * Return: 0, 1 (@kobj's events are suppressed: send nothing), -ENOENT
 * (@kobj is not in the tree), -EINVAL (no kset above it) or -E2BIG (the
 * path does not fit an event), logged.
 */
static int dmc_uevent_find_kset(struct dmc_kobject *kobj,
				enum dmc_kobject_action action,
				struct dmc_uevent_kset *ks,
				struct dmc_uevent_env *env)
{
	const struct dmc_kset *kset = NULL;
	bool in_tree, suppressed = false;
	int err = 0;

	read_lock(&dmc_name_lock);
	in_tree = dmc_kobject_in_tree(kobj);
	if (in_tree)
		suppressed = dmc_kobj_test_flag(kobj, DMC_KOBJ_UEVENT_SUPPRESS);
	if (in_tree && !suppressed)
		kset = dmc_kobject_subsystem_kset(kobj);
	if (kset) {
		ks->ops = kset->uevent_ops;
		/* Its name only if no ops may name the subsystem instead. */
		ks->name[0] = '\0';
		if (!ks->ops || !ks->ops->name)
			strscpy(ks->name, kset->kobj.name, sizeof(ks->name));
		/* ACTION and DEVPATH, the path as it is now, under the same lock. */
		err = dmc_uevent_add_str(env, "ACTION=", strlen("ACTION="),
					 dmc_action_names[action]);
		if (!err)
			err = dmc_uevent_add_devpath(env, kobj);
	}
	read_unlock(&dmc_name_lock);
	if (!in_tree) {
		pr_err_ratelimited("dmcore: event '%s' for '%s', which is not in the tree\n",
				   dmc_action_names[action], kobj->name);
		return -ENOENT;
	}
	if (suppressed)
		return 1;
	if (!kset) {
		pr_warn_ratelimited("dmcore: event '%s' for '%s' dropped: no kset above it\n",
				    dmc_action_names[action], kobj->name);
		return -EINVAL;
	}
	if (err == -ENAMETOOLONG) {
		pr_warn_ratelimited("dmcore: event for '%s': path longer than %d bytes\n",
				    kobj->name, DMC_UEVENT_BUFFER_SIZE);
		err = -E2BIG;
	}
	return err;
}

/*
 * The kset's filter, then its name for @kobj's SUBSYSTEM (NULL: the
 * kset's own name, in @ks). Return: false when the filter drops the
 * event, or @kobj left the tree before the kset's name was copied.
 */
static bool dmc_uevent_filter(struct dmc_kobject *kobj,
			      struct dmc_uevent_kset *ks,
			      const char **subsystem)
{
	const struct dmc_kset_uevent_ops *ops = ks->ops;

	const struct dmc_kset *kset;

	if (ops && ops->filter && !ops->filter(kobj))
		return false;
	*subsystem = ops && ops->name ? ops->name(kobj) : NULL;
	if (*subsystem || ks->name[0])
		return true;
	/* The ops named nothing: the kset's own name, copied now. */
	read_lock(&dmc_name_lock);
	kset = dmc_kobject_in_tree(kobj) ? dmc_kobject_subsystem_kset(kobj) : NULL;
	if (kset)
		strscpy(ks->name, kset->kobj.name, sizeof(ks->name));
	read_unlock(&dmc_name_lock);
	return kset;
}

/* The sender's own variables, each checked as KEY=VALUE. */
static int dmc_uevent_add_ext(struct dmc_uevent_env *env,
			      struct dmc_kobject *kobj,
			      const char * const envp_ext[])
{
	int i, err;

	for (i = 0; envp_ext && envp_ext[i]; i++) {
		if (!dmc_var_valid(envp_ext[i])) {
			pr_err_ratelimited("dmcore: event for '%s': bad variable '%.32s'\n",
					   kobj->name, envp_ext[i]);
			return -EINVAL;
		}
		err = dmc_add_uevent_var(env, "%s", envp_ext[i]);
		if (err)
			return err;
	}
	return 0;
}

/* The kset's uevent() hook adds its variables, or cancels. */
static int dmc_uevent_kset_hook(struct dmc_uevent_env *env,
				struct dmc_kobject *kobj,
				const struct dmc_uevent_kset *ks)
{
	const struct dmc_kset_uevent_ops *ops = ks->ops;
	int err;

	if (!ops || !ops->uevent)
		return 0;
	err = ops->uevent(kobj, env);
	if (err)
		pr_debug("dmcore: event for '%s' cancelled by its kset's uevent(): %d\n",
			 kobj->name, err);
	return err;
}

/*
 * Under dmc_event_mutex, number the event, record "add" or "remove" in
 * @kobj's flags (unless @synth), log it and, if any listener wants
 * events, show it to them as text; then wake the log's readers. Fails,
 * using no SEQNUM, when there is no room left for SEQNUM or no memory
 * for the listeners' copy.
 */
static int dmc_uevent_send(struct dmc_kobject *kobj,
			   enum dmc_kobject_action action,
			   const struct dmc_uevent_env *env, bool synth)
{
	struct dmc_uevent *ev = NULL;
	u64 seqnum;

	mutex_lock(&dmc_event_mutex);
	seqnum = dmc_seqnum + 1;
	/*
	 * SEQNUM is added when read but must fit like any other variable;
	 * its digits are counted (divisions) only near the limit.
	 */
	if (env->buflen + strlen("SEQNUM=") + 21 > DMC_UEVENT_BUFFER_SIZE &&
	    env->buflen + strlen("SEQNUM=") + dmc_u64_digits(seqnum) + 1 >
	    DMC_UEVENT_BUFFER_SIZE) {
		mutex_unlock(&dmc_event_mutex);
		pr_warn_ratelimited("dmcore: event for '%s' has no room for SEQNUM\n",
				    kobj->name);
		return -E2BIG;
	}
	if (dmc_listeners_want_uevents()) {
		ev = kmalloc(struct_size(ev, buf, DMC_UEVENT_BUFFER_SIZE), GFP_KERNEL);
		if (!ev) {
			mutex_unlock(&dmc_event_mutex);
			return -ENOMEM;
		}
	}
	dmc_seqnum = seqnum;
	trace_dmcore_uevent(seqnum, dmc_kobject_action_name(action),
			    env->envp[1] + strlen("DEVPATH="));
	if (action == DMC_KOBJ_ADD && !synth)
		dmc_kobj_set_flag(kobj, DMC_KOBJ_ADD_SENT);
	else if (action == DMC_KOBJ_REMOVE && !synth)
		dmc_kobj_set_flag(kobj, DMC_KOBJ_REMOVE_SENT);
	dmc_event_log_append(env, action, seqnum);
	if (ev) {
		/* The record stays: only holders of the mutex drop records. */
		dmc_event_rec_format(dmc_ring_rec(&dmc_ring, dmc_ring.count - 1), ev);
		dmc_listeners_uevent(ev);
	}
	mutex_unlock(&dmc_event_mutex);
	/* Only a sleeping reader needs the waitqueue's lock taken. */
	if (wq_has_sleeper(&dmc_event_waitq))
		wake_up_interruptible_all(&dmc_event_waitq);
	dmc_uevent_put(ev);
	return 0;
}

/*
 * An event's variables are built in a 2.5 KiB struct dmc_uevent_env; each
 * CPU keeps one spare, so that sending an event allocates nothing in the
 * common case. The builder may sleep and move: it owns the buffer it took.
 */
static DEFINE_PER_CPU(struct dmc_uevent_env *, dmc_env_spare);

static struct dmc_uevent_env *dmc_uevent_env_get(void)
{
	struct dmc_uevent_env *env = this_cpu_xchg(dmc_env_spare, NULL);

	if (!env)
		env = kmalloc(sizeof(*env), GFP_KERNEL);
	if (env) {
		/* Only the counts need zeroing, the strings are appended. */
		env->envp_idx = 0;
		env->buflen = 0;
	}
	return env;
}

static void dmc_uevent_env_put(struct dmc_uevent_env *env)
{
	if (this_cpu_cmpxchg(dmc_env_spare, NULL, env))
		kfree(env);
}

/*
 * Send an event, the steps at the top of this file: check, find the kset,
 * filter, build the variables, let the kset add its own, then number, log
 * and show the event.
 */
static int dmc_uevent_build_send(struct dmc_kobject *kobj,
				 enum dmc_kobject_action action,
				 const char * const envp_ext[], bool synth, u64 *t)
{
	struct dmc_uevent_env *env;
	struct dmc_uevent_kset ks dmc_noinit;
	const char *subsystem;
	int err;

	err = dmc_uevent_check(kobj, action);
	if (err)
		return err;
	env = dmc_uevent_env_get();
	if (!env)
		return -ENOMEM;

	err = dmc_uevent_find_kset(kobj, action, &ks, env);
	if (err || !dmc_uevent_filter(kobj, &ks, &subsystem)) {
		dmc_uevent_env_put(env);
		return err < 0 ? err : 0;
	}
	err = dmc_uevent_add_str(env, "SUBSYSTEM=", strlen("SUBSYSTEM="),
				 subsystem ?: ks.name);
	if (!err)
		err = dmc_uevent_add_ext(env, kobj, envp_ext);
	if (!err)
		err = dmc_uevent_kset_hook(env, kobj, &ks);
	dmc_phase_lap(DMC_PHASE_EVENT_BUILD, t);
	if (!err)
		err = dmc_uevent_send(kobj, action, env, synth);
	dmc_phase_lap(DMC_PHASE_EVENT_LOG, t);

	dmc_uevent_env_put(env);
	return err;
}

static int __dmc_kobject_uevent_env(struct dmc_kobject *kobj,
				    enum dmc_kobject_action action,
				    const char * const envp_ext[], bool synth)
{
	u64 t0 = dmc_phase_start(), t = t0;
	int err;

	err = dmc_uevent_build_send(kobj, action, envp_ext, synth, &t);
	dmc_phase_lap(DMC_PHASE_EVENT, &t0);
	return err;
}

/**
 * dmc_kobject_uevent() - send an event
 * @kobj: the object; the caller holds a reference
 * @action: what happened
 *
 * Return: as dmc_kobject_uevent_env().
 */
int dmc_kobject_uevent(struct dmc_kobject *kobj, enum dmc_kobject_action action)
{
	return dmc_kobject_uevent_env(kobj, action, NULL);
}
EXPORT_SYMBOL_GPL(dmc_kobject_uevent);

/*
 * Find the first kept event with SEQNUM >= *@pos; dmc_ring_lock. Return:
 * its index from the oldest, or -1 when there is none yet; *@missed
 * grows by the events dropped between *@pos and it.
 */
static int dmc_ring_find(struct dmc_event_ring *r, u64 *pos, u64 *missed)
{
	u64 oldest;

	if (!r->count)
		return -1;
	oldest = dmc_ring_rec(r, 0)->seqnum;
	if (*pos < oldest) {
		*missed += oldest - *pos;
		*pos = oldest;
	}
	if (*pos - oldest >= r->count)
		return -1;
	return *pos - oldest;
}

/**
 * dmc_event_log_next() - read the event log
 * @pos: in: the SEQNUM wanted next (0 or 1 for the oldest kept); out:
 *	the SEQNUM after the event returned
 * @missed: out: how many events between @pos and the oldest kept were
 *	dropped before this reader got to them (0 normally)
 *
 * The log keeps events in binary; this formats one as text.
 *
 * Context: may sleep.
 * Return: the first kept event with SEQNUM >= @pos, with a reference the
 * caller drops with dmc_uevent_put(), or NULL when there is none yet (or,
 * logged, no memory to format it).
 */
struct dmc_uevent *dmc_event_log_next(u64 *pos, u64 *missed)
{
	struct dmc_event_ring *r = &dmc_ring;
	struct dmc_event_rec *rec;
	struct dmc_uevent *ev;
	size_t len;
	int i;

	*missed = 0;
	if (!*pos)
		*pos = 1;
	for (;;) {
		spin_lock(&dmc_ring_lock);
		i = dmc_ring_find(r, pos, missed);
		len = i < 0 ? 0 : dmc_event_rec_text_len(dmc_ring_rec(r, i));
		spin_unlock(&dmc_ring_lock);
		if (i < 0)
			return NULL;
		ev = kmalloc(struct_size(ev, buf, len), GFP_KERNEL);
		if (!ev) {
			pr_warn_ratelimited("dmcore: no memory to read event %llu\n", *pos);
			return NULL;
		}
		spin_lock(&dmc_ring_lock);
		i = dmc_ring_find(r, pos, missed);
		rec = i < 0 ? NULL : dmc_ring_rec(r, i);
		/* Dropped while allocating: the next one may be longer. */
		if (rec && dmc_event_rec_text_len(rec) <= len) {
			dmc_event_rec_format(rec, ev);
			*pos = rec->seqnum + 1;
			spin_unlock(&dmc_ring_lock);
			return ev;
		}
		spin_unlock(&dmc_ring_lock);
		kfree(ev);
		if (!rec)
			return NULL;
	}
}
EXPORT_SYMBOL_GPL(dmc_event_log_next);

/* Is there an event with SEQNUM >= @pos in the log, or past it? */
static bool dmc_event_log_ready(u64 pos)
{
	struct dmc_event_ring *r = &dmc_ring;
	bool ready;

	spin_lock(&dmc_ring_lock);
	ready = r->count && dmc_ring_rec(r, r->count - 1)->seqnum >= pos;
	spin_unlock(&dmc_ring_lock);
	return ready;
}

/**
 * dmc_event_log_wait() - sleep until the log has an event at or after @pos
 * @pos: the SEQNUM a reader wants next
 *
 * Context: may sleep.
 * Return: 0 when an event is there, -ERESTARTSYS on a signal.
 */
int dmc_event_log_wait(u64 pos)
{
	return wait_event_interruptible(dmc_event_waitq,
					dmc_event_log_ready(pos ?: 1));
}
EXPORT_SYMBOL_GPL(dmc_event_log_wait);

/**
 * dmc_event_log_poll() - poll support for a reader of the log
 * @file: the reader's file
 * @wait: the poll table
 * @pos: the SEQNUM the reader wants next
 *
 * Return: EPOLLIN | EPOLLRDNORM when an event is ready, else 0.
 */
__poll_t dmc_event_log_poll(struct file *file, struct poll_table_struct *wait,
			    u64 pos)
{
	poll_wait(file, &dmc_event_waitq, wait);
	return dmc_event_log_ready(pos ?: 1) ? EPOLLIN | EPOLLRDNORM : 0;
}
EXPORT_SYMBOL_GPL(dmc_event_log_poll);

/**
 * dmc_kobject_uevent_vars() - the variables an event of @kobj would carry
 * @kobj: the object; the caller holds a reference
 * @buf: where "KEY=VALUE\n" lines are written
 * @size: size of @buf
 *
 * The variables its kset's uevent() hook adds (as Linux's uevent file
 * shows), without ACTION, DEVPATH, SUBSYSTEM and SEQNUM. Sends nothing.
 *
 * Context: may sleep.
 * Return: the length written, 0 for an object not in the tree, without a
 * kset above it or filtered out, or a negative errno.
 */
int dmc_kobject_uevent_vars(struct dmc_kobject *kobj, char *buf, size_t size)
{
	const struct dmc_kset_uevent_ops *ops = NULL;
	const struct dmc_kset *kset = NULL;
	struct dmc_uevent_env *env;
	unsigned int i;
	int len = 0, err;

	if (!kobj || !buf || !size)
		return -EINVAL;
	buf[0] = '\0';
	/* As for an event: see dmc_uevent_find_kset(). */
	read_lock(&dmc_name_lock);
	if (dmc_kobject_in_tree(kobj))
		kset = dmc_kobject_subsystem_kset(kobj);
	if (kset)
		ops = kset->uevent_ops;
	read_unlock(&dmc_name_lock);
	if (!ops || !ops->uevent || (ops->filter && !ops->filter(kobj)))
		return 0;
	env = kzalloc(sizeof(*env), GFP_KERNEL);
	if (!env)
		return -ENOMEM;
	err = ops->uevent(kobj, env);
	for (i = 0; !err && i < env->envp_idx; i++)
		len += scnprintf(buf + len, size - len, "%s\n", env->envp[i]);
	kfree(env);
	return err ?: len;
}
EXPORT_SYMBOL_GPL(dmc_kobject_uevent_vars);

/**
 * dmc_event_log_stats() - counters of the event log
 * @stats: filled in
 */
void dmc_event_log_stats(struct dmc_event_stats *stats)
{
	struct dmc_event_ring *r = &dmc_ring;

	spin_lock(&dmc_ring_lock);
	stats->sent = r->sent;
	stats->dropped = r->dropped;
	stats->queued = r->count;
	stats->capacity = r->capacity;
	stats->last_seqnum = r->count ? dmc_ring_rec(r, r->count - 1)->seqnum : 0;
	spin_unlock(&dmc_ring_lock);
}
EXPORT_SYMBOL_GPL(dmc_event_log_stats);

/* The rings of a log of @capacity events, or -ENOMEM. */
static int dmc_event_ring_alloc(struct dmc_event_ring *r, unsigned int capacity)
{
	r->bytes = dmc_event_ring_bytes(capacity);
	r->offs = kvcalloc(capacity, sizeof(*r->offs), GFP_KERNEL);
	r->data = kvmalloc(r->bytes, GFP_KERNEL);
	if (!r->offs || !r->data) {
		kvfree(r->offs);
		kvfree(r->data);
		return -ENOMEM;
	}
	r->capacity = capacity;
	return 0;
}

/**
 * dmc_event_log_set_capacity() - resize the event log
 * @capacity: events to keep, 1 to DMC_EVENT_LOG_MAX
 *
 * The log keeps up to @capacity events in @capacity * 128 bytes (16 KiB
 * at least) of binary records; whichever runs out first drops the
 * oldest. Shrinking keeps the newest events; the others count as dropped.
 *
 * Context: may sleep.
 * Return: 0, -EINVAL for a capacity out of range, -ENOMEM.
 */
int dmc_event_log_set_capacity(unsigned int capacity)
{
	struct dmc_event_ring *r = &dmc_ring, n = {};
	struct dmc_event_rec *rec;
	unsigned int i, keep, skip, off = 0;
	size_t bytes = 0;
	char *old_data;
	u32 *old_offs;

	if (!capacity || capacity > DMC_EVENT_LOG_MAX) {
		pr_err_ratelimited("dmcore: event log capacity %u out of range 1..%u\n",
				   capacity, DMC_EVENT_LOG_MAX);
		return -EINVAL;
	}
	if (dmc_event_ring_alloc(&n, capacity))
		return -ENOMEM;

	mutex_lock(&dmc_event_mutex);
	spin_lock(&dmc_ring_lock);
	/* The newest events that fit, copied to the new rings oldest first. */
	for (keep = 0; keep < min(r->count, capacity); keep++) {
		rec = dmc_ring_rec(r, r->count - 1 - keep);
		if (bytes + rec->size > n.bytes)
			break;
		bytes += rec->size;
	}
	skip = r->count - keep;
	for (i = 0; i < keep; i++) {
		rec = dmc_ring_rec(r, skip + i);
		memcpy(n.data + off, rec, rec->size);
		n.offs[i] = off;
		off += rec->size;
	}
	old_offs = r->offs;
	old_data = r->data;
	r->offs = n.offs;
	r->data = n.data;
	r->bytes = n.bytes;
	r->capacity = capacity;
	r->head = 0;
	r->count = keep;
	r->tail = off;
	r->dropped += skip;
	spin_unlock(&dmc_ring_lock);
	mutex_unlock(&dmc_event_mutex);
	kvfree(old_offs);
	kvfree(old_data);
	return 0;
}
EXPORT_SYMBOL_GPL(dmc_event_log_set_capacity);

int dmc_event_init(unsigned int capacity)
{
	if (!capacity || capacity > DMC_EVENT_LOG_MAX)
		capacity = DMC_EVENT_LOG_DEFAULT;
	return dmc_event_ring_alloc(&dmc_ring, capacity);
}

void dmc_event_exit(void)
{
	struct dmc_event_ring *r = &dmc_ring;
	int cpu;

	dmc_listener_exit();
	for_each_possible_cpu(cpu)
		kfree(per_cpu(dmc_env_spare, cpu));
	kvfree(r->offs);
	kvfree(r->data);
	memset(r, 0, sizeof(*r));
}
