#!/usr/bin/env bash
# The committed registry docs are exactly what `terraform-provider-nsxalb docs` generates from
# provider_schema/ and examples/, where the Terraform Registry reads them: docs/index.md and
# docs/{resources,data-sources,functions}/ at the repository root. A schema or example change
# without regenerated docs fails here, as tfplugindocs' check does in CI for Go providers; so does
# a committed page the command no longer writes, or a page left in the old docs/registry/.
# Usage: docs_drift_test.sh PROVIDER_BINARY SOURCE_DIR
set -uo pipefail
provider=$1 source_dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$provider" docs --out "$tmp/docs" --examples "$source_dir/examples" >/dev/null || exit 1
failed=0
# The Registry's paths: what the command wrote, and nothing else under them.
for path in index.md resources data-sources functions; do
  [ -e "$tmp/docs/$path" ] || { echo "docs wrote no $path"; failed=1; continue; }
  diff -ru "$source_dir/docs/$path" "$tmp/docs/$path" || failed=1
done
# Everything the command writes is under those paths (so the loop above saw every page).
extra=$(cd "$tmp/docs" && find . -mindepth 1 -maxdepth 1 ! -name index.md ! -name resources \
  ! -name data-sources ! -name functions)
[ -z "$extra" ] || { echo "docs wrote outside the Registry's paths: $extra"; failed=1; }
if [ -e "$source_dir/docs/registry" ]; then
  echo "docs/registry/ is the old place of the registry pages; they live at docs/ now"
  failed=1
fi
if [ "$failed" -ne 0 ]; then
  echo "the registry docs differ from what the provider generates (diff above); regenerate them"
  echo "from the repository root: build/plugin/terraform-provider-nsxalb docs"
  exit 1
fi
echo "docs/: $(find "$tmp/docs" -name '*.md' | wc -l) registry pages, as generated"
