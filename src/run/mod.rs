//! What a run needs around the engine: the files it walks, the settings it builds from
//! the config, and the baseline of findings it hides.

pub mod baseline;
pub mod settings;
pub mod walk;
