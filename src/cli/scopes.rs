//! `reqlint scopes`: the least permissions each token's code-hosting requests need, as a
//! token block to paste (or JSON).

use std::collections::BTreeMap;
use std::process::ExitCode;

use crate::apis::codehost::scopes;
use crate::engine;
use crate::loading;
use crate::model::FileModel;
use crate::model::secrets::file_secrets;
use crate::redact::{self, Redactor};
use crate::run::environments::Discovery;
use crate::run::walk;

use super::settings::load_settings;
use super::stdio::write_stdout;
use super::{CheckArgs, ScopesArgs, ScopesFormat, inputs_or_working_directory};

pub(super) fn print_least_permissions(args: ScopesArgs) -> Result<ExitCode, String> {
    let check_args = CheckArgs {
        config: args.config.clone(),
        ..CheckArgs::default()
    };
    let settings = load_settings(&check_args)?;
    let inputs = inputs_or_working_directory(&args.paths);
    let paths = walk::Paths::new(&settings.config)?;
    let files = walk::collect(&inputs, &settings.config, &paths)?;
    let mut tokens = BTreeMap::new();
    let mut jobs = Vec::new();
    let mut secret_texts = Vec::new();
    let environments = Discovery::new(&settings, false);
    for path in &files {
        // Read as the check reads: with the environments found beside the file.
        let settings = &*environments.settings_for(&settings, path);
        let display = paths.display(path);
        // Read as the check reads: regular files within the size limit only.
        let bytes = loading::read_bounded(path, settings.limits.max_file_bytes, "request file")?;
        let loaded = engine::load_file(&display, path, bytes, settings);
        let secrets = file_secrets(
            &loaded.text,
            &loaded.documents,
            &loaded.problems,
            &settings.config.variables,
        );
        secret_texts.extend(redact::secret_texts(&loaded.text, &secrets));
        let file_model = FileModel::build(&loaded.documents, &loaded.text);
        scopes::collect(
            &display,
            &loaded.text,
            &file_model,
            &settings.config,
            &mut tokens,
        );
        jobs.extend(scopes::collect_jobs(
            &display,
            &loaded.text,
            &file_model,
            &settings.config,
        ));
    }
    let text = match args.format {
        ScopesFormat::Yaml if tokens.is_empty() && !jobs.is_empty() => {
            scopes::render_jobs_yaml(&jobs)
        }
        ScopesFormat::Yaml => {
            let mut text = scopes::render_yaml(&tokens);
            text.push_str(&scopes::render_jobs_yaml(&jobs));
            text
        }
        ScopesFormat::Json => {
            let list: Vec<_> = tokens.values().collect();
            let json =
                serde_json::to_string_pretty(&serde_json::json!({ "tokens": list, "jobs": jobs }))
                    .map_err(|e| e.to_string())?;
            format!("{json}\n")
        }
    };
    // A token's name or a request written with a credential in it is shown as every
    // other text: masked, with the secrets of every file read.
    let redactor = Redactor::for_literals(secret_texts);
    write_stdout(redactor.lines(&text).as_bytes())
}
