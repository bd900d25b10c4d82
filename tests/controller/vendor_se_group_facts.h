// Facts about ServiceEngineGroup fields, transcribed by hand from the vendor's own text, so that
// the field catalog (plugin/controller/se_group_fields_data.cc, shared by the client and the
// emulator) is checked against something neither of them, nor the catalog's generator, produced.
// A mistake in the catalog is otherwise invisible: both sides would agree on the wrong answer.
//
// Covered: every field the provider types (nsxalb_se_group's attributes that are Avi fields),
// and every field for which the vendor documents allowed values or special values.
#ifndef NSXALB_TESTS_CONTROLLER_VENDOR_SE_GROUP_FACTS_H_
#define NSXALB_TESTS_CONTROLLER_VENDOR_SE_GROUP_FACTS_H_

#include <vector>

namespace nsxalb::testing {

// One field as the vendor documents it. Text columns are written the way the catalog writes
// them (no spaces: "0-100", "0,1,2,4,8,16", "17.2.13,18.1.3,18.2.1"); "" means the vendor says
// nothing.
struct VendorFieldFacts {
  const char* name;
  // From the description in the Go SDK model (vmware/alb-sdk go/models/service_engine_group.go,
  // the 30.2 text): "Field introduced in ...", "Allowed values are ...", and the values of
  // "Special values are N- 'meaning'", which a Controller accepts although outside the allowed
  // values.
  const char* introduced;
  const char* allowed;
  const char* special;
  // The "default" of the property in swagger/ServiceEngineGroup.json (vmware/alb-sdk), as JSON
  // text. The Go model carries no defaults.
  const char* default_json;
  // Where the swagger has no default: the value the vendor's Terraform provider
  // (vmware/terraform-provider-avi, avi/resource_avi_serviceenginegroup.go, schema Default)
  // sends when a configuration leaves the field out, i.e. what a real Avi client puts on the
  // wire on every create. "" where that provider sends nothing (Computed).
  const char* client_default_json;
};

// The facts, sorted by name.
const std::vector<VendorFieldFacts>& VendorSeGroupFacts();

// The Avi fields nsxalb_se_group types (provider_schema), which the facts must all cover.
const std::vector<const char*>& ProviderTypedFields();

}  // namespace nsxalb::testing

#endif  // NSXALB_TESTS_CONTROLLER_VENDOR_SE_GROUP_FACTS_H_
