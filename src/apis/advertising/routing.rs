//! Which requests are the advertising API's: a request line whose host is one of the
//! Graph API's, whose path starts with a version (`/v25.0/…`), or whose first segment only
//! the Graph API's paths start with (docs/request-files.md).

use crate::model::RequestLine;

/// Whether a request line calls the Graph API.
pub fn claims(line: &RequestLine) -> bool {
    line.version.is_some()
        || line.host.as_deref().is_some_and(is_graph_host)
        || line
            .segments
            .first()
            .is_some_and(|s| starts_advertising_path(&s.text))
}

/// The Graph API's hosts (`graph.facebook.com`, `graph-video.facebook.com`, with a port or
/// credentials or not).
fn is_graph_host(host: &str) -> bool {
    let host = host.rsplit('@').next().unwrap_or(host);
    let host = host.split(':').next().unwrap_or(host).to_ascii_lowercase();
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
            assert_eq!(claims(&line(&file, text)), advertising, "{text}");
        }
    }
}
