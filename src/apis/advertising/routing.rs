//! Which requests are the advertising API's (docs/request-files.md): a request line
//! whose host is one of the Graph API's (or the config's `advertising.hosts`); behind a
//! base variable the config gives it (`advertising.base-variables`) or that its paths are
//! sure of; and a bare path that starts with a version (`/v25.0/…`) or a segment only the
//! Graph API's paths start with.

use crate::apis::Evidence;
use crate::model::RequestLine;

/// What a request line's path says of the Graph API: sure with a version first
/// (`/v25.0/…`) or an ad account first (`/act_1/…`, after a version variable too),
/// likely with an object id or a variable named for an account or a version.
pub fn evidence(line: &RequestLine) -> Evidence {
    if line.version.is_some() {
        return Evidence::Sure;
    }
    let first = line.segments.first().map(|s| s.text.as_str());
    let version_variable = first.is_some_and(|s| {
        s.starts_with("{{") && s.ends_with("}}") && s.to_ascii_lowercase().contains("version")
    });
    let account = if version_variable {
        line.segments.get(1).map(|s| s.text.as_str())
    } else {
        first
    };
    if account.is_some_and(|s| s.starts_with("act_") && starts_advertising_path(s)) {
        return Evidence::Sure;
    }
    if first.is_some_and(starts_advertising_path) {
        return Evidence::Likely;
    }
    Evidence::None
}

/// The Graph API's hosts (`graph.facebook.com`, `graph-video.facebook.com`), lower case,
/// without port or user part.
pub fn is_graph_host(host: &str) -> bool {
    host.starts_with("graph") && host.ends_with(".facebook.com")
}

/// A first segment that only the advertising API's paths start with, when they come
/// without a version (the API then serves the app's default version): an ad account
/// (`act_<digits>`) or an object id (digits, or digits `_` digits). No code-hosting path
/// starts with either.
fn starts_advertising_path(segment: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let variable = |s: &str| s.starts_with("{{") && s.ends_with("}}");
    if let Some(id) = segment.strip_prefix("act_") {
        return digits(id) || variable(id);
    }
    // `{{ad_account_id}}`: a variable named for an ad account, or for the version of the
    // Graph API (`{{api_version}}`, `{{graph_version}}`).
    if variable(segment) {
        let name = segment.to_ascii_lowercase();
        return name.contains("account") || name.starts_with("{{act") || name.contains("version");
    }
    match segment.split_once('_') {
        Some((a, b)) => digits(a) && digits(b),
        None => digits(segment),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loading::encoded::NoVariables;
    use crate::loading::{Node, Span, Value};

    fn line(file: &str, text: &str) -> RequestLine {
        let start = file.find(text).unwrap();
        let node = Node::new(
            Span::new(start, start + text.len()),
            Value::String(text.into()),
        );
        crate::model::request_line::parse_request_line(&node, file, &NoVariables).unwrap()
    }

    #[test]
    fn advertising_paths_without_a_version() {
        for (text, advertising) in [
            ("POST /act_123/campaigns", true),
            ("GET /120210000000000001/insights", true),
            ("GET /123_456", true),
            ("GET https://graph.facebook.com/me/adaccounts", true),
            ("GET https://graph.facebook.com:443/v25.0/act_1", true),
            ("GET /repos/acme/web", false),
            ("GET /act_x/campaigns", false),
            ("GET /act_{{account}}/campaigns", true),
            ("GET /{{ad_account_id}}/campaigns", true),
            ("GET /repos/{{owner}}/web", false),
            ("GET https://api.example.com/user", false),
        ] {
            let file = format!("request: {text}");
            let l = line(&file, text);
            let graph = l
                .host
                .as_deref()
                .is_some_and(|h| is_graph_host(h.split(':').next().unwrap()));
            assert_eq!(
                graph || evidence(&l) >= Evidence::Likely,
                advertising,
                "{text}"
            );
        }
    }
}
