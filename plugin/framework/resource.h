// The resource interface: a managed resource type's schema and its CRUD operations. Terraform's
// plan rules live in the engine (provider_server.h), not here. Each method receives a request and
// a response the engine has pre-filled with the usual answer, and reports problems only through
// response diagnostics. Optional capabilities are separate interfaces in resource_with_*.h.
#ifndef NSXALB_PLUGIN_FRAMEWORK_RESOURCE_H_
#define NSXALB_PLUGIN_FRAMEWORK_RESOURCE_H_

#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "plugin/cty/value.h"
#include "plugin/framework/context.h"
#include "plugin/framework/diagnostics.h"
#include "plugin/framework/schema.h"

namespace nsxalb::framework {

// The new state a Create or Update hands back: a cty::Value that also remembers whether the
// resource assigned it. The engine pre-fills it with the planned state; any assignment by the
// resource, even of a value equal to the plan, makes it the resource's result. After an error
// that is how the engine tells a partial result (kept in state) from a state left untouched
// (nothing happened). Values are immutable, so assignment is the only way to change it.
class NewState : public cty::Value {
 public:
  // A null state of type Dynamic, not assigned.
  NewState() = default;

  // What the engine pre-fills: holds `value`, not counted as assigned by the resource.
  static NewState Prefilled(cty::Value value) { return NewState(std::move(value)); }

  // Replaces the state and marks it as assigned by the resource.
  NewState& operator=(cty::Value value) {
    cty::Value::operator=(std::move(value));
    assigned_ = true;
    return *this;
  }

  // True once the resource assigned the state.
  bool assigned() const { return assigned_; }

 private:
  explicit NewState(cty::Value value) : cty::Value(std::move(value)) {}

  bool assigned_ = false;
};

// Create: `planned_state` holds unknowns where the provider decides values.
struct CreateRequest {
  Context context;
  cty::Value config;
  cty::Value planned_state;
  std::string planned_private;
};
struct CreateResponse {
  // Pre-filled with the planned state; on success, assign the created object with every unknown
  // replaced by the real value. On an error, leave it untouched (or assign null) when the remote
  // object does not exist: the engine then answers null. Once the object exists, assign its
  // state, even when it equals the plan, before reporting a later error: the engine keeps what
  // was assigned (unknowns as null), so Terraform tracks the object instead of creating another.
  NewState new_state;
  // Pre-filled with the planned private data; stored in state and returned on Read and Plan.
  std::string private_data;
  Diagnostics diagnostics;
};

// Read (refresh, and after import): return the remote object's current state.
struct ReadRequest {
  Context context;
  cty::Value current_state;
  std::string private_data;
};
struct ReadResponse {
  // Pre-filled with the current state. Set to null when the remote object is gone.
  cty::Value new_state;
  // Pre-filled with the request's private data.
  std::string private_data;
  Diagnostics diagnostics;
};

// Update in place: no requires_replace path changed.
struct UpdateRequest {
  Context context;
  cty::Value config;
  cty::Value planned_state;
  cty::Value prior_state;
  std::string planned_private;
};
struct UpdateResponse {
  // Pre-filled with the planned state; on success, assign the updated object with every unknown
  // replaced by the real value. On an error, leave it untouched when nothing changed: the engine
  // then answers the prior state, never the plan. Assign the object's state (a partial update)
  // before reporting an error when some changes were made: the engine keeps what was assigned
  // (unknowns as null).
  NewState new_state;
  // Pre-filled with the planned private data.
  std::string private_data;
  Diagnostics diagnostics;
};

// Delete: on success the engine answers Terraform with a null state.
struct DeleteRequest {
  Context context;
  cty::Value prior_state;
  std::string private_data;
};
struct DeleteResponse {
  Diagnostics diagnostics;
};

// A managed resource type. One instance is created per request by the provider's factory.
class Resource {
 public:
  virtual ~Resource() = default;

  // The resource's schema. Called when the provider server starts.
  virtual Schema GetSchema() const = 0;
  // Creates the remote object (ApplyResourceChange with a null prior state).
  virtual void Create(const CreateRequest& request, CreateResponse& response) = 0;
  // Reads the remote object (ReadResource).
  virtual void Read(const ReadRequest& request, ReadResponse& response) = 0;
  // Updates the remote object in place (ApplyResourceChange with prior and planned non-null).
  virtual void Update(const UpdateRequest& request, UpdateResponse& response) = 0;
  // Deletes the remote object (ApplyResourceChange with a null planned state).
  virtual void Delete(const DeleteRequest& request, DeleteResponse& response) = 0;
};

// Makes a resource instance for one request.
using ResourceFactory = std::function<std::unique_ptr<Resource>()>;

}  // namespace nsxalb::framework

#endif  // NSXALB_PLUGIN_FRAMEWORK_RESOURCE_H_
