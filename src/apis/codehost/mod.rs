//! Rules of the code-hosting API: token scope coverage and reach, after GitHub's
//! "Permissions required for fine-grained personal access tokens"
//! (https://docs.github.com/en/rest/authentication/permissions-required-for-fine-grained-personal-access-tokens)
//! and its permission tables (catalog/codehost/).

pub mod operation_params;
pub mod permissions_block;
pub mod scopes;
pub mod settings;
pub mod workflow_token;

use std::borrow::Cow;
use std::cell::OnceCell;
use std::collections::HashMap;

use crate::catalog::codehost::{Access, ApiVersion, CATALOG, NameError, PermissionId, Scope};

use crate::catalog::codehost::Endpoint;
use crate::catalog::codehost_access::OperationAccess;
use crate::catalog::codehost_operations::{
    Edition, OperationId, get as get_operation, operation_sent,
};
use crate::loading::{Node, Span};
use crate::model::config::Config;
use crate::model::file::{ApiId, FileContext, OperationSet, Routed};
use crate::model::token::{Grant, TOKEN_KEYS, Token, TokenUses};
use crate::model::{Method, Request, RequestLine, TokenRef};
use crate::suggest::did_you_mean;

/// The code-hosting API's name: its config section and its rules' group.
pub const ID: ApiId = ApiId("code-hosting");

/// The code-hosting API's wing, as the engine sees it.
pub struct CodeHosting;

pub static CODE_HOSTING: CodeHosting = CodeHosting;

impl crate::apis::Api for CodeHosting {
    fn id(&self) -> ApiId {
        ID
    }

    /// The cloud's hosts (`api.github.com`, `uploads.github.com`), an enterprise cloud
    /// host with data residency (`api.SUBDOMAIN.ghe.com`), and the config's `hosts` (an
    /// enterprise server, whose paths start with `/api/v3`).
    fn serves_host(&self, host: &str, host_port: &str, config: &Config) -> bool {
        matches!(host, "api.github.com" | "uploads.github.com")
            || host
                .strip_prefix("api.")
                .and_then(|rest| rest.strip_suffix(".ghe.com"))
                .is_some_and(|sub| !sub.is_empty() && !sub.contains('.'))
            || settings::settings(config).reach.serves(host, host_port)
    }

    /// Not its GraphQL API, on the same hosts (`/graphql`, `/api/graphql` on an
    /// enterprise server: https://docs.github.com/en/graphql/guides/forming-calls-with-graphql).
    fn serves_path(&self, line: &RequestLine) -> bool {
        let graphql = |s: &crate::model::request_line::Segment| s.text == "graphql";
        !match line.segments.as_slice() {
            [only] => graphql(only),
            [api, last] => api.text == "api" && graphql(last),
            _ => false,
        }
    }

    fn owns_base_variable(&self, name: &str, config: &Config) -> bool {
        settings::settings(config).reach.owns_variable(name)
    }

    /// Sure when the path starts with a segment that starts a path of the permission
    /// tables (`/repos/…`, `/orgs/…`, `/user`); likely for any other path (a bare path no
    /// other API claims is the code-hosting API's, docs/request-files.md).
    fn path_evidence(&self, line: &RequestLine) -> crate::apis::Evidence {
        let segments = path_segments(line);
        if segments
            .first()
            .is_some_and(|s| CATALOG.is_first_segment(s))
        {
            crate::apis::Evidence::Sure
        } else {
            crate::apis::Evidence::Likely
        }
    }

    fn operation_count(&self) -> u32 {
        1
    }

    fn config_section(&self) -> Option<&'static dyn crate::model::config::ConfigSection> {
        Some(&settings::SECTION)
    }

    fn check_config(&self, config: &Config) -> Result<(), String> {
        validate_config_tokens(config)
    }

    /// A token's permission levels, in the host's order (read < write < admin).
    fn config_level_rank(&self, word: &str) -> Option<u8> {
        Access::parse(word).map(|level| level as u8)
    }

    /// Every request routed here with a readable line: the rules look its path up in
    /// the permission tables themselves ([`rows`]).
    fn operations(&self, file: &FileContext<'_>) -> Vec<Routed> {
        file.requests_of(ID)
            .map(|(index, _)| Routed {
                index,
                operation: 0,
            })
            .collect()
    }
}

/// What code-hosting rules inspect: each code-hosting request.
pub struct EveryRequest;

/// `Inspects::Requests(&EVERY_REQUEST)`.
pub static EVERY_REQUEST: EveryRequest = EveryRequest;

impl OperationSet for EveryRequest {
    fn api(&self) -> ApiId {
        ID
    }

    fn includes(&self, _operation: u32) -> bool {
        true
    }

    fn describe(&self) -> String {
        "each code-hosting request".into()
    }
}

/// The request a routed request is, as the engine handed it to a rule.
pub fn request<'f>(file: &'f FileContext<'_>, routed: Routed) -> CodehostRequest<'f> {
    let request = &file.model.requests[routed.index];
    CodehostRequest {
        index: routed.index,
        request,
        line: request
            .line()
            .expect("only requests with a readable line are routed"),
    }
}

/// A token's grants checked against the catalog.
pub struct ResolvedToken {
    /// The config name, for a named token.
    pub name: Option<String>,
    pub token: Token,
    pub granted: HashMap<PermissionId, Access>,
    /// Where the request names or writes it, when that is in the linted file.
    pub span: Span,
}

impl ResolvedToken {
    /// Whether the token holds a row's permission at its level or higher.
    pub fn holds(&self, row: &Endpoint) -> bool {
        self.granted
            .get(&row.permission)
            .is_some_and(|&held| held >= row.access)
    }

    pub fn describe(&self) -> Cow<'_, str> {
        match self.name.as_deref() {
            Some(name) => Cow::Owned(format!("token `{name}`")),
            None => Cow::Borrowed("the request's token"),
        }
    }
}

/// Why a grant is not valid, as a message; `None` when it is.
pub fn grant_error(grant: &Grant) -> Option<(Span, String, Option<String>)> {
    let Some(scope) = Scope::parse(&grant.scope) else {
        let names = Scope::ALL.map(Scope::as_str);
        let help = did_you_mean(&grant.scope, names)
            .map(|s| format!("did you mean `{s}`?"))
            .unwrap_or_else(|| "scopes are organization, repository and user".into());
        return Some((
            grant.scope_span,
            format!("unknown permission scope `{}`", grant.scope),
            Some(help),
        ));
    };
    match CATALOG.lookup(scope, &grant.name) {
        Ok(_) => {}
        Err(NameError::Unknown { suggestion }) => {
            let help = suggestion
                .map(|s| format!("did you mean `{s}`?"))
                .unwrap_or_else(|| format!("`reqlint explain token-permission-invalid` tells where the {scope} permissions are listed"));
            return Some((
                grant.name_span,
                format!("unknown {scope} permission `{}`", grant.name),
                Some(help),
            ));
        }
        Err(NameError::WrongScope { belongs_to }) => {
            let scopes: Vec<&str> = belongs_to.iter().map(|s| s.as_str()).collect();
            return Some((
                grant.name_span,
                format!(
                    "`{}` is a permission of the {} scope, not of the {scope} scope",
                    grant.name,
                    scopes.join(" and ")
                ),
                Some(format!("move it under `{}:`", scopes[0])),
            ));
        }
    }
    if Access::parse(&grant.level).is_none() {
        return Some((
            grant.level_span,
            format!(
                "unknown access level `{}` for `{}`",
                grant.level, grant.name
            ),
            Some("levels are `read`, `write` and `admin`".into()),
        ));
    }
    None
}

/// Every problem of a token as written: unknown keys, names, scopes and levels.
pub fn token_errors(node: &crate::loading::Node) -> Vec<(Span, String, Option<String>)> {
    token_errors_of(&Token::read(node), node)
}

/// [`token_errors`] of a token already read from `node`.
pub fn token_errors_of(
    token: &Token,
    node: &crate::loading::Node,
) -> Vec<(Span, String, Option<String>)> {
    let keys = node
        .as_map()
        .unwrap_or_default()
        .iter()
        .map(|e| (&e.key, e.key_span));
    let mut errors: Vec<_> = token
        .issues
        .iter()
        .map(|(s, m)| (*s, m.clone(), None))
        .collect();
    for (key, span) in keys {
        if !TOKEN_KEYS.contains(&key.as_str()) {
            let help = did_you_mean(key, TOKEN_KEYS.iter().copied())
                .map(|s| format!("did you mean `{s}`?"))
                .unwrap_or_else(|| "a token has owner, repositories and permissions".into());
            errors.push((span, format!("unknown token key `{key}`"), Some(help)));
        }
    }
    errors.extend(token.grants.iter().filter_map(grant_error));
    errors
}

fn resolve(token: Token, name: Option<&str>, span: Span) -> ResolvedToken {
    let mut granted: HashMap<PermissionId, Access> = HashMap::new();
    for g in &token.grants {
        let (Some(scope), Some(level)) = (Scope::parse(&g.scope), Access::parse(&g.level)) else {
            continue;
        };
        if let Ok(id) = CATALOG.lookup(scope, &g.name) {
            let entry = granted.entry(id).or_insert(level);
            *entry = (*entry).max(level);
        }
    }
    ResolvedToken {
        name: name.map(str::to_string),
        token,
        granted,
        span,
    }
}

/// The token a request runs with, when it is known: inline, or named and defined.
pub fn request_token(request: &Request<'_>, config: &Config) -> Option<ResolvedToken> {
    match request.token? {
        TokenRef::Inline(node) => Some(resolve(Token::read(node), None, node.span)),
        TokenRef::Named { name, span } => {
            let node = config.tokens.get(name)?;
            Some(resolve(Token::read(node), Some(name), span))
        }
    }
}

/// What the code-hosting rules of one file share, computed once for all of them: every
/// request's endpoint rows, and every distinct token resolved once (a file's requests
/// mostly share one).
#[derive(Default)]
struct FileCache {
    /// How many did-you-mean searches over the templates the file has had: they are
    /// bounded per file, so that a file of many unknown paths stays linear.
    suggestions: std::cell::Cell<usize>,
    rows: OnceCell<Vec<EndpointMatch>>,
    tokens: OnceCell<Tokens>,
    /// The spans of the file's tokens that a YAML alias shares between two tokens, or
    /// between two places of one token (see [`token_written_once`]).
    token_aliases: OnceCell<Vec<Span>>,
    /// Per request, what it needs of its token: three rules ask it of every request.
    needs: OnceCell<Vec<OnceCell<Need>>>,
    /// Per request, its endpoint's rows for its own method (see [`alternatives`]), which
    /// its need and token-missing-permission read.
    alternatives: OnceCell<Vec<OnceCell<Vec<&'static Endpoint>>>>,
}

/// One cell per request of the file, each filled when first asked.
fn per_request<'c, T>(
    cells: &'c OnceCell<Vec<OnceCell<T>>>,
    file: &FileContext<'_>,
) -> &'c [OnceCell<T>] {
    cells.get_or_init(|| {
        (0..file.model.requests.len())
            .map(|_| OnceCell::new())
            .collect()
    })
}

/// How many did-you-mean searches over the templates the file has had before this one
/// (which it counts).
pub fn suggestions_made(file: &FileContext<'_>) -> usize {
    let made = &file.memo.get::<FileCache>().suggestions;
    let before = made.get();
    made.set(before + 1);
    before
}

/// Whether `span` of a token written in the file is written once: not shared by a YAML
/// alias with another token (`permissions: *p`), another place of the same token
/// (`Contents: *lvl`) or anything else of the file (a request's `params: *p`), where a
/// fix for one would change the other too. A token that several requests name by one
/// alias (`token: *t`) is one token: that counts once.
pub fn token_written_once(file: &FileContext<'_>, span: Span) -> bool {
    let aliased = file.memo.get::<FileCache>().token_aliases.get_or_init(|| {
        if !file.text.contains('*') {
            return Vec::new();
        }
        let mut distinct: Vec<&Node> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for request in &file.model.requests {
            if let Some(TokenRef::Inline(node)) = request.token
                && seen.insert(node.span)
            {
                distinct.push(node);
            }
        }
        // The documents without their tokens (wherever a token's node stands: its
        // anchor's place too), then each distinct token once.
        let spans: std::collections::HashSet<Span> = distinct.iter().map(|d| d.span).collect();
        crate::loading::tree::aliased_except(
            file.model.documents.iter().map(|d| d.root),
            |n| spans.contains(&n.span),
            distinct.iter().copied(),
        )
    });
    crate::model::edits::outside(aliased, span)
}

#[derive(Default)]
struct Tokens {
    resolved: Vec<ResolvedToken>,
    /// Per request, its token's place in `resolved`.
    of_request: Vec<Option<usize>>,
}

/// Which endpoint request `i`'s path is (no rows when it is not a code-hosting request
/// with a readable line).
fn endpoint_of<'f>(file: &'f FileContext<'_>, i: usize) -> &'f EndpointMatch {
    let matches = file.memo.get::<FileCache>().rows.get_or_init(|| {
        file.model
            .requests
            .iter()
            .enumerate()
            .map(|(i, r)| {
                r.line().filter(|_| file.routed_to(i, ID)).map_or(
                    EndpointMatch::Rows(Vec::new()),
                    |line| {
                        endpoint_match(
                            line,
                            api_version(r, file.config),
                            edition(line, file.config),
                        )
                    },
                )
            })
            .collect()
    });
    &matches[i]
}

/// The endpoint rows of request `i`'s path: none when it is not a code-hosting request
/// with a readable line, or when its path may be one of several endpoints.
pub fn rows<'f>(
    file: &'f FileContext<'_>,
    i: usize,
) -> &'f [&'static crate::catalog::codehost::Endpoint] {
    match endpoint_of(file, i) {
        EndpointMatch::Rows(rows) => rows,
        EndpointMatch::OneOfSeveral(_) => &[],
    }
}

/// Whether request `i`'s path holds variables whose values are not known that may make
/// it one of several endpoints: what it needs, and whether it exists, is not known.
pub fn one_of_several(file: &FileContext<'_>, i: usize) -> bool {
    matches!(endpoint_of(file, i), EndpointMatch::OneOfSeveral(_))
}

/// The token written at `node`, as the code-hosting rules read it: the one [`token`]
/// read once for the file where request `runs_with` runs with it, else `node` read anew
/// (a token no request runs with, a token's own mistakes).
pub fn token_at<'f>(
    file: &'f FileContext<'_>,
    runs_with: Option<usize>,
    node: &Node,
) -> Cow<'f, Token> {
    match runs_with.and_then(|i| token(file, i)) {
        Some(resolved) => Cow::Borrowed(&resolved.token),
        None => Cow::Owned(Token::read(node)),
    }
}

/// The token request `i` runs with, when it is known (see [`request_token`]).
pub fn token<'f>(file: &'f FileContext<'_>, i: usize) -> Option<&'f ResolvedToken> {
    let tokens = file.memo.get::<FileCache>().tokens.get_or_init(|| {
        let mut tokens = Tokens::default();
        // The same token: the same node, or the same name named at the same place.
        let mut seen: HashMap<(usize, Option<&str>, Span), Option<usize>> = HashMap::new();
        for request in &file.model.requests {
            let key = match request.token {
                Some(TokenRef::Inline(node)) => (node as *const Node as usize, None, node.span),
                Some(TokenRef::Named { name, span }) => (0, Some(name), span),
                None => {
                    tokens.of_request.push(None);
                    continue;
                }
            };
            let index = *seen.entry(key).or_insert_with(|| {
                let resolved = request_token(request, file.config)?;
                tokens.resolved.push(resolved);
                Some(tokens.resolved.len() - 1)
            });
            tokens.of_request.push(index);
        }
        tokens
    });
    tokens.of_request[i].map(|k| &tokens.resolved[k])
}

/// What one request needs of its token.
pub enum RequestNeed<'r> {
    /// Not a code-hosting request.
    Elsewhere,
    /// A GET of a public resource (`public: true`): no permission.
    Nothing,
    /// The permission its endpoint row lists.
    Row(&'static crate::catalog::codehost::Endpoint, &'r RequestLine),
    /// Every permission the host lists for an endpoint it flags as needing more than
    /// one, held by the token: it uses them all.
    AllOf(&'r [&'static crate::catalog::codehost::Endpoint]),
    /// No row lists its path and method, and the host documents that a fine-grained
    /// token calls it holding no permission (`GET /user`, `/rate_limit`).
    NoPermission,
    /// No row lists its path and method, and the host documents that fine-grained
    /// tokens cannot call it at all (a GitHub App's own endpoints).
    NotForFineGrained(OperationId),
    /// Its line cannot be read, or no row lists its path and method and reqlint has no
    /// word from the host on who may call it.
    Unknown,
}

/// [`RequestNeed`] as a file's cell keeps it, without the request line it borrows.
enum Need {
    Elsewhere,
    Nothing,
    Row(&'static Endpoint),
    AllOf(Vec<&'static Endpoint>),
    NoPermission,
    NotForFineGrained(OperationId),
    Unknown,
}

/// What request `i` of a file needs of its token, found once per request.
pub fn request_need<'f>(file: &'f FileContext<'_>, i: usize) -> RequestNeed<'f> {
    let cache = file.memo.get::<FileCache>();
    let need = per_request(&cache.needs, file)[i].get_or_init(|| need_of(file, i));
    match need {
        Need::Elsewhere => RequestNeed::Elsewhere,
        Need::Nothing => RequestNeed::Nothing,
        // A row is chosen only for a request whose line was read.
        Need::Row(row) => match file.model.requests[i].line() {
            Some(line) => RequestNeed::Row(row, line),
            None => RequestNeed::Unknown,
        },
        Need::AllOf(rows) => RequestNeed::AllOf(rows),
        Need::NoPermission => RequestNeed::NoPermission,
        Need::NotForFineGrained(operation) => RequestNeed::NotForFineGrained(*operation),
        Need::Unknown => RequestNeed::Unknown,
    }
}

/// What request `i` of a file needs of its token, found anew.
fn need_of(file: &FileContext<'_>, i: usize) -> Need {
    let request = &file.model.requests[i];
    let line = match &request.line {
        Ok(_) if !file.routed_to(i, ID) => return Need::Elsewhere,
        Ok(line) => line,
        Err(_) => return Need::Unknown,
    };
    if line.method == crate::model::Method::Get && request.public.is_some_and(|(p, _)| p) {
        return Need::Nothing;
    }
    let alternatives = request_alternatives(file, i);
    let chosen = match token(file, i).map(|t| coverage(alternatives, t)) {
        Some(Coverage::Covered(row) | Coverage::Flagged(row)) => Some(row),
        Some(Coverage::CoveredByAll(rows)) => return Need::AllOf(rows),
        _ => alternatives.first().copied(),
    };
    if let Some(row) = chosen {
        return Need::Row(row);
    }
    match operation_access(
        line,
        api_version(request, file.config),
        edition(line, file.config),
    ) {
        Some((_, access)) if access.fine_grained && access.permissionless => Need::NoPermission,
        Some((operation, access)) if !access.fine_grained => Need::NotForFineGrained(operation),
        _ => Need::Unknown,
    }
}

/// The rows of request `i`'s endpoint for its own method ([`alternatives`]), found once
/// per request; none when its line was not read.
pub fn request_alternatives<'f>(file: &'f FileContext<'_>, i: usize) -> &'f [&'static Endpoint] {
    let cache = file.memo.get::<FileCache>();
    per_request(&cache.alternatives, file)[i].get_or_init(|| {
        file.model.requests[i]
            .line()
            .map_or_else(Vec::new, |line| alternatives(file, i, line.method))
    })
}

/// The operation of the host's REST description a request line calls in an edition, and
/// what the host documents of who may call it in an API version, where reqlint has that
/// (catalog/codehost/access/). The host publishes this data for its cloud only: an
/// enterprise edition's operation is judged with the cloud's word for the same operation
/// (docs/codehost.md, "Editions").
pub fn operation_access(
    line: &RequestLine,
    version: ApiVersion,
    edition: Edition,
) -> Option<(OperationId, OperationAccess)> {
    let segments: Vec<&str> = line.segments.iter().map(|s| s.text.as_str()).collect();
    let operation = operation_sent(line.method, &segments, edition)?;
    // `/user/x5` is no `GET /user/{account_id}`: the host answers 404.
    if !path_values_fit(get_operation(operation), &path_segments(line), edition) {
        return None;
    }
    let template = get_operation(operation).template();
    let access = crate::catalog::codehost_access::access(version.as_str(), line.method, template)?;
    Some((operation, access))
}

/// The rows of request `i`'s endpoint for a method: the permissions any one of which
/// lets a token call it (the host lists an endpoint under every permission that grants
/// it), one row per permission and level.
///
/// A path whose variables may make it one of several endpoints has the alternatives of
/// the first (all placeholders where it may) when every one of them that takes the method
/// needs the same permissions; else none, since which it needs is not known.
pub fn alternatives(file: &FileContext<'_>, i: usize, method: Method) -> Vec<&'static Endpoint> {
    match endpoint_of(file, i) {
        EndpointMatch::Rows(rows) => alternatives_of(rows, method),
        EndpointMatch::OneOfSeveral(candidates) => {
            let mut needs = candidates
                .iter()
                .map(|rows| alternatives_of(rows, method))
                .filter(|alternatives| !alternatives.is_empty());
            let Some(first) = needs.next() else {
                return Vec::new();
            };
            let same = |a: &[&Endpoint], b: &[&Endpoint]| {
                a.len() == b.len()
                    && a.iter().all(|x| {
                        b.iter().any(|y| {
                            (x.permission, x.access, x.flagged)
                                == (y.permission, y.access, y.flagged)
                        })
                    })
            };
            if needs.all(|other| same(&first, &other)) {
                first
            } else {
                Vec::new()
            }
        }
    }
}

/// The alternatives among one template's rows.
fn alternatives_of(rows: &[&'static Endpoint], method: Method) -> Vec<&'static Endpoint> {
    let mut out: Vec<&'static Endpoint> = Vec::new();
    for &row in rows.iter().filter(|e| e.method == method) {
        let same = out.iter().position(|o| o.permission == row.permission);
        match same {
            // The lower level of one permission is the one that suffices.
            Some(k) if row.access < out[k].access => out[k] = row,
            Some(_) => {}
            None => out.push(row),
        }
    }
    out
}

/// What a token does for an endpoint's alternatives.
pub enum Coverage {
    /// It satisfies a row the host does not flag.
    Covered(&'static Endpoint),
    /// It holds every row of an endpoint the host flags and lists under several
    /// permissions: all the host says it needs.
    CoveredByAll(Vec<&'static Endpoint>),
    /// It satisfies only rows the host flags as needing or accepting more permissions,
    /// without saying which: it may need more.
    Flagged(&'static Endpoint),
    /// It satisfies none.
    Missing,
}

pub fn coverage(alternatives: &[&'static Endpoint], token: &ResolvedToken) -> Coverage {
    let satisfied = |row: &&&'static Endpoint| token.holds(row);
    if let Some(row) = alternatives.iter().filter(satisfied).find(|r| !r.flagged) {
        return Coverage::Covered(row);
    }
    // The host flags an endpoint that needs more than one of its rows' permissions, and
    // lists it under each of them: a token that holds every one it lists, each at its
    // level, holds all the host says it needs.
    let flagged: Vec<&'static Endpoint> =
        alternatives.iter().copied().filter(|r| r.flagged).collect();
    if flagged.len() > 1 && flagged.iter().all(|r| token.holds(r)) {
        return Coverage::CoveredByAll(flagged);
    }
    match alternatives.iter().find(satisfied) {
        Some(row) => Coverage::Flagged(row),
        None => Coverage::Missing,
    }
}

/// Records what request's need tells of its token's uses.
pub fn add_need(uses: &mut TokenUses, need: &RequestNeed<'_>) {
    // A request to another API (a file's token shared with Marketing API calls)
    // neither uses the token's code-hosting permissions nor hides what the others use.
    if matches!(need, RequestNeed::Elsewhere) {
        return;
    }
    uses.requests += 1;
    match need {
        RequestNeed::Row(row, _) => uses.need(row),
        RequestNeed::AllOf(rows) => rows.iter().for_each(|row| uses.need(row)),
        RequestNeed::Unknown => uses.unknown = true,
        RequestNeed::Elsewhere => {}
        RequestNeed::Nothing | RequestNeed::NoPermission | RequestNeed::NotForFineGrained(_) => {}
    }
}

/// The code-hosting API version a request is judged against: its own `api-version`
/// (or its file's), else the config's, else the host's default; in its edition's
/// permission table where the host publishes one (docs/codehost.md, "Editions").
pub fn api_version(request: &Request<'_>, config: &Config) -> ApiVersion {
    let version = request
        .api_version
        .map_or(settings::settings(config).api_version, |(version, _)| {
            version
        });
    match request.line() {
        Some(line) => version.in_edition(edition(line, config).as_str()),
        None => version,
    }
}

/// The edition of the host's API a request line goes to (docs/codehost.md, "Editions"):
/// the config's `editions` for its host; else GitHub Enterprise Cloud for
/// `api.SUBDOMAIN.ghe.com`; else the newest enterprise server release reqlint knows for
/// a path under `/api/v3` (an enterprise server's REST API); else the cloud's.
pub fn edition(line: &RequestLine, config: &Config) -> Edition {
    let host = crate::apis::written_host(line);
    if let Some((host, host_port)) = &host
        && let Some((_, edition)) = settings::settings(config)
            .editions
            .iter()
            .find(|(named, _)| named == host || named == host_port)
    {
        return *edition;
    }
    let enterprise_cloud = host
        .as_ref()
        .is_some_and(|(host, _)| host.starts_with("api.") && host.ends_with(".ghe.com"));
    if enterprise_cloud {
        return Edition::parse("ghec").unwrap_or(Edition::CLOUD);
    }
    let under_api_v3 = matches!(
        line.segments.as_slice(),
        [api, v3, ..] if api.text == "api" && v3.text == "v3"
    );
    if under_api_v3 {
        return Edition::newest_server();
    }
    Edition::CLOUD
}

/// The path segments of a code-hosting request line, without the `/api/v3` prefix of
/// the host's enterprise server form.
pub fn path_segments(line: &RequestLine) -> Vec<&str> {
    let segments: Vec<&str> = line.segments.iter().map(|s| s.text.as_str()).collect();
    match segments.as_slice() {
        ["api", "v3", rest @ ..] if !rest.is_empty() => rest.to_vec(),
        _ => segments,
    }
}

/// Whether the host's REST description (its OpenAPI, in any edition) has the request's
/// method and path as an operation: an endpoint that exists, whether or not the
/// permission tables list it (`GET /user`, `/search/repositories` need no permission and
/// are in no table).
pub fn described_operation(line: &RequestLine) -> bool {
    Edition::all().any(|edition| described_in(line, edition))
}

/// Whether an edition's REST description has the request's method and path.
pub fn described_in(line: &RequestLine, edition: Edition) -> bool {
    use crate::catalog::codehost_operations::{get, operation};
    let segments = path_segments(line);
    operation(line.method, &segments, edition)
        .is_some_and(|id| path_values_fit(get(id), &segments, edition))
}

/// The edition a request's host serves, where the request writes its host out (or the
/// config names the edition for it): a bare path (`GET /user`) may go to any.
pub fn edition_of_written_host(line: &RequestLine, config: &Config) -> Option<Edition> {
    crate::apis::written_host(line).map(|_| edition(line, config))
}

/// Whether the values a path gives the operation's integer path params are integers (or
/// variables): `/user/followings` is no `GET /user/{account_id}`, which the host answers
/// with 404. Checked where each template segment is one path segment.
fn path_values_fit(
    operation: &crate::catalog::codehost_operations::Operation,
    segments: &[&str],
    edition: crate::catalog::codehost_operations::Edition,
) -> bool {
    let template: Vec<&str> = operation
        .template()
        .split('/')
        .filter(|s| !s.is_empty())
        .collect();
    if template.len() != segments.len() {
        return true;
    }
    template.iter().zip(segments).all(|(written, value)| {
        let Some(name) = written.strip_prefix('{').and_then(|n| n.strip_suffix('}')) else {
            return true;
        };
        let integer = operation
            .params(edition)
            .any(|p| p.name() == name && p.kind() == "integer");
        !integer || value.contains("{{") || value.bytes().all(|b| b.is_ascii_digit())
    })
}

/// The endpoint rows of the templates a request line's path matches in an API version;
/// none where the path may be one of several endpoints ([`endpoint_match`]).
pub fn endpoint_rows(
    line: &RequestLine,
    version: ApiVersion,
    edition: Edition,
) -> Vec<&'static crate::catalog::codehost::Endpoint> {
    match endpoint_match(line, version, edition) {
        EndpointMatch::Rows(rows) => rows,
        EndpointMatch::OneOfSeveral(_) => Vec::new(),
    }
}

/// Which endpoint a request line's path is.
pub enum EndpointMatch {
    /// The rows of the one template it matches (none: it matches none).
    Rows(Vec<&'static Endpoint>),
    /// A segment that holds a variable whose value is not known (`/user/{{what}}`) may
    /// make it one of several endpoints: the rows of each, the one that reads every such
    /// segment as a placeholder's value first where there is one.
    OneOfSeveral(Vec<Vec<&'static Endpoint>>),
}

/// Which endpoint a request line's path is, in an API version. A segment that holds a
/// variable whose value is not known may be any text the variable can make of it
/// (`{{org}}-mirror` may be a placeholder's value, or a literal that ends with
/// `-mirror`): where that makes the path match several templates, it is one of several
/// endpoints, which a rule judges only where what it asks is the same for all
/// ([`alternatives`]).
pub fn endpoint_match(line: &RequestLine, version: ApiVersion, edition: Edition) -> EndpointMatch {
    let segments = path_segments(line);
    if !line.segments.iter().any(|s| s.holds_unknown_variable()) {
        return EndpointMatch::Rows(rows_of_path(&segments, version, edition));
    }
    // Made only of such variables (`/{{endpoint}}`, `{{base}}/{{path}}`): any endpoint,
    // those the tables do not list included.
    if line
        .segments
        .iter()
        .all(|s| s.text.starts_with("{{") && s.text.ends_with("}}"))
    {
        return EndpointMatch::OneOfSeveral(Vec::new());
    }
    // A variable in a segment is written for a value that varies, a placeholder's, not
    // for one of the API's own words (`/issues/{{issue_number}}` is an issue, not
    // `/issues/comments`): where every open segment can be a placeholder's value, that is
    // the endpoint. A text no literal segment has stands for each.
    let as_values: Vec<&str> = segments
        .iter()
        .map(|s| {
            if OpenSegment::of(s).is_some() {
                "{{}}"
            } else {
                s
            }
        })
        .collect();
    let rows = rows_of_path(&as_values, version, edition);
    if !rows.is_empty() {
        return EndpointMatch::Rows(rows);
    }
    // Each open segment read once: its fixed texts, against every literal it meets.
    let open: Vec<Option<OpenSegment>> = segments.iter().map(|s| OpenSegment::of(s)).collect();
    let may_be = |k: usize, literal: &str| {
        open.get(k)
            .and_then(Option::as_ref)
            .map(|segment| segment.may_be(literal))
    };
    let mut ends = CATALOG.match_open_path(&segments, version, &may_be);
    match ends.len() {
        0 => EndpointMatch::Rows(Vec::new()),
        1 => EndpointMatch::Rows(ends.pop().unwrap_or_default()),
        _ => EndpointMatch::OneOfSeveral(ends),
    }
}

/// The permission rows of the template a concrete path matches. The tables' own router
/// reads one segment a placeholder; where it matches nothing, the host's REST
/// description routes the path, whose params marked multi-segment take values with
/// slashes (`contents/src/lib.rs`, `git/refs/heads/feature/x`,
/// `branches/feature/x/protection`), and the rows are those of the template it finds.
fn rows_of_path(
    segments: &[&str],
    version: ApiVersion,
    edition: Edition,
) -> Vec<&'static Endpoint> {
    let rows = CATALOG.match_path(segments, version);
    if !rows.is_empty() {
        return rows;
    }
    use crate::catalog::codehost_operations::{get, operations_at};
    let Some(&first) = operations_at(segments, edition).first() else {
        return rows;
    };
    let template: Vec<&str> = get(first)
        .template()
        .split('/')
        .filter(|s| !s.is_empty())
        .collect();
    CATALOG.match_path(&template, version)
}

/// A segment that holds variables whose values are not known: the texts between its
/// references (the first at its start, the last at its end, either may be empty).
struct OpenSegment<'s> {
    fixed: Vec<&'s str>,
    fixed_len: usize,
}

impl<'s> OpenSegment<'s> {
    /// `None` for a segment that holds no reference: it is what it says.
    fn of(segment: &'s str) -> Option<OpenSegment<'s>> {
        let mut fixed = Vec::new();
        let mut at = 0;
        for (range, _) in crate::loading::encoded::references(segment) {
            fixed.push(&segment[at..range.start]);
            at = range.end;
        }
        if fixed.is_empty() {
            return None;
        }
        fixed.push(&segment[at..]);
        let fixed_len = fixed.iter().map(|f| f.len()).sum();
        Some(OpenSegment { fixed, fixed_len })
    }

    /// Whether the variables may make the segment `literal`: its fixed texts are in the
    /// literal, in order, the first at its start and the last at its end. A literal is
    /// short, so this is cheap however long the segment.
    fn may_be(&self, literal: &str) -> bool {
        crate::loading::work::count(literal.len());
        if literal.len() < self.fixed_len {
            return false;
        }
        let (first, middle, last) = match self.fixed.as_slice() {
            [first, middle @ .., last] => (*first, middle, *last),
            _ => return false,
        };
        let Some(mut rest) = literal.strip_prefix(first) else {
            return false;
        };
        for piece in middle {
            match rest.find(piece) {
                Some(found) => rest = &rest[found + piece.len()..],
                None => return false,
            }
        }
        rest.ends_with(last)
    }
}

/// A code-hosting request with a readable line.
/// A code-hosting request as a rule's `check_request` sees it: its index in the file's
/// requests (for the cached rows and token) and its request line.
pub struct CodehostRequest<'f> {
    pub index: usize,
    pub request: &'f Request<'f>,
    pub line: &'f RequestLine,
}

/// Checks the permission names of every token in the config: a wrong one stops the
/// run like any other config error.
pub fn validate_config_tokens(config: &Config) -> Result<(), String> {
    let path = config
        .path
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let index = crate::loading::LineIndex::new(&config.text);
    let mut names: Vec<&String> = config.tokens.keys().collect();
    names.sort();
    for name in names {
        let node = &config.tokens[name];
        if let Some((span, message, help)) = token_errors(node).into_iter().next() {
            let pos = index.position(&config.text, span.start);
            let help = help.map(|h| format!(" ({h})")).unwrap_or_default();
            return Err(format!(
                "{path}:{}:{}: token `{name}`: {message}{help}",
                pos.line, pos.column
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;

    /// What a need says, comparable: its kind, its rows, its operation.
    fn need_key(need: &RequestNeed<'_>) -> (u8, Vec<*const Endpoint>, Option<OperationId>) {
        match need {
            RequestNeed::Elsewhere => (0, Vec::new(), None),
            RequestNeed::Nothing => (1, Vec::new(), None),
            RequestNeed::Row(row, _) => (2, vec![*row as *const Endpoint], None),
            RequestNeed::AllOf(rows) => (
                3,
                rows.iter().map(|r| *r as *const Endpoint).collect(),
                None,
            ),
            RequestNeed::NoPermission => (4, Vec::new(), None),
            RequestNeed::NotForFineGrained(operation) => (5, Vec::new(), Some(*operation)),
            RequestNeed::Unknown => (6, Vec::new(), None),
        }
    }

    fn old_need_key(need: Need) -> (u8, Vec<*const Endpoint>, Option<OperationId>) {
        let rows =
            |rows: &[&'static Endpoint]| rows.iter().map(|r| *r as *const Endpoint).collect();
        match need {
            Need::Elsewhere => (0, Vec::new(), None),
            Need::Nothing => (1, Vec::new(), None),
            Need::Row(row) => (2, rows(&[row]), None),
            Need::AllOf(all) => (3, rows(&all), None),
            Need::NoPermission => (4, Vec::new(), None),
            Need::NotForFineGrained(operation) => (5, Vec::new(), Some(operation)),
            Need::Unknown => (6, Vec::new(), None),
        }
    }

    /// The per-request cells give what finding the need and the rows anew gives, whichever
    /// request is asked first, for every request of the code-hosting rules' examples.
    #[test]
    fn the_per_request_cells_agree_with_finding_anew() {
        let config = Config::defaults(".".into());
        let context = crate::model::context::ContextIndex::default();
        let mut requests = 0;
        let mut files: Vec<PathBuf> = Vec::new();
        for dir in
            std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")).unwrap()
        {
            let dir = dir.unwrap().path();
            let name = dir.file_name().unwrap().to_string_lossy().to_string();
            if !(name.starts_with("token-")
                || name.starts_with("rest-")
                || name == "unknown-endpoint")
            {
                continue;
            }
            for file in std::fs::read_dir(&dir).unwrap() {
                let file = file.unwrap().path();
                if file.to_string_lossy().ends_with(".req.yaml") {
                    files.push(file);
                }
            }
        }
        files.sort();
        assert!(files.len() > 10, "{files:?}");
        for path in &files {
            let loaded = crate::loading::load(
                std::fs::read(path).unwrap(),
                crate::loading::Format::Yaml,
                &crate::loading::Limits::DEFAULT,
            );
            let model = crate::model::FileModel::build(&loaded.documents, &loaded.text);
            let lines: Vec<_> = model.requests.iter().map(|r| r.line()).collect();
            let file = FileContext {
                path: "x.req.yaml",
                format: crate::loading::Format::Yaml,
                text: &loaded.text,
                problems: &loaded.problems,
                model: &model,
                config: &config,
                context: &context,
                rule_names: &[],
                routes: crate::apis::route_file(crate::apis::APIS, &lines, &config),
                memo: Default::default(),
            };
            // Last request first: a cell filled out of order holds its own request's.
            for i in (0..model.requests.len()).rev() {
                requests += 1;
                assert_eq!(
                    need_key(&request_need(&file, i)),
                    old_need_key(need_of(&file, i)),
                    "{path:?} #{i}"
                );
                assert_eq!(
                    need_key(&request_need(&file, i)),
                    old_need_key(need_of(&file, i))
                );
                if let Some(line) = model.requests[i].line() {
                    let rows = |rows: &[&'static Endpoint]| -> Vec<*const Endpoint> {
                        rows.iter().map(|r| *r as *const Endpoint).collect()
                    };
                    assert_eq!(
                        rows(request_alternatives(&file, i)),
                        rows(&alternatives(&file, i, line.method)),
                        "{path:?} #{i}"
                    );
                }
            }
        }
        assert!(requests > 20, "{requests}");
    }

    /// The host's access data speaks of the operation a path calls only where the path's
    /// values fit it: `/user/x5` is no `GET /user/{account_id}`.
    #[test]
    fn access_data_needs_values_that_fit_the_operation() {
        let access = |path: &str| {
            let line = request_line(&format!("GET {path}"));
            operation_access(&line, ApiVersion::DEFAULT, Edition::CLOUD).map(|(_, a)| a)
        };
        assert!(access("/user/123").is_some_and(|a| a.permissionless));
        assert_eq!(access("/user/x5"), None);
    }

    /// Every operation of the cloud's description that a permission row lists, called
    /// with a concrete path (its multi-segment params given values with slashes), gets
    /// that row: the tables' router or the description's finds the template.
    #[test]
    fn every_operation_with_a_row_is_judged_by_it_from_a_concrete_path() {
        use crate::catalog::codehost_operations::{example_path, operations};
        let version = ApiVersion::DEFAULT;
        let (mut judged, mut with_slashes) = (0, 0);
        for (_, op) in operations().filter(|(_, op)| op.in_edition(Edition::CLOUD)) {
            let template: Vec<&str> = op.template().split('/').filter(|s| !s.is_empty()).collect();
            let has_row = CATALOG
                .match_path(&template, version)
                .iter()
                .any(|row| row.method == op.method && row.template == op.template());
            if !has_row {
                continue;
            }
            let path = example_path(op, Edition::CLOUD);
            let segments: Vec<&str> = path.iter().map(String::as_str).collect();
            let rows = rows_of_path(&segments, version, Edition::CLOUD);
            assert!(
                rows.iter()
                    .any(|row| row.method == op.method && row.template == op.template()),
                "{} {} as /{}",
                op.method,
                op.template(),
                path.join("/")
            );
            judged += 1;
            with_slashes += usize::from(op.params(Edition::CLOUD).any(|p| p.multi_segment));
        }
        assert!(judged > 850, "{judged}");
        assert!(with_slashes > 20, "{with_slashes}");
    }

    fn config(text: &str) -> Config {
        Config::parse(
            text.as_bytes().to_vec(),
            Path::new(".reqlint.yaml"),
            PathBuf::from("."),
            &crate::rules::names(),
            &crate::apis::config_sections(),
        )
        .unwrap()
    }

    #[test]
    fn a_segment_with_unknown_variables_may_be_the_literals_it_fits() {
        for (segment, literal, expected) in [
            ("repos", "repos", None),
            ("{{x}}", "repos", Some(true)),
            ("{{x}}", "", Some(true)),
            ("{{org}}-mirror", "acme-mirror", Some(true)),
            ("{{org}}-mirror", "mirror", Some(false)),
            ("{{org}}-mirror", "acme-mirrors", Some(false)),
            ("v{{major}}.{{minor}}", "v2.1", Some(true)),
            ("v{{major}}.{{minor}}", "2.1", Some(false)),
            ("a{{x}}a", "a", Some(false)),
            ("a{{x}}a", "aa", Some(true)),
        ] {
            let got = OpenSegment::of(segment).map(|open| open.may_be(literal));
            assert_eq!(got, expected, "{segment} / {literal}");
        }
    }

    /// A request line (`METHOD PATH`) as reqlint's own format reads it.
    fn request_line(request: &str) -> RequestLine {
        let text = format!("request: {request}\n");
        let (docs, _) = crate::loading::parse_text(
            &text,
            crate::loading::Format::Yaml,
            &crate::loading::Limits::DEFAULT,
        );
        let model = crate::model::FileModel::build(&docs, &text);
        model.requests[0].line().unwrap().clone()
    }

    /// The endpoint of a request line (`METHOD PATH`), in the default API version.
    fn endpoint(request: &str) -> EndpointMatch {
        let line = &request_line(request);
        endpoint_match(
            line,
            ApiVersion::parse("2022-11-28").unwrap(),
            Edition::CLOUD,
        )
    }

    #[test]
    fn a_path_with_unknown_variables_is_judged_where_it_is_one_endpoint() {
        let templates = |request: &str| match endpoint(request) {
            EndpointMatch::Rows(rows) => {
                Some(rows.iter().map(|r| r.template.as_str()).collect::<Vec<_>>())
            }
            EndpointMatch::OneOfSeveral(_) => None,
        };
        // Where a placeholder stands: the template it fills.
        let issues = templates("GET /repos/{{owner}}/{{repo}}/issues").unwrap();
        assert!(
            issues.contains(&"/repos/{owner}/{repo}/issues"),
            "{issues:?}"
        );
        assert_eq!(
            templates("GET /repos/{{org}}-mirror/web/issues"),
            Some(issues.clone())
        );
        // Where a literal may stand too: any of several endpoints.
        assert!(templates("GET /user/{{what}}").is_none());
        assert!(templates("GET /repos/acme/web/{{section}}").is_none());
        // Where nothing can stand: no endpoint, whatever the variable.
        assert_eq!(templates("GET /repoz/{{owner}}/web"), Some(Vec::new()));
    }

    /// Long open segments, and many, cost what they are long: each is read once, and
    /// compared with the router's literals, which are short.
    #[test]
    fn open_segments_are_linear() {
        let work = |n: usize| {
            let path = format!(
                "GET /repos/{{{{owner}}}}/{}/{}",
                "a{{x}}b".repeat(n),
                "c{{y}}/".repeat(n)
            );
            crate::loading::work::measure(|| matches!(endpoint(&path), EndpointMatch::Rows(_))).1
        };
        let (small, large) = (work(2_000), work(20_000));
        assert!(small > 0);
        assert!(large <= 12 * small, "{small} then {large}");
    }

    #[test]
    fn config_tokens_are_validated_with_a_position() {
        let c = config(
            "tokens:\n  ci-bot:\n    permissions:\n      repository: {Comit statuses: write}\n",
        );
        let e = validate_config_tokens(&c).unwrap_err();
        assert_eq!(
            e,
            ".reqlint.yaml:4:20: token `ci-bot`: unknown repository permission `Comit statuses` (did you mean `Commit statuses`?)"
        );
        let c =
            config("tokens:\n  ci-bot:\n    permissions:\n      organization: {gists: write}\n");
        assert!(
            validate_config_tokens(&c)
                .unwrap_err()
                .contains("not of the organization scope")
        );
        let c = config("tokens:\n  ci-bot:\n    permissions:\n      user: {gists: owner}\n");
        assert!(
            validate_config_tokens(&c)
                .unwrap_err()
                .contains("unknown access level `owner`")
        );
        let c = config("tokens:\n  ci-bot:\n    permisions: {}\n");
        assert!(
            validate_config_tokens(&c)
                .unwrap_err()
                .contains("did you mean `permissions`")
        );
        let c = config(
            "tokens:\n  ci-bot:\n    owner: acme\n    permissions:\n      user: {Gists: admin}\n",
        );
        assert!(validate_config_tokens(&c).is_ok());
    }
}
