//! The code-hosting API's rules (token permissions): one rule a file. What they share
//! (routing, tokens, the permission tables) is the API's wing, `crate::apis::codehost`.

pub mod job_permissions_invalid;
pub mod job_token_missing_permission;
pub mod job_token_unrestricted;
pub mod job_token_unused_permission;
pub mod rest_param_invalid;
pub mod rest_param_missing;
pub mod rest_param_unknown;
pub mod token_cannot_call;
pub mod token_missing_permission;
pub mod token_over_privileged;
pub mod token_permission_invalid;
pub mod token_resource_out_of_reach;
pub mod token_undefined;
pub mod unknown_endpoint;
