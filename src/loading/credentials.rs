//! The names under which a request carries a credential (`access_token`,
//! `Authorization`, `X-Api-Key`): known to the readers, which mark credential positions
//! as they read, and to the secret scanner above them (`model::secrets`).

/// Keys whose value is a credential whatever it looks like (compared ignoring case, with
/// `-` and `_` taken as the same character).
pub const SECRET_KEYS: &[&str] = &[
    "access_token",
    "authorization",
    "proxy_authorization",
    "cookie",
    "client_secret",
    "app_secret",
    "password",
    "passwd",
    "refresh_token",
    "id_token",
    "api_key",
    "apikey",
    "private_token",
    "input_token",
    "fb_exchange_token",
];

/// Endings of keys whose value is a credential (`X-Api-Key`, `X-Auth-Token`,
/// `github_token`, `db_password`).
pub const SECRET_KEY_ENDINGS: &[&str] = &["_api_key", "_apikey", "_token", "_secret", "_password"];

pub fn key_eq(key: &[u8], name: &str) -> bool {
    key.len() == name.len()
        && key
            .iter()
            .zip(name.bytes())
            .all(|(&k, n)| k.to_ascii_lowercase() == n || (k == b'-' && n == b'_'))
}

pub fn key_ends_with(key: &[u8], ending: &str) -> bool {
    key.len() > ending.len() && key_eq(&key[key.len() - ending.len()..], ending)
}

/// Whether `key` names a credential (`access_token`, `Authorization`, `X-Api-Key`).
/// `token`, the name of a config token in reqlint's own files, is not one.
pub fn is_secret_key(key: &str) -> bool {
    let k = key.trim().as_bytes();
    SECRET_KEYS.iter().any(|name| key_eq(k, name))
        || SECRET_KEY_ENDINGS.iter().any(|e| key_ends_with(k, e))
}
