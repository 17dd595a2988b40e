//! What a run needs around the engine: the files it walks, the settings it builds from
//! the config, the baseline of findings it hides, and the cache of results it keeps
//! between runs.

pub mod baseline;
pub mod cache;
pub mod environments;
pub mod settings;
pub mod walk;
