// A gMock implementation of nsxalb::controller::Client for tests of the layers above (the
// provider's resources and data sources), so they run without an emulator.
#ifndef NSXALB_TESTS_CONTROLLER_MOCK_CLIENT_H_
#define NSXALB_TESTS_CONTROLLER_MOCK_CLIENT_H_

#include <optional>
#include <string_view>
#include <vector>

#include "gmock/gmock.h"
#include "plugin/controller/client.h"

namespace nsxalb::controller {

// Mock of every Client method.
class MockClient : public Client {
 public:
  MOCK_METHOD(absl::StatusOr<SeGroup>, GetSeGroup, (std::string_view uuid, std::string_view tenant),
              (override));
  MOCK_METHOD(absl::StatusOr<std::optional<SeGroup>>, FindSeGroup,
              (std::string_view name, std::string_view tenant, std::string_view cloud), (override));
  MOCK_METHOD(absl::StatusOr<std::vector<SeGroup>>, ListSeGroups,
              (std::string_view tenant, std::string_view cloud), (override));
  MOCK_METHOD(absl::StatusOr<SeGroup>, CreateSeGroup, (const SeGroupSpec& spec), (override));
  MOCK_METHOD(absl::StatusOr<SeGroup>, UpdateSeGroup,
              (std::string_view uuid, const SeGroupSpec& spec), (override));
  MOCK_METHOD(absl::Status, DeleteSeGroup, (std::string_view uuid, std::string_view tenant),
              (override));
  MOCK_METHOD(absl::StatusOr<CloudInfo>, ResolveCloud, (std::string_view cloud), (override));
  MOCK_METHOD(absl::StatusOr<std::vector<CloudInfo>>, ListClouds, (), (override));
  MOCK_METHOD(absl::StatusOr<std::vector<TenantInfo>>, ListTenants, (), (override));
  MOCK_METHOD(absl::StatusOr<TenantInfo>, ResolveTenant, (std::string_view tenant), (override));
  MOCK_METHOD(absl::StatusOr<std::vector<ServiceEngine>>, ListServiceEngines,
              (std::string_view se_group_uuid, std::string_view tenant), (override));
  MOCK_METHOD(absl::StatusOr<nlohmann::json>, QueryMetricsCollection,
              (const nlohmann::json& request, std::string_view tenant), (override));
  MOCK_METHOD(absl::Status, StreamMetricsCollection,
              (const nlohmann::json& request, std::string_view tenant, BodySink& sink), (override));
  MOCK_METHOD(absl::StatusOr<std::vector<ServiceEngine>>, ListTenantServiceEngines,
              (std::string_view tenant), (override));
  MOCK_METHOD(absl::StatusOr<LicenseLedgerDetails>, GetLicenseLedgerDetails, (), (override));
  MOCK_METHOD(absl::StatusOr<UpgradeStatus>, GetUpgradeStatus, (), (override));
  MOCK_METHOD(absl::StatusOr<VersionInfo>, ControllerVersion, (), (override));
  MOCK_METHOD(absl::StatusOr<std::vector<ServiceEnginePlacement>>, ListServiceEnginePlacements,
              (std::string_view se_group_uuid, std::string_view tenant), (override));
  MOCK_METHOD(absl::StatusOr<ServiceEngine>, GetServiceEngine,
              (std::string_view uuid, std::string_view tenant), (override));
  MOCK_METHOD(absl::StatusOr<ServiceEngine>, SetServiceEngineEnableState,
              (std::string_view uuid, std::string_view enable_state, std::string_view tenant),
              (override));
  MOCK_METHOD(absl::StatusOr<ServiceEngineRuntime>, GetServiceEngineRuntime,
              (std::string_view uuid, std::string_view tenant), (override));
  MOCK_METHOD(absl::Status, DeleteServiceEngine, (std::string_view uuid, std::string_view tenant),
              (override));
  MOCK_METHOD(absl::Status, RebootServiceEngine, (std::string_view uuid, std::string_view tenant),
              (override));
  MOCK_METHOD(void, Cancel, (), (override));
};

}  // namespace nsxalb::controller

#endif  // NSXALB_TESTS_CONTROLLER_MOCK_CLIENT_H_
