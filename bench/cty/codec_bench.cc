// Speed of the msgpack codec on the value Terraform exchanges most: an nsxalb_se_group object
// (the provider_schema/ type: 26 attributes, the `sizing` object and a `workload` block), as a
// state after apply (every attribute known) and as a planned value with unknowns. Every
// PlanResourceChange decodes three such values and encodes one; ReadResource decodes one and
// encodes one.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "plugin/cty/msgpack.h"
#include "plugin/cty/value.h"
#include "plugin/framework/schema.h"
#include "plugin/framework/schema_json.h"
#include "provider_schema/embedded.h"

namespace nsxalb::cty {
namespace {

Type SeGroupType() {
  for (const provider_schema::EmbeddedSchema& s : provider_schema::ResourceJson()) {
    if (s.name != "nsxalb_se_group") continue;
    absl::StatusOr<framework::Schema> schema = framework::ParseSchemaJson(s.json);
    if (!schema.ok()) std::abort();
    return framework::ImpliedType(schema->block);
  }
  std::abort();
}

const Type& SeGroup() {
  static const Type* type = new Type(SeGroupType());
  return *type;
}

// A value of `type` as a state holds it: strings, numbers (some with fractions) and bools filled
// in, lists with two elements, the workload block's numbers set; `unknown` leaves numbers and bools
// unknown, as a plan before the recommendation would.
Value Fill(const Type& type, const std::string& name, bool unknown) {
  switch (type.kind()) {
    case Type::Kind::kString:
      return Value::String(name == "id" ? "serviceenginegroup-8ff5c186-8550-4b52-aa44-ffe9a1d83a86"
                                        : "estate-" + name);
    case Type::Kind::kNumber:
      if (unknown) return Value::Unknown(type);
      // Rates, percentages and Gbps carry fractions (73.2 is no exact double: sent as a string).
      if (name.find("pct") != std::string::npos || name.find("gbps") != std::string::npos ||
          name.find("utilization") != std::string::npos) {
        return Value::Float(static_cast<double>(name.size()) + 0.2);
      }
      return Value::Int(static_cast<int64_t>(name.size()) * 1000);
    case Type::Kind::kBool:
      return unknown ? Value::Unknown(type) : Value::Bool(name.size() % 2 == 0);
    case Type::Kind::kList:
      return Value::List(type.element(),
                         {Fill(type.element(), name, false), Fill(type.element(), name, false)});
    case Type::Kind::kObject: {
      std::map<std::string, Value> attributes;
      for (const auto& [n, t] : type.attributes()) attributes.emplace(n, Fill(t, n, unknown));
      return Value::Object(std::move(attributes));
    }
    default:
      return Value::Null(type);
  }
}

void DecodeBench(benchmark::State& state, bool unknown) {
  const Value value = Fill(SeGroup(), "", unknown);
  absl::StatusOr<std::string> bytes = EncodeMsgpack(value, SeGroup());
  if (!bytes.ok()) return state.SkipWithError("encode failed");
  for (auto _ : state) benchmark::DoNotOptimize(DecodeMsgpack(*bytes, SeGroup()));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes->size()));
}

void EncodeBench(benchmark::State& state, bool unknown) {
  const Value value = Fill(SeGroup(), "", unknown);
  for (auto _ : state) benchmark::DoNotOptimize(EncodeMsgpack(value, SeGroup()));
}

void BM_MsgpackDecodeSeGroupState(benchmark::State& state) { DecodeBench(state, false); }
BENCHMARK(BM_MsgpackDecodeSeGroupState);
void BM_MsgpackDecodeSeGroupPlanned(benchmark::State& state) { DecodeBench(state, true); }
BENCHMARK(BM_MsgpackDecodeSeGroupPlanned);
void BM_MsgpackEncodeSeGroupState(benchmark::State& state) { EncodeBench(state, false); }
BENCHMARK(BM_MsgpackEncodeSeGroupState);
void BM_MsgpackEncodeSeGroupPlanned(benchmark::State& state) { EncodeBench(state, true); }
BENCHMARK(BM_MsgpackEncodeSeGroupPlanned);

}  // namespace
}  // namespace nsxalb::cty

BENCHMARK_MAIN();
