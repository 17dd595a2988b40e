//! The pieces of a compiled table that hold no pointer: a string is a byte range of one
//! text, a list a range of one table of its rows. Rows made of these and of integers are
//! plain data, so the loader relocates nothing in them however large a catalog grows,
//! and a table's pages are read only when a lookup touches them. Each reads as the
//! `&'static str` or `&'static [T]` it stands for.

use std::fmt;
use std::marker::PhantomData;

/// The one text a table's strings are ranges of.
pub trait Blob: 'static {
    const TEXT: &'static str;
}

/// A string of a table: a byte range of its [`Blob`].
pub struct Text<B> {
    start: u32,
    len: u32,
    blob: PhantomData<B>,
}

impl<B: Blob> Text<B> {
    pub const fn new(start: u32, len: u32) -> Text<B> {
        Text {
            start,
            len,
            blob: PhantomData,
        }
    }

    fn range(self) -> std::ops::Range<usize> {
        let start = self.start as usize;
        start..start + self.len as usize
    }

    pub fn as_str(self) -> &'static str {
        &B::TEXT[self.range()]
    }

    /// Whether the text is `other`, by bytes: a hashed lookup compares one name per
    /// probe, and slicing the bytes skips the checks of character boundaries.
    pub fn is(self, other: &str) -> bool {
        &B::TEXT.as_bytes()[self.range()] == other.as_bytes()
    }

    /// Orders the text against `other` as `str` does, by bytes: a table's binary search
    /// compares a dozen names per lookup, and slicing the bytes skips the two checks of
    /// character boundaries that slicing the `str` makes.
    pub fn cmp_str(self, other: &str) -> std::cmp::Ordering {
        let bytes = &B::TEXT.as_bytes()[self.range()];
        // Most steps of a search differ at the first byte: no call to compare the rest.
        match (bytes.first(), other.as_bytes().first()) {
            (Some(a), Some(b)) if a != b => a.cmp(b),
            _ => bytes.cmp(other.as_bytes()),
        }
    }
}

impl<B> Clone for Text<B> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<B> Copy for Text<B> {}

impl<B: Blob> std::ops::Deref for Text<B> {
    type Target = str;

    fn deref(&self) -> &'static str {
        self.as_str()
    }
}

impl<B: Blob> fmt::Display for Text<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl<B: Blob> fmt::Debug for Text<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl<B: Blob> PartialEq for Text<B> {
    fn eq(&self, other: &Text<B>) -> bool {
        self.as_str() == other.as_str()
    }
}

impl<B: Blob> Eq for Text<B> {}

impl<B: Blob> PartialEq<str> for Text<B> {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl<B: Blob> PartialEq<&str> for Text<B> {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl<B: Blob> PartialOrd for Text<B> {
    fn partial_cmp(&self, other: &Text<B>) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<B: Blob> Ord for Text<B> {
    fn cmp(&self, other: &Text<B>) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl<B: Blob> std::hash::Hash for Text<B> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

/// The rows a [`Slice`] of them ranges over: one static table per row type.
pub trait Rows: Sized + 'static {
    fn table() -> &'static [Self];
}

/// A list of a table: a range of the table of its rows.
pub struct Slice<T> {
    start: u32,
    end: u32,
    rows: PhantomData<T>,
}

impl<T: Rows> Slice<T> {
    pub const fn new(start: u32, end: u32) -> Slice<T> {
        Slice {
            start,
            end,
            rows: PhantomData,
        }
    }

    pub fn as_slice(self) -> &'static [T] {
        &T::table()[self.start as usize..self.end as usize]
    }
}

impl<B: Blob> Slice<Text<B>>
where
    Text<B>: Rows,
{
    /// The strings of a list of strings, as `&'static str`.
    pub fn strs(self) -> impl Iterator<Item = &'static str> + Clone {
        self.as_slice().iter().map(|t| t.as_str())
    }
}

impl<T> Clone for Slice<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Slice<T> {}

impl<T: Rows> std::ops::Deref for Slice<T> {
    type Target = [T];

    fn deref(&self) -> &'static [T] {
        self.as_slice()
    }
}

impl<T: Rows + fmt::Debug> fmt::Debug for Slice<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_slice().fmt(f)
    }
}

impl<T: Rows + PartialEq> PartialEq for Slice<T> {
    fn eq(&self, other: &Slice<T>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Rows + Eq> Eq for Slice<T> {}

impl<T: Rows> IntoIterator for Slice<T> {
    type Item = &'static T;
    type IntoIter = std::slice::Iter<'static, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<T: Rows> IntoIterator for &Slice<T> {
    type Item = &'static T;
    type IntoIter = std::slice::Iter<'static, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<B: Blob> PartialEq<Text<B>> for &str {
    fn eq(&self, other: &Text<B>) -> bool {
        *self == other.as_str()
    }
}

pub use super::name_hash::name_hash;

/// The row of `rows` named `name`, by the open-addressing index `slots` the build wrote
/// for them (a power of two of slots, at most half of them used, so that a probe meets
/// an empty one: each slot 0, or 1 + the index of a row, the rows placed at their
/// hash's slot or the first empty one after it). A lookup hashes the name once and
/// compares one or two names whole; a search by its eight-byte key compared up to a
/// dozen keys and then each name that shares them.
pub fn find_hashed<T, S: Copy + Into<u16>>(
    rows: &'static [T],
    slots: &[S],
    name: &str,
    row_is: impl Fn(&T, &str) -> bool,
) -> Option<&'static T> {
    if slots.is_empty() {
        return None;
    }
    let mask = slots.len() - 1;
    let mut at = name_hash(name.as_bytes()) as usize & mask;
    loop {
        let slot = slots[at].into();
        if slot == 0 {
            return None;
        }
        let row = &rows[usize::from(slot) - 1];
        if row_is(row, name) {
            return Some(row);
        }
        at = (at + 1) & mask;
    }
}
