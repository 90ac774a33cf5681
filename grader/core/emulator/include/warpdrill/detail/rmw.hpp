// Non-atomic read-modify-writes of memory: `count[0] += 1;`, `hist[b]++`, `s[0] = s[0] + x`, `*p -= v`.
// The rewriter (rmw.py) wraps their target in ::wd::wd_rmw(...): the wrapper loads the word, asks
// the runtime whether another thread may run between this load and the store (src/rmw.cpp), and
// stores. A switch there is a schedule the hardware can take too (the load and the store are two
// instructions), so a kernel without races computes what it computed before, and one whose
// threads update one word without atomics loses updates in a plain run as it does on a GPU.
#pragma once
#include <type_traits>

namespace wd {
namespace detail {
// The thread has loaded *p for a read-modify-write and is about to store it (src/rmw.cpp).
void rmw_point(const volatile void* p);
template <class T>
constexpr bool rmw_arithmetic = std::is_arithmetic<typename std::remove_cv<T>::type>::value &&
                                !std::is_same<typename std::remove_cv<T>::type, bool>::value;
// Stores `value` (converted as the built-in assignment converts it) and gives what the built-in
// operator gives: the target, or for a volatile one the value stored (a volatile lvalue discarded
// by the student's statement would draw a warning, and reading it back would be another access).
template <class T, class U>
constexpr decltype(auto) rmw_store(T* p, const U& value) {
  if constexpr (std::is_volatile<T>::value) {
    typename std::remove_cv<T>::type stored = value;
    *p = stored;
    return stored;
  } else {
    *p = value;
    return static_cast<T&>(*p);
  }
}
}  // namespace detail

// The target of a read-modify-write (an lvalue of the student's code). Arithmetic targets get the
// switch point; anything else (half precision, pointers, classes, bool) keeps its own operator.
// The right operand is taken by value: it is read before the target, as the built-in operator does.
template <class T>
struct wd_rmw_ref {
  T* p;
#define WD_RMW_OP(op)                                          \
  template <class V>                                           \
  constexpr decltype(auto) operator op##=(V v) const {         \
    if constexpr (detail::rmw_arithmetic<T>) {                 \
      typename std::remove_cv<T>::type old = *p;               \
      if (!__builtin_is_constant_evaluated()) detail::rmw_point(p); \
      return detail::rmw_store(p, old op v);                   \
    } else {                                                   \
      return *p op##= v;                                       \
    }                                                          \
  }
  WD_RMW_OP(+) WD_RMW_OP(-) WD_RMW_OP(*) WD_RMW_OP(/) WD_RMW_OP(%) WD_RMW_OP(&) WD_RMW_OP(|) WD_RMW_OP(^)
  WD_RMW_OP(<<) WD_RMW_OP(>>)
#undef WD_RMW_OP
#define WD_RMW_STEP(op, arith)                                 \
  constexpr decltype(auto) operator op() const {               \
    if constexpr (detail::rmw_arithmetic<T>) {                 \
      typename std::remove_cv<T>::type old = *p;               \
      if (!__builtin_is_constant_evaluated()) detail::rmw_point(p); \
      return detail::rmw_store(p, old arith 1);                \
    } else {                                                   \
      return op *p;                                            \
    }                                                          \
  }                                                            \
  constexpr decltype(auto) operator op(int) const {            \
    if constexpr (detail::rmw_arithmetic<T>) {                 \
      typename std::remove_cv<T>::type old = *p;               \
      if (!__builtin_is_constant_evaluated()) detail::rmw_point(p); \
      detail::rmw_store(p, old arith 1);                       \
      return old;                                              \
    } else {                                                   \
      return (*p) op;                                          \
    }                                                          \
  }
  WD_RMW_STEP(++, +) WD_RMW_STEP(--, -)
#undef WD_RMW_STEP
  // `x = x op y` (rmw.py wraps the left x): the right side, with its load of x, is evaluated first.
  template <class V>
  constexpr decltype(auto) operator=(V v) const {
    if constexpr (detail::rmw_arithmetic<T>) {
      if (!__builtin_is_constant_evaluated()) detail::rmw_point(p);
      return detail::rmw_store(p, v);
    } else {
      return *p = v;
    }
  }
};
template <class T>
constexpr wd_rmw_ref<T> wd_rmw(T& target) { return wd_rmw_ref<T>{&target}; }
}  // namespace wd
