// Implementation of cty numbers: parsing to and printing of the canonical decimal text.
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "plugin/cty/value.h"

namespace nsxalb::cty {
namespace {

// Largest decimal exponent accepted when parsing; far beyond anything real and small enough that
// exponent arithmetic never overflows.
constexpr int64_t kMaxExponent = 1000000000;

// Parses decimal text into canonical form: [-+]? (digits [. digits?] | . digits) ([eE][-+]?digits)?
// or an infinity. Returns nullopt when the text is not such a number.
std::optional<std::string> Canonicalize(std::string_view text) {
  size_t pos = 0;
  bool negative = false;
  if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) {
    negative = text[pos] == '-';
    ++pos;
  }
  std::string rest = absl::AsciiStrToLower(std::string(text.substr(pos)));
  if (rest == "inf" || rest == "infinity") return std::string(negative ? "-Inf" : "Inf");

  std::string digits;        // all mantissa digits, leading zeros dropped
  int64_t fraction_len = 0;  // how many of the mantissa digits came after the point
  bool any_digit = false;
  bool seen_point = false;
  for (; pos < text.size(); ++pos) {
    char c = text[pos];
    if (c >= '0' && c <= '9') {
      any_digit = true;
      if (seen_point) ++fraction_len;
      if (!digits.empty() || c != '0') digits.push_back(c);
    } else if (c == '.' && !seen_point) {
      seen_point = true;
    } else {
      break;
    }
  }
  if (!any_digit) return std::nullopt;
  int64_t exponent = 0;
  if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
    ++pos;
    bool exp_negative = false;
    if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) {
      exp_negative = text[pos] == '-';
      ++pos;
    }
    bool exp_digit = false;
    for (; pos < text.size() && text[pos] >= '0' && text[pos] <= '9'; ++pos) {
      exp_digit = true;
      exponent = exponent * 10 + (text[pos] - '0');
      if (exponent > kMaxExponent) return std::nullopt;
    }
    if (!exp_digit) return std::nullopt;
    if (exp_negative) exponent = -exponent;
  }
  if (pos != text.size()) return std::nullopt;
  if (digits.empty()) return std::string("0");

  // Leading zeros of the fraction were dropped from `digits` but still count in fraction_len.
  // value = digits * 10^(exponent - fraction_len); strip trailing zeros into the exponent.
  int64_t scale = exponent - fraction_len;
  while (digits.size() > 1 && digits.back() == '0') {
    digits.pop_back();
    ++scale;
  }
  const int64_t n = static_cast<int64_t>(digits.size());
  const int64_t x = scale + n - 1;  // exponent of the first digit
  std::string out = negative ? "-" : "";
  if (x > -7 && x < 21) {
    if (x >= 0) {
      if (n <= x + 1) {
        out += digits;
        out.append(static_cast<size_t>(x + 1 - n), '0');
      } else {
        out.append(digits, 0, static_cast<size_t>(x + 1));
        out += '.';
        out.append(digits, static_cast<size_t>(x + 1), std::string::npos);
      }
    } else {
      out += "0.";
      out.append(static_cast<size_t>(-x - 1), '0');
      out += digits;
    }
  } else {
    out += digits[0];
    if (n > 1) {
      out += '.';
      out.append(digits, 1, std::string::npos);
    }
    absl::StrAppend(&out, "e", x > 0 ? "+" : "-", x > 0 ? x : -x);
  }
  return out;
}

// Whether canonical decimal text (finite, not NaN) names a value a double holds exactly, decided
// with integer arithmetic when its significant digits fit 128 bits; nullopt when they do not.
// value = M * 10^s = odd * 2^a * 5^s * 2^s: exact iff, for s >= 0, odd * 5^s < 2^53, and for
// s < 0, 5^-s divides odd and odd / 5^-s < 2^53 (the binary exponents stay in range for such M).
std::optional<bool> ExactlyRepresentable(std::string_view canonical) {
  unsigned __int128 m = 0;
  int digits = 0;
  int64_t scale = 0;
  bool point = false;
  size_t pos = !canonical.empty() && canonical[0] == '-' ? 1 : 0;
  for (; pos < canonical.size(); ++pos) {
    const char c = canonical[pos];
    if (c == '.') {
      point = true;
    } else if (c >= '0' && c <= '9') {
      if (m == 0 && c == '0') {
        if (point) --scale;
        continue;
      }
      if (++digits > 38) return std::nullopt;
      m = m * 10 + static_cast<unsigned>(c - '0');
      if (point) --scale;
    } else {
      break;
    }
  }
  if (pos < canonical.size()) {  // "e+N" or "e-N"
    int64_t exponent = 0;
    const std::string_view text = canonical.substr(pos + 1);
    if (!absl::SimpleAtoi(absl::string_view(text.data(), text.size()), &exponent)) {
      return std::nullopt;
    }
    scale += exponent;
  }
  if (m == 0) return true;
  constexpr unsigned __int128 kLimit = static_cast<unsigned __int128>(1) << 53;
  while ((m & 1) == 0) m >>= 1;
  if (scale >= 0) {
    for (int64_t i = 0; i < scale; ++i) {
      m *= 5;
      if (m >= kLimit) return false;
    }
    return m < kLimit;
  }
  if (scale < -56) return false;  // 5^56 > 2^128 > m
  for (int64_t i = 0; i < -scale; ++i) {
    if (m % 5 != 0) return false;
    m /= 5;
  }
  return m < kLimit;
}

}  // namespace

Number Number::Int(int64_t value) { return Number(std::to_string(value)); }

Number Number::Float(double value) {
  if (std::isnan(value)) return Number(std::string("NaN"));
  if (std::isinf(value)) return Number(std::string(value < 0 ? "-Inf" : "Inf"));
  char buf[64];
  std::to_chars_result r = std::to_chars(buf, buf + sizeof(buf), value);
  std::optional<std::string> canonical = Canonicalize(std::string_view(buf, r.ptr - buf));
  return Number(canonical.value_or("0"));
}

absl::StatusOr<Number> Number::FromDecimal(std::string_view text) {
  std::optional<std::string> canonical = Canonicalize(text);
  if (!canonical.has_value()) {
    return absl::InvalidArgumentError("not a decimal number");
  }
  return Number(*std::move(canonical));
}

bool Number::IsInt64() const {
  int64_t unused;
  return canonical_.find_first_of(".eIN") == std::string::npos &&
         absl::SimpleAtoi(canonical_, &unused);
}

absl::StatusOr<int64_t> Number::AsInt64() const {
  int64_t out = 0;
  if (canonical_.find_first_of(".eIN") != std::string::npos ||
      !absl::SimpleAtoi(canonical_, &out)) {
    return absl::InvalidArgumentError(
        absl::StrCat("a whole number between -2^63 and 2^63-1 is required, got ", canonical_));
  }
  return out;
}

double Number::AsDouble() const {
  if (canonical_ == "Inf") return HUGE_VAL;
  if (canonical_ == "-Inf") return -HUGE_VAL;
  if (canonical_ == "NaN") return std::nan("");
  double out = 0;
  // from_chars is locale-independent and correctly rounded; out-of-range values saturate.
  std::from_chars_result r =
      std::from_chars(canonical_.data(), canonical_.data() + canonical_.size(), out);
  if (r.ec == std::errc::result_out_of_range) {
    bool negative = canonical_[0] == '-';
    bool tiny = canonical_.find("e-") != std::string::npos;
    if (tiny) return negative ? -0.0 : 0.0;
    return negative ? -HUGE_VAL : HUGE_VAL;
  }
  return out;
}

std::optional<double> Number::ExactDouble() const {
  if (canonical_ == "NaN") return std::nullopt;
  double d = AsDouble();
  if (std::isinf(d)) {
    if (IsInfinity()) return d;
    return std::nullopt;
  }
  if (std::optional<bool> exact = ExactlyRepresentable(canonical_); exact.has_value()) {
    if (*exact) return d;
    return std::nullopt;
  }
  // glibc prints the exact binary value of a double given enough digits (at most 767
  // significant digits are ever needed).
  char buf[1024];
  int len = std::snprintf(buf, sizeof(buf), "%.767e", d);
  if (len <= 0 || len >= static_cast<int>(sizeof(buf))) return std::nullopt;
  std::optional<std::string> exact = Canonicalize(std::string_view(buf, len));
  if (!exact.has_value() || *exact != canonical_) return std::nullopt;
  return d;
}

bool Number::IsInfinity() const { return canonical_ == "Inf" || canonical_ == "-Inf"; }

std::string Number::ToString() const { return canonical_; }

bool operator==(const Number& a, const Number& b) { return a.canonical_ == b.canonical_; }

}  // namespace nsxalb::cty
