//! `reqlint manpage`: the man pages (roff), generated from the command line's
//! definitions.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use clap::CommandFactory;

use crate::files;

use super::Cli;
use super::stdio::write_stdout;

/// `manpage`: the page of `reqlint` on standard output.
pub(super) fn print_man_page() -> Result<ExitCode, String> {
    let mut out = Vec::new();
    match clap_mangen::Man::new(Cli::command()).render(&mut out) {
        Ok(()) => write_stdout(&out),
        Err(e) => Err(format!("cannot write the man page: {e}")),
    }
}

/// `manpage --dir DIR`: `reqlint.1` and a page for each command, as clap_mangen's
/// `generate_to` names them, each written through [`files::create_named`] with
/// the working directory as the project: inside it, neither DIR nor a page planted in it
/// may be a link that leads out of it.
pub(super) fn write_man_pages(dir: &Path) -> Result<ExitCode, String> {
    fn pages(command: clap::Command, out: &mut Vec<(String, Vec<u8>)>) -> std::io::Result<()> {
        for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
            pages(sub.clone(), out)?;
        }
        let man = clap_mangen::Man::new(command);
        let mut page = Vec::new();
        man.render(&mut page)?;
        out.push((man.get_filename(), page));
        Ok(())
    }
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    let mut rendered = Vec::new();
    pages(command, &mut rendered).map_err(|e| format!("cannot write the man page: {e}"))?;
    let project = Path::new(".");
    files::check_link_stays_inside(dir, project)
        .map_err(|e| format!("{e}; the man pages were not written"))?;
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("cannot write the man pages to {}: {e}", dir.display()))?;
    for (name, page) in rendered {
        let path = dir.join(name);
        files::create_named(&path, project)?
            .write_all(&page)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}
