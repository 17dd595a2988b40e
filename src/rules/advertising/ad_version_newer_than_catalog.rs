use crate::catalog::graph::{GRAPH_VERSION, graph_version};
use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::Version;
use crate::model::file::FileContext;
use crate::rules::rule::{Group, Inspects, Rule};

crate::declare_rule! {
    pub struct AdVersionNewerThanCatalog {
        name: "ad-version-newer-than-catalog",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Info,
        summary: "an advertising call to a version newer than reqlint's catalog of the API",
        what: "Reads the `v<major>.<minor>` segment of an advertising path. reqlint's catalog \
               of the Marketing API (every node, edge, param, field and enum) is the vendor's \
               specs of one version; a call to a newer version is checked against that catalog \
               all the same, and this rule says so once per run, at the first such call (in \
               the order of the files' paths). A param or field that the newer version added \
               may then be reported as unknown.",
        why: "So that a finding about a newer version is read for what it is: judged by the \
              newest catalog reqlint has, not by the version called.",
        source: "Meta's Marketing API versioning page (https://developers.facebook.com/docs/marketing-api/versions/); the catalog's version is in catalog/advertising/vendor/specs/version.txt",
        fixes: &[],
        inspects: Inspects::File,
        bad: example!("ad-version-newer-than-catalog/bad.req.yaml"),
        good: example!("ad-version-newer-than-catalog/good.req.yaml"),
    }
}

impl Rule for AdVersionNewerThanCatalog {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        let (major, minor) = graph_version();
        let catalog = Version { major, minor };
        for (_, request) in file.requests_of(crate::apis::advertising::ID) {
            let Some(line) = request.line() else {
                continue;
            };
            let Some((version, span)) = line.version.filter(|(v, _)| *v > catalog) else {
                continue;
            };
            out.push(
                Diagnostic::new(
                    &META,
                    span,
                    format!(
                        "{version} is newer than reqlint's catalog of the Marketing API ({GRAPH_VERSION}): calls to it are checked against {GRAPH_VERSION}"
                    ),
                )
                .with_help(format!(
                    "a param or field that {version} added may be reported as unknown; a newer reqlint may know it"
                ))
                .once_per_run(),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::spans;

    #[test]
    fn only_versions_after_the_catalog() {
        let yaml = "requests:\n  - GET /v25.0/act_1/campaigns\n  - GET /v26.0/act_1/campaigns\n  - GET /v30.1/act_1/ads\n  - GET /act_1/ads\n";
        assert_eq!(
            spans("ad-version-newer-than-catalog", "", yaml),
            vec!["v26.0", "v30.1"]
        );
    }
}
