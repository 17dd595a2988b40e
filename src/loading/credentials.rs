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

/// The last two letters of [`SECRET_KEYS`] and [`SECRET_KEY_ENDINGS`], either case, `-`
/// for `_`: by the last byte, the set of the bytes before it (by their low six bits,
/// which keeps the table small; a byte taken for another is only asked further). Asked
/// for every word of a file, where most end otherwise than every name and ending does.
const LAST_PAIRS: [u64; 256] = pair_table();

const fn pair_table() -> [u64; 256] {
    let mut table = [0u64; 256];
    let mut i = 0;
    while i < SECRET_KEYS.len() + SECRET_KEY_ENDINGS.len() {
        let name = if i < SECRET_KEYS.len() {
            SECRET_KEYS[i].as_bytes()
        } else {
            SECRET_KEY_ENDINGS[i - SECRET_KEYS.len()].as_bytes()
        };
        let (before, last) = (name[name.len() - 2], name[name.len() - 1]);
        let befores = [
            before.to_ascii_lowercase(),
            before.to_ascii_uppercase(),
            if before == b'_' { b'-' } else { before },
        ];
        let lasts = [last.to_ascii_lowercase(), last.to_ascii_uppercase()];
        let mut l = 0;
        while l < lasts.len() {
            let mut b = 0;
            while b < befores.len() {
                table[lasts[l] as usize] |= 1 << (befores[b] & 63);
                b += 1;
            }
            l += 1;
        }
        i += 1;
    }
    table
}

/// Whether a key's last two bytes are those of a name or ending: see [`LAST_PAIRS`].
pub(crate) fn ends_like_a_name(k: &[u8]) -> bool {
    match k {
        [.., before, last] => LAST_PAIRS[*last as usize] & (1 << (before & 63)) != 0,
        _ => false,
    }
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
/// `token`, the name of a config token in reqlint's own files, is not one. Inlined: the
/// scans ask it of every key, and the quick refusal answers most.
#[inline]
pub fn is_secret_key(key: &str) -> bool {
    let bytes = key.as_bytes();
    // A key that starts and ends with a visible ASCII character has nothing to trim.
    let k = match (bytes.first(), bytes.last()) {
        (Some(first), Some(last)) if first.is_ascii_graphic() && last.is_ascii_graphic() => bytes,
        _ => key.trim().as_bytes(),
    };
    // Every word of a file is asked (the text scan of `model::secrets`): most are too
    // short, or end otherwise than every name and ending does.
    if k.len() < SHORTEST_SECRET_KEY || !ends_like_a_name(k) {
        return false;
    }
    names_a_credential(k)
}

/// The whole comparison with every name and ending, which [`is_secret_key`] asks only of
/// keys its quick refusal lets through.
#[inline(never)]
fn names_a_credential(k: &[u8]) -> bool {
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

    /// The quick refusal never refuses a key the whole comparison takes, on keys made of
    /// the names' own pieces in every case and spelling.
    #[test]
    fn the_quick_refusal_agrees_with_the_whole_comparison() {
        let mut pieces: Vec<String> = ["x", "-", "_", " ", "A", "z9", "é", "ken", "rd"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        for name in SECRET_KEYS.iter().chain(SECRET_KEY_ENDINGS) {
            pieces.push(name.to_string());
            pieces.push(name.to_uppercase().replace('_', "-"));
            pieces.push(name[name.len() / 2..].to_string());
        }
        let mut next = crate::testing::xorshift(0x9e37_79b9_7f4a_7c15);
        let mut taken = 0;
        for _ in 0..50_000 {
            let parts = 1 + (next() % 4) as usize;
            let key: String = (0..parts)
                .map(|_| pieces[(next() % pieces.len() as u64) as usize].as_str())
                .collect();
            let whole = names_a_credential(key.trim().as_bytes());
            taken += usize::from(whole);
            assert_eq!(is_secret_key(&key), whole, "{key:?}");
        }
        assert!(taken > 5_000, "{taken}");
    }
}
