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

/// The length of the shortest of [`SECRET_KEYS`] (an ending matches only a longer key).
const SHORTEST_SECRET_KEY: usize = 6;

/// The last letters of [`SECRET_KEYS`] and [`SECRET_KEY_ENDINGS`], either case, as a
/// table by byte: asked for every word of a file, where a search of the letters cost
/// more than the rest of the refusal.
const LAST_LETTERS: [bool; 256] = letter_table(b"denty");

const fn letter_table(letters: &[u8]) -> [bool; 256] {
    let mut table = [false; 256];
    let mut i = 0;
    while i < letters.len() {
        table[letters[i].to_ascii_lowercase() as usize] = true;
        table[letters[i].to_ascii_uppercase() as usize] = true;
        i += 1;
    }
    table
}

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
    let bytes = key.as_bytes();
    // A key that starts and ends with a visible ASCII character has nothing to trim.
    let k = match (bytes.first(), bytes.last()) {
        (Some(first), Some(last)) if first.is_ascii_graphic() && last.is_ascii_graphic() => bytes,
        _ => key.trim().as_bytes(),
    };
    // Every word of a file is asked (the text scan of `model::secrets`): most are too
    // short, or end otherwise than every name and ending does.
    if k.len() < SHORTEST_SECRET_KEY || !k.last().is_some_and(|&b| LAST_LETTERS[b as usize]) {
        return false;
    }
    SECRET_KEYS.iter().any(|name| key_eq(k, name))
        || SECRET_KEY_ENDINGS.iter().any(|e| key_ends_with(k, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quick refusal of `is_secret_key` must hold for every name and ending.
    #[test]
    fn the_quick_refusal_keeps_every_name() {
        for name in SECRET_KEYS {
            assert!(name.len() >= SHORTEST_SECRET_KEY, "{name}");
            assert!(is_secret_key(name), "{name}");
            assert!(
                is_secret_key(&name.to_uppercase().replace('_', "-")),
                "{name}"
            );
        }
        for ending in SECRET_KEY_ENDINGS {
            assert!(ending.len() >= SHORTEST_SECRET_KEY, "{ending}");
            assert!(is_secret_key(&format!("x{ending}")), "{ending}");
        }
        assert!(!is_secret_key("token"));
        assert!(!is_secret_key("name"));
    }
}
