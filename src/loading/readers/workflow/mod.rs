pub mod github_script;
pub mod shell;
