# An SE group can be imported by uuid, by name (unique across the clouds of the provider's tenant),
# or by cloud and name.
terraform import nsxalb_se_group.web serviceenginegroup-6f1c2b9e-2d0a-4c4b-9a57-1c3e5d7f9b21
terraform import nsxalb_se_group.web web-se-group
terraform import nsxalb_se_group.web nsxt-cloud/web-se-group
