/* C++ fork-join tasks of <adapt/stl.hpp> on the runtime's spawn/sync
 * (<adapt/tasks.h>): adapt::task_group and adapt::parallel_invoke, with
 * exceptions carried to the waiting thread. docs/stl.md is the guide. */
#ifndef ADAPT_STL_TASK_GROUP_HPP
#define ADAPT_STL_TASK_GROUP_HPP

#include <exception>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include <adapt/tasks.h>
#include <adapt/stl/detail.hpp>
#include <adapt/stl/policy.hpp>

namespace adapt {

/* A group of tasks run in parallel with the thread that created them:
 *
 *   adapt::task_group g;
 *   g.run([&] { left = work(a); });   // may run on another worker
 *   g.run([&] { right = work(b); });
 *   mid = work(c);                     // meanwhile, here
 *   g.wait();                          // left and right are ready
 *
 * run(f) spawns a copy of f (moved when f is an rvalue) on the calling
 * worker's deque, where an idle worker may steal it (child stealing: the
 * caller goes on; when the deque already holds ADAPT_SPAWN_KEEP tasks for
 * thieves, on a worker no thief can reach, or when it is full, f runs at
 * once, inside run, as adapt_spawn's task does; its exception still
 * waits for wait()).
 * wait() runs the group's tasks still in the deque, steals other work
 * until the stolen ones have finished, then rethrows the first exception a
 * task threw (the others are dropped; tasks not started once one has
 * thrown, or after cancel(), are skipped). After wait() the group is empty and can run again.
 * Errors: adapt::error (std::system_error) when the runtime fails (ENOMEM,
 * adapt_init's errors) or on misuse (EINVAL: run or wait from a thread
 * other than the one that ran the group's first task since its last wait;
 * groups waited out of order).
 * Calling context: any thread; the runtime starts lazily. Groups nest as
 * the C scopes do: a task may create and wait a group of its own; a group
 * created after another on the same thread, and run, is waited first.
 * Thread-safety: one thread uses a group (run, wait); the tasks run
 * concurrently and must synchronise what they share.
 * Ownership: the group owns the copies of the functions until wait.
 * The destructor waits for tasks not waited for and drops their
 * exception (call wait() to see it). Not copyable nor movable.
 * Not guaranteed: which worker runs a task, the order of the tasks. */
class task_group {
public:
  task_group() = default;
  task_group(const task_group &) = delete;
  task_group &operator=(const task_group &) = delete;
  ~task_group() {
    if (open_) (void)adapt_sync(&scope_);
  }

  template <class F>
  void run(F &&f) {
    using Fn = std::decay_t<F>;
    static_assert(std::is_invocable_v<Fn &>, "adapt::task_group::run: f must be callable as f()");
    if (!open_) {
      int rc = adapt_scope_begin(&scope_);
      if (rc != 0) throw error(rc, adapt_last_error());
      open_ = true;
    }
    tasks_.push_back(std::make_unique<task<Fn>>(this, std::forward<F>(f)));
    int rc = adapt_spawn(&scope_, &task<Fn>::invoke, tasks_.back().get());
    if (rc != 0) {
      tasks_.pop_back(); /* not spawned */
      throw error(rc, "adapt::task_group::run: adapt_spawn failed (another thread's group?)");
    }
  }

  /* Tasks of the group not started yet are skipped (those running
   * finish); wait() is still needed. Thread-safe (a task may call it). */
  void cancel() noexcept { fail_.failed.store(true, std::memory_order_relaxed); }

  void wait() {
    if (open_) {
      int rc = adapt_sync(&scope_);
      if (rc != 0) throw error(rc, "adapt::task_group::wait: adapt_sync failed (out of order?)");
      open_ = false;
    }
    tasks_.clear();
    std::exception_ptr e = std::move(fail_.exc);
    fail_.exc = nullptr;
    /* relaxed: every task has finished (adapt_sync returned) */
    fail_.failed.store(false, std::memory_order_relaxed);
    if (e) std::rethrow_exception(e);
  }

private:
  struct task_base {
    virtual ~task_base() = default;
  };
  template <class Fn>
  struct task : task_base {
    task_group *g;
    Fn fn;
    template <class F>
    task(task_group *grp, F &&f) : g(grp), fn(std::forward<F>(f)) {}
    static void invoke(void *p) noexcept {
      auto *t = static_cast<task *>(p);
      if (t->g->fail_.stopped()) return;
      try {
        t->fn();
      } catch (...) {
        t->g->fail_.capture(false);
      }
    }
  };

  adapt_scope scope_{};
  bool open_ = false;
  std::vector<std::unique_ptr<task_base>> tasks_;
  detail::failure fail_;
};

/* Calls f1(), f2(), ... in parallel (f1 on the calling thread, the others
 * spawned) and returns when all have returned; rethrows the first
 * exception one threw, after all have finished or been skipped. The
 * functions are taken by reference (no copies). Errors, calling context:
 * as task_group. */
template <class F1, class... Fs>
void parallel_invoke(F1 &&f1, Fs &&...fs) {
  static_assert((std::is_invocable_v<F1 &> && ... && std::is_invocable_v<Fs &>),
                "adapt::parallel_invoke: every argument must be callable as f()");
  task_group g;
  (g.run([&fs] { fs(); }), ...);
  std::exception_ptr first;
  try {
    f1();
  } catch (...) {
    first = std::current_exception();
    g.cancel();
  }
  if (!first) return g.wait();
  try {
    g.wait();
  } catch (...) { /* f1's exception comes first */
  }
  std::rethrow_exception(first);
}

} // namespace adapt

#endif /* ADAPT_STL_TASK_GROUP_HPP */
