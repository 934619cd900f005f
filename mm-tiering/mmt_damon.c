// SPDX-License-Identifier: GPL-2.0
/*
 * mm_tiering DAMON access layer: resolve unexported symbols at load time.
 *
 * mm/damon exports nothing, so a module cannot link against damon_start()
 * and friends.  For each function we need, a kprobe is registered disabled
 * (it is never armed: registration only looks the symbol up and checks that
 * it is kernel text), all are unregistered together once every address is
 * known, and each address is then installed as the target of a static call.
 *
 * Why static calls and not function pointers: with CONFIG_X86_KERNEL_IBT
 * (Debian's default) the kernel seals every function whose address is never
 * taken in the kernel image by overwriting its ENDBR instruction at boot.  An
 * indirect call into such a function raises #CP and oopses on IBT hardware.
 * static_call_update() patches each call site into a direct CALL, which IBT
 * does not check.  Only this file touches symbol addresses; the rest of the
 * module uses mmt_call(fn)(...).  See Documentation/design.rst.
 */
#define pr_fmt(fmt) "mm_tiering: " fmt

#include <linux/kprobes.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/static_call.h>
#include <linux/uaccess.h>
#include <asm/ibt.h>

#include "mmt_compat.h"
#include "mmt_damon.h"

#define MMT_FN(fn) DEFINE_STATIC_CALL_NULL(mmt_##fn, fn)
#include "mmt_damon_funcs.h"
#undef MMT_FN

/* Optional: read to warn about NUMA balancing; absent means "unknown". */
static int *mmt_numa_balancing_ptr;
DEFINE_STATIC_CALL_NULL(mmt_kallsyms_lookup_name, kallsyms_lookup_name);

/*
 * The look-up's kprobes: one per function of mmt_damon_funcs.h, plus
 * kallsyms_lookup_name.  All are registered
 * disabled (never armed) and unregistered together: each unregistration
 * waits for an RCU grace period, one batch waits for one (one each was
 * seconds per load under TCG with the debug kernel's checks).
 */
struct mmt_probes {
#define MMT_FN(fn) struct kprobe fn
#include "mmt_damon_funcs.h"
#undef MMT_FN
	struct kprobe kallsyms_lookup_name;
};

#define MMT_NR_PROBES (sizeof(struct mmt_probes) / sizeof(struct kprobe))

/* Register every probe of @pr (@nr of them into @reg), naming failures. */
static void mmt_probe_all(struct mmt_probes *pr, struct kprobe **reg, int *nr)
{
	struct kprobe *kp = (struct kprobe *)pr;
	int i;

#define MMT_FN(fn) (pr->fn.symbol_name = #fn)
#include "mmt_damon_funcs.h"
#undef MMT_FN
	pr->kallsyms_lookup_name.symbol_name = "kallsyms_lookup_name";
	*nr = 0;
	for (i = 0; i < MMT_NR_PROBES; i++) {
		int err;

		kp[i].flags = KPROBE_FLAG_DISABLED;
		err = register_kprobe(&kp[i]);
		if (!err) {
			reg[(*nr)++] = &kp[i];
			continue;
		}
		kp[i].addr = NULL;
		if (&kp[i] == &pr->kallsyms_lookup_name)
			continue;	/* optional */
		/* -ENOENT: no such symbol; else found but not probeable */
		if (err == -ENOENT)
			pr_err("cannot resolve DAMON symbol %s\n",
			       kp[i].symbol_name);
		else
			pr_err("cannot look up DAMON symbol %s: kprobe registration failed (%d)\n",
			       kp[i].symbol_name, err);
	}
}

/*
 * The start of the function whose kprobe address is @addr.  Where the
 * kernel has IBT, a kprobe on a function's entry stands just past its
 * ENDBR, or the NOP that seals it (arch_adjust_kprobe_addr()); calls must
 * go to the function itself: with call-depth tracking (retbleed=stuff) the
 * kernel finds a callee's accounting thunk by the callee's start.  The 4
 * bytes before a function without ENDBR are padding, never ENDBR.
 */
static void *mmt_fn_start(void *addr)
{
#ifdef CONFIG_X86_KERNEL_IBT
	u32 insn;

	if (!copy_from_kernel_nofault(&insn, addr - 4, sizeof(insn)) &&
	    (insn == gen_endbr_poison() ||
	     (insn & ~0x01000000U) == gen_endbr()))	/* ENDBR32 too */
		return addr - 4;
#endif
	return addr;
}

/**
 * mmt_damon_resolve() - point every static call at its DAMON function.
 *
 * Return: 0, or -ENOENT after naming each missing symbol in the log; then
 * no static call was updated and the module must not load.
 */
int mmt_damon_resolve(void)
{
	struct kprobe *reg[MMT_NR_PROBES];
	struct mmt_probes *pr;
	int missing = 0, nr;

	pr = kzalloc_obj(*pr);
	if (!pr)
		return -ENOMEM;
	mmt_probe_all(pr, reg, &nr);
	/* each address stays in its kprobe (NULL if it could not be removed) */
	if (nr)
		unregister_kprobes(reg, nr);
#define MMT_FN(fn) (missing += !pr->fn.addr)
#include "mmt_damon_funcs.h"
#undef MMT_FN
	if (missing) {
		pr_err("%d symbol(s) missing: this kernel lacks CONFIG_DAMON_PADDR or has an incompatible DAMON; not loading\n",
		       missing);
		kfree(pr);
		return -ENOENT;
	}
#define MMT_FN(fn) __static_call_update(&STATIC_CALL_KEY(mmt_##fn), \
					STATIC_CALL_TRAMP_ADDR(mmt_##fn), \
					mmt_fn_start(pr->fn.addr))
#include "mmt_damon_funcs.h"
#undef MMT_FN
	if (pr->kallsyms_lookup_name.addr) {
		static_call_update(mmt_kallsyms_lookup_name,
				   (typeof(&kallsyms_lookup_name))
				   mmt_fn_start(pr->kallsyms_lookup_name.addr));
		mmt_numa_balancing_ptr = (int *)static_call(
			mmt_kallsyms_lookup_name)("sysctl_numa_balancing_mode");
	}
	kfree(pr);
	return 0;
}

/* NUMA balancing mode (the numa_balancing sysctl), or -1 if unknown. */
int mmt_numa_balancing_mode(void)
{
	return mmt_numa_balancing_ptr ? READ_ONCE(*mmt_numa_balancing_ptr) : -1;
}

/*
 * Early 6.12.y kernels have neither damon_is_running() nor
 * damon_kdamond_pid(): the same reads, under the lock they take.
 */
#ifndef MMT_HAVE_DAMON_IS_RUNNING
bool mmt_damon_is_running(struct damon_ctx *ctx)
{
	bool running;

	mutex_lock(&ctx->kdamond_lock);
	running = ctx->kdamond != NULL;
	mutex_unlock(&ctx->kdamond_lock);
	return running;
}
#endif

#ifndef MMT_HAVE_DAMON_KDAMOND_PID
int mmt_damon_kdamond_pid(struct damon_ctx *ctx)
{
	int pid = -EINVAL;

	mutex_lock(&ctx->kdamond_lock);
	if (ctx->kdamond)
		pid = ctx->kdamond->pid;
	mutex_unlock(&ctx->kdamond_lock);
	return pid;
}
#endif
