// Early return on an error status, so that a function reads as its happy path: the one spelling
// of "if this failed, hand the failure to my caller" for every layer. Header only (macros over
// Abseil's Status and StatusOr), so that any layer may include it without linking anything.
#ifndef NSXALB_PLUGIN_COMMON_STATUS_MACROS_H_
#define NSXALB_PLUGIN_COMMON_STATUS_MACROS_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

// Evaluates `expr` (an absl::Status) once and returns it from the enclosing function when it is
// not OK. The enclosing function returns absl::Status or any absl::StatusOr<T>.
#define NSXALB_RETURN_IF_ERROR(expr)                                    \
  do {                                                                  \
    if (::absl::Status nsxalb_status_ = (expr); !nsxalb_status_.ok()) { \
      return nsxalb_status_;                                            \
    }                                                                   \
  } while (false)

#define NSXALB_STATUS_MACROS_CONCAT_INNER_(a, b) a##b
#define NSXALB_STATUS_MACROS_CONCAT_(a, b) NSXALB_STATUS_MACROS_CONCAT_INNER_(a, b)

// Evaluates `expr` (an absl::StatusOr<T>) once; returns its status from the enclosing function
// when it is not OK, and otherwise moves its value into `lhs`, which may declare a variable:
//   NSXALB_ASSIGN_OR_RETURN(Json body, ParseJson(text));
// Expands to more than one statement: not for the body of an unbraced if or loop.
#define NSXALB_ASSIGN_OR_RETURN(lhs, expr) \
  NSXALB_ASSIGN_OR_RETURN_IMPL_(NSXALB_STATUS_MACROS_CONCAT_(nsxalb_statusor_, __LINE__), lhs, expr)

// `statusor` is a name made above, and `lhs` may be a declaration ("Json body"), which
// parentheses would break: bugprone-macro-parentheses does not apply.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define NSXALB_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, expr) \
  auto statusor = (expr);                                  \
  if (!statusor.ok()) return std::move(statusor).status(); \
  lhs = *std::move(statusor)
// NOLINTEND(bugprone-macro-parentheses)

#endif  // NSXALB_PLUGIN_COMMON_STATUS_MACROS_H_
