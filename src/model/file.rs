//! What the rules see of one file: its text, its requests, the config and context, which
//! API each request was routed to, and a memo where each API's wing keeps what it
//! computes once for all its rules. Nothing here names an API: each API's wing fills
//! it.

use std::any::Any;
use std::cell::OnceCell;

use super::FileModel;
use super::config::Config;
use super::context::ContextIndex;
use crate::loading::Problem;

/// An API as the request model and the rules name it: its stable name, which is also
/// the name of its config section and of its rule group (`advertising`, `code-hosting`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ApiId(pub &'static str);

impl ApiId {
    pub fn as_str(self) -> &'static str {
        self.0
    }
}

/// A request of a file that an API recognized as one of its operations: its place in
/// the file's requests, and the operation as the API numbers them (an API without
/// numbered operations says 0). Rules that inspect an API's requests get these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Routed {
    pub index: usize,
    pub operation: u32,
}

/// The operations of one API that a rule inspects (`Inspects::Requests`): each API's wing
/// implements it for its own lists of operations.
pub trait OperationSet: Sync {
    fn api(&self) -> ApiId;
    /// Whether the set holds an operation, as the API numbers them.
    fn includes(&self, operation: u32) -> bool;
    /// One line for `reqlint explain`.
    fn describe(&self) -> String;
}

/// How many API wings may keep a memo of a file: one slot each (a test holds the
/// registry to it).
pub const MEMO_SLOTS: usize = 8;

/// What the APIs' wings compute once per file for all their rules (recognized calls,
/// resolved tokens, param findings), one slot per type, filled on first use. A slot is
/// found by its value's type, so that the engine and the file context know none of them.
#[derive(Default)]
pub struct FileMemo {
    slots: [OnceCell<Box<dyn Any>>; MEMO_SLOTS],
}

impl FileMemo {
    /// The file's value of type `T`, made with `T::default()` on first use (its fields are
    /// typically cells that fill themselves).
    ///
    /// Slots fill in order, so a type's slot always comes before the first empty one.
    pub fn get<T: Any + Default>(&self) -> &T {
        for slot in &self.slots {
            let value = slot.get_or_init(|| Box::new(T::default()));
            if let Some(value) = value.downcast_ref::<T>() {
                return value;
            }
        }
        unreachable!("more kinds of per-file memo than MEMO_SLOTS; raise it")
    }
}

/// What a rule sees of one file.
pub struct FileContext<'a> {
    pub path: &'a str,
    /// How the file is read, told from its path once for every rule.
    pub format: crate::loading::Format,
    pub text: &'a str,
    /// What the loader found wrong with the file.
    pub problems: &'a [Problem],
    pub model: &'a FileModel<'a>,
    pub config: &'a Config,
    pub context: &'a ContextIndex,
    /// The names of the rules of the run, which suppressions may name.
    pub rule_names: &'a [&'static str],
    /// Per request of `model.requests`, the API it was routed to (none: its line could
    /// not be read, or no API claims it).
    pub routes: Vec<Option<ApiId>>,
    /// What the APIs' wings compute once for all their rules.
    pub memo: FileMemo,
}

impl<'a> FileContext<'a> {
    /// Whether request `index` was routed to `api`.
    pub fn routed_to(&self, index: usize, api: ApiId) -> bool {
        self.routes.get(index).copied().flatten() == Some(api)
    }

    /// The requests routed to `api`, with their index.
    pub fn requests_of(
        &self,
        api: ApiId,
    ) -> impl Iterator<Item = (usize, &'a super::Request<'a>)> + '_ {
        let requests: &'a [super::Request<'a>] = &self.model.requests;
        requests
            .iter()
            .enumerate()
            .filter(move |(index, _)| self.routed_to(*index, api))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Counter(std::cell::Cell<u32>);

    #[derive(Default)]
    struct Words(Vec<&'static str>);

    #[test]
    fn each_type_has_its_own_slot_kept_for_the_file() {
        let memo = FileMemo::default();
        memo.get::<Counter>().0.set(3);
        assert!(memo.get::<Words>().0.is_empty());
        assert_eq!(memo.get::<Counter>().0.get(), 3);
    }
}
