// The object database of the emulated Controller.
#include "emulator/store.h"

#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "emulator/field_rules.h"
#include "emulator/random_id.h"
#include "plugin/common/status_macros.h"

namespace nsxalb::emulator {
namespace {

using nlohmann::json;

constexpr char kDefaultGroup[] = "Default-Group";
constexpr char kDefaultCloud[] = "Default-Cloud";
// Keys the server owns: clients may send them but never set them.
constexpr const char* kServerOwned[] = {"uuid", "url", "_last_modified"};

// The object type a stored *_ref field names.
const char* RefType(const std::string& field) {
  if (field == "tenant_ref") return kTenant;
  if (field == "cloud_ref") return kCloud;
  if (field == "se_group_ref") return kSeGroup;
  return nullptr;
}

// Types whose objects belong to one tenant (others are visible to every tenant).
bool TenantScoped(const std::string& type) { return type == kSeGroup || type == kServiceEngine; }

std::string PercentDecode(absl::string_view in) {
  std::string out;
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '%' && i + 2 < in.size()) {
      int v = 0;
      if (std::sscanf(std::string(in.substr(i + 1, 2)).c_str(), "%2x", &v) == 1) {
        out.push_back(static_cast<char>(v));
        i += 2;
        continue;
      }
    }
    out.push_back(in[i] == '+' ? ' ' : in[i]);
  }
  return out;
}

// Aborted (the Controller's 412) when `last_modified` (the _last_modified a writer read; null
// when its write carries none, which the Controller accepts) is older than `existing`'s.
absl::Status CheckLastModified(const char* type, const json& existing, const json* last_modified) {
  if (last_modified == nullptr) return absl::OkStatus();
  // Microseconds since the epoch, as a string; compared as numbers.
  int64_t given = 0;
  int64_t stored = 0;
  const std::string text =
      last_modified->is_string() ? last_modified->get<std::string>() : last_modified->dump();
  if (!absl::SimpleAtoi(text, &given)) {
    return absl::InvalidArgumentError(absl::StrCat("Invalid _last_modified \"", text,
                                                   "\": expected microseconds since the epoch"));
  }
  if (absl::SimpleAtoi(existing.value("_last_modified", "0"), &stored) && given < stored) {
    return absl::AbortedError(
        absl::StrCat("Concurrent Update Error: ", type, " ", existing.value("name", ""),
                     " was modified since it was read (_last_modified ", text, ", current ", stored,
                     "). Read the object again and retry."));
  }
  return absl::OkStatus();
}

}  // namespace

Store::Store(Clock clock_micros) : clock_micros_(std::move(clock_micros)) {}

std::string Store::NextLastModifiedLocked() {
  int64_t now = clock_micros_();
  last_modified_ = now > last_modified_ ? now : last_modified_ + 1;
  return std::to_string(last_modified_);
}

void Store::InsertLocked(const std::string& type, json object) {
  Collection& c = collections_[type];
  const uint64_t seq = next_seq_++;
  c.seq_by_uuid[object["uuid"].get<std::string>()] = seq;
  c.by_seq[seq] = std::move(object);
}

json* Store::FindLocked(const std::string& type, const std::string& uuid) {
  auto c = collections_.find(type);
  if (c == collections_.end()) return nullptr;
  auto s = c->second.seq_by_uuid.find(uuid);
  if (s == c->second.seq_by_uuid.end()) return nullptr;
  return &c->second.by_seq[s->second];
}

json* Store::FindByNameLocked(const std::string& type, const std::string& name) {
  for (auto& [seq, obj] : collections_[type].by_seq) {
    if (obj.value("name", "") == name) return &obj;
  }
  return nullptr;
}

void Store::Seed() {
  absl::MutexLock lock(&mu_);
  collections_.clear();
  InsertLocked(kTenant, {{"uuid", "admin"},
                         {"name", "admin"},
                         {"local", true},
                         {"description", ""},
                         {"tenant_ref", "admin"},
                         {"_last_modified", NextLastModifiedLocked()}});
  const std::string vcenter = absl::StrCat("cloud-", NewUuid4());
  InsertLocked(kCloud, {{"uuid", vcenter},
                        {"name", kDefaultCloud},
                        {"vtype", "CLOUD_VCENTER"},
                        {"tenant_ref", "admin"},
                        {"vcenter_configuration",
                         {{"privilege", "WRITE_ACCESS"},
                          {"vcenter_url", "vcenter.example.invalid"},
                          {"datacenter", "Datacenter"}}},
                        {"license_tier", "ENTERPRISE"},
                        {"license_type", "LIC_CORES"},
                        {"_last_modified", NextLastModifiedLocked()}});
  const std::string nsxt = absl::StrCat("cloud-", NewUuid4());
  InsertLocked(kCloud, {{"uuid", nsxt},
                        {"name", "nsxt-cloud"},
                        {"vtype", "CLOUD_NSXT"},
                        {"tenant_ref", "admin"},
                        {"nsxt_configuration",
                         {{"nsxt_url", "nsxt.example.invalid"}, {"transport_zone", "overlay-tz"}}},
                        {"license_tier", "ENTERPRISE"},
                        {"license_type", "LIC_CORES"},
                        {"_last_modified", NextLastModifiedLocked()}});
  for (const std::string& cloud : {vcenter, nsxt}) {
    InsertLocked(kSeGroup, {{"uuid", absl::StrCat("serviceenginegroup-", NewUuid4())},
                            {"name", kDefaultGroup},
                            {"tenant_ref", "admin"},
                            {"cloud_ref", cloud},
                            {"_last_modified", NextLastModifiedLocked()}});
  }
}

absl::Status Store::Load(const std::string& path, json* others) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("state file ", path, " does not exist"));
  std::stringstream buf;
  buf << in.rdbuf();
  json doc = json::parse(buf.str(), nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object() || !doc["objects"].is_object()) {
    return absl::InvalidArgumentError(
        absl::StrCat("state file ", path, " is not an emulator state file (no \"objects\")"));
  }
  absl::MutexLock lock(&mu_);
  collections_.clear();
  for (const char* type : {kTenant, kCloud, kSeGroup, kServiceEngine}) {
    // State files written before Service Engines existed have none.
    if (type == std::string(kServiceEngine) && !doc["objects"].contains(type)) continue;
    const json& list = doc["objects"][type];
    if (!list.is_array()) {
      return absl::InvalidArgumentError(
          absl::StrCat("state file ", path, ": objects.", type, " must be a list"));
    }
    for (const json& obj : list) {
      if (!obj.is_object() || !obj["uuid"].is_string() || !obj["name"].is_string()) {
        return absl::InvalidArgumentError(
            absl::StrCat("state file ", path, ": every ", type, " needs a string uuid and name"));
      }
      InsertLocked(type, obj);
    }
  }
  if (doc["last_modified"].is_number_integer()) last_modified_ = doc["last_modified"];
  if (others != nullptr) {
    *others = json::object();
    for (const auto& [type, list] : doc["objects"].items()) {
      if (type != kTenant && type != kCloud && type != kSeGroup && type != kServiceEngine) {
        (*others)[type] = list;
      }
    }
  }
  return absl::OkStatus();
}

absl::Status Store::Save(const std::string& path, const json& others) {
  absl::MutexLock save_lock(&save_mu_);
  json doc = Dump();
  for (const auto& [type, list] : others.items()) {
    if (!doc.contains(type)) doc[type] = list;
  }
  {
    absl::MutexLock lock(&mu_);
    doc = {{"format", 1}, {"objects", doc}, {"last_modified", last_modified_}};
  }
  const std::string tmp = absl::StrCat(path, ".tmp");
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << doc.dump(2) << "\n";
    if (!out) return absl::InternalError(absl::StrCat("cannot write ", tmp));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    return absl::InternalError(absl::StrCat("cannot rename ", tmp, " to ", path));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> Store::TenantUuid(const std::string& name_or_uuid) {
  absl::MutexLock lock(&mu_);
  if (FindLocked(kTenant, name_or_uuid) != nullptr) return name_or_uuid;
  if (json* t = FindByNameLocked(kTenant, name_or_uuid)) return t->at("uuid").get<std::string>();
  return absl::NotFoundError(absl::StrCat("Tenant '", name_or_uuid, "' not found"));
}

absl::StatusOr<std::string> Store::CreateTenant(const std::string& name) {
  if (name.empty()) return absl::InvalidArgumentError("name: required, the tenant's name");
  absl::MutexLock lock(&mu_);
  if (FindByNameLocked(kTenant, name) != nullptr) {
    return absl::AlreadyExistsError(absl::StrCat("Tenant with name '", name, "' already exists"));
  }
  const std::string uuid = absl::StrCat("tenant-", NewUuid4());
  InsertLocked(kTenant, {{"uuid", uuid},
                         {"name", name},
                         {"local", true},
                         {"description", ""},
                         {"tenant_ref", "admin"},
                         {"_last_modified", NextLastModifiedLocked()}});
  return uuid;
}

absl::StatusOr<json> Store::Get(const std::string& type, const std::string& uuid,
                                const std::string& tenant_uuid) {
  absl::MutexLock lock(&mu_);
  json* obj = FindLocked(type, uuid);
  if (obj == nullptr ||
      (TenantScoped(type) && tenant_uuid != "*" && obj->value("tenant_ref", "") != tenant_uuid)) {
    return absl::NotFoundError(absl::StrCat("Object ", uuid, " of type ", type, " not found"));
  }
  return *obj;
}

std::vector<json> Store::List(const std::string& type, const ListFilter& f) {
  absl::MutexLock lock(&mu_);
  std::vector<json> out;
  for (const auto& [seq, obj] : collections_[type].by_seq) {
    const std::string name = obj.value("name", "");
    if (TenantScoped(type) && f.tenant_uuid != "*" &&
        obj.value("tenant_ref", "") != f.tenant_uuid) {
      continue;
    }
    if (f.refers_to.has_value()) {
      bool refers = false;
      for (auto it = obj.begin(); it != obj.end() && !refers; ++it) {
        const char* ref_type = RefType(it.key());
        refers = ref_type != nullptr && ref_type == f.refers_to->first &&
                 it.value() == f.refers_to->second;
      }
      if (!refers) continue;
    }
    if (f.name.has_value() && name != *f.name) continue;
    if (f.name_contains.has_value() && !absl::StrContains(name, *f.name_contains)) continue;
    if (f.cloud_uuid.has_value() && obj.value("cloud_ref", "") != *f.cloud_uuid) continue;
    out.push_back(obj);
  }
  return out;
}

absl::StatusOr<std::string> Store::ResolveRefLocked(const std::string& type,
                                                    const std::string& field, const json& ref) {
  if (!ref.is_string()) {
    return absl::InvalidArgumentError(absl::StrCat("Invalid value ", ref.dump(), " for field ",
                                                   field, ": expected a ref string."));
  }
  const std::string text = ref.get<std::string>();
  auto not_found = [&](const std::string& what) {
    return absl::InvalidArgumentError(absl::StrCat("Invalid ", field, " \"", text, "\": ", type,
                                                   " object ", what, " not found."));
  };
  std::string rest = text.substr(0, text.find('#'));
  const size_t api = rest.find("/api/");
  if (api == std::string::npos) {
    // A bare uuid or name.
    if (FindLocked(type, rest) != nullptr) return rest;
    if (json* o = FindByNameLocked(type, rest)) return o->at("uuid").get<std::string>();
    return not_found(rest);
  }
  rest = rest.substr(api + 5);
  const size_t end_type = rest.find_first_of("/?");
  const std::string ref_type = rest.substr(0, end_type);
  if (ref_type != type) {
    return absl::InvalidArgumentError(
        absl::StrCat("Invalid ", field, " \"", text, "\": expected a reference to a ", type, "."));
  }
  rest = end_type == std::string::npos ? "" : rest.substr(end_type);
  if (absl::StartsWith(rest, "/")) rest = rest.substr(1);
  if (absl::StartsWith(rest, "?")) {
    for (absl::string_view kv : absl::StrSplit(rest.substr(1), '&')) {
      std::pair<std::string, std::string> p = absl::StrSplit(kv, absl::MaxSplits('=', 1));
      if (p.first == "name") {
        const std::string name = PercentDecode(p.second);
        if (json* o = FindByNameLocked(type, name)) return o->at("uuid").get<std::string>();
        return not_found(absl::StrCat("named '", name, "'"));
      }
    }
    return not_found("(no name= in the query)");
  }
  const std::string uuid = rest.substr(0, rest.find_first_of("/?"));
  if (FindLocked(type, uuid) == nullptr) return not_found(uuid);
  return uuid;
}

absl::Status Store::PrepareSeGroupLocked(const json& body, const std::string& tenant_uuid,
                                         const std::string& self_uuid, json* out) {
  if (!body.is_object()) return absl::InvalidArgumentError("Request body must be a JSON object.");
  if (!body.contains("name") || !body["name"].is_string() ||
      body["name"].get<std::string>().empty()) {
    return absl::InvalidArgumentError("Field 'name' is required and must be a non-empty string.");
  }
  json obj = body;
  for (const char* key : kServerOwned) obj.erase(key);
  // Null values mean "not set".
  for (auto it = obj.begin(); it != obj.end();) {
    it = it.value().is_null() ? obj.erase(it) : std::next(it);
  }
  std::string tenant = tenant_uuid;
  if (obj.contains("tenant_ref")) {
    NSXALB_ASSIGN_OR_RETURN(std::string t,
                            ResolveRefLocked(kTenant, "tenant_ref", obj["tenant_ref"]));
    tenant = t;
  }
  std::string cloud;
  if (obj.contains("cloud_ref")) {
    NSXALB_ASSIGN_OR_RETURN(std::string c, ResolveRefLocked(kCloud, "cloud_ref", obj["cloud_ref"]));
    cloud = c;
  } else {
    json* def = FindByNameLocked(kCloud, kDefaultCloud);
    if (def == nullptr) return absl::FailedPreconditionError("Default-Cloud does not exist.");
    cloud = def->at("uuid").get<std::string>();
  }
  obj["tenant_ref"] = tenant;
  obj["cloud_ref"] = cloud;
  const std::string name = obj["name"].get<std::string>();
  for (const auto& [seq, other] : collections_[kSeGroup].by_seq) {
    if (other.value("uuid", "") != self_uuid && other.value("name", "") == name &&
        other.value("tenant_ref", "") == tenant && other.value("cloud_ref", "") == cloud) {
      json* c = FindLocked(kCloud, cloud);
      json* t = FindLocked(kTenant, tenant);
      return absl::AlreadyExistsError(
          absl::StrCat("Service Engine Group with name '", name, "' already exists in tenant '",
                       t ? t->value("name", tenant) : tenant, "' and cloud '",
                       c ? c->value("name", cloud) : cloud, "'."));
    }
  }
  *out = std::move(obj);
  return absl::OkStatus();
}

absl::StatusOr<json> Store::CreateSeGroup(const json& body, const std::string& tenant_uuid) {
  absl::MutexLock lock(&mu_);
  json obj;
  NSXALB_RETURN_IF_ERROR(PrepareSeGroupLocked(body, tenant_uuid, "", &obj));
  obj["uuid"] = absl::StrCat("serviceenginegroup-", NewUuid4());
  obj["_last_modified"] = NextLastModifiedLocked();
  InsertLocked(kSeGroup, obj);
  return obj;
}

absl::StatusOr<json> Store::ReplaceSeGroup(const std::string& uuid, const json& body,
                                           const std::string& tenant_uuid,
                                           const json* last_modified) {
  absl::MutexLock lock(&mu_);
  json* existing = FindLocked(kSeGroup, uuid);
  if (existing == nullptr || existing->value("tenant_ref", "") != tenant_uuid) {
    return absl::NotFoundError(absl::StrCat("Object ", uuid, " of type ", kSeGroup, " not found"));
  }
  NSXALB_RETURN_IF_ERROR(CheckLastModified(kSeGroup, *existing, last_modified));
  json obj;
  NSXALB_RETURN_IF_ERROR(PrepareSeGroupLocked(body, tenant_uuid, uuid, &obj));
  if (obj["tenant_ref"] != (*existing)["tenant_ref"]) {
    return absl::InvalidArgumentError("Field tenant_ref cannot be changed.");
  }
  if (body.contains("cloud_ref") && obj["cloud_ref"] != (*existing)["cloud_ref"]) {
    return absl::InvalidArgumentError("Field cloud_ref cannot be changed.");
  }
  obj["cloud_ref"] = (*existing)["cloud_ref"];
  if (existing->value("name", "") == kDefaultGroup && obj["name"] != kDefaultGroup) {
    return absl::PermissionDeniedError("Cannot rename system default object");
  }
  obj["uuid"] = uuid;
  obj["_last_modified"] = NextLastModifiedLocked();
  *existing = obj;
  return obj;
}

absl::Status Store::TouchSeGroup(const std::string& uuid, const std::string& field, int value) {
  absl::MutexLock lock(&mu_);
  json* existing = FindLocked(kSeGroup, uuid);
  if (existing == nullptr) {
    return absl::NotFoundError(absl::StrCat("Object ", uuid, " of type ", kSeGroup, " not found"));
  }
  (*existing)[field] = value;
  (*existing)["_last_modified"] = NextLastModifiedLocked();
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> Store::DeleteSeGroup(const std::string& uuid,
                                                              const std::string& tenant_uuid) {
  absl::MutexLock lock(&mu_);
  json* existing = FindLocked(kSeGroup, uuid);
  if (existing == nullptr ||
      (tenant_uuid != "*" && existing->value("tenant_ref", "") != tenant_uuid)) {
    return absl::NotFoundError(absl::StrCat("Object ", uuid, " of type ", kSeGroup, " not found"));
  }
  if (existing->value("name", "") == kDefaultGroup) {
    return absl::PermissionDeniedError("Cannot delete system default object");
  }
  Collection& c = collections_[kSeGroup];
  c.by_seq.erase(c.seq_by_uuid[uuid]);
  c.seq_by_uuid.erase(uuid);
  // Its Service Engines go with it (docs/emulator.md: a real Controller refuses instead).
  std::vector<std::string> removed;
  Collection& ses = collections_[kServiceEngine];
  for (auto it = ses.by_seq.begin(); it != ses.by_seq.end();) {
    if (it->second.value("se_group_ref", "") != uuid) {
      ++it;
      continue;
    }
    removed.push_back(it->second.value("uuid", ""));
    ses.seq_by_uuid.erase(removed.back());
    it = ses.by_seq.erase(it);
  }
  return removed;
}

absl::StatusOr<std::vector<std::string>> Store::CreateServiceEngines(
    const std::string& group_uuid, int count, std::optional<int> vcpus, const json& defaults,
    const LicenseAdmission& admit) {
  absl::MutexLock lock(&mu_);
  json* group = FindLocked(kSeGroup, group_uuid);
  if (group == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("Object ", group_uuid, " of type ", kSeGroup, " not found"));
  }
  auto size = [&](const char* field) -> int64_t {
    for (const json* source : {static_cast<const json*>(group), &defaults}) {
      auto it = source->find(field);
      if (it != source->end() && it->is_number_integer()) return it->get<int64_t>();
    }
    return 0;
  };
  const std::string group_name = group->value("name", "");
  // Names "<group>-se-<n>", numbered on from the group's highest so far.
  int next = 1;
  for (const auto& [seq, se] : collections_[kServiceEngine].by_seq) {
    if (se.value("se_group_ref", "") != group_uuid) continue;
    const json& n = se.value("_se_number", json());
    if (n.is_number_integer() && n.get<int>() >= next) next = n.get<int>() + 1;
  }
  const int num_vcpus = vcpus.has_value() ? *vcpus : static_cast<int>(size("vcpus_per_se"));
  const json resources = {
      {"num_vcpus", num_vcpus}, {"memory", size("memory_per_se")}, {"disk", size("disk_per_se")}};
  // What each SE holds of the licence (docs/emulator.md, "The licence ledger").
  const json* cloud = FindLocked(kCloud, group->value("cloud_ref", ""));
  const LicenseCharge charge = LicenseChargeOf(
      *group, cloud != nullptr ? cloud->value("license_tier", "") : std::string(), num_vcpus);
  std::vector<std::string> uuids;
  for (int i = 0; i < count; ++i, ++next) {
    std::string uuid = absl::StrCat("se-", NewUuid4());
    if (admit) {
      LicenseCharge mine = charge;
      mine.uuid = uuid;
      absl::Status admitted = admit(mine);
      if (!admitted.ok()) {
        return absl::Status(
            admitted.code(),
            absl::StrCat("created ", i, " of ", count, " Service Engines: ", admitted.message()));
      }
    }
    InsertLocked(kServiceEngine,
                 {{"uuid", uuid},
                  {"name", absl::StrCat(group_name, "-se-", next)},
                  {"_se_number", next},
                  {"_license", {{"tier", charge.tier}, {"service_cores", charge.service_cores}}},
                  {"se_group_ref", group_uuid},
                  {"cloud_ref", group->value("cloud_ref", "")},
                  {"tenant_ref", group->value("tenant_ref", "")},
                  {"resources", resources},
                  {"enable_state", "SE_STATE_ENABLED"},
                  {"_last_modified", NextLastModifiedLocked()}});
    uuids.push_back(std::move(uuid));
  }
  return uuids;
}

std::vector<LicenseCharge> Store::LicenseCharges() {
  absl::MutexLock lock(&mu_);
  std::vector<LicenseCharge> out;
  for (const auto& [seq, se] : collections_[kServiceEngine].by_seq) {
    const json& charge = se.value("_license", json::object());
    // A state file from before the ledger: the SE's vCPUs under the default tier.
    double units = 0;
    const json& resources = se.value("resources", json::object());
    if (resources.contains("num_vcpus") && resources["num_vcpus"].is_number()) {
      units = resources["num_vcpus"].get<double>();
    }
    if (charge.contains("service_cores") && charge["service_cores"].is_number()) {
      units = charge["service_cores"].get<double>();
    }
    out.push_back({se.value("uuid", ""), charge.value("tier", kDefaultLicenseTier), units,
                   se.value("tenant_ref", "")});
  }
  return out;
}

absl::StatusOr<json> Store::UpdateServiceEngine(const std::string& uuid, const json& fields,
                                                const json* last_modified) {
  absl::MutexLock lock(&mu_);
  json* existing = FindLocked(kServiceEngine, uuid);
  if (existing == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("Object ", uuid, " of type ", kServiceEngine, " not found"));
  }
  NSXALB_RETURN_IF_ERROR(CheckLastModified(kServiceEngine, *existing, last_modified));
  for (auto it = fields.begin(); it != fields.end(); ++it) (*existing)[it.key()] = it.value();
  (*existing)["_last_modified"] = NextLastModifiedLocked();
  return *existing;
}

absl::Status Store::DeleteServiceEngine(const std::string& uuid) {
  absl::MutexLock lock(&mu_);
  Collection& c = collections_[kServiceEngine];
  auto s = c.seq_by_uuid.find(uuid);
  if (s == c.seq_by_uuid.end()) {
    return absl::NotFoundError(
        absl::StrCat("Object ", uuid, " of type ", kServiceEngine, " not found"));
  }
  c.by_seq.erase(s->second);
  c.seq_by_uuid.erase(s);
  return absl::OkStatus();
}

absl::StatusOr<json> Store::CreateCloud(const std::string& name, const std::string& vtype,
                                        const std::string& privilege) {
  absl::MutexLock lock(&mu_);
  if (FindByNameLocked(kCloud, name) != nullptr) {
    return absl::AlreadyExistsError(absl::StrCat("Cloud with name '", name, "' already exists."));
  }
  json cloud = {{"uuid", absl::StrCat("cloud-", NewUuid4())},
                {"name", name},
                {"vtype", vtype},
                {"tenant_ref", "admin"},
                {"license_tier", "ENTERPRISE"},
                {"license_type", "LIC_CORES"},
                {"_last_modified", NextLastModifiedLocked()}};
  if (!privilege.empty()) cloud["vcenter_configuration"] = {{"privilege", privilege}};
  InsertLocked(kCloud, cloud);
  InsertLocked(kSeGroup, {{"uuid", absl::StrCat("serviceenginegroup-", NewUuid4())},
                          {"name", kDefaultGroup},
                          {"tenant_ref", "admin"},
                          {"cloud_ref", cloud["uuid"]},
                          {"_last_modified", NextLastModifiedLocked()}});
  return cloud;
}

json Store::Render(const std::string& type, const json& stored, const RenderOptions& o) {
  json out = json::object();
  if (type == kSeGroup) {
    const json defaults = DefaultsFor(o.version);
    if (!o.skip_default) out = defaults;
    for (auto it = stored.begin(); it != stored.end(); ++it) {
      if (o.skip_default) {
        auto d = defaults.find(it.key());
        if (d != defaults.end() && *d == it.value()) continue;
      }
      out[it.key()] = it.value();
    }
    for (auto it = out.begin(); it != out.end();) {
      it = IsNewerThan(it.key(), o.version) ? out.erase(it) : std::next(it);
    }
  } else {
    out = stored;
  }
  absl::MutexLock lock(&mu_);
  auto ref = [&](const std::string& ref_type, const std::string& uuid) {
    std::string s = absl::StrCat(o.base_url, "/api/", ref_type, "/", uuid);
    if (o.include_name) {
      json* target = FindLocked(ref_type, uuid);
      if (target != nullptr) absl::StrAppend(&s, "#", target->value("name", ""));
    }
    return s;
  };
  const std::string uuid = stored.value("uuid", "");
  out["url"] = ref(type, uuid);
  if (stored.contains("tenant_ref"))
    out["tenant_ref"] = ref(kTenant, stored["tenant_ref"].get<std::string>());
  if (stored.contains("cloud_ref"))
    out["cloud_ref"] = ref(kCloud, stored["cloud_ref"].get<std::string>());
  if (stored.contains("se_group_ref"))
    out["se_group_ref"] = ref(kSeGroup, stored["se_group_ref"].get<std::string>());
  out.erase("_se_number");
  out.erase("_license");
  // Written by emulators before the SE lifecycle; the runtime holds it now.
  if (type == kServiceEngine) out.erase("oper_status");
  if (!o.fields.empty()) {
    json projected = {{"uuid", uuid}, {"url", out["url"]}};
    for (const std::string& f : o.fields) {
      if (out.contains(f)) projected[f] = out[f];
    }
    out = std::move(projected);
  }
  return out;
}

json Store::Dump() {
  absl::MutexLock lock(&mu_);
  json out = json::object();
  for (const char* type : {kTenant, kCloud, kSeGroup, kServiceEngine}) {
    json list = json::array();
    for (const auto& [seq, obj] : collections_[type].by_seq) list.push_back(obj);
    out[type] = list;
  }
  return out;
}

}  // namespace nsxalb::emulator
