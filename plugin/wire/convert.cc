// tfplugin5 <-> framework conversions.
#include "plugin/wire/convert.h"

#include "absl/strings/str_cat.h"
#include "plugin/common/status_macros.h"
#include "plugin/cty/json.h"
#include "plugin/cty/msgpack.h"

namespace nsxalb::wire {
namespace {

tfplugin5::StringKind KindToProto(framework::DescriptionKind kind) {
  return kind == framework::DescriptionKind::kMarkdown ? tfplugin5::MARKDOWN : tfplugin5::PLAIN;
}

tfplugin5::Schema::NestedBlock::NestingMode NestingToProto(framework::NestedBlock::Nesting n) {
  using N = framework::NestedBlock::Nesting;
  switch (n) {
    case N::kSingle:
      return tfplugin5::Schema::NestedBlock::SINGLE;
    case N::kList:
      return tfplugin5::Schema::NestedBlock::LIST;
    case N::kSet:
      return tfplugin5::Schema::NestedBlock::SET;
    case N::kMap:
      return tfplugin5::Schema::NestedBlock::MAP;
    case N::kGroup:
      return tfplugin5::Schema::NestedBlock::GROUP;
  }
  return tfplugin5::Schema::NestedBlock::INVALID;
}

void BlockToProto(const framework::Block& block, tfplugin5::Schema::Block* out) {
  for (const auto& [name, attr] : block.attributes) {
    tfplugin5::Schema::Attribute* a = out->add_attributes();
    a->set_name(name);
    a->set_type(attr.type.ToJson());
    a->set_description(attr.description);
    a->set_description_kind(KindToProto(attr.description_kind));
    a->set_required(attr.required);
    a->set_optional(attr.optional);
    a->set_computed(attr.computed);
    a->set_sensitive(attr.sensitive);
    a->set_deprecated(attr.deprecated);
  }
  for (const auto& [name, nested] : block.block_types) {
    tfplugin5::Schema::NestedBlock* b = out->add_block_types();
    b->set_type_name(name);
    b->set_nesting(NestingToProto(nested.nesting));
    b->set_min_items(nested.min_items);
    b->set_max_items(nested.max_items);
    BlockToProto(nested.block, b->mutable_block());
  }
  out->set_description(block.description);
  out->set_description_kind(KindToProto(block.description_kind));
  out->set_deprecated(block.deprecated);
}

void AddDecodeError(const framework::Block& schema, const char* what, const absl::Status& status,
                    framework::Diagnostics& diagnostics) {
  std::optional<cty::AttributePath> path = cty::ErrorPath(status);
  std::string detail;
  if (path.has_value() && framework::IsSensitivePath(schema, *path)) {
    detail = absl::StrCat("The ", what,
                          " sent by Terraform has an invalid value for the "
                          "sensitive attribute at ",
                          path->ToString(), ".");
  } else {
    detail = absl::StrCat(
        "The ", what, " sent by Terraform could not be decoded: ", std::string(status.message()));
  }
  framework::Diagnostic d;
  d.severity = framework::Severity::kError;
  d.summary = absl::StrCat("Invalid ", what);
  d.detail = std::move(detail);
  if (path.has_value() && !path->empty()) d.path = *path;
  diagnostics.Add(std::move(d));
}

}  // namespace

bool DecodeValue(bool present, const tfplugin5::DynamicValue& in, const framework::Block& schema,
                 const char* what, cty::Value* out, framework::Diagnostics& diagnostics) {
  const cty::Type type = framework::ImpliedType(schema);
  if (!present) {
    *out = cty::Value::Null(type);
    return true;
  }
  absl::StatusOr<cty::Value> decoded;
  if (!in.msgpack().empty()) {
    decoded = cty::DecodeMsgpack(in.msgpack(), type);
  } else if (!in.json().empty()) {
    decoded = cty::DecodeJson(in.json(), type);
  } else {
    diagnostics.AddError(absl::StrCat("Invalid ", what),
                         absl::StrCat("The ", what,
                                      " sent by Terraform is empty: the DynamicValue has neither "
                                      "msgpack nor json content."));
    return false;
  }
  if (!decoded.ok()) {
    AddDecodeError(schema, what, decoded.status(), diagnostics);
    return false;
  }
  *out = *std::move(decoded);
  return true;
}

bool EncodeValue(const cty::Value& value, const framework::Block& schema, const char* what,
                 tfplugin5::DynamicValue* out, framework::Diagnostics& diagnostics) {
  absl::StatusOr<std::string> encoded = cty::EncodeMsgpack(value, framework::ImpliedType(schema));
  if (!encoded.ok()) {
    diagnostics.AddStatusError(
        "Provider produced invalid object",
        absl::StrCat("The ", what, " could not be encoded for Terraform: ",
                     std::string(encoded.status().message()), ". This is a bug in the provider."),
        encoded.status());
    return false;
  }
  out->set_msgpack(*std::move(encoded));
  return true;
}

absl::StatusOr<cty::Value> DecodeTypedValue(const tfplugin5::DynamicValue& in,
                                            const cty::Type& type) {
  if (!in.msgpack().empty()) return cty::DecodeMsgpack(in.msgpack(), type);
  if (!in.json().empty()) return cty::DecodeJson(in.json(), type);
  return absl::InvalidArgumentError("the value has neither msgpack nor json content");
}

absl::Status EncodeTypedValue(const cty::Value& value, const cty::Type& type,
                              tfplugin5::DynamicValue* out) {
  NSXALB_ASSIGN_OR_RETURN(std::string encoded, cty::EncodeMsgpack(value, type));
  out->set_msgpack(std::move(encoded));
  return absl::OkStatus();
}

namespace {

void ParameterToProto(const framework::FunctionParameter& p, tfplugin5::Function::Parameter* out) {
  out->set_name(p.name);
  out->set_type(p.type.ToJson());
  out->set_allow_null_value(p.allow_null_value);
  out->set_allow_unknown_values(p.allow_unknown_values);
  out->set_description(p.description);
  out->set_description_kind(KindToProto(p.description_kind));
}

}  // namespace

void FunctionToProto(const framework::FunctionDefinition& definition, tfplugin5::Function* out) {
  for (const framework::FunctionParameter& p : definition.parameters) {
    ParameterToProto(p, out->add_parameters());
  }
  if (definition.variadic_parameter.has_value()) {
    ParameterToProto(*definition.variadic_parameter, out->mutable_variadic_parameter());
  }
  out->mutable_return_()->set_type(definition.return_type.ToJson());
  out->set_summary(definition.summary);
  out->set_description(definition.description);
  out->set_description_kind(KindToProto(definition.description_kind));
  out->set_deprecation_message(definition.deprecation_message);
}

void PathToProto(const cty::AttributePath& path, tfplugin5::AttributePath* out) {
  for (const cty::AttributePath::Step& step : path.steps()) {
    tfplugin5::AttributePath::Step* s = out->add_steps();
    switch (step.kind) {
      case cty::AttributePath::Step::Kind::kAttribute:
        s->set_attribute_name(step.name);
        break;
      case cty::AttributePath::Step::Kind::kElementKeyString:
        s->set_element_key_string(step.name);
        break;
      case cty::AttributePath::Step::Kind::kElementKeyInt:
        s->set_element_key_int(step.index);
        break;
    }
  }
}

bool PathFromProto(const tfplugin5::AttributePath& in, cty::AttributePath* out) {
  cty::AttributePath path;
  for (const tfplugin5::AttributePath::Step& s : in.steps()) {
    switch (s.selector_case()) {
      case tfplugin5::AttributePath::Step::kAttributeName:
        path = path.Attribute(s.attribute_name());
        break;
      case tfplugin5::AttributePath::Step::kElementKeyString:
        path = path.ElementKey(s.element_key_string());
        break;
      case tfplugin5::AttributePath::Step::kElementKeyInt:
        path = path.Index(s.element_key_int());
        break;
      default:
        return false;
    }
  }
  *out = std::move(path);
  return true;
}

void DiagnosticsToProto(const framework::Diagnostics& diagnostics,
                        google::protobuf::RepeatedPtrField<tfplugin5::Diagnostic>* out) {
  for (const framework::Diagnostic& d : diagnostics) {
    tfplugin5::Diagnostic* p = out->Add();
    p->set_severity(d.severity == framework::Severity::kError ? tfplugin5::Diagnostic::ERROR
                                                              : tfplugin5::Diagnostic::WARNING);
    p->set_summary(d.summary);
    p->set_detail(d.detail);
    if (d.path.has_value() && !d.path->empty()) PathToProto(*d.path, p->mutable_attribute());
  }
}

void SchemaToProto(const framework::Schema& schema, tfplugin5::Schema* out) {
  out->set_version(schema.version);
  BlockToProto(schema.block, out->mutable_block());
}

}  // namespace nsxalb::wire
