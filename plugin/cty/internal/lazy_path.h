// A position in a value being decoded or encoded, kept as a chain of steps on the C++ stack and
// turned into an AttributePath only when an error needs one, so that walking a value allocates
// no path per attribute. Internal to the codecs.
#ifndef NSXALB_PLUGIN_CTY_INTERNAL_LAZY_PATH_H_
#define NSXALB_PLUGIN_CTY_INTERNAL_LAZY_PATH_H_

#include <cstdint>
#include <string>

#include "plugin/cty/path.h"

namespace nsxalb::cty::internal {

// One step below `parent`; the root has no parent. Must not outlive the strings it points to.
struct LazyPath {
  const LazyPath* parent = nullptr;
  const std::string* name = nullptr;  // attribute name or string key; null for an index
  bool key = false;                   // *name is a map key, not an attribute
  int64_t index = -1;                 // list, set or tuple index, when name is null

  LazyPath Attribute(const std::string& attribute) const { return {this, &attribute, false, -1}; }
  LazyPath ElementKey(const std::string& map_key) const { return {this, &map_key, true, -1}; }
  LazyPath Index(int64_t i) const { return {this, nullptr, false, i}; }

  // The path this position stands for.
  AttributePath Path() const {
    if (parent == nullptr) return AttributePath();
    AttributePath up = parent->Path();
    if (name == nullptr) return up.Index(index);
    return key ? up.ElementKey(*name) : up.Attribute(*name);
  }
};

}  // namespace nsxalb::cty::internal

#endif  // NSXALB_PLUGIN_CTY_INTERNAL_LAZY_PATH_H_
