//! A name's hash for the catalogs' open-addressing indexes. The build step
//! (build/source.rs) includes this file to place the names where the lookups
//! (src/catalog/packed.rs) look for them; it imports nothing.

/// A name's hash: its first and last eight bytes (four, or three single bytes, for a
/// shorter name) and its length, mixed by one multiplication. Names of a list share
/// their first bytes (`targeting_…`), so the last ones take part too.
pub fn name_hash(name: &[u8]) -> u64 {
    let n = name.len();
    let word = |at: usize| u64::from_le_bytes(name[at..at + 8].try_into().unwrap());
    let half = |at: usize| u64::from(u32::from_le_bytes(name[at..at + 4].try_into().unwrap()));
    let (head, tail) = if n >= 8 {
        (word(0), word(n - 8))
    } else if n >= 4 {
        (half(0), half(n - 4))
    } else if n > 0 {
        let bytes = u64::from(name[0]) << 16 | u64::from(name[n / 2]) << 8 | u64::from(name[n - 1]);
        (bytes, 0)
    } else {
        (0, 0)
    };
    let x = (head ^ tail.rotate_left(29) ^ n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x ^ (x >> 32)
}
