// Implementation of refs.h.
#include "plugin/controller/refs.h"

#include <cctype>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "plugin/common/status_macros.h"
#include "plugin/controller/absl_view.h"

namespace nsxalb::controller {
namespace {

constexpr size_t kMaxRefLength = 2048;

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool IsHexRun(std::string_view s, size_t pos, size_t n) {
  if (pos + n > s.size()) return false;
  for (size_t i = pos; i < pos + n; ++i) {
    if (HexValue(s[i]) < 0) return false;
  }
  return true;
}

using internal::AbslView;

absl::Status RefError(std::string_view field, std::string_view type, std::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(
      AbslView(field), ": ", AbslView(why), "; expected a ", AbslView(type),
      " name, uuid, or a ref such as /api/", AbslView(type), "/<uuid>, https://<controller>/api/",
      AbslView(type), "/<uuid>#<name> or /api/", AbslView(type), "/?name=<name>"));
}

// Fills `ref` from the part after "/api/": "<type>/<uuid>", "<type>/?name=..", "<type>?..".
absl::Status ParseApiPath(std::string_view rest, std::string_view type, std::string_view field,
                          ObjectRef& ref) {
  std::string_view fragment;
  if (size_t hash = rest.find('#'); hash != std::string_view::npos) {
    fragment = rest.substr(hash + 1);
    rest = rest.substr(0, hash);
  }
  std::string_view query;
  if (size_t q = rest.find('?'); q != std::string_view::npos) {
    query = rest.substr(q + 1);
    rest = rest.substr(0, q);
  }
  size_t slash = rest.find('/');
  std::string_view got_type = rest.substr(0, slash);
  if (got_type != type) {
    return RefError(field, type,
                    absl::StrCat("refers to object type \"", std::string(got_type.substr(0, 64)),
                                 "\", not ", AbslView(type)));
  }
  std::string_view id;
  if (slash != std::string_view::npos) {
    id = rest.substr(slash + 1);
    while (!id.empty() && id.back() == '/') id.remove_suffix(1);
    if (id.find('/') != std::string_view::npos) {
      return RefError(field, type, "has extra path segments after the uuid");
    }
  }
  ref.uuid = std::string(id);
  if (!fragment.empty()) ref.name = UrlDecode(fragment);
  if (!query.empty()) {
    for (absl::string_view kv : absl::StrSplit(std::string(query), '&', absl::SkipEmpty())) {
      std::pair<std::string, std::string> p = absl::StrSplit(kv, absl::MaxSplits('=', 1));
      if (p.first == "name") ref.name = UrlDecode(p.second);
      if (p.first == "uuid" && ref.uuid.empty()) ref.uuid = UrlDecode(p.second);
    }
  }
  if (ref.uuid.empty() && ref.name.empty()) {
    return RefError(field, type, "names neither a uuid nor a name");
  }
  return absl::OkStatus();
}

}  // namespace

std::string UrlDecode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '+') {
      out.push_back(' ');
    } else if (c == '%' && IsHexRun(text, i + 1, 2)) {
      out.push_back(static_cast<char>(HexValue(text[i + 1]) * 16 + HexValue(text[i + 2])));
      i += 2;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::string UrlEncode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (absl::ascii_isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

bool LooksLikeUuid(std::string_view text) {
  size_t dash = text.find('-');
  if (dash == 0 || dash == std::string_view::npos) return false;
  for (size_t i = 0; i < dash; ++i) {
    if (!absl::ascii_islower(static_cast<unsigned char>(text[i])) && text[i] != '_') return false;
  }
  std::string_view u = text.substr(dash + 1);
  if (u.size() != 36) return false;
  return IsHexRun(u, 0, 8) && u[8] == '-' && IsHexRun(u, 9, 4) && u[13] == '-' &&
         IsHexRun(u, 14, 4) && u[18] == '-' && IsHexRun(u, 19, 4) && u[23] == '-' &&
         IsHexRun(u, 24, 12);
}

absl::StatusOr<ObjectRef> ParseRef(std::string_view text, std::string_view type,
                                   std::string_view field) {
  std::string_view s = text;
  while (!s.empty() && absl::ascii_isspace(static_cast<unsigned char>(s.front()))) {
    s.remove_prefix(1);
  }
  while (!s.empty() && absl::ascii_isspace(static_cast<unsigned char>(s.back()))) {
    s.remove_suffix(1);
  }
  if (s.empty()) return RefError(field, type, "is empty");
  if (s.size() > kMaxRefLength) return RefError(field, type, "is too long");
  for (char c : s) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      return RefError(field, type, "contains control characters");
    }
  }
  ObjectRef ref;
  ref.type = std::string(type);
  std::string_view path;
  if (absl::StartsWithIgnoreCase(absl::string_view(s.data(), s.size()), "https://") ||
      absl::StartsWithIgnoreCase(absl::string_view(s.data(), s.size()), "http://")) {
    size_t scheme_end = s.find("://") + 3;
    size_t path_start = s.find('/', scheme_end);
    if (path_start == std::string_view::npos)
      return RefError(field, type, "is a URL without a path");
    path = s.substr(path_start);
  } else if (s.front() == '/') {
    path = s;
  }
  if (!path.empty()) {
    constexpr std::string_view kApi = "/api/";
    if (path.substr(0, kApi.size()) != kApi) {
      return RefError(field, type, "is a path that does not start with /api/");
    }
    NSXALB_RETURN_IF_ERROR(ParseApiPath(path.substr(kApi.size()), type, field, ref));
    return ref;
  }
  if (s.find('/') != std::string_view::npos) {
    return RefError(field, type, "is neither a name, a uuid, nor a ref");
  }
  if (LooksLikeUuid(s)) {
    std::string_view prefix = s.substr(0, s.find('-'));
    if (prefix != type) {
      return RefError(
          field, type,
          absl::StrCat("is the uuid of a ", std::string(prefix), ", not a ", AbslView(type)));
    }
    ref.uuid = std::string(s);
  } else {
    ref.name = std::string(s);
  }
  return ref;
}

std::string ObjectRef::Normalized() const {
  if (!uuid.empty()) return absl::StrCat("/api/", type, "/", uuid);
  return absl::StrCat("/api/", type, "/?name=", UrlEncode(name));
}

bool SameObject(const ObjectRef& a, const ObjectRef& b) {
  if (a.type != b.type) return false;
  if (!a.uuid.empty() && !b.uuid.empty()) return a.uuid == b.uuid;
  if (!a.name.empty() && !b.name.empty()) return a.name == b.name;
  return false;
}

}  // namespace nsxalb::controller
