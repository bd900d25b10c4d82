#!/usr/bin/env bash
# The committed registry docs (docs/registry) are exactly what `terraform-provider-nsxalb docs`
# generates from provider_schema/ and examples/: a schema or example change without regenerated
# docs fails here, as tfplugindocs' check does in CI for Go providers.
# Usage: docs_drift_test.sh PROVIDER_BINARY SOURCE_DIR
set -uo pipefail
provider=$1 source_dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$provider" docs --out "$tmp/registry" --examples "$source_dir/examples" || exit 1
if ! diff -ru "$source_dir/docs/registry" "$tmp/registry"; then
  echo "docs/registry differs from what the provider generates (diff above); regenerate it:"
  echo "  build/plugin/terraform-provider-nsxalb docs --out docs/registry"
  exit 1
fi
echo "docs/registry: $(find "$tmp/registry" -name '*.md' | wc -l) pages, as generated"
