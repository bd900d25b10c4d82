// Controller object references ("refs"): parsing the forms users and the Controller write, and
// normalising them so two spellings of the same object compare equal.
//
// Accepted forms, for an expected object type such as "cloud":
//   https://ctrl/api/cloud/cloud-1a2b...            full URL (as a plain GET returns it)
//   https://ctrl/api/cloud/cloud-1a2b...#Default-Cloud  with the name (POST responses,
//   include_name) /api/cloud/cloud-1a2b...                        path only
//   /api/cloud/?name=Default-Cloud, /api/cloud?tenant=admin&name=Default-Cloud   by name
//   cloud-1a2b...                                   bare uuid ("<type>-<uuid4>")
//   Default-Cloud                                   bare name
#ifndef NSXALB_PLUGIN_CONTROLLER_REFS_H_
#define NSXALB_PLUGIN_CONTROLLER_REFS_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace nsxalb::controller {

// A parsed reference. At least one of uuid and name is set.
struct ObjectRef {
  std::string type;  // the API object type, e.g. "cloud", "tenant", "serviceenginegroup"
  std::string uuid;  // empty when the ref names the object only by name
  std::string name;  // empty when unknown

  // Canonical form: "/api/<type>/<uuid>" when the uuid is known, else "/api/<type>/?name=<name>"
  // (name percent-encoded). Two refs to the same object by uuid normalise equally.
  std::string Normalized() const;
};

// Parses `text` as a reference to an object of `type`. Errors are InvalidArgument naming
// `field` (e.g. "cloud_ref") and saying which form was expected; a ref to another object type
// ("/api/tenant/..." where a cloud is expected) is an error.
absl::StatusOr<ObjectRef> ParseRef(std::string_view text, std::string_view type,
                                   std::string_view field);

// True when `text` looks like a Controller-generated uuid: "<lowercase type>-" followed by a
// uuid4 in 8-4-4-4-12 hex form (e.g. "cloud-def13c1e-3c1d-4d0e-9a39-8a2d0c9b2f00").
bool LooksLikeUuid(std::string_view text);

// True when `a` and `b` refer to the same object: equal uuids when both carry one, else equal
// names when both carry one. Refs of different types never match.
bool SameObject(const ObjectRef& a, const ObjectRef& b);

// Percent-decodes a URL query component ('+' is a space). Invalid escapes are kept verbatim.
std::string UrlDecode(std::string_view text);

// Percent-encodes everything but unreserved characters (RFC 3986).
std::string UrlEncode(std::string_view text);

}  // namespace nsxalb::controller

#endif  // NSXALB_PLUGIN_CONTROLLER_REFS_H_
