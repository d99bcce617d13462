/* Execution policy and error type of the C++ front end (<adapt/stl.hpp>
 * includes this header; docs/stl.md is the guide). */
#ifndef ADAPT_STL_POLICY_HPP
#define ADAPT_STL_POLICY_HPP

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <string>
#include <system_error>

#include <adapt/adapt.h>
#include <adapt/loop.h>

namespace adapt {

/* Window modes (<adapt/loop.h>, adapt_window_mode): default_ takes
 * ADAPT_WINDOW from the environment (else none). */
enum class window {
  default_ = ADAPT_WINDOW_DEFAULT,
  none = ADAPT_WINDOW_NONE,
  static_ = ADAPT_WINDOW_STATIC,
  sliding = ADAPT_WINDOW_SLIDING
};

/* Sliding-window splitters (adapt_window_splitter). */
enum class splitter {
  default_ = ADAPT_SPLITTER_DEFAULT,
  local = ADAPT_SPLITTER_LOCAL,
  distant = ADAPT_SPLITTER_DISTANT,
  balanced = ADAPT_SPLITTER_BALANCED
};

/* Loop schedulers (adapt_sched); they apply to the maps and the searches
 * (for_each, for_each_n, transform, fill, generate, find, find_if, any_of,
 * all_of, none_of); the other algorithms merge partial results in sequence
 * order and always use the adaptive protocol. */
enum class sched {
  default_ = ADAPT_SCHED_DEFAULT,
  adaptive = ADAPT_SCHED_ADAPTIVE,
  loopframe = ADAPT_SCHED_LOOPFRAME,
  dac = ADAPT_SCHED_DAC,
  hybrid = ADAPT_SCHED_HYBRID,
  lazy_df = ADAPT_SCHED_LAZY_DF,
  lazy_df2 = ADAPT_SCHED_LAZY_DF2,
  lazy_bf = ADAPT_SCHED_LAZY_BF,
  static_ = ADAPT_SCHED_STATIC
};

/* A cancellation token: a flag a caller sets from outside the calls that
 * watch it (policy::cancel_with). cancel() from any thread stops every
 * running call whose policy names the token, and every later one, until
 * reset(): such a call sees the flag before each of its chunks (the sorts:
 * before each partition step, leaf sort and merge) and then throws
 * adapt::error (ECANCELED) once every worker has left it; at most about
 * one grain per worker starts after the flag is seen, the chunks already
 * running finish, each element is visited at most once and the outputs
 * hold unspecified (valid) values. A call that finished before it saw the
 * flag returns normally. Not copyable (calls hold its address: it must
 * outlive them). Thread-safe. */
class cancel_token {
public:
  cancel_token() = default;
  cancel_token(const cancel_token &) = delete;
  cancel_token &operator=(const cancel_token &) = delete;

  /* Stops the calls watching the token. Any thread, any number of times. */
  void cancel() noexcept {
    /* relaxed: a hint the chunks poll; what they wrote is ordered for the
     * caller by the end of the call (the runtime's join). */
    flag_.store(true, std::memory_order_relaxed);
  }
  /* Lets later calls run again; call it when no call watches the token. */
  void reset() noexcept { flag_.store(false, std::memory_order_relaxed); }
  /* True once cancel() was called (until reset()); relaxed, as cancel(). */
  bool cancelled() const noexcept { return flag_.load(std::memory_order_relaxed); }

private:
  std::atomic<bool> flag_{false};
};

namespace detail {
/* The C attributes of a call and the policy's token (nullptr: none). */
struct call_attr : adapt_attr {
  const cancel_token *token;
};
} // namespace detail

/* An execution policy: the attributes of one call. A literal value type;
 * every modifier returns a modified copy, so policies compose:
 *   adapt::par.window(adapt::window::sliding, 1 << 16).grain(256)
 * Sizes are in elements. Thread-safe (a value). */
class policy {
public:
  constexpr policy() = default;

  /* Window mode and window size m in elements (0: ADAPT_WINDOW_SIZE, else
   * shared cache / (2 * footprint)). */
  constexpr policy window(adapt::window mode, std::size_t m = 0) const {
    return with(&policy::mode_, mode).with(&policy::window_size_, m);
  }
  /* Sliding-window splitter. */
  constexpr policy splitter(adapt::splitter s) const { return with(&policy::splitter_, s); }
  /* Scheduler of the maps and searches (see adapt::sched). A scheduler other
   * than adaptive with a window mode other than none makes those calls
   * throw adapt::error (ENOTSUP). */
  constexpr policy sched(adapt::sched s) const { return with(&policy::sched_, s); }
  /* Elements per chunk (between two steal points; the smallest stolen
   * piece); 0: ADAPT_GRAIN, else calibrated (chunks of about 2 us). Also the
   * bound of cancellation: at most about one grain per worker runs after a
   * body throws. */
  constexpr policy grain(std::size_t g) const { return with(&policy::grain_, g); }
  /* Bytes one element touches, for the default window size (0: the element
   * sizes of the call). */
  constexpr policy footprint(std::size_t bytes) const { return with(&policy::footprint_, bytes); }
  /* Scans only (inclusive_scan, exclusive_scan): true (the default) gives
   * the same result for any number of workers and any schedule, floating
   * point included (fixed blocks: each block's outputs chain from its
   * prefix, the prefixes fold fixed block sums), at the price of one more
   * application of the operation per element on the calling thread, off
   * the dependency chain (the block sum); false lets the calling thread
   * fold sequentially (std's expression) and makes floating-point results
   * depend on where pieces were stolen. reduce and transform_reduce are
   * always deterministic. */
  constexpr policy deterministic(bool on) const { return with(&policy::deterministic_, on); }
  /* At most k distinct workers (the calling thread's included) take part
   * in each call under this policy; the others stay free for other callers
   * (adapt_attr.max_workers). Parallel calls nested in its element
   * functions keep to the same workers. 0 (the default): all workers. */
  constexpr policy workers(unsigned k) const { return with(&policy::workers_, k); }

  constexpr adapt::window window_mode() const { return mode_; }
  constexpr std::size_t window_size() const { return window_size_; }
  constexpr adapt::splitter splitter_kind() const { return splitter_; }
  constexpr adapt::sched scheduler() const { return sched_; }
  constexpr std::size_t grain_size() const { return grain_; }
  constexpr std::size_t footprint_bytes() const { return footprint_; }
  /* The limit of workers(k), else 0. */
  constexpr unsigned max_workers() const { return workers_; }
  /* Calls under this policy stop when token.cancel() is called (see
   * adapt::cancel_token); the token must outlive them. */
  constexpr policy cancel_with(const cancel_token &token) const {
    return with(&policy::token_, &token);
  }

  constexpr bool is_deterministic() const { return deterministic_; }
  /* The token of cancel_with, else nullptr. */
  constexpr const cancel_token *token() const { return token_; }

  /* The C attributes of a call whose units hold `per_unit` elements each
   * (grain and window converted to units, rounded up, footprint scaled);
   * `with_sched` false leaves the scheduler at the default (calls that
   * merge in sequence order); with the policy's worker limit and cancel
   * token. */
  detail::call_attr attr(std::size_t per_unit = 1, bool with_sched = true) const {
    detail::call_attr a{};
    a.grain = grain_ ? (grain_ + per_unit - 1) / per_unit : 0;
    a.sched = with_sched ? static_cast<adapt_sched>(sched_) : ADAPT_SCHED_DEFAULT;
    a.window = static_cast<adapt_window_mode>(mode_);
    a.window_size = window_size_ ? (window_size_ + per_unit - 1) / per_unit : 0;
    a.splitter = static_cast<adapt_window_splitter>(splitter_);
    a.footprint = footprint_ * per_unit;
    a.max_workers = workers_;
    a.token = token_;
    return a;
  }

private:
  /* A copy with one attribute changed: what every modifier returns. */
  template <class T>
  constexpr policy with(T policy::*field, T value) const {
    policy p = *this;
    p.*field = value;
    return p;
  }

  adapt::window mode_ = adapt::window::default_;
  std::size_t window_size_ = 0;
  adapt::splitter splitter_ = adapt::splitter::default_;
  adapt::sched sched_ = adapt::sched::default_;
  std::size_t grain_ = 0;
  std::size_t footprint_ = 0;
  bool deterministic_ = true;
  unsigned workers_ = 0;
  const cancel_token *token_ = nullptr;
};

/* The default policy: defaults and environment (ADAPT_WINDOW, ADAPT_GRAIN,
 * ADAPT_SCHED, ...), deterministic scans. */
inline constexpr policy par{};

/* Thrown by an algorithm when the runtime fails (not for exceptions of your
 * element functions, which are rethrown as they are): code() is the errno
 * value (e.g. EINVAL for a bad attribute or environment value, ENOTSUP for
 * a scheduler with a window mode, ENOMEM, ECANCELED when a body called
 * adapt_cancel itself or the policy's cancel_token stopped the call) in
 * std::generic_category(); what() has the runtime's detail
 * (adapt_last_error()). */
class error : public std::system_error {
public:
  error(int rc, const std::string &detail)
      : std::system_error(rc < 0 ? -rc : rc, std::generic_category(), detail) {}
};

} // namespace adapt

#endif /* ADAPT_STL_POLICY_HPP */
