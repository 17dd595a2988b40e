//! Rules about request files themselves (docs/request-files.md), whatever API they target.

pub mod duplicate_key;
pub mod duplicate_param;
pub mod http_request_not_separated;
pub mod invalid_request_field;
pub mod invalid_syntax;
pub mod limit_exceeded;
pub mod literal_secret;
pub mod malformed_request_line;
pub mod not_a_request_file;
pub mod request_list_without_key;
pub mod unknown_request_key;
pub mod unknown_suppressed_rule;
