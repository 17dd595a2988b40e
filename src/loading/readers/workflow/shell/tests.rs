use super::*;

fn calls(script: &str) -> Vec<Call> {
    commands(script)
        .into_iter()
        .filter_map(|c| match c {
            Command::Call(c) => Some(c),
            _ => None,
        })
        .collect()
}

fn one_call(script: &str) -> Call {
    let all = calls(script);
    assert_eq!(all.len(), 1, "{script}: {:#?}", commands(script));
    all.into_iter().next().unwrap()
}

fn at<'s>(script: &'s str, span: &Range<usize>) -> &'s str {
    &script[span.clone()]
}

fn target(call: &Call) -> &str {
    call.target.as_ref().map_or("", |t| t.0.as_str())
}

fn method(call: &Call) -> Option<&str> {
    call.method.as_ref().map(|m| m.0.as_str())
}

/// The name of each command, the way a test reads it quickly.
fn names(script: &str) -> Vec<String> {
    commands(script)
        .into_iter()
        .map(|c| match c {
            Command::Call(c) => format!("call {}", target(&c)),
            Command::Gh { sub, .. } => format!("gh {sub}"),
            Command::Git { sub, .. } => format!("git {sub}"),
            Command::Assignment(a) => format!("{}=", a.name),
            Command::Other { name, .. } => name,
            Command::Unreadable { why, .. } => format!("unreadable: {why}"),
        })
        .collect()
}

#[test]
fn gh_api_routes_with_and_without_a_leading_slash() {
    for (script, route) in [
        (
            "gh api repos/{owner}/{repo}/issues",
            "repos/{owner}/{repo}/issues",
        ),
        (
            "gh api /repos/{owner}/{repo}/issues",
            "/repos/{owner}/{repo}/issues",
        ),
        (
            "gh api \"repos/$GITHUB_REPOSITORY/releases\"",
            "repos/$GITHUB_REPOSITORY/releases",
        ),
        (
            "gh api repos/${{ github.repository }}/pulls/${{ github.event.number }}",
            "repos/${{ github.repository }}/pulls/${{ github.event.number }}",
        ),
        ("gh api graphql -f query='{ viewer { login } }'", "graphql"),
        ("gh -R o/r api user", "user"),
    ] {
        let call = one_call(script);
        assert_eq!(call.form, Form::GhApi);
        assert_eq!(target(&call), route, "{script}");
        let span = &call.target.as_ref().unwrap().1;
        assert!(
            at(script, span).contains(route.trim_start_matches('/')),
            "{script}"
        );
        assert_eq!(call.span, 0..script.len());
    }
    let call = one_call("gh api \"repos/$GITHUB_REPOSITORY/releases\"");
    // The span of the text, inside the quotes.
    assert_eq!(call.target.unwrap().1, 8..41);
}

#[test]
fn gh_api_methods_written_and_implied() {
    let script = "gh api -X POST repos/o/r/labels -f name=bug";
    let call = one_call(script);
    assert_eq!(method(&call), Some("POST"));
    assert_eq!(at(script, &call.method.unwrap().1), "POST");
    assert_eq!(call.implied_method, "POST");
    for (script, m) in [
        ("gh api --method PATCH repos/o/r", "PATCH"),
        ("gh api --method=DELETE repos/o/r/labels/x", "DELETE"),
        ("gh api -XPUT repos/o/r/topics", "PUT"),
        ("gh api -iX PATCH repos/o/r", "PATCH"),
    ] {
        let call = one_call(script);
        assert_eq!(method(&call), Some(m), "{script}");
        assert_eq!(at(script, &call.method.unwrap().1), m, "{script}");
    }
    for (script, implied) in [
        ("gh api repos/o/r/issues", "GET"),
        ("gh api repos/o/r/issues -f title=x", "POST"),
        ("gh api repos/o/r/issues -F milestone=2", "POST"),
        ("gh api repos/o/r/issues --raw-field title=x", "POST"),
        ("gh api repos/o/r/issues --field=title=x", "POST"),
        ("gh api repos/o/r/issues --input body.json", "POST"),
        ("gh api repos/o/r/issues --jq '.[].title' --paginate", "GET"),
        (
            "gh api repos/o/r/issues -H 'Accept: application/json'",
            "GET",
        ),
    ] {
        let call = one_call(script);
        assert_eq!(call.implied_method, implied, "{script}");
        assert_eq!(call.method, None, "{script}");
    }
    assert!(one_call("gh api --paginate repos/o/r/issues").paginate);
}

#[test]
fn gh_api_fields_headers_and_host() {
    let script = "gh api repos/o/r/issues -f 'title=Bug report' -F labels[]=bug -f body --hostname ghe.example.com -H 'X-GitHub-Api-Version: 2022-11-28' --input file.json";
    let call = one_call(script);
    assert_eq!(call.fields.len(), 3);
    let title = &call.fields[0];
    assert_eq!(
        (title.name.as_str(), title.value.as_deref()),
        ("title", Some("Bug report"))
    );
    assert_eq!(at(script, &title.name_span), "title");
    assert_eq!(at(script, &title.value_span), "Bug report");
    assert!(!title.typed);
    let labels = &call.fields[1];
    assert_eq!(labels.name, "labels[]");
    assert!(labels.typed);
    assert_eq!(at(script, &labels.value_span), "bug");
    assert_eq!(call.fields[2].value, None);
    assert_eq!(call.hostname.as_deref(), Some("ghe.example.com"));
    assert_eq!(call.headers[0].name, "X-GitHub-Api-Version");
    assert_eq!(call.headers[0].value, "2022-11-28");
    assert_eq!(
        at(script, &call.headers[0].span),
        "X-GitHub-Api-Version: 2022-11-28"
    );
    assert_eq!(at(script, call.input.as_ref().unwrap()), "file.json");
}

#[test]
fn the_token_of_gh_from_assignments_before_it() {
    let script = "GH_TOKEN=${{ secrets.PAT }} gh api repos/o/r/issues";
    let call = one_call(script);
    assert_eq!(
        call.token,
        Some(TokenSource::Expression("secrets.PAT".into()))
    );
    assert_eq!(call.assignments[0].name, "GH_TOKEN");
    assert_eq!(
        at(script, &call.assignments[0].span),
        "GH_TOKEN=${{ secrets.PAT }}"
    );
    assert_eq!(call.span, 0..script.len());
    for (script, token) in [
        (
            "GITHUB_TOKEN=$MY_PAT gh api user",
            Some(TokenSource::Variable("MY_PAT".into())),
        ),
        (
            "env GH_TOKEN=\"${BOT}\" gh api user",
            Some(TokenSource::Variable("BOT".into())),
        ),
        ("GH_TOKEN=ghp_abc gh api user", Some(TokenSource::Literal)),
        ("GH_TOKEN=$(cat t) gh api user", Some(TokenSource::Unknown)),
        ("gh api user", None),
        (
            "GH_TOKEN=${{ github.token }} GITHUB_TOKEN=${{ secrets.X }} gh api user",
            Some(TokenSource::Expression("github.token".into())),
        ),
        (
            "gh api user -H 'Authorization: token ${{ secrets.OTHER }}'",
            Some(TokenSource::Expression("secrets.OTHER".into())),
        ),
    ] {
        assert_eq!(one_call(script).token, token, "{script}");
    }
    // A literal credential is said to be literal, and not returned as text.
    let call = one_call("GH_TOKEN=ghp_secretvalue gh api user");
    assert!(!format!("{:?}", call.token).contains("ghp_"));
}

#[test]
fn gh_subcommands_other_than_api() {
    let script =
        "GH_TOKEN=${{ secrets.GITHUB_TOKEN }} gh pr create --title \"Bump\" --body x -R o/r";
    let cmds = commands(script);
    let Command::Gh {
        sub,
        words,
        span,
        assignments,
    } = &cmds[0]
    else {
        panic!("{cmds:?}")
    };
    assert_eq!(sub, "pr create");
    assert_eq!(span, &(0..script.len()));
    assert_eq!(assignments[0].name, "GH_TOKEN");
    assert_eq!(words[0].text, "--title");
    assert_eq!(words[1].text, "Bump");
    assert_eq!(at(script, &words[1].span), "\"Bump\"");
    assert_eq!(
        names("gh -R o/r issue comment 3 --body hi"),
        ["gh issue comment"]
    );
    assert_eq!(names("gh release upload v1 dist/*"), ["gh release upload"]);
    assert_eq!(names("gh --version"), ["gh "]);
}

#[test]
fn git_commands_by_subcommand() {
    assert_eq!(
        names("git -C repo -c user.name=x push origin HEAD\ngit fetch --tags"),
        ["git push", "git fetch"]
    );
}

#[test]
fn curl_with_the_token_in_a_header() {
    let script = r#"curl -sSfL -X POST -H "Authorization: Bearer ${{ secrets.GITHUB_TOKEN }}" -H 'Accept: application/vnd.github+json' https://api.github.com/repos/o/r/dispatches -d '{"event_type": "deploy", "client_payload": {"a": 1}, "n": 3}'"#;
    let call = one_call(script);
    assert_eq!(call.form, Form::Curl);
    assert_eq!(method(&call), Some("POST"));
    assert_eq!(target(&call), "https://api.github.com/repos/o/r/dispatches");
    assert_eq!(
        call.token,
        Some(TokenSource::Expression("secrets.GITHUB_TOKEN".into()))
    );
    assert_eq!(call.headers.len(), 2);
    let names: Vec<_> = call.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["event_type", "client_payload", "n"]);
    assert_eq!(call.fields[0].value.as_deref(), Some("deploy"));
    assert_eq!(at(script, &call.fields[0].value_span), "deploy");
    assert_eq!(at(script, &call.fields[0].name_span), "event_type");
    assert_eq!(call.fields[1].value, None);
    assert_eq!(at(script, &call.fields[1].value_span), "{\"a\": 1}");
    assert_eq!(call.fields[2].value.as_deref(), Some("3"));
    for (script, token) in [
        (
            "curl -H \"Authorization: token $GITHUB_TOKEN\" https://api.github.com/user",
            TokenSource::Variable("GITHUB_TOKEN".into()),
        ),
        (
            "curl -u x-access-token:${{ secrets.PAT }} https://api.github.com/user",
            TokenSource::Expression("secrets.PAT".into()),
        ),
        (
            "curl --oauth2-bearer \"$T\" https://api.github.com/user",
            TokenSource::Variable("T".into()),
        ),
        (
            "curl -H 'authorization: bearer ghp_x' https://api.github.com/user",
            TokenSource::Literal,
        ),
    ] {
        assert_eq!(one_call(script).token, Some(token), "{script}");
    }
}

#[test]
fn curl_methods_implied_by_its_flags() {
    for (script, implied) in [
        ("curl https://api.github.com/user", "GET"),
        ("curl -d a=1 https://x.test/", "POST"),
        ("curl --data-binary @f.json https://x.test/", "POST"),
        ("curl --json '{}' https://x.test/", "POST"),
        ("curl -F file=@a.zip https://x.test/", "POST"),
        ("curl -T a.zip https://x.test/", "PUT"),
        ("curl -G -d q=1 https://x.test/", "GET"),
        ("curl -I https://x.test/", "HEAD"),
    ] {
        assert_eq!(one_call(script).implied_method, implied, "{script}");
    }
    for (script, m) in [
        ("curl -XPATCH https://x.test/", "PATCH"),
        ("curl -sX DELETE https://x.test/", "DELETE"),
        ("curl --request=PUT https://x.test/", "PUT"),
        ("curl --request PUT https://x.test/", "PUT"),
    ] {
        let call = one_call(script);
        assert_eq!(method(&call), Some(m), "{script}");
        assert_eq!(at(script, &call.method.unwrap().1), m);
    }
}

#[test]
fn curl_finds_the_url_past_flags_that_take_a_value() {
    for script in [
        "curl -o out.json -w '%{http_code}' --retry 3 --connect-timeout 5 -m 30 -A agent -e ref https://api.github.com/x",
        "curl --max-time 10 -K cfg --url https://api.github.com/x",
        "curl -sSfLo out.json https://api.github.com/x",
        "curl -- https://api.github.com/x",
    ] {
        assert_eq!(
            target(&one_call(script)),
            "https://api.github.com/x",
            "{script}"
        );
    }
    // A URL held in a variable or an expression is a call, its target as written.
    assert_eq!(
        target(&one_call("curl \"$API/repos/$REPO/issues\"")),
        "$API/repos/$REPO/issues"
    );
    assert_eq!(
        target(&one_call("curl ${{ github.api_url }}/repos/o/r")),
        "${{ github.api_url }}/repos/o/r"
    );
    // No http(s) URL: not a call.
    assert_eq!(names("curl -o x file:///etc/hosts"), ["curl"]);
    assert_eq!(names("curl --version"), ["curl"]);
}

#[test]
fn curl_form_and_file_bodies() {
    let script = "curl -d 'title=a b&state=open' -d @- https://x.test/";
    let call = one_call(script);
    assert_eq!(call.fields.len(), 2);
    assert_eq!(call.fields[0].name, "title");
    assert_eq!(at(script, &call.fields[0].value_span), "a b");
    assert_eq!(at(script, &call.fields[1].name_span), "state");
    assert_eq!(call.fields[1].value.as_deref(), Some("open"));
    // A body made when the step runs has no fields that can be read.
    assert!(
        one_call("curl -d \"$(jq -n '{a: 1}')\" https://x.test/")
            .fields
            .is_empty()
    );
    // A JSON body with a shell variable spliced into a value keeps its keys.
    let script = "curl -d '{\"body\": \"'\"$MSG\"'\", \"n\": 1}' https://x.test/";
    let names: Vec<_> = one_call(script)
        .fields
        .iter()
        .map(|f| f.name.clone())
        .collect();
    assert_eq!(names, ["body", "n"]);
    let script = "curl -d @payload.json https://x.test/";
    assert_eq!(
        at(script, one_call(script).input.as_ref().unwrap()),
        "payload.json"
    );
}

#[test]
fn wget_and_httpie_calls() {
    let script = "wget -qO- --header=\"Authorization: Bearer $TOKEN\" --post-data='{\"body\": \"hi\"}' https://api.github.com/repos/o/r/issues/1/comments";
    let call = one_call(script);
    assert_eq!(call.form, Form::Wget);
    assert_eq!(call.implied_method, "POST");
    assert_eq!(call.token, Some(TokenSource::Variable("TOKEN".into())));
    assert_eq!(call.fields[0].name, "body");
    assert_eq!(
        target(&call),
        "https://api.github.com/repos/o/r/issues/1/comments"
    );
    let call = one_call("wget -nv --method=DELETE https://api.github.com/x");
    assert_eq!(method(&call), Some("DELETE"));
    assert_eq!(call.implied_method, "GET");

    let script = "http --ignore-stdin POST https://api.github.com/repos/o/r/issues \"Authorization:Bearer ${{ secrets.GITHUB_TOKEN }}\" title='Bug' labels:='[\"x\"]' per_page==5";
    let call = one_call(script);
    assert_eq!(call.form, Form::Httpie);
    assert_eq!(method(&call), Some("POST"));
    assert_eq!(
        call.token,
        Some(TokenSource::Expression("secrets.GITHUB_TOKEN".into()))
    );
    assert_eq!(call.fields.len(), 2);
    assert_eq!(at(script, &call.fields[0].value_span), "Bug");
    assert!(call.fields[1].typed);
    assert_eq!(call.fields[1].value.as_deref(), Some("[\"x\"]"));
    assert_eq!(call.implied_method, "POST");
    let call = one_call("https api.github.com/user -A bearer -a $TOKEN");
    assert_eq!(target(&call), "api.github.com/user");
    assert_eq!(call.implied_method, "GET");
    assert_eq!(call.token, Some(TokenSource::Variable("TOKEN".into())));
    assert_eq!(names("http --version"), ["http"]);
}

#[test]
fn block_scripts_with_continuations_comments_and_separators() {
    let script = "set -euo pipefail\n# gh api repos/o/r/hooks is a comment\ngh api \\\n  --method POST \\\n  repos/{owner}/{repo}/labels \\\n  -f name=bug && echo done || exit 1; npm ci | tee log &\n";
    assert_eq!(
        names(script),
        [
            "set",
            "call repos/{owner}/{repo}/labels",
            "echo",
            "exit",
            "npm",
            "tee"
        ]
    );
    let call = one_call(script);
    assert_eq!(method(&call), Some("POST"));
    assert!(at(script, &call.span).starts_with("gh api \\\n"));
    assert!(at(script, &call.span).ends_with("name=bug"));
}

#[test]
fn substitutions_hold_commands() {
    let script = "N=$(gh api repos/o/r/issues --jq length)\nfor id in `gh api repos/o/r/pulls --jq '.[].number'`; do\n  echo \"$(curl -s https://api.github.com/x)\"\ndone\ndiff <(gh api a) b";
    let routes: Vec<_> = calls(script)
        .iter()
        .map(|c| target(c).to_string())
        .collect();
    assert_eq!(
        routes,
        [
            "repos/o/r/issues",
            "repos/o/r/pulls",
            "https://api.github.com/x",
            "a"
        ]
    );
    let n = names(script);
    assert!(n.contains(&"N=".to_string()), "{n:?}");
    assert!(n.contains(&"echo".to_string()), "{n:?}");
    assert!(n.contains(&"diff".to_string()), "{n:?}");
}

#[test]
fn heredocs_are_data_and_the_input_of_a_call_that_reads_stdin() {
    let script = "gh api --input - repos/o/r/issues <<EOF | jq .\n{\"title\": \"gh api user\"}\nEOF\ncat <<-'END' > x\n\tcurl https://api.github.com/nope\n\tEND\necho after";
    let cmds = names(script);
    assert_eq!(cmds, ["call repos/o/r/issues", "jq", "cat", "echo"]);
    let call = one_call(script);
    assert_eq!(call.implied_method, "POST");
    assert_eq!(
        at(script, call.input.as_ref().unwrap()),
        "{\"title\": \"gh api user\"}\n"
    );
    // A here-string is the input too.
    let script = "gh api repos/o/r/issues --input - <<< '{\"title\": \"x\"}'";
    let call = one_call(script);
    assert_eq!(
        at(script, call.input.as_ref().unwrap()),
        "{\"title\": \"x\"}"
    );
    // A heredoc given to a call that does not read it is not its input.
    let script = "gh api repos/o/r/issues -f a=b <<EOF\nx\nEOF\n";
    assert_eq!(one_call(script).input, None);
    // A heredoc never closed runs to the end of the script.
    assert_eq!(names("cat <<EOF\ngh api x\n"), ["cat"]);
    // A heredoc inside a substitution.
    assert_eq!(
        names("B=$(cat <<EOF\ngh api x\nEOF\n)\ngh pr comment 1 --body \"$B\""),
        ["cat", "B=", "gh pr comment"]
    );
}

#[test]
fn compound_commands_and_functions() {
    let script = "if gh api repos/o/r/branches/x >/dev/null 2>&1; then\n  echo yes\nelif [[ $A == b && -n \"$C\" ]]; then :\nelse\n  { git push; }\nfi\nwhile read -r l; do echo $l; done < f\ncase \"$X\" in\n  a|b) gh pr merge 1 ;;\n  (*) exit ;;\nesac\nnotify() {\n  gh issue comment \"$1\" --body x\n}\nfunction other { curl https://api.github.com/y; }\n! ( cd x && git fetch )";
    assert_eq!(
        names(script),
        [
            "call repos/o/r/branches/x",
            "echo",
            "[[",
            ":",
            "git push",
            "read",
            "echo",
            "gh pr merge",
            "exit",
            "gh issue comment",
            "call https://api.github.com/y",
            "cd",
            "git fetch",
        ]
    );
}

#[test]
fn scripts_run_by_bash_c() {
    let script = "bash -ec 'gh api -X DELETE \"repos/o/r/git/refs/tags/$T\" && git push'";
    assert_eq!(
        names(script),
        ["bash", "call repos/o/r/git/refs/tags/$T", "git push"]
    );
    let call = one_call(script);
    assert_eq!(
        at(script, &call.span),
        "gh api -X DELETE \"repos/o/r/git/refs/tags/$T\""
    );
    assert_eq!(at(script, &call.method.unwrap().1), "DELETE");
    assert_eq!(
        at(script, &call.target.unwrap().1),
        "repos/o/r/git/refs/tags/$T"
    );
    // Escapes inside the script's quotes keep their spans.
    let script = "sh -c \"curl -H \\\"Authorization: token \\$T\\\" https://api.github.com/u\"";
    let call = one_call(script);
    assert_eq!(call.token, Some(TokenSource::Variable("T".into())));
    assert_eq!(
        at(script, &call.target.unwrap().1),
        "https://api.github.com/u"
    );
    // Nested past the bound: the innermost is not read again.
    let nested = "bash -c 'sh -c \"bash -c \\\"sh -c gh\\\"\"'";
    assert!(
        !names(nested).iter().any(|n| n.starts_with("gh")),
        "{:?}",
        names(nested)
    );
    assert_eq!(names("bash script.sh"), ["bash"]);
}

#[test]
fn assignments_alone_and_exported() {
    let script = "export GH_TOKEN=${{ secrets.PAT }} OTHER=1\nREPO=\"$GITHUB_REPOSITORY\"\nexport PATH\nlocal -r x=1";
    let cmds = commands(script);
    let assigned: Vec<_> = cmds
        .iter()
        .filter_map(|c| match c {
            Command::Assignment(a) => {
                Some((a.name.as_str(), a.value.as_str(), at(script, &a.span)))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        assigned,
        [
            (
                "GH_TOKEN",
                "${{ secrets.PAT }}",
                "GH_TOKEN=${{ secrets.PAT }}"
            ),
            ("OTHER", "1", "OTHER=1"),
            ("REPO", "$GITHUB_REPOSITORY", "REPO=\"$GITHUB_REPOSITORY\""),
            ("x", "1", "x=1"),
        ]
    );
    assert!(matches!(&cmds[3], Command::Other { name, .. } if name == "export"));
    // A quoted name is not an assignment.
    assert_eq!(names("'A'=1"), ["A=1"]);
    assert_eq!(names("ARR=(a b c) gh api x"), ["call x"]);
}

#[test]
fn words_keep_their_unquoted_text_spans_and_expansions() {
    let script = "gh label create \"bug fix\" --color 'f00' -d a\\ b $X";
    let Command::Gh { words, .. } = &commands(script)[0] else {
        panic!()
    };
    let texts: Vec<_> = words
        .iter()
        .map(|w| (w.text.as_str(), at(script, &w.span), w.expanded))
        .collect();
    assert_eq!(
        texts,
        [
            ("bug fix", "\"bug fix\"", false),
            ("--color", "--color", false),
            ("f00", "'f00'", false),
            ("-d", "-d", false),
            ("a b", "a\\ b", false),
            ("$X", "$X", true),
        ]
    );
    // Inside single quotes too, and it makes the word's value unknown.
    let script = "gh api 'repos/${{ github.ref == 'refs/heads/main' && 'a' || 'b' }}/x' -X '${{ inputs.m }}'";
    let call = one_call(script);
    assert_eq!(
        target(&call),
        "repos/${{ github.ref == 'refs/heads/main' && 'a' || 'b' }}/x"
    );
    assert_eq!(method(&call), Some("${{ inputs.m }}"));
    let Command::Other { name, .. } = &commands("echo '${{ github.event.issue.title }}'")[0] else {
        panic!()
    };
    assert_eq!(name, "echo");
    // `${{ }}` is one opaque part, whatever quotes it holds.
    let script = "gh api \"repos/${{ format('{0}', github.repository) }}/x\"";
    assert_eq!(
        target(&one_call(script)),
        "repos/${{ format('{0}', github.repository) }}/x"
    );
}

#[test]
fn unreadable_scripts_say_where_and_why() {
    for (script, from) in [
        ("echo ok\ngh api 'repos/o/r\n", 8),
        ("echo ok\nX=\"$(gh api a)\n", 8),
        ("gh api $(echo\n", 0),
        ("echo `gh api x\n", 0),
        ("echo ${{ github.x\n", 0),
        ("echo ${X\n", 0),
    ] {
        let cmds = commands(script);
        let Some(Command::Unreadable { span, why }) = cmds.last() else {
            panic!("{script}: {cmds:?}")
        };
        assert_eq!(span, &(from..script.len()), "{script}: {why}");
        assert!(!why.is_empty());
    }
    // Commands before the unreadable part stay.
    assert_eq!(names("echo ok\ngh api 'x")[0], "echo");
}

#[test]
fn hostile_nesting_is_bounded() {
    let deep = "$(".repeat(10_000) + "gh api x" + &")".repeat(10_000);
    let cmds = commands(&deep);
    assert!(
        matches!(cmds.last(), Some(Command::Unreadable { .. })),
        "{:?}",
        cmds.last()
    );
    let backticks = "`".repeat(10_000);
    let _ = commands(&backticks);
    let quotes = "\"$(\"".repeat(5_000);
    let _ = commands(&quotes);
    let _ = commands(&"<<E\n".repeat(5_000));
    let _ = commands(&"((".repeat(5_000));
    let _ = commands(&"case x in ".repeat(2_000));
    let _ = commands(&"f() ".repeat(2_000));
    let _ = commands(&"[[ ( ".repeat(2_000));
}

/// The work of reading a script grows with its length and no faster: a script ten times
/// as long costs about ten times the work.
#[test]
fn work_is_linear_in_the_script() {
    let pieces = [
        "cat <<E\nE\n",
        "gh api repos/o/r -f a=b | jq .\n",
        "x=$(echo $(echo `a`))\n",
        "curl -sSfL -H 'A: b' https://x.test/ -d '{\"a\": [1, {\"b\": 2}]}'\n",
        "\"${{ a }}\"'b'\\\n",
        "http POST x.test a=b c:=1 d:e\n",
        "a=$(b \"$(c `d $(e)`)\")\n",
        "cat <<A <<B\nx\nA\ny\nB\n",
        "case $x in a) gh api x ;; esac; f() { :; }\n",
        "bash -c 'sh -c \"bash -c \\\"sh -c \\\\\\\"gh api x\\\\\\\"\\\"\"'\n",
    ];
    // Expressions inside one long single-quoted part.
    let quoted = |n: usize| format!("echo '{}'", "${{ a }}".repeat(n));
    let (_, w_small) = crate::loading::work::measure(|| commands(&quoted(100)));
    let (_, w_large) = crate::loading::work::measure(|| commands(&quoted(1_000)));
    assert!(
        w_large <= 12 * w_small.max(1),
        "quoted: {w_small} then {w_large}"
    );
    for piece in pieces {
        let small = piece.repeat(100);
        let large = piece.repeat(1_000);
        let (_, w_small) = crate::loading::work::measure(|| commands(&small));
        let (_, w_large) = crate::loading::work::measure(|| commands(&large));
        assert!(
            w_large <= 12 * w_small.max(1),
            "{piece:?}: {w_small} then {w_large}"
        );
    }
}

/// Spans of every part on character boundaries and inside the script, on any text made
/// of the script's own characters.
#[test]
fn spans_stay_inside_any_script() {
    use proptest::prelude::*;
    let alphabet = proptest::collection::vec(
        prop_oneof![
            Just("gh api "),
            Just("curl "),
            Just("http "),
            Just("wget "),
            Just("-X"),
            Just(" -f a=b"),
            Just(" -d '{\"k\": 1}'"),
            Just("https://x.test/"),
            Just("$("),
            Just(")"),
            Just("`"),
            Just("\""),
            Just("'"),
            Just("\\"),
            Just("\n"),
            Just("<<E"),
            Just("E"),
            Just("${{ a }}"),
            Just("${"),
            Just("}"),
            Just(";"),
            Just("|"),
            Just("&"),
            Just("é"),
            Just("case x in a) "),
            Just("(("),
            Just("[[ "),
            Just("=("),
            Just(" GH_TOKEN=t "),
            Just(" -H 'Authorization: token x'"),
            Just("bash -c "),
        ],
        0..40,
    );
    proptest::proptest!(|(parts in alphabet)| {
        let script: String = parts.concat();
        let first = commands(&script);
        prop_assert_eq!(&first, &commands(&script));
        let inside = |r: &Range<usize>| {
            r.start <= r.end
                && r.end <= script.len()
                && script.is_char_boundary(r.start)
                && script.is_char_boundary(r.end)
        };
        for c in &first {
            let mut spans: Vec<Range<usize>> = Vec::new();
            match c {
                Command::Call(c) => {
                    spans.push(c.span.clone());
                    spans.extend(c.method.iter().map(|m| m.1.clone()));
                    spans.extend(c.target.iter().map(|m| m.1.clone()));
                    spans.extend(c.input.clone());
                    for f in &c.fields {
                        spans.push(f.name_span.clone());
                        spans.push(f.value_span.clone());
                    }
                    spans.extend(c.headers.iter().map(|h| h.span.clone()));
                    spans.extend(c.assignments.iter().map(|a| a.span.clone()));
                }
                Command::Gh { words, span, .. } => {
                    spans.push(span.clone());
                    spans.extend(words.iter().map(|w| w.span.clone()));
                }
                Command::Git { span, .. }
                | Command::Other { span, .. }
                | Command::Unreadable { span, .. } => spans.push(span.clone()),
                Command::Assignment(a) => spans.push(a.span.clone()),
            }
            for s in spans {
                prop_assert!(inside(&s), "{:?} in {:?}", s, script);
            }
        }
    });
}
