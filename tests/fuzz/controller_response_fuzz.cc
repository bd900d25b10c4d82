// libFuzzer entry point for the Controller's responses as the client reads them (plugin/
// controller/response.h, errors.h, backoff.h, refs.h, version.h).
//
// Input: optional header lines ("name: value"), a blank line, then the body; without a blank
// line the whole input is the body. Each input goes through everything the client applies to a
// response: the body as JSON, as an SE group object, as a collection page (results, every item
// as an SE group, the next link), as a login answer (cookies, version), as an error body for
// each HTTP status the client handles, the Retry-After header and the refs an SE group carries,
// and a page's results as the upgrade status and as SE inventory entries.
// Contract: every call returns a value or a status with the documented code; error messages start
// with "controller: " and never quote the body; values keep their documented shape. A violation
// aborts.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "plugin/common/limits.h"
#include "plugin/controller/backoff.h"
#include "plugin/controller/errors.h"
#include "plugin/controller/license_ledger.h"
#include "plugin/controller/refs.h"
#include "plugin/controller/response.h"
#include "plugin/controller/se_inventory.h"
#include "plugin/controller/upgrade_status.h"
#include "plugin/controller/version.h"

namespace {

using nsxalb::controller::HttpResponse;
using Json = nlohmann::json;

// Bodies of the corpus carry this marker; no message may repeat it.
constexpr char kSecret[] = "s3cr3t-marker";

void Check(bool ok) {
  if (!ok) std::abort();
}

void CheckMessage(const absl::Status& status, absl::StatusCode code) {
  Check(status.code() == code);
  Check(absl::StartsWith(status.message(), "controller: "));
  Check(!absl::StrContains(status.message(), kSecret));
}

bool IsValidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    uint32_t cp = n == 1 ? c : c & (0x7F >> n);
    for (size_t k = 1; k < n; ++k) {
      const unsigned char cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    const uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < smallest[n] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return false;
    i += n;
  }
  return true;
}

HttpResponse Split(std::string_view input) {
  HttpResponse response;
  response.status = 200;
  size_t blank = input.find("\n\n");
  if (blank == std::string_view::npos) {
    response.body = std::string(input);
    return response;
  }
  for (absl::string_view line : absl::StrSplit(absl::string_view(input.data(), blank), '\n')) {
    size_t colon = line.find(':');
    if (colon == absl::string_view::npos) continue;
    std::string name = absl::AsciiStrToLower(line.substr(0, colon));
    response.headers.emplace_back(name,
                                  std::string(absl::StripAsciiWhitespace(line.substr(colon + 1))));
  }
  response.body = std::string(input.substr(blank + 2));
  return response;
}

// What ForEachListed and the lookups do with one page.
void CheckPage(const Json& page, const std::string& what) {
  absl::StatusOr<Json> results = nsxalb::controller::Results(page, what);
  if (!results.ok()) {
    CheckMessage(results.status(), absl::StatusCode::kInternal);
  } else {
    Check(results->is_array());
    for (const Json& item : *results) {
      std::string name = nsxalb::controller::StringMember(item, "name");
      absl::StatusOr<nsxalb::controller::SeGroup> g = nsxalb::controller::ToSeGroup(item, what);
      if (g.ok()) {
        Check(!g->uuid.empty() && g->body.is_object() && g->name == name);
        for (const std::string* ref : {&g->cloud_ref, &g->tenant_ref, &g->url}) {
          (void)nsxalb::controller::ParseRef(*ref, "cloud", "cloud_ref");
        }
      } else {
        CheckMessage(g.status(), absl::StatusCode::kInternal);
      }
      absl::StatusOr<nsxalb::controller::ServiceEngine> se =
          nsxalb::controller::ToServiceEngine(item, what);
      if (se.ok()) {
        Check(se->name == name && se->num_vcpus >= 0 && se->memory_mb >= 0 && se->disk_gb >= 0);
      } else {
        CheckMessage(se.status(), absl::StatusCode::kInternal);
      }
    }
  }
  absl::StatusOr<std::string> next = nsxalb::controller::NextPagePath(page, "SE groups");
  if (next.ok()) {
    Check(next->empty() || absl::StartsWith(*next, "/api/"));
  } else {
    CheckMessage(next.status(), absl::StatusCode::kInternal);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const HttpResponse response = Split(input);
  const std::string what = "GET /api/serviceenginegroup";

  // The body as JSON, with the nesting bound.
  absl::StatusOr<Json> parsed = nsxalb::controller::ParseJsonLimited(response.body);
  absl::StatusOr<Json> body = nsxalb::controller::ParseBody(response, what);
  Check(parsed.ok() == body.ok());
  if (!body.ok()) {
    CheckMessage(body.status(), absl::StatusCode::kInternal);
    Check(absl::StrContains(body.status().message(), "HTTP 200"));
  } else {
    // Anything parsed can be printed again and parses to the same value (no deep recursion, no
    // exception on odd strings).
    const std::string dumped = body->dump(-1, ' ', false, Json::error_handler_t::replace);
    absl::StatusOr<Json> again = nsxalb::controller::ParseJsonLimited(dumped);
    Check(again.ok() && *again == *body);

    absl::StatusOr<nsxalb::controller::SeGroup> group = nsxalb::controller::ToSeGroup(*body, what);
    if (!group.ok()) CheckMessage(group.status(), absl::StatusCode::kInternal);
    absl::StatusOr<nsxalb::controller::ServiceEngine> se =
        nsxalb::controller::ToServiceEngine(*body, what);
    if (se.ok()) {
      Check(!se->uuid.empty() && se->body.is_object() && se->num_vcpus >= 0 && se->memory_mb >= 0 &&
            se->disk_gb >= 0);
    } else {
      CheckMessage(se.status(), absl::StatusCode::kInternal);
    }
    CheckPage(*body, what);

    // The body as the licence ledger: typed figures, never negative, every tier and SE named;
    // or an Internal error naming the field, without quoting the body.
    absl::StatusOr<nsxalb::controller::LicenseLedgerDetails> ledger =
        nsxalb::controller::DecodeLicenseLedgerDetails(*body);
    if (ledger.ok()) {
      for (const auto& t : ledger->tier_usages) {
        Check(!t.tier.empty() && t.usage.available >= 0 && t.usage.consumed >= 0 &&
              t.usage.escrow >= 0 && t.usage.remaining >= 0);
      }
      for (const auto& se : ledger->se_infos) Check(!se.uuid.empty() && se.service_cores >= 0);
    } else {
      CheckMessage(ledger.status(), absl::StatusCode::kInternal);
    }

    // The page's results as the upgrade status, and each result as an SE inventory entry: typed
    // (every node and SE with a uuid, every placed virtual service with one), or an Internal
    // error naming the field, without quoting the body.
    std::vector<Json> entries;
    if (body->is_object() && body->contains("results") && (*body)["results"].is_array()) {
      for (const Json& e : (*body)["results"]) entries.push_back(e);
    }
    absl::StatusOr<nsxalb::controller::UpgradeStatus> upgrade =
        nsxalb::controller::DecodeUpgradeStatus(entries);
    if (upgrade.ok()) {
      Check(upgrade->known && upgrade->nodes.size() == entries.size());
      for (const auto& n : upgrade->nodes) {
        Check(!n.uuid.empty() &&
              n.unfinished == nsxalb::controller::UpgradeStateUnfinished(n.state));
      }
      Check(!upgrade->Describe().empty());
    } else {
      CheckMessage(upgrade.status(), absl::StatusCode::kInternal);
    }
    for (const Json& e : entries) {
      absl::StatusOr<nsxalb::controller::ServiceEnginePlacement> placed =
          nsxalb::controller::ToServiceEnginePlacement(e, what);
      if (placed.ok()) {
        Check(!placed->uuid.empty());
        for (const auto& vs : placed->virtual_services) Check(!vs.uuid.empty());
      } else {
        CheckMessage(placed.status(), absl::StatusCode::kInternal);
      }
    }
  }

  // The body as a login answer.
  absl::StatusOr<nsxalb::controller::LoginAnswer> login =
      nsxalb::controller::ParseLoginResponse(response, "login to https://ctrl as admin");
  if (login.ok()) {
    Check(absl::StartsWith(login->cookie_header, "Cookie: "));
    if (!login->version_text.empty()) {
      absl::StatusOr<nsxalb::controller::ApiVersion> version =
          nsxalb::controller::ApiVersion::Parse(login->version_text);
      if (version.ok()) {
        Check(nsxalb::controller::ApiVersion::Parse(version->ToString()).ok());
      }
    }
  } else {
    CheckMessage(login.status(), absl::StatusCode::kUnauthenticated);
  }

  // The body as an error answer, with one of the statuses the client maps (chosen by the size,
  // so that every status is exercised across inputs).
  constexpr int kStatuses[] = {400, 401, 403, 404, 409, 412, 419, 429, 500, 502, 503, 504, 418};
  {
    const int http_status = kStatuses[size % (sizeof(kStatuses) / sizeof(kStatuses[0]))];
    absl::Status error = nsxalb::controller::HttpError(http_status, what, response.body);
    Check(!error.ok());
    Check(error.code() == nsxalb::controller::CodeForHttpStatus(http_status));
    Check(absl::StartsWith(error.message(), "controller: " + what + ": HTTP "));
    Check(nsxalb::controller::HttpStatusOf(error) == http_status);
  }
  // The error text ends up in diagnostics: one line of valid UTF-8 (Terraform rejects a whole
  // answer whose strings are not), cut to length.
  const std::string text = nsxalb::controller::ControllerErrorText(response.body);
  Check(text.size() <= 507);
  Check(IsValidUtf8(text));
  Check(text.find('\n') == std::string::npos);

  // Retry-After, from the header or else the whole body.
  const std::string retry_after = response.Header("retry-after");
  const absl::Time now = absl::FromUnixSeconds(1700000000);
  std::optional<absl::Duration> delay =
      nsxalb::controller::ParseRetryAfter(retry_after.empty() ? response.body : retry_after, now);
  if (delay.has_value()) Check(*delay >= absl::ZeroDuration() && *delay <= absl::Hours(1));
  return 0;
}
