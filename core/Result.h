// Result<T>: a [[nodiscard]] value-or-Error shaped like std::expected (C++23), for C++20.
#pragma once

#include <cstdlib>
#include <type_traits>
#include <utility>
#include <optional>
#include <variant>

#include "core/Error.h"

namespace openflint {

// Wraps an Error so Result<T> can be built from it unambiguously (like std::unexpected).
struct Unexpected {
  Error error;
};

[[nodiscard]] inline Unexpected make_error(ErrorCode code, std::string message) {
  return Unexpected{Error(code, std::move(message))};
}
[[nodiscard]] inline Unexpected make_error(Error error) { return Unexpected{std::move(error)}; }

template <typename T>
class [[nodiscard]] Result {
 public:
  using value_type = T;

  Result(const T& value) : state_(std::in_place_index<0>, value) {}        // NOLINT(implicit)
  Result(T&& value) : state_(std::in_place_index<0>, std::move(value)) {}  // NOLINT(implicit)
  template <typename U>
    requires(std::is_constructible_v<T, U &&> && !std::is_same_v<std::decay_t<U>, T> &&
             !std::is_same_v<std::decay_t<U>, Unexpected> &&
             !std::is_same_v<std::decay_t<U>, Result<T>>)
  Result(U&& value) : state_(std::in_place_index<0>, T(std::forward<U>(value))) {}  // NOLINT
  Result(Unexpected unexpected)                                                    // NOLINT
      : state_(std::in_place_index<1>, std::move(unexpected.error)) {}

  [[nodiscard]] bool has_value() const { return state_.index() == 0; }
  explicit operator bool() const { return has_value(); }

  [[nodiscard]] T& value() & { return checked(); }
  [[nodiscard]] const T& value() const& { return const_cast<Result*>(this)->checked(); }
  [[nodiscard]] T&& value() && { return std::move(checked()); }
  T& operator*() & { return checked(); }
  const T& operator*() const& { return const_cast<Result*>(this)->checked(); }
  T&& operator*() && { return std::move(checked()); }
  T* operator->() { return &checked(); }
  const T* operator->() const { return &const_cast<Result*>(this)->checked(); }

  [[nodiscard]] const Error& error() const& {
    if (has_value()) std::abort();  // programming error: asked for the error of a success
    return std::get<1>(state_);
  }
  [[nodiscard]] Error&& error() && {
    if (has_value()) std::abort();
    return std::get<1>(std::move(state_));
  }

 private:
  T& checked() {
    if (!has_value()) std::abort();  // programming error: used a failed Result's value
    return std::get<0>(state_);
  }
  std::variant<T, Error> state_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Unexpected unexpected) : error_(std::move(unexpected.error)) {}  // NOLINT(implicit)

  [[nodiscard]] bool has_value() const { return !error_.has_value(); }
  explicit operator bool() const { return has_value(); }
  void value() const {
    if (!has_value()) std::abort();
  }
  [[nodiscard]] const Error& error() const& {
    if (has_value()) std::abort();
    return *error_;
  }
  [[nodiscard]] Error&& error() && {
    if (has_value()) std::abort();
    return std::move(*error_);
  }

 private:
  std::optional<Error> error_;
};

// Propagates the error of `expr` (a Result) to the caller, adding no context.
#define OF_TRY(expr)                                                   \
  do {                                                                 \
    if (auto of_try_result_ = (expr); !of_try_result_.has_value())     \
      return ::openflint::make_error(std::move(of_try_result_).error()); \
  } while (0)

// Propagates the error of `expr` (a Result) to the caller with `context` added in front of its
// message ("context: message"; Error::with_context).
#define OF_TRY_CTX(expr, context)                                                       \
  do {                                                                                  \
    if (auto of_try_result_ = (expr); !of_try_result_.has_value())                      \
      return ::openflint::make_error(std::move(of_try_result_).error().with_context(context)); \
  } while (0)

// Declares `var` from a Result expression or returns its error.
#define OF_CONCAT_INNER(a, b) a##b
#define OF_CONCAT(a, b) OF_CONCAT_INNER(a, b)
#define OF_ASSIGN(var, expr) OF_ASSIGN_IMPL(OF_CONCAT(of_assign_, __LINE__), var, expr)
#define OF_ASSIGN_IMPL(tmp, var, expr)                          \
  auto tmp = (expr);                                            \
  if (!tmp.has_value()) return ::openflint::make_error(std::move(tmp).error()); \
  var = std::move(tmp).value()

// OF_ASSIGN with `context` added to the error's message.
#define OF_ASSIGN_CTX(var, expr, context) OF_ASSIGN_CTX_IMPL(OF_CONCAT(of_assign_, __LINE__), var, expr, context)
#define OF_ASSIGN_CTX_IMPL(tmp, var, expr, context)                                          \
  auto tmp = (expr);                                                                         \
  if (!tmp.has_value()) return ::openflint::make_error(std::move(tmp).error().with_context(context)); \
  var = std::move(tmp).value()

}  // namespace openflint
