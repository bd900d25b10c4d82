// `terraform-provider-nsxalb controller`: settings from the environment and flags -> Controller
// client -> text or JSON. Every Controller call goes through plugin/controller; this file only
// parses flags, builds the client's settings and renders.
#include "plugin/cli/controller/controller_command.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "plugin/cli/common/text_table.h"
#include "plugin/cli/estate/estate_usage_text.h"
#include "plugin/cli/estate/estate_view.h"
#include "plugin/cli/rollout/rollout_command.h"
#include "plugin/cli/usage/usage_report_text.h"
#include "plugin/controller/client.h"
#include "plugin/controller/config.h"
#include "plugin/controller/errors.h"
#include "plugin/controller/response.h"
#include "plugin/segroup/desired_state.h"
#include "plugin/segroup/fields.h"
#include "plugin/segroup/lifecycle/finding.h"
#include "plugin/segroup/lifecycle/running_ses.h"
#include "plugin/segroup/lifecycle/ses_view.h"
#include "plugin/segroup/usage/analyze.h"
#include "plugin/segroup/usage/compare.h"
#include "plugin/segroup/usage/estate_reader.h"
#include "plugin/segroup/usage/forecast.h"
#include "plugin/segroup/usage/group_reader.h"
#include "plugin/sizing/profiles.h"
#include "plugin/sizing/rules.h"

namespace nsxalb::cli {
namespace {

namespace ctl = ::nsxalb::controller;
using Json = nlohmann::ordered_json;

constexpr char kProgram[] = "terraform-provider-nsxalb controller";

constexpr char kUsage[] =
    R"(Usage: terraform-provider-nsxalb controller check [--cloud NAME] [--json] [settings]
       terraform-provider-nsxalb controller list-se-groups [--cloud NAME] [--json] [settings]
       terraform-provider-nsxalb controller get-se-group NAME [--cloud NAME] [settings]
       terraform-provider-nsxalb controller apply-se-group [--dry-run] [settings] < desired.json
       terraform-provider-nsxalb controller rollout NAME [--cloud NAME] [--dry-run]
                                 [--max-unavailable N] [--timeout 30m] [--poll-interval 5s]
                                 [--workload KEY=VALUE[,KEY=VALUE...]] [settings]
       terraform-provider-nsxalb controller usage NAME [--cloud NAME] [--window 7d]
                                 [--statistic max|p99|p95] [--platform P] [--json] [settings]
       terraform-provider-nsxalb controller usage --all [--cloud NAME] [--name REGEX]
                                 [--all-tenants] [--min-ses N] [--window 7d]
                                 [--statistic max|p99|p95] [--platform P] [--forecast-days N]
                                 [--json | --csv] [settings]

Talks to the NSX ALB Controller with the provider's own client and settings.

Actions:
  check            log in; print the Controller's version, the API version in use, the tenant
                   and every cloud the tenant sees; with --cloud, also look that cloud up and
                   fail when it does not exist
  list-se-groups   list the tenant's SE groups (all pages), optionally only those in --cloud
  get-se-group     print one SE group, found by name (and --cloud), as JSON
  apply-se-group   bring one SE group to the desired state read as JSON from stdin
                   ({"name", "cloud", "tenant", "state": "present"|"absent", "settings",
                   "workload", "platform", "sizing_policy", "extra_fields"}), sized and merged
                   as nsxalb_se_group does; print JSON with changed, before, after, se_group,
                   sizing, findings, warnings and errors (what the Ansible modules call), and
                   service_engines (the group's running SEs against its settings, as the
                   resource records them; ses-behind-settings among the warnings while one lags)
  rollout          rolls the group's running SEs that do not match its settings: each SE a
                   new-ses-only change (vcpus_per_se, memory_per_se, disk_per_se) does not reach
                   is disabled, its virtual services migrate, the Controller's replacement at the
                   new shape comes up and the old SE is deleted; each SE waiting for a reboot is
                   disabled, rebooted and enabled again; by name, --max-unavailable at a time
                   (default 1), --timeout per SE (default 30m). Guards first (HA minimum,
                   licence, a cloud that creates SEs); one line per step (on a terminal, a
                   progress line too); --dry-run prints the steps and the guards' figures and
                   writes nothing. --workload (the keys of the resource's workload block, e.g.
                   l7_rps=300000,ssl_tps_ecc=6000; Gbps for throughput): the capacity guard
                   checks that the SEs left with --max-unavailable out, at their real shape,
                   carry it within the group's max_cpu_usage (else 80%). SIGINT or SIGTERM stops
                   the roll after its current step, enables again an SE it disabled, lists the
                   SEs done and to do and exits 130 (SIGTERM 143); a second signal is ignored.
  usage            what one SE group's SEs really carried over --window (1h-30d, default 7d):
                   the group's peaks (summed over its SEs per timestamp), each SE's CPU, shape
                   (vCPUs, memory, disk), enable and oper state and whether it matches the
                   group's settings (and why not), the model's calibration and a
                   recommendation from the observed workload, as nsxalb_se_group_usage reads
                   them (--json: its attributes).
                   With --all instead of NAME: every SE group of the tenant (those --cloud,
                   --name and --min-ses keep), read in a few metrics requests whatever their
                   number, as nsxalb_se_groups_usage reads them: a table (group, cloud, SEs, SEs
                   behind settings, SUs now, recommended and reclaimable, CPU peak, forecast, at
                   risk, note), most reclaimable first, the totals and the licence pool per tier
                   (the Controller's licence ledger); --json: the data source's groups, totals,
                   metrics_requests and license_pool (what estate-report reads); --csv: one row
                   per group, with its tier's pool.
                   With --all-tenants: the groups of every tenant, through the Controller's All
                   Tenants view (a superuser's only; anyone else gets the Controller's 403),
                   with the tenant as a column.
                   On a terminal, stderr shows the progress of the metrics requests.

Settings (flags override the environment variables the provider block reads):
  --controller ADDR     NSXALB_CONTROLLER    host, host:port or https:// URL
  --username USER       NSXALB_USERNAME
                        NSXALB_PASSWORD      password (environment only)
                        NSXALB_AUTH_TOKEN    API token instead of a password (environment only)
  --tenant NAME         NSXALB_TENANT        default admin
  --api-version V       NSXALB_API_VERSION   X-Avi-Version; default the Controller's version
  --ca-file PATH        NSXALB_CA_FILE       PEM CA that signs the Controller's certificate
                        NSXALB_CA_PEM        the same as PEM text (environment only)
  --insecure            NSXALB_INSECURE      skip TLS verification (true|false)
Options:
  --cloud NAME     cloud name, uuid or ref
  --json           machine-readable output (check, list-se-groups, usage)
  --csv            usage --all: CSV (RFC 4180) with a header row, instead of the table
  --full           list-se-groups --json: every group as the Controller holds it
  --name NAME      list-se-groups: only groups of that name; usage --all: only groups whose
                   name matches this regular expression (RE2 syntax, anywhere in the name)
  --all            usage: every SE group instead of one NAME
  --all-tenants    usage --all: every tenant's groups (X-Avi-Tenant: *), not only --tenant's
  --min-ses N      usage --all: only groups with at least N SEs now (default 0)
  --forecast-days N
                   usage --all: a group whose forecast reaches its target within N days is at
                   risk, 1-365 (default 30)
  --dry-run        apply-se-group: plan only, send no POST, PUT or DELETE
  --window W       usage: how far back, 1h-30d ("24h", "7d"; default 7d)
  --statistic S    usage: max (default), p99 or p95 over the window's points
  --platform P     usage: vcenter or nsxt (default: from the cloud's type; with --all, each
                   group's cloud's)
  --help           print this help

Exit codes: 0 ok; 1 the Controller call failed (usage --all: or --cloud names no cloud the
tenant sees; apply-se-group: or the sizing failed, its JSON says why); 2 usage error or invalid
setting (usage: NAME with --all, --csv with --json, a --name that is not a regular expression).
)";

// Where one client setting can come from, for building it and for naming it in errors.
struct SettingSource {
  const char* setting;  // ClientConfig member, as config.h names it in errors
  const char* env;      // environment variable
  const char* flag;     // flag, or nullptr for secrets and inline PEM
};

constexpr SettingSource kSources[] = {
    {"controller", "NSXALB_CONTROLLER", "--controller"},
    {"username", "NSXALB_USERNAME", "--username"},
    {"password", "NSXALB_PASSWORD", nullptr},
    {"auth_token", "NSXALB_AUTH_TOKEN", nullptr},
    {"tenant", "NSXALB_TENANT", "--tenant"},
    {"api_version", "NSXALB_API_VERSION", "--api-version"},
    {"ca_file", "NSXALB_CA_FILE", "--ca-file"},
    {"ca_pem", "NSXALB_CA_PEM", nullptr},
    {"insecure", "NSXALB_INSECURE", "--insecure"},
};

// "the NSXALB_X environment variable or --x" for a setting; empty for settings the command does
// not expose (timeouts, page size).
std::string HowToSet(absl::string_view setting) {
  if (setting == "password") {
    return "set NSXALB_PASSWORD or NSXALB_AUTH_TOKEN in the environment; there is no password "
           "flag";
  }
  for (const SettingSource& s : kSources) {
    if (setting != s.setting) continue;
    if (s.flag == nullptr) return absl::StrCat("set by the ", s.env, " environment variable");
    return absl::StrCat("set by ", s.flag, " or the ", s.env, " environment variable");
  }
  return "";
}

// A usage error: the message names the flag, variable or setting.
struct UsageError {
  std::string message;
};

struct Options {
  std::string action;
  std::optional<std::string> name;  // get-se-group's NAME
  std::string cloud;
  std::string name_filter;                     // --name: list-se-groups a name, usage --all a regex
  std::string window;                          // usage --window
  std::string statistic;                       // usage --statistic
  std::string platform;                        // usage --platform
  bool all = false;                            // usage --all
  bool all_tenants = false;                    // usage --all --all-tenants
  int min_ses = 0;                             // usage --all --min-ses
  std::optional<int> forecast_days;            // usage --all --forecast-days
  int max_unavailable = 1;                     // rollout --max-unavailable
  absl::Duration timeout = absl::Minutes(30);  // rollout --timeout
  absl::Duration poll_interval = absl::Seconds(5);  // rollout --poll-interval
  nlohmann::json workload = nullptr;                // rollout --workload, by key
  bool json = false;
  bool csv = false;
  bool full = false;
  bool dry_run = false;
  bool help = false;
  std::map<std::string, std::string> flag_values;  // "--controller" -> value
  bool insecure_flag = false;
};

// What usage reads, from its flags (checked by ParseArgs): the window and statistic of the query.
segroup::UsageQuery UsageQueryOf(const Options& o) {
  segroup::UsageQuery query;
  if (!o.window.empty()) query.window = *segroup::ParseUsageWindow(o.window);
  if (!o.statistic.empty()) query.statistic = *segroup::ParseUsageStatistic(o.statistic);
  return query;
}

// What usage --all reads, from its flags; `now` is left to the caller.
segroup::EstateUsageRequest EstateRequestOf(const Options& o) {
  segroup::EstateUsageRequest request;
  request.query = UsageQueryOf(o);
  request.cloud = o.cloud;
  request.name_regex = o.name_filter;
  request.min_se_count = o.min_ses;
  if (o.all_tenants) request.tenant = segroup::kAllTenants;
  request.read_license = true;
  if (!o.platform.empty()) request.platform = *sizing::ParsePlatform(o.platform);
  if (o.forecast_days.has_value()) request.forecast_days = *o.forecast_days;
  return request;
}

// The flags of usage --all against the action and each other: --all only for usage and not with
// a NAME, --csv only with --all and not with --json, and the estate's filters only with --all.
std::optional<UsageError> CheckEstateFlags(const Options& o, std::map<std::string, bool>& seen) {
  if (o.all && o.action != "usage") return UsageError{"--all: only for usage"};
  if (o.all && o.name.has_value()) {
    return UsageError{absl::StrCat("usage: give either the SE group NAME (\"", *o.name,
                                   "\") or --all, not both")};
  }
  if (o.csv && o.json) return UsageError{"--csv and --json: give one of them"};
  if (o.all_tenants && seen["--tenant"]) {
    return UsageError{"--tenant and --all-tenants: give one of them"};
  }
  for (const char* flag : {"--csv", "--min-ses", "--forecast-days", "--all-tenants"}) {
    if (seen[flag] && !o.all) return UsageError{absl::StrCat(flag, ": only with usage --all")};
  }
  if (seen["--name"] && o.action == "usage" && !o.all) {
    return UsageError{"--name: only with usage --all (usage NAME names its group itself)"};
  }
  return std::nullopt;
}

std::optional<UsageError> ParseArgs(const std::vector<std::string>& args, Options& o) {
  if (args.empty()) {
    return UsageError{
        "missing action (check, list-se-groups, get-se-group, apply-se-group or usage)"};
  }
  size_t first = 0;
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    o.help = true;
    return std::nullopt;
  }
  o.action = args[0];
  first = 1;
  if (o.action != "check" && o.action != "list-se-groups" && o.action != "get-se-group" &&
      o.action != "apply-se-group" && o.action != "usage" && o.action != "rollout") {
    return UsageError{absl::StrCat("unknown action \"", o.action,
                                   "\" (want check, list-se-groups, get-se-group, "
                                   "apply-se-group, rollout or usage)")};
  }
  std::map<std::string, bool> seen;
  for (size_t i = first; i < args.size(); ++i) {
    std::string flag = args[i];
    if (flag.rfind("--", 0) != 0 && flag != "-h") {
      if ((o.action == "get-se-group" || o.action == "usage" || o.action == "rollout") &&
          !o.name.has_value()) {
        o.name = flag;
        continue;
      }
      return UsageError{absl::StrCat("unexpected argument \"", flag, "\"")};
    }
    std::optional<std::string> value;
    const size_t eq = flag.find('=');
    if (eq != std::string::npos) {
      value = flag.substr(eq + 1);
      flag = flag.substr(0, eq);
    }
    if (seen[flag]) return UsageError{absl::StrCat(flag, ": given more than once")};
    seen[flag] = true;
    if (flag == "--help" || flag == "-h" || flag == "--json" || flag == "--insecure" ||
        flag == "--full" || flag == "--dry-run" || flag == "--all" || flag == "--csv" ||
        flag == "--all-tenants") {
      if (value.has_value()) return UsageError{absl::StrCat(flag, ": takes no value")};
      if (flag == "--json") o.json = true;
      if (flag == "--csv") o.csv = true;
      if (flag == "--all") o.all = true;
      if (flag == "--all-tenants") o.all_tenants = true;
      if (flag == "--full") o.full = true;
      if (flag == "--dry-run") o.dry_run = true;
      if (flag == "--insecure") o.insecure_flag = true;
      if (flag == "--help" || flag == "-h") o.help = true;
      continue;
    }
    if (flag == "--password" || flag == "--auth-token" || flag == "--ca-pem") {
      return UsageError{absl::StrCat(flag,
                                     ": not a flag, so that secrets stay out of shell history; set "
                                     "the ",
                                     flag == "--password"     ? "NSXALB_PASSWORD"
                                     : flag == "--auth-token" ? "NSXALB_AUTH_TOKEN"
                                                              : "NSXALB_CA_PEM",
                                     " environment variable")};
    }
    const bool known =
        flag == "--cloud" || flag == "--name" || flag == "--window" || flag == "--statistic" ||
        flag == "--platform" || flag == "--min-ses" || flag == "--forecast-days" ||
        flag == "--max-unavailable" || flag == "--timeout" || flag == "--poll-interval" ||
        flag == "--workload" ||
        std::any_of(std::begin(kSources), std::end(kSources), [&flag](const SettingSource& s) {
          return s.flag != nullptr && flag == s.flag;
        });
    if (!known) return UsageError{absl::StrCat("unknown flag ", flag)};
    if (!value.has_value()) {
      if (i + 1 >= args.size()) return UsageError{absl::StrCat(flag, ": needs a value")};
      value = args[++i];
    }
    if (flag == "--cloud") {
      if (value->empty()) return UsageError{"--cloud: must not be empty"};
      o.cloud = *value;
    } else if (flag == "--name") {
      o.name_filter = *value;
    } else if (flag == "--window") {
      o.window = *value;
    } else if (flag == "--statistic") {
      o.statistic = *value;
    } else if (flag == "--platform") {
      o.platform = *value;
    } else if (flag == "--min-ses") {
      if (!absl::SimpleAtoi(*value, &o.min_ses) || o.min_ses < 0) {
        return UsageError{
            absl::StrCat("--min-ses: want a whole number of SEs, 0 or more, not \"", *value, "\"")};
      }
    } else if (flag == "--max-unavailable") {
      if (o.action != "rollout") return UsageError{"--max-unavailable: only for rollout"};
      if (!absl::SimpleAtoi(*value, &o.max_unavailable) || o.max_unavailable < 1 ||
          o.max_unavailable > 100) {
        return UsageError{absl::StrCat(
            "--max-unavailable: want a whole number of SEs from 1 to 100, not \"", *value, "\"")};
      }
    } else if (flag == "--workload") {
      if (o.action != "rollout") return UsageError{"--workload: only for rollout"};
      absl::StatusOr<nlohmann::json> workload = ParseWorkloadFlag(*value);
      if (!workload.ok()) return UsageError{std::string(workload.status().message())};
      o.workload = *std::move(workload);
    } else if (flag == "--timeout" || flag == "--poll-interval") {
      if (o.action != "rollout") return UsageError{absl::StrCat(flag, ": only for rollout")};
      absl::Duration d;
      if (!absl::ParseDuration(*value, &d) || d <= absl::ZeroDuration() || d > absl::Hours(24)) {
        return UsageError{absl::StrCat(flag,
                                       ": want a duration above 0 and at most 24h (\"30m\", "
                                       "\"90s\"), not \"",
                                       *value, "\"")};
      }
      (flag == "--timeout" ? o.timeout : o.poll_interval) = d;
    } else if (flag == "--forecast-days") {
      int days = 0;
      if (!absl::SimpleAtoi(*value, &days) || days < 1 || days > segroup::kMaxForecastDays) {
        return UsageError{absl::StrCat("--forecast-days: want a whole number of days from 1 to ",
                                       segroup::kMaxForecastDays, ", not \"", *value, "\"")};
      }
      o.forecast_days = days;
    } else {
      o.flag_values[flag] = *value;
    }
  }
  if (o.help) return std::nullopt;
  if (std::optional<UsageError> e = CheckEstateFlags(o, seen)) return e;
  if ((o.action == "get-se-group" || o.action == "rollout" || (o.action == "usage" && !o.all)) &&
      (!o.name.has_value() || o.name->empty())) {
    return UsageError{absl::StrCat(o.action, ": missing the SE group NAME (or --all)")};
  }
  if (o.action == "usage") {
    if (!o.window.empty()) {
      if (absl::Status s = segroup::ParseUsageWindow(o.window).status(); !s.ok()) {
        return UsageError{absl::StrCat("--window: ", s.message())};
      }
    }
    if (!o.statistic.empty()) {
      if (absl::Status s = segroup::ParseUsageStatistic(o.statistic).status(); !s.ok()) {
        return UsageError{absl::StrCat("--statistic: ", s.message())};
      }
    }
    if (!o.platform.empty()) {
      if (absl::Status s = sizing::ParsePlatform(o.platform).status(); !s.ok()) {
        return UsageError{absl::StrCat("--platform: ", s.message())};
      }
    }
    if (o.all) {
      if (absl::Status s = segroup::CheckEstateFilters(EstateRequestOf(o)); !s.ok()) {
        return UsageError{absl::StrCat("--name: ", s.message())};
      }
    }
  }
  return std::nullopt;
}

// The client's settings: environment first, then flags. A CA or --insecure given by flag drops
// the other CA variables, so that a global NSXALB_CA_FILE does not conflict with them.
std::optional<UsageError> BuildConfig(const Options& o, const ControllerEnvLookup& env,
                                      ctl::ClientConfig& config) {
  auto from_env = [&env](const char* name) -> std::optional<std::string> {
    std::optional<std::string> v = env(name);
    if (v.has_value() && v->empty()) return std::nullopt;
    return v;
  };
  auto flag = [&o](const char* name) -> std::optional<std::string> {
    auto it = o.flag_values.find(name);
    if (it == o.flag_values.end()) return std::nullopt;
    return it->second;
  };
  auto pick = [&](const SettingSource& s) -> std::optional<std::string> {
    if (s.flag != nullptr) {
      if (auto v = flag(s.flag)) return v;
    }
    return from_env(s.env);
  };
  const bool ca_by_flag = flag("--ca-file").has_value() || o.insecure_flag;
  for (const SettingSource& s : kSources) {
    const std::string setting = s.setting;
    std::optional<std::string> v = pick(s);
    if (ca_by_flag && (setting == "ca_pem" || (o.insecure_flag && setting == "ca_file"))) {
      v.reset();
    }
    if (!v.has_value()) continue;
    if (setting == "controller") config.controller = *v;
    if (setting == "username") config.username = *v;
    if (setting == "password") config.password = *v;
    if (setting == "auth_token") config.auth_token = *v;
    if (setting == "tenant") config.tenant = *v;
    if (setting == "api_version") config.api_version = *v;
    if (setting == "ca_file") config.ca_file = *v;
    if (setting == "ca_pem") config.ca_pem = *v;
    if (setting == "insecure" && !o.insecure_flag) {
      const std::string b = absl::AsciiStrToLower(*v);
      if (b == "true" || b == "1") {
        config.insecure = true;
      } else if (b != "false" && b != "0") {
        return UsageError{absl::StrCat("NSXALB_INSECURE: \"", *v, "\" is not true or false")};
      }
    }
  }
  if (o.insecure_flag) config.insecure = true;
  if (config.controller.empty()) {
    return UsageError{"no Controller address: set NSXALB_CONTROLLER or --controller"};
  }
  if (config.username.empty()) {
    return UsageError{"no user name: set NSXALB_USERNAME or --username"};
  }
  if (config.password.empty() && config.auth_token.empty()) {
    return UsageError{
        "no credentials: set NSXALB_PASSWORD or NSXALB_AUTH_TOKEN in the environment (there is "
        "no password flag)"};
  }
  absl::StatusOr<ctl::Endpoint> endpoint = ctl::ValidateConfig(config);
  if (!endpoint.ok()) {
    // config.h's messages read "controller: <setting> <why>" and never quote a secret.
    std::string message(endpoint.status().message());
    std::string setting = message;
    if (absl::StartsWith(setting, "controller: ")) setting = setting.substr(12);
    setting = setting.substr(0, setting.find(' '));
    const std::string how = HowToSet(setting);
    return UsageError{how.empty() ? message : absl::StrCat(message, " (", how, ")")};
  }
  return std::nullopt;
}

// A Controller failure: the client's message, which never carries a password or token, and for
// a set-up problem what to do (controller/errors.h: the provider shows the same advice).
int Failed(std::ostream& err, const std::string& action, const absl::Status& status) {
  err << kProgram << " " << action << ": " << status.message() << "\n";
  const std::string remedy = ctl::RemedyOf(status);
  if (!remedy.empty()) {
    err << "What to do: " << remedy << "\n"
        << "(Here the flags --controller, --username, --ca-file and --insecure set the same "
           "settings as the NSXALB_* variables.)\n";
  }
  return 1;
}

Json CloudJson(const ctl::CloudInfo& c) {
  return Json{{"name", c.name}, {"uuid", c.uuid}, {"vtype", c.vtype}};
}

int RunCheck(const Options& o, const ctl::ClientConfig& config, ctl::Client& client,
             std::ostream& out, std::ostream& err) {
  absl::StatusOr<ctl::VersionInfo> version = client.ControllerVersion();
  if (!version.ok()) return Failed(err, o.action, version.status());
  absl::StatusOr<ctl::TenantInfo> tenant = client.ResolveTenant(config.tenant);
  if (!tenant.ok()) return Failed(err, o.action, tenant.status());
  absl::StatusOr<std::vector<ctl::CloudInfo>> clouds = client.ListClouds();
  if (!clouds.ok()) return Failed(err, o.action, clouds.status());
  // --cloud: the cloud a resource would name, which must exist.
  std::optional<ctl::CloudInfo> chosen;
  if (!o.cloud.empty()) {
    absl::StatusOr<ctl::CloudInfo> cloud = client.ResolveCloud(o.cloud);
    if (!cloud.ok()) return Failed(err, o.action, cloud.status());
    chosen = *std::move(cloud);
  }
  if (o.json) {
    Json list = Json::array();
    for (const ctl::CloudInfo& c : *clouds) list.push_back(CloudJson(c));
    Json j{{"controller", config.controller},
           {"username", config.username},
           {"controller_version", version->controller.ToString()},
           {"api_version", version->api.ToString()},
           {"tenant", Json{{"name", tenant->name}, {"uuid", tenant->uuid}}},
           {"clouds", std::move(list)}};
    if (chosen.has_value()) j["cloud"] = CloudJson(*chosen);
    out << j.dump(2) << "\n";
    return 0;
  }
  auto cloud_line = [](const ctl::CloudInfo& c) {
    return absl::StrFormat("%s (uuid %s, %s)", c.name, c.uuid, c.vtype);
  };
  out << "Logged in to " << config.controller << " as " << config.username << ".\n"
      << absl::StrFormat("%-20s%s\n", "Controller version", version->controller.ToString())
      << absl::StrFormat("%-20s%s\n", "API version", version->api.ToString())
      << absl::StrFormat("%-20s%s (uuid %s)\n", "Tenant", tenant->name, tenant->uuid);
  if (clouds->empty()) out << absl::StrFormat("%-20s%s\n", "Clouds", "(none)");
  for (size_t i = 0; i < clouds->size(); ++i) {
    out << absl::StrFormat("%-20s%s\n", i == 0 ? "Clouds" : "", cloud_line((*clouds)[i]));
  }
  if (chosen.has_value()) {
    out << absl::StrFormat("%-20s%s\n", "Cloud (--cloud)", cloud_line(*chosen));
  }
  return 0;
}

// A member as text for the table: strings as they are, numbers and booleans as JSON, "-" when
// absent.
std::string Cell(const nlohmann::json& body, const char* key) {
  auto it = body.find(key);
  if (it == body.end() || it->is_null()) return "-";
  if (it->is_string()) return it->get<std::string>();
  return it->dump();
}

Json Member(const nlohmann::json& body, const char* key) {
  auto it = body.find(key);
  if (it == body.end()) return nullptr;
  return Json::parse(it->dump());
}

constexpr const char* kListedFields[] = {"vcpus_per_se", "memory_per_se", "disk_per_se", "max_se"};

int RunList(const Options& o, ctl::Client& client, std::ostream& out, std::ostream& err) {
  absl::StatusOr<std::vector<ctl::SeGroup>> groups = client.ListSeGroups("", o.cloud);
  if (!groups.ok()) return Failed(err, o.action, groups.status());
  // Cloud names, looked up once per cloud.
  std::map<std::string, std::string> cloud_names;
  for (const ctl::SeGroup& g : *groups) {
    if (g.cloud_ref.empty() || cloud_names.count(g.cloud_ref) > 0) continue;
    absl::StatusOr<ctl::CloudInfo> cloud = client.ResolveCloud(g.cloud_ref);
    if (!cloud.ok()) return Failed(err, o.action, cloud.status());
    cloud_names[g.cloud_ref] = cloud->name;
  }
  auto cloud_of = [&cloud_names](const ctl::SeGroup& g) -> std::string {
    auto it = cloud_names.find(g.cloud_ref);
    return it == cloud_names.end() ? "" : it->second;
  };
  if (!o.name_filter.empty()) {
    std::vector<ctl::SeGroup> named;
    for (ctl::SeGroup& g : *groups) {
      if (g.name == o.name_filter) named.push_back(std::move(g));
    }
    *groups = std::move(named);
  }
  if (o.json && o.full) {
    Json list = Json::array();
    for (const ctl::SeGroup& g : *groups) list.push_back(Json::parse(g.body.dump()));
    out << list.dump(2) << "\n";
    return 0;
  }
  if (o.json) {
    Json list = Json::array();
    for (const ctl::SeGroup& g : *groups) {
      Json item{{"name", g.name}, {"uuid", g.uuid}, {"cloud", cloud_of(g)}};
      for (const char* f : kListedFields) item[f] = Member(g.body, f);
      list.push_back(std::move(item));
    }
    out << list.dump(2) << "\n";
    return 0;
  }
  std::vector<std::vector<std::string>> rows = {
      {"NAME", "UUID", "CLOUD", "VCPUS_PER_SE", "MEMORY_PER_SE", "DISK_PER_SE", "MAX_SE"}};
  for (const ctl::SeGroup& g : *groups) {
    std::vector<std::string> row = {g.name, g.uuid, cloud_of(g)};
    for (const char* f : kListedFields) row.push_back(Cell(g.body, f));
    rows.push_back(std::move(row));
  }
  out << TextTable(rows);
  out << groups->size() << (groups->size() == 1 ? " SE group" : " SE groups")
      << (o.cloud.empty() ? "" : absl::StrCat(" in cloud ", o.cloud)) << ".\n";
  return 0;
}

int RunGet(const Options& o, const ctl::ClientConfig& config, ctl::Client& client,
           std::ostream& out, std::ostream& err) {
  absl::StatusOr<std::optional<ctl::SeGroup>> found = client.FindSeGroup(*o.name, "", o.cloud);
  if (!found.ok()) return Failed(err, o.action, found.status());
  if (!found->has_value()) {
    return Failed(err, o.action,
                  absl::NotFoundError(absl::StrCat(
                      "no SE group named \"", *o.name, "\" in tenant \"", config.tenant, "\"",
                      o.cloud.empty() ? "" : absl::StrCat(" and cloud \"", o.cloud, "\""))));
  }
  out << (*found)->body.dump(2) << "\n";
  return 0;
}

// The group's running SEs after Converge: `result` gains service_engines (the nsxalb_se_group
// resource's summary; null when the group does not exist or its SEs cannot be listed, with a
// warning then), and the finding ses-behind-settings joins its warnings, as the resource's plan
// words it: the after-se-reboot fields the operation changed wait for every running SE's
// reboot. One SE listing of the group.
void AddRunningSes(ctl::Client& client, const segroup::DesiredSeGroup& desired,
                   const segroup::Outcome& outcome, Json& result) {
  namespace lc = ::nsxalb::segroup::lifecycle;
  result["service_engines"] = nullptr;
  const Json& group = outcome.se_group;
  if (!group.is_object() || !group.contains("uuid") || !group["uuid"].is_string()) return;
  const std::string uuid = group["uuid"].get<std::string>();
  absl::StatusOr<std::vector<ctl::ServiceEngine>> listed =
      client.ListServiceEngines(uuid, desired.tenant);
  if (!listed.ok()) {
    result["warnings"].push_back(
        absl::StrCat("warning [] ", sizing::rules::kSesBehindSettings,
                     ": The group's running SEs were not read: ", listed.status().message()));
    return;
  }
  const std::vector<std::string>& names = segroup::TypedFieldNames();
  lc::RebootWait wait;
  wait.changed_now = lc::ChangedFieldsOfClass(names, outcome.before, outcome.after,
                                              ctl::TakesEffect::kAfterSeReboot);
  lc::SesBehindInput in;
  in.group_name = desired.name;
  in.settings = outcome.after;
  if (outcome.changed) in.prior_settings = outcome.before;
  in.ses = lc::MatchSettings(lc::RunningSesOf(*listed, uuid), outcome.after, wait);
  in.workload = outcome.workload;
  in.planned_shape = outcome.planned_shape;
  result["service_engines"] = lc::ServiceEnginesSummaryJson(in.ses);
  if (std::optional<lc::SesBehindFinding> found = lc::SesBehindSettings(in)) {
    segroup::Finding finding;
    finding.finding = found->finding;
    const std::string text = segroup::FindingText(finding);
    result["warnings"].push_back(text);
    result["findings"].push_back(text);
  }
}

// apply-se-group: the desired state from `in`, segroup::Converge, the outcome as JSON on `out`.
// A failure is JSON too ("failed": true and "msg"), so that the caller reads one shape.
int RunApply(const Options& o, const ctl::ClientConfig& config, ctl::Client& client,
             std::istream& in, std::ostream& out) {
  auto fail = [&out](const std::string& msg, Json extra = Json::object()) {
    extra["failed"] = true;
    extra["msg"] = msg;
    out << extra.dump(2) << "\n";
    return 1;
  };
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  absl::StatusOr<nlohmann::json> parsed = ctl::ParseJsonLimited(text);
  if (!parsed.ok()) {
    return fail(
        absl::StrCat("the desired state on stdin is not JSON: ", parsed.status().message()));
  }
  absl::StatusOr<segroup::DesiredSeGroup> desired = segroup::ParseDesiredSeGroup(*parsed);
  if (!desired.ok()) return fail(std::string(desired.status().message()));
  segroup::ConvergeOptions options;
  options.dry_run = o.dry_run;
  options.pinned_api_version = config.api_version;
  absl::StatusOr<segroup::Outcome> outcome = segroup::Converge(client, *desired, options);
  if (!outcome.ok()) {
    std::string msg(outcome.status().message());
    const std::string remedy = ctl::RemedyOf(outcome.status());
    if (!remedy.empty()) absl::StrAppend(&msg, " What to do: ", remedy);
    return fail(msg);
  }
  Json findings = Json::array();
  for (const std::string& f : outcome->errors) findings.push_back(f);
  for (const std::string& f : outcome->warnings) findings.push_back(f);
  Json result{{"changed", outcome->changed},
              {"before", Json::parse(outcome->before.dump())},
              {"after", Json::parse(outcome->after.dump())},
              {"se_group", Json::parse(outcome->se_group.dump())},
              {"sizing", Json::parse(outcome->sizing.dump())},
              {"findings", std::move(findings)},
              {"warnings", outcome->warnings},
              {"errors", outcome->errors},
              {"dry_run", o.dry_run}};
  if (outcome->errors.empty() && desired->present) {
    AddRunningSes(client, *desired, *outcome, result);
  }
  if (!outcome->errors.empty()) {
    const bool enforced = desired->sizing_policy == segroup::SizingPolicy::kEnforce;
    return fail(absl::StrCat("The SE group \"", desired->name, "\" was not written",
                             enforced ? " (sizing_policy \"enforce\" fails a create or change "
                                        "of an under-sized group; \"warn\" makes it a warning)"
                                      : "",
                             ": ", outcome->errors.front(),
                             outcome->errors.size() > 1
                                 ? absl::StrCat(" (and ", outcome->errors.size() - 1, " more)")
                                 : ""),
                std::move(result));
  }
  out << result.dump(2) << "\n";
  return 0;
}

// usage: the group by name (and --cloud), its SEs and one metrics request; the report as text,
// or with --json as the nsxalb_se_group_usage data source's attributes.
int RunUsage(const Options& o, ctl::Client& client, std::ostream& out, std::ostream& err) {
  absl::StatusOr<ctl::SeGroup> group = segroup::FindSeGroupByName(client, *o.name, "", o.cloud);
  if (!group.ok()) return Failed(err, o.action, group.status());
  segroup::GroupUsageRequest request;
  request.query = UsageQueryOf(o);
  absl::StatusOr<ctl::CloudInfo> cloud = client.ResolveCloud(group->cloud_ref);
  if (!cloud.ok()) return Failed(err, o.action, cloud.status());
  if (!o.platform.empty()) {
    request.platform = *sizing::ParsePlatform(o.platform);
  } else {
    absl::StatusOr<sizing::Platform> derived = segroup::PlatformOfCloud(*cloud);
    if (!derived.ok()) {
      err << kProgram << " usage: " << derived.status().message() << " (or give --platform)\n";
      return 2;
    }
    request.platform = *derived;
  }
  request.now = absl::Now();
  absl::StatusOr<segroup::UsageReport> report =
      segroup::ReadGroupUsage(client, group->uuid, group->tenant_ref, group->body, request);
  if (!report.ok()) return Failed(err, o.action, report.status());
  if (o.json) {
    Json j = segroup::UsageReportJson(*report);
    j["id"] = group->uuid;
    j["name"] = group->name;
    j["cloud"] = cloud->name;
    j["platform"] = sizing::PlatformName(request.platform);
    out << j.dump(2) << "\n";
  } else {
    out << UsageReportText(absl::StrCat("\"", group->name, "\" in ", cloud->name, " (",
                                        sizing::PlatformName(request.platform), ")"),
                           *report);
  }
  return 0;
}

// usage --all: the tenant's groups that pass the filters, read in a few metrics requests
// (segroup::ReadEstateUsage); a table, CSV, or with --json the nsxalb_se_groups_usage data
// source's value. With `show_progress`, a line on `err` follows the metrics requests and is
// erased at the end (for a terminal: nothing of it reaches stdout).
int RunEstateUsage(const Options& o, ctl::Client& client, bool show_progress, std::ostream& out,
                   std::ostream& err) {
  segroup::EstateUsageRequest request = EstateRequestOf(o);
  request.now = absl::Now();
  segroup::EstateProgress progress;
  if (show_progress) {
    progress = [&err](int done, int total) {
      err << "\r\033[K";
      if (total == 0) {
        err << "reading the SE groups, clouds and SEs";
      } else {
        err << "reading metrics: " << done << "/" << total << " requests";
      }
      err.flush();
    };
  }
  absl::StatusOr<segroup::EstateUsage> estate = segroup::ReadEstateUsage(client, request, progress);
  if (show_progress) err << "\r\033[K" << std::flush;
  if (!estate.ok()) return Failed(err, o.action, estate.status());
  const nlohmann::json json = segroup::EstateUsageJson(*estate);
  if (o.json) {
    out << json.dump(2) << "\n";
    return 0;
  }
  absl::StatusOr<EstateView> view = ReadEstateView(json);
  if (!view.ok()) return Failed(err, o.action, view.status());
  out << (o.csv ? EstateUsageCsv(*view) : EstateUsageText(*view));
  return 0;
}

// The command, with progress lines on `err` when `show_progress`. `own_process`: the binary's own
// run on the process's streams (rollout catches SIGINT and SIGTERM, and draws its progress line
// when stdout is a terminal), not an in-process test.
int Run(const std::vector<std::string>& args, const ControllerEnvLookup& env, std::istream& in,
        std::ostream& out, std::ostream& err, bool show_progress, bool own_process) {
  Options o;
  if (std::optional<UsageError> e = ParseArgs(args, o)) {
    err << kProgram << ": " << e->message << "\n\n" << kUsage;
    return 2;
  }
  if (o.help) {
    out << kUsage;
    return 0;
  }
  ctl::ClientConfig config;
  if (std::optional<UsageError> e = BuildConfig(o, env, config)) {
    err << kProgram << " " << o.action << ": " << e->message << "\n";
    return 2;
  }
  absl::StatusOr<std::unique_ptr<ctl::Client>> client = ctl::NewClient(config);
  if (!client.ok()) {
    err << kProgram << " " << o.action << ": " << client.status().message() << "\n";
    return 2;
  }
  if (o.action == "check") return RunCheck(o, config, **client, out, err);
  if (o.action == "list-se-groups") return RunList(o, **client, out, err);
  if (o.action == "apply-se-group") return RunApply(o, config, **client, in, out);
  if (o.action == "usage" && o.all) return RunEstateUsage(o, **client, show_progress, out, err);
  if (o.action == "usage") return RunUsage(o, **client, out, err);
  if (o.action == "rollout") {
    RolloutCommandOptions r;
    r.group = *o.name;
    r.cloud = o.cloud;
    r.dry_run = o.dry_run;
    r.max_unavailable = o.max_unavailable;
    r.timeout = o.timeout;
    r.poll_interval = o.poll_interval;
    r.workload = o.workload;
    r.progress = own_process && isatty(STDOUT_FILENO) == 1;
    r.stop_on_signals = own_process;
    return RunRolloutCommand(r, **client, config, out, err);
  }
  return RunGet(o, config, **client, out, err);
}

}  // namespace

int RunControllerCommand(const std::vector<std::string>& args, const ControllerEnvLookup& env,
                         std::ostream& out, std::ostream& err) {
  std::istringstream no_input;
  return RunControllerCommand(args, env, no_input, out, err);
}

int RunControllerCommand(const std::vector<std::string>& args, const ControllerEnvLookup& env,
                         std::istream& in, std::ostream& out, std::ostream& err) {
  return Run(args, env, in, out, err, /*show_progress=*/false, /*own_process=*/false);
}

int RunControllerCommand(const std::vector<std::string>& args, std::ostream& out,
                         std::ostream& err) {
  return Run(
      args,
      [](const std::string& name) -> std::optional<std::string> {
        const char* v = std::getenv(name.c_str());
        if (v == nullptr) return std::nullopt;
        return std::string(v);
      },
      std::cin, out, err, /*show_progress=*/isatty(STDERR_FILENO) == 1, /*own_process=*/true);
}

}  // namespace nsxalb::cli
