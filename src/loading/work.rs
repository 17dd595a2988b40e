//! A count of the work reading does: the bytes the scans of the readers, the loaders
//! and variable substitution look at, and the items their loops visit. Tests read it to
//! show that the work grows with the input and no faster (the work of an input ten
//! times as large is about ten times the work, never a hundred), which no clock on a
//! loaded machine can show reliably. Counting is one addition to a thread-local cell.

use std::cell::Cell;

thread_local! {
    static WORK: Cell<u64> = const { Cell::new(0) };
}

/// Counts `units` of work (bytes looked at, items visited).
#[inline]
pub fn count(units: usize) {
    WORK.with(|w| w.set(w.get().wrapping_add(units as u64)));
}

/// What `run` returns, and the work it counted on this thread.
pub fn measure<T>(run: impl FnOnce() -> T) -> (T, u64) {
    let before = WORK.with(Cell::get);
    let out = run();
    let after = WORK.with(Cell::get);
    (out, after.wrapping_sub(before))
}
