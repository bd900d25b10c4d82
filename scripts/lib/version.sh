# shellcheck shell=bash
# The provider's one version, CMake's project(VERSION) in CMakeLists.txt, for the scripts and
# tests that name it (scripts/release, scripts/demo, the Terraform scenarios, the version checks).
#
#   source scripts/lib/version.sh
#   v=$(nsxalb_project_version "$root")   # "0.2.0"; empty when CMakeLists.txt has none

# nsxalb_project_version ROOT: prints project(VERSION) of ROOT/CMakeLists.txt.
nsxalb_project_version() {
  sed -n 's/^project(terraform_provider_nsxalb VERSION \([0-9.]*\) .*/\1/p' "$1/CMakeLists.txt"
}
