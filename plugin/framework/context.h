// Cancellation for provider operations. Terraform calls the Stop RPC on interrupt; long-running
// operations (HTTP retries, polling) check Context::Stopped() and give up promptly.
#ifndef NSXALB_PLUGIN_FRAMEWORK_CONTEXT_H_
#define NSXALB_PLUGIN_FRAMEWORK_CONTEXT_H_

#include <atomic>
#include <memory>

namespace nsxalb::framework {

// A cheap, copyable view of the provider's stop flag. The default context is never stopped.
class Context {
 public:
  Context() : stopped_(std::make_shared<std::atomic<bool>>(false)) {}
  explicit Context(std::shared_ptr<std::atomic<bool>> stopped) : stopped_(std::move(stopped)) {}

  // True once Terraform has asked the provider to stop.
  bool Stopped() const { return stopped_->load(); }

 private:
  std::shared_ptr<std::atomic<bool>> stopped_;
};

}  // namespace nsxalb::framework

#endif  // NSXALB_PLUGIN_FRAMEWORK_CONTEXT_H_
