use super::*;

fn at<'s>(script: &'s str, span: &Range<usize>) -> &'s str {
    &script[span.clone()]
}

fn rest(call: &ScriptCall) -> (&str, &str, bool) {
    match &call.target {
        Target::Rest {
            namespace,
            method,
            legacy,
        } => (namespace.0.as_str(), method.0.as_str(), *legacy),
        other => panic!("not a REST method: {other:?}"),
    }
}

fn route(call: &ScriptCall) -> &str {
    match &call.target {
        Target::Request { route } => route.0.as_str(),
        other => panic!("not a request: {other:?}"),
    }
}

#[test]
fn rest_methods_with_their_parameters() {
    let script = "const body = `Thanks ${context.actor}`;\nawait github.rest.issues.createComment({\n  ...context.repo,\n  issue_number: context.issue.number,\n  body,\n  labels: ['a', `b`],\n  draft: false,\n  title: \"x\",\n  state: 'closed' // done\n});";
    let found = calls(script);
    assert!(found.unreadable.is_empty(), "{:?}", found.unreadable);
    let [call] = found.calls.as_slice() else {
        panic!("{found:?}")
    };
    assert_eq!(rest(call), ("issues", "createComment", false));
    assert_eq!(call.client, "github");
    assert!(at(script, &call.span).starts_with("github.rest.issues.createComment({"));
    assert!(at(script, &call.span).ends_with("})"));
    let Target::Rest {
        namespace, method, ..
    } = &call.target
    else {
        unreachable!()
    };
    assert_eq!(at(script, &namespace.1), "issues");
    assert_eq!(at(script, &method.1), "createComment");
    assert_eq!(call.spreads, ["context.repo"]);
    let args: Vec<_> = call
        .args
        .iter()
        .map(|a| {
            (
                a.name.as_str(),
                a.value.as_deref(),
                at(script, &a.value_span),
            )
        })
        .collect();
    assert_eq!(
        args,
        [
            (
                "issue_number",
                Some("context.issue.number"),
                "context.issue.number"
            ),
            ("body", None, "body"),
            ("labels", None, "['a', `b`]"),
            ("draft", Some("false"), "false"),
            ("title", Some("x"), "x"),
            ("state", Some("closed"), "closed"),
        ]
    );
    assert_eq!(at(script, &call.args[0].name_span), "issue_number");
}

#[test]
fn octokit_and_legacy_clients() {
    let script = "const octokit = getOctokit(process.env.PAT);\nawait octokit.rest.pulls.merge({ owner: 'o', repo: 'r', pull_number: 3 });\nawait github.issues.addLabels({ ...context.issue, labels: ['x'] });";
    let found = calls(script);
    assert_eq!(found.calls.len(), 2, "{found:?}");
    assert_eq!(rest(&found.calls[0]), ("pulls", "merge", false));
    assert_eq!(found.calls[0].client, "octokit");
    assert_eq!(found.calls[0].args[2].value.as_deref(), Some("3"));
    assert_eq!(rest(&found.calls[1]), ("issues", "addLabels", true));
    assert_eq!(found.calls[1].spreads, ["context.issue"]);
    assert!(found.unreadable.is_empty(), "{:?}", found.unreadable);
}

#[test]
fn methods_handed_to_paginate() {
    let script = "const issues = await github.paginate(github.rest.issues.listForRepo, {\n  owner: context.repo.owner, repo: context.repo.repo, state: 'open' });\nfor await (const r of github.paginate.iterator(github.rest.pulls.list, { ...context.repo })) {}\nawait github.paginate(github.issues.listComments, {});\nconst x = await github.paginate('GET /repos/{owner}/{repo}/labels', { ...context.repo });";
    let found = calls(script);
    assert!(found.unreadable.is_empty(), "{:?}", found.unreadable);
    assert_eq!(found.calls.len(), 4, "{found:?}");
    assert_eq!(rest(&found.calls[0]), ("issues", "listForRepo", false));
    assert!(at(script, &found.calls[0].span).starts_with("github.paginate(github.rest"));
    let owner = &found.calls[0].args[0];
    assert_eq!(owner.value.as_deref(), Some("context.repo.owner"));
    assert_eq!(found.calls[0].args[2].value.as_deref(), Some("open"));
    assert_eq!(rest(&found.calls[1]), ("pulls", "list", false));
    assert_eq!(found.calls[1].spreads, ["context.repo"]);
    assert_eq!(rest(&found.calls[2]), ("issues", "listComments", true));
    assert_eq!(route(&found.calls[3]), "GET /repos/{owner}/{repo}/labels");
}

#[test]
fn requests_by_route() {
    let script = "await github.request('POST /repos/{owner}/{repo}/dispatches', { ...context.repo, event_type: 'go' });\nawait github.request(\"GET /repos/{owner}/{repo}\");\nawait github.request(`DELETE /repos/${owner}/x`);\nawait github.request({ method: 'PATCH', url: '/repos/o/r' });\nawait github.request({ url: '/user' });";
    let found = calls(script);
    assert!(found.unreadable.is_empty(), "{:?}", found.unreadable);
    let routes: Vec<_> = found.calls.iter().map(route).collect();
    assert_eq!(
        routes,
        [
            "POST /repos/{owner}/{repo}/dispatches",
            "GET /repos/{owner}/{repo}",
            "DELETE /repos/${owner}/x",
            "PATCH /repos/o/r",
            "GET /user",
        ]
    );
    let Target::Request { route } = &found.calls[0].target else {
        unreachable!()
    };
    assert_eq!(
        at(script, &route.1),
        "POST /repos/{owner}/{repo}/dispatches"
    );
    assert_eq!(found.calls[0].args[0].name, "event_type");
    assert_eq!(found.calls[0].spreads, ["context.repo"]);
    let Target::Request { route } = &found.calls[2].target else {
        unreachable!()
    };
    assert_eq!(at(script, &route.1), "DELETE /repos/${owner}/x");
    let Target::Request { route } = &found.calls[3].target else {
        unreachable!()
    };
    assert_eq!(at(script, &route.1), "/repos/o/r");
}

#[test]
fn graphql_calls() {
    let script = "const r = await github.graphql(`query($owner: String!) { repository(owner: $owner) { id } }`, { owner: context.repo.owner });";
    let found = calls(script);
    let [call] = found.calls.as_slice() else {
        panic!("{found:?}")
    };
    assert_eq!(call.target, Target::Graphql);
    assert_eq!(call.args[0].name, "owner");
    assert!(at(script, &call.span).ends_with("})"));
}

#[test]
fn what_cannot_be_read_is_said_with_its_span() {
    for (script, part) in [
        (
            "const gh = github;\nawait gh.rest.issues.create({});",
            "github",
        ),
        ("await helper(github, context);", "github"),
        (
            "github.hook.before('request', o => {});",
            "github.hook.before('request', o => {})",
        ),
        ("await github.rest[ns][m]({});", "github.rest"),
        ("await github.rest.issues[m]({});", "github.rest.issues"),
        (
            "const route = 'GET /x'; await github.request(route);",
            "github.request(route)",
        ),
        (
            "await github.paginate(listFor, {});",
            "github.paginate(listFor, {})",
        ),
    ] {
        let found = calls(script);
        assert!(found.calls.is_empty(), "{script}: {found:?}");
        let [(span, why)] = found.unreadable.as_slice() else {
            panic!("{script}: {found:?}")
        };
        assert_eq!(at(script, span), part, "{script}");
        assert!(!why.is_empty());
    }
    // Logging makes no call.
    assert_eq!(calls("github.log.info('x')"), ScriptCalls::default());
}

#[test]
fn strings_comments_templates_and_regexes_are_not_code() {
    let script = "// github.rest.repos.delete({})\n/* github.rest.repos.delete */\nconst s = 'github.rest.repos.delete()';\nconst t = `github.rest.a.b() ${ github.rest.issues.get({ issue_number: 1 }) } more ${`nested ${x}`}`;\nconst re = /github.rest.repos.delete\\(/g;\nconst d = a / b / c;\nconst o = { github: 1 }.github;\ncore.info(context.payload.github);";
    let found = calls(script);
    assert_eq!(found.calls.len(), 1, "{found:?}");
    assert_eq!(rest(&found.calls[0]), ("issues", "get", false));
    // `{ github: 1 }` is a key; `x.github` a member of something else.
    assert!(found.unreadable.is_empty(), "{:?}", found.unreadable);
}

#[test]
fn method_references_outside_paginate_are_calls_without_parameters() {
    let script = "const m = github.rest.issues.lock;\nawait m({ ...context.issue });";
    let found = calls(script);
    let [call] = found.calls.as_slice() else {
        panic!("{found:?}")
    };
    assert_eq!(rest(call), ("issues", "lock", false));
    assert_eq!(at(script, &call.span), "github.rest.issues.lock");
    assert!(call.args.is_empty());
}

#[test]
fn hostile_scripts_end() {
    for script in [
        "`${".repeat(10_000),
        "github.rest.a.b(".repeat(5_000),
        "{".repeat(20_000) + "github",
        "github.request({".repeat(3_000),
        "/".repeat(10_000),
        "'".repeat(10_001),
        "github.paginate(github.rest.a.b, ".repeat(2_000),
        "github.".repeat(5_000),
        "é`".repeat(1_000),
        "`${x}é".to_string(),
        "`é".to_string(),
        "github.request(`${x}é".to_string(),
    ] {
        let found = calls(&script);
        for (span, _) in &found.unreadable {
            assert!(script.get(span.clone()).is_some());
        }
        for c in &found.calls {
            assert!(script.get(c.span.clone()).is_some());
        }
    }
}

/// A script ten times as long costs about ten times the work.
#[test]
fn work_is_linear_in_the_script() {
    for piece in [
        "await github.rest.issues.create({ ...context.repo, title: 'x', body: `a ${b}` });\n",
        "github.paginate(github.rest.a.b, { a: 1, b: [1, 2, {c: 3}] });\n",
        "x = `${`${`${a}`}`}` / 2 / /re/g;\n",
        "github.request(`${github.request(`${github.request(`${a}`)}`)}`);\n",
        "github.request({ method: 'GET', url: '/x' });\n",
    ] {
        let small = piece.repeat(100);
        let large = piece.repeat(1_000);
        let (_, w_small) = crate::loading::work::measure(|| calls(&small));
        let (_, w_large) = crate::loading::work::measure(|| calls(&large));
        assert!(
            w_large <= 12 * w_small.max(1),
            "{piece:?}: {w_small} then {w_large}"
        );
    }
}

#[test]
fn spans_stay_inside_any_script() {
    use proptest::prelude::*;
    let alphabet = proptest::collection::vec(
        prop_oneof![
            Just("github"),
            Just("octokit"),
            Just(".rest"),
            Just(".issues"),
            Just(".create"),
            Just(".request"),
            Just(".paginate"),
            Just(".graphql"),
            Just("("),
            Just(")"),
            Just("{"),
            Just("}"),
            Just("["),
            Just("]"),
            Just(", "),
            Just(": "),
            Just("..."),
            Just("'GET /x'"),
            Just("\""),
            Just("'"),
            Just("`"),
            Just("${"),
            Just("/"),
            Just("//"),
            Just("/*"),
            Just("\n"),
            Just("é"),
            Just("a"),
            Just("1"),
            Just("?."),
        ],
        0..40,
    );
    proptest::proptest!(|(parts in alphabet)| {
        let script: String = parts.concat();
        let found = calls(&script);
        prop_assert_eq!(&found, &calls(&script));
        let inside = |r: &Range<usize>| script.get(r.clone()).is_some();
        for (span, _) in &found.unreadable {
            prop_assert!(inside(span));
        }
        for c in &found.calls {
            prop_assert!(inside(&c.span));
            for a in &c.args {
                prop_assert!(inside(&a.name_span) && inside(&a.value_span));
            }
            match &c.target {
                Target::Rest { namespace, method, .. } => {
                    prop_assert!(inside(&namespace.1) && inside(&method.1));
                }
                Target::Request { route } => prop_assert!(inside(&route.1)),
                Target::Graphql => {}
            }
        }
    });
}
