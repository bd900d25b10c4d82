// The test provider's schemas as JSON (the provider_schema/ format, see
// plugin/framework/schema_json.h). Between them they use every schema feature the framework has.
#ifndef NSXALB_TESTS_HARNESS_TEST_PROVIDER_SCHEMAS_H_
#define NSXALB_TESTS_HARNESS_TEST_PROVIDER_SCHEMAS_H_

namespace nsxalb::test_provider {

// provider "nsxalbtest" { directory = "..." }: the directory that stands in for a remote API.
inline constexpr char kProviderSchema[] = R"json({
  "version": 0,
  "block": {
    "description": "Test-only provider: objects live as JSON files in a directory.",
    "attributes": {
      "directory": {"type": "string", "required": true,
                    "description": "Directory holding one JSON file per object (the remote API)."}
    }
  }
})json";

// resource "nsxalbtest_thing": every attribute type and mode, requires_replace, nested blocks in
// every nesting mode with min/max items, schema version 1 (version 0 had "count" as a string).
inline constexpr char kThingSchema[] = R"json({
  "version": 1,
  "block": {
    "description": "A thing stored as <directory>/<id>.json.",
    "attributes": {
      "id": {"type": "string", "computed": true, "description": "Object ID, chosen at create."},
      "name": {"type": "string", "required": true, "nsxalb": {"requires_replace": true},
               "description": "Name; changing it replaces the object."},
      "description": {"type": "string", "optional": true},
      "size": {"type": "number", "optional": true, "computed": true,
               "description": "Defaults to 1, known at plan time."},
      "enabled": {"type": "bool", "optional": true},
      "tags": {"type": ["list", "string"], "optional": true},
      "labels": {"type": ["set", "string"], "optional": true},
      "meta": {"type": ["map", "string"], "optional": true},
      "spec": {"type": ["object", {"cpu": "number", "zone": "string"}], "optional": true},
      "extra": {"type": "dynamic", "optional": true},
      "secret": {"type": "string", "optional": true, "sensitive": true},
      "legacy_note": {"type": "string", "optional": true, "deprecated": true,
                      "description": "Use description instead."},
      "revision": {"type": "number", "computed": true,
                   "description": "Incremented by every update; unknown in plans that change the object."},
      "created_at": {"type": "string", "computed": true}
    },
    "block_types": {
      "settings": {"nesting_mode": "single", "block": {
        "attributes": {"mode": {"type": "string", "required": true}}}},
      "options": {"nesting_mode": "group", "block": {
        "attributes": {"verbose": {"type": "bool", "optional": true},
                       "level": {"type": "number", "optional": true}}}},
      "endpoint": {"nesting_mode": "list", "min_items": 1, "max_items": 2, "block": {
        "attributes": {"host": {"type": "string", "required": true,
                                "nsxalb": {"requires_replace": true}},
                       "port": {"type": "number", "optional": true, "computed": true,
                                "description": "Defaults to 443, chosen at apply."}}}},
      "rule": {"nesting_mode": "set", "max_items": 5, "block": {
        "attributes": {"action": {"type": "string", "required": true},
                       "priority": {"type": "number", "optional": true}}}},
      "env": {"nesting_mode": "map", "block": {
        "attributes": {"value": {"type": "string", "required": true}}}}
    }
  }
})json";

// data "nsxalbtest_thing": looks an object up by ID.
inline constexpr char kThingDataSchema[] = R"json({
  "version": 0,
  "block": {
    "attributes": {
      "id": {"type": "string", "required": true},
      "name": {"type": "string", "computed": true},
      "size": {"type": "number", "computed": true},
      "tags": {"type": ["list", "string"], "computed": true}
    }
  }
})json";

}  // namespace nsxalb::test_provider

#endif  // NSXALB_TESTS_HARNESS_TEST_PROVIDER_SCHEMAS_H_
