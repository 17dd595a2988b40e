//! `reqlint completions SHELL`: the shell's completion script, with the rule names.

use clap::CommandFactory;
use clap::builder::PossibleValuesParser;

use crate::rules;

use super::Cli;

/// `reqlint completions SHELL`: the shell's completion script.
pub(super) fn completion_script(shell: clap_complete::Shell) -> Vec<u8> {
    let mut out = Vec::new();
    clap_complete::generate(
        shell,
        &mut with_rule_names(Cli::command()),
        "reqlint",
        &mut out,
    );
    out
}

/// The command line as the shell completions see it: the rule names after `explain`,
/// and the rule and group names after `--select`, `--extend-select` and `--ignore`.
/// Parsing does not use these lists: an unknown name gets reqlint's own error, with the
/// closest name.
fn with_rule_names(command: clap::Command) -> clap::Command {
    let rules = rules::names();
    let mut selectable = rules.clone();
    selectable.extend_from_slice(rules::GROUP_NAMES);
    let selection = |mut c: clap::Command| {
        for id in ["select", "extend_select", "ignore"] {
            if c.get_arguments().any(|a| a.get_id() == id) {
                let names = selectable.clone();
                c = c.mut_arg(id, |a| a.value_parser(PossibleValuesParser::new(names)));
            }
        }
        c
    };
    selection(command)
        .mut_subcommand("check", selection)
        .mut_subcommand("explain", |c| {
            c.mut_arg("rule", |a| a.value_parser(PossibleValuesParser::new(rules)))
        })
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[test]
    fn completions_offer_rule_and_group_names() {
        for shell in [
            clap_complete::Shell::Bash,
            clap_complete::Shell::Zsh,
            clap_complete::Shell::Fish,
        ] {
            let script = String::from_utf8(completion_script(shell)).unwrap();
            for name in [
                "token-missing-permission",
                "ad-param-invalid",
                "code-hosting",
            ] {
                assert!(script.contains(name), "{shell}: no {name}");
            }
        }
        // Parsing keeps its own error for an unknown name.
        assert!(Cli::try_parse_from(["reqlint", "explain", "no-such-rule"]).is_ok());
        assert!(Cli::try_parse_from(["reqlint", "check", "--select", "no-such-rule"]).is_ok());
    }
}
