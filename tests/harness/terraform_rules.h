// Terraform core's side of the plugin contract, for the integration harness: the rules that
// Terraform enforces on a provider's answers (reference §4), implemented once from the schema
// that GetSchema returned, so a test fails exactly where Terraform would.
//
// The harness converts the protobuf schema into the Block below, decodes DynamicValues with
// nsxalb_cty using ImpliedType(block), and then calls the Assert* functions in the order Terraform
// does: ProposedNewObject to build proposed_new_state, AssertPlanResult on the plan response,
// AssertApplyResult on the apply response, and so on. Every Assert* returns OK or a
// kFailedPrecondition status whose message is Terraform's diagnostic, "Summary: detail", with one
// line per problem (e.g. "Provider produced invalid plan: Provider \"...\" planned an invalid value
// for test_thing.a.name: planned value cty.StringVal(\"b\") does not match config value
// cty.StringVal(\"a\")").
#ifndef NSXALB_TESTS_HARNESS_TERRAFORM_RULES_H_
#define NSXALB_TESTS_HARNESS_TERRAFORM_RULES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "plugin/cty/path.h"
#include "plugin/cty/type.h"
#include "plugin/cty/value.h"
#include "proto/tfplugin5.pb.h"

namespace nsxalb::harness {

// One attribute of a block (configschema.Attribute).
struct Attribute {
  std::string name;
  cty::Type type;
  bool required = false;
  bool optional = false;
  bool computed = false;
  bool sensitive = false;
  bool write_only = false;
};

struct NestedBlock;

// A block of attributes and nested blocks (configschema.Block).
struct Block {
  std::vector<Attribute> attributes;
  std::vector<NestedBlock> block_types;

  // The attribute or nested block called `name`, or nullptr.
  const Attribute* FindAttribute(std::string_view name) const;
  const NestedBlock* FindBlockType(std::string_view name) const;
};

// A nested block type (configschema.NestedBlock).
struct NestedBlock {
  enum class Nesting { kInvalid, kSingle, kList, kSet, kMap, kGroup };
  std::string type_name;
  Nesting nesting = Nesting::kInvalid;
  int64_t min_items = 0;
  int64_t max_items = 0;
  Block block;
};

// A resource, data source or provider schema.
struct Schema {
  int64_t version = 0;
  Block block;
};

// Converts the wire schema. Fails (naming the attribute) when an attribute's type is not valid type
// JSON, where Terraform v0.13 would crash.
absl::StatusOr<Block> BlockFromProto(const tfplugin5::Schema::Block& block);
absl::StatusOr<Schema> SchemaFromProto(const tfplugin5::Schema& schema);

// Converts a wire attribute path (requires_replace, diagnostics).
cty::AttributePath AttributePathFromProto(const tfplugin5::AttributePath& path);

// The object type that values of `block` have on the wire. SINGLE and GROUP blocks are objects,
// LIST/SET/MAP blocks lists/sets/maps of objects; a LIST or MAP block whose contents include a
// dynamic attribute is typed Dynamic (its value is then a tuple or an object), as in Terraform.
cty::Type ImpliedType(const Block& block);

// The value of an absent block: every attribute null, SINGLE blocks null, GROUP blocks their own
// empty value, LIST/SET/MAP blocks empty (configschema.Block.EmptyValue).
cty::Value EmptyValue(const Block& block);

// What Terraform sends as proposed_new_state (objchange.ProposedNew): the config, with
// Optional+Computed attributes that are null in config and Computed-only attributes taken from
// prior; nested blocks correlated by index (LIST), key (MAP) or non-computed content (SET).
cty::Value ProposedNewObject(const Block& block, const cty::Value& prior, const cty::Value& config);

// Names used in messages.
struct Subject {
  std::string provider = "registry.terraform.io/hashicorp/nsxalb";
  std::string address = "nsxalb_test.test";  // resource or data source address
};

// Checks that `value` conforms to ImpliedType(block): every attribute present, types right.
absl::Status AssertConforms(const Block& block, const cty::Value& value, const Subject& subject);

// objchange.AssertPlanValid: every attribute of `planned` must equal config, or the non-null prior
// when config is non-null, or be Computed with config null (Computed-only: anything). Nested
// blocks: never wholly unknown; LIST/MAP counts equal config; LIST/SET/MAP never null. The
// returned error is "Provider produced invalid plan".
absl::Status AssertPlanValid(const Block& block, const cty::Value& prior, const cty::Value& config,
                             const cty::Value& planned, const Subject& subject = Subject());

// Everything Terraform checks on a PlanResourceChange response: `planned` conforms to the schema,
// AssertPlanValid, and each requires_replace path exists in prior or planned (ignored on create).
absl::Status AssertPlanResult(const Block& block, const cty::Value& prior, const cty::Value& config,
                              const cty::Value& planned,
                              const std::vector<cty::AttributePath>& requires_replace,
                              const Subject& subject = Subject());

// The requires_replace paths Terraform keeps: those whose prior and planned values differ. Empty
// on create (prior null).
std::vector<cty::AttributePath> ReplacePaths(const cty::Value& prior, const cty::Value& planned,
                                             const std::vector<cty::AttributePath>& paths);

// objchange.AssertObjectCompatible: every known planned value must be equal in `actual`; a planned
// unknown may become anything of its type; a planned null stays null; list and map elements
// neither appear nor vanish. The returned error is "Provider produced inconsistent result after
// apply".
absl::Status AssertObjectCompatible(const Block& block, const cty::Value& planned,
                                    const cty::Value& actual, const Subject& subject = Subject());

// Everything Terraform checks on an ApplyResourceChange response. With `planned` null (destroy)
// the result must be null. Otherwise it must be non-null, conform to the schema, be wholly known
// ("still indicated an unknown value") and be compatible with `planned`.
absl::Status AssertApplyResult(const Block& block, const cty::Value& planned,
                               const cty::Value& new_state, const Subject& subject = Subject());

// ReadResource: null (the object is gone) or a conforming value.
absl::Status AssertReadResult(const Block& block, const cty::Value& new_state,
                              const Subject& subject = Subject());

// ImportResourceState: each imported object needs a type_name and a conforming, non-null state.
absl::Status AssertImportedResource(const Block& block, std::string_view type_name,
                                    const cty::Value& state, const Subject& subject = Subject());

// The ReadResource that follows an import must not return null ("Cannot import non-existent
// remote object").
absl::Status AssertImportReadResult(const Block& block, const cty::Value& new_state,
                                    const Subject& subject = Subject());

// ReadDataSource: non-null, conforming and wholly known.
absl::Status AssertDataSourceResult(const Block& block, const cty::Value& state,
                                    const Subject& subject = Subject());

// UpgradeResourceState: upgraded_state must be a non-null conforming object.
absl::Status AssertUpgradeResult(const Block& block, const cty::Value& upgraded,
                                 const Subject& subject = Subject());

// configschema.Block.InternalValidate (§4.4): names match ^[a-z0-9_]+$, each attribute sets one of
// Optional/Required/Computed, not Optional+Required, not Computed+Required; NestingSingle
// min_items == max_items, both 0 or 1; GROUP and MAP min/max 0; LIST/SET min <= max when max is
// set; SET blocks contain no dynamic attribute; no name used twice. Returns every problem, each
// prefixed with its dotted name ("vcenters.name: ...").
std::vector<std::string> InternalValidate(const Block& block);

// InternalValidate plus the schema version check, as Terraform runs it on GetSchema's answer for
// each resource and data source. `name` is the resource type name for messages.
absl::Status ValidateSchema(const tfplugin5::Schema& schema, std::string_view name);

}  // namespace nsxalb::harness

#endif  // NSXALB_TESTS_HARNESS_TERRAFORM_RULES_H_
