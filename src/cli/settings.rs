//! The settings of a run: the config (named, or the nearest one), its environments, then
//! what the command line adds (rule selection, environment files, context snapshots).

use std::path::PathBuf;

use crate::engine::Settings;
use crate::model::config::Config;
use crate::rules;
use crate::run::settings::{
    CommandLineSelection, from_config_and_environments, select_on_command_line,
};

use super::CheckArgs;

pub(super) fn load_settings(args: &CheckArgs) -> Result<Settings, String> {
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the working directory: {e}"))?;
    let names = rules::names();
    let sections = crate::apis::config_sections();
    let config = match &args.config {
        Some(path) => Config::load(path, &names, &sections)?,
        None => match Config::discover(&cwd) {
            Some(path) => Config::load(&path, &names, &sections)?,
            None => Config::defaults(PathBuf::from(".")),
        },
    };
    let (mut settings, _) = from_config_and_environments(config, &args.environment)?;
    let choice = CommandLineSelection {
        select: args.select.clone(),
        extend_select: args.extend_select.clone(),
        ignore: args.ignore.clone(),
    };
    select_on_command_line(&mut settings.config, &choice)?;
    for file in &args.context {
        settings.context.add_file(file)?;
    }
    Ok(settings)
}
