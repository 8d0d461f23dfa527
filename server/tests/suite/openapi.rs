//! `GET /api/v1/openapi.json` against what it describes: the routes as the
//! router definitions declare them (read from the source, as
//! `architecture.rs` reads it), the router's own answers for each, the
//! demo data's real answers validated against the document's schemas, and
//! every error code the source constructs listed in the shared `Error`
//! response.

use std::collections::BTreeSet;
use std::path::Path;

use axum::http::StatusCode;
use serde_json::{json, Map, Value};

use crate::common::{self, app, get, zhang_id};

fn source(rel: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `text` without its test module and its comment lines.
fn code(text: &str) -> String {
    let text = text.find("#[cfg(test)]").map_or(text, |i| &text[..i]);
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// What follows `open` (just past an opening parenthesis) up to its
/// matching closing parenthesis.
fn up_to_close(open: &str) -> &str {
    let mut depth = 1;
    for (i, c) in open.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return &open[..i];
                }
            }
            _ => {}
        }
    }
    panic!("unbalanced parentheses in {open}")
}

/// The arguments of `pub fn name(…) … {` … up to its closing brace.
fn fn_body<'a>(text: &'a str, name: &str) -> &'a str {
    let start = text
        .find(&format!("pub fn {name}("))
        .unwrap_or_else(|| panic!("no `pub fn {name}(`"));
    let rest = &text[start..];
    &rest[..rest.find("\n}\n").expect("the function ends")]
}

/// A string literal at the start of `s` (after blanks), if any.
fn literal(s: &str) -> Option<&str> {
    let s = s.trim_start().strip_prefix('"')?;
    Some(&s[..s.find('"')?])
}

/// `(METHOD, path)` of every `.route("path", get(h).post(h) …)` in `body`.
fn routes_in(body: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for piece in body.split(".route(").skip(1) {
        let path = literal(piece).expect("a route's path is a literal");
        let args = up_to_close(piece);
        for method in ["get", "post", "put", "delete", "patch"] {
            let call = format!("{method}(");
            let mut from = 0;
            while let Some(i) = args[from..].find(&call) {
                let at = from + i;
                let before = args[..at].chars().next_back();
                if !before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    out.push((method.to_uppercase(), path.to_string()));
                }
                from = at + call.len();
            }
        }
    }
    out
}

/// The routes the site's router has under `/api/v1` — every router that
/// `lib.rs` nests there, read from its definition — and `/healthz`,
/// `/readyz` at the root.
fn routes_of_the_router() -> BTreeSet<(String, String)> {
    let lib = code(&source("src/lib.rs"));
    let nest = lib
        .split(".nest(")
        .skip(1)
        .find(|p| literal(p) == Some("/api/v1"))
        .map(up_to_close)
        .expect("lib.rs nests the API under /api/v1");
    let mut routes = BTreeSet::new();
    let mut routers = 0;
    for call in nest.split("http::").skip(1) {
        let mut names = call.splitn(2, "::");
        let module = names.next().unwrap();
        let function: String = names
            .next()
            .unwrap()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        // A module is a file, or a folder with its mod.rs.
        let file = format!("src/http/{module}.rs");
        let text = if Path::new(env!("CARGO_MANIFEST_DIR")).join(&file).exists() {
            code(&source(&file))
        } else {
            code(&source(&format!("src/http/{module}/mod.rs")))
        };
        for (method, path) in routes_in(fn_body(&text, &function)) {
            routes.insert((method, format!("/api/v1{path}")));
        }
        routers += 1;
    }
    assert!(routers >= 6, "only {routers} routers found under /api/v1");
    let ops = code(&source("src/http/ops.rs"));
    routes.extend(routes_in(fn_body(&ops, "health")));
    // Merged outside the body limits of the rest, its path written whole.
    let transcribe = code(&source("src/http/transcribe.rs"));
    routes.extend(routes_in(fn_body(&transcribe, "router")));
    routes
}

/// `(METHOD, path)` of every operation in the document.
fn operations(doc: &Value) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for method in item.as_object().expect("a path item").keys() {
            out.insert((method.to_uppercase(), path.clone()));
        }
    }
    out
}

async fn document(app: &axum::Router) -> Value {
    let r = get(app, "/api/v1/openapi.json").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    r.json()
}

#[tokio::test]
async fn the_document_is_served_as_openapi_3() {
    let (app, _) = app().await;
    let response = tower::ServiceExt::oneshot(
        app.clone(),
        axum::http::Request::get("/api/v1/openapi.json")
            .body(axum::body::Body::empty())
            .unwrap(),
    )
    .await
    .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()["content-type"],
        "application/json",
        "served as JSON"
    );
    let doc = document(&app).await;
    let version = doc["openapi"].as_str().expect("an `openapi` version");
    assert!(version.starts_with("3."), "{version}");
    assert!(doc["info"]["title"].is_string() && doc["info"]["version"].is_string());
    // The document is what the server module builds, byte for byte.
    assert_eq!(
        doc,
        serde_json::from_str::<Value>(server::http::openapi::document_json()).unwrap()
    );

    // Every response says what it is (OpenAPI requires a description).
    for (method, path) in operations(&doc) {
        let op = &doc["paths"][&path][method.to_lowercase()];
        for (status, response) in op["responses"].as_object().expect("responses") {
            let described = response.get("$ref").is_some()
                || response["description"]
                    .as_str()
                    .is_some_and(|d| !d.trim().is_empty());
            assert!(described, "{method} {path} {status}: no description");
        }
    }

    // The admin API names the admin token's scheme, which is defined.
    let scheme = &doc["components"]["securitySchemes"]["admin_token"];
    assert_eq!(scheme["type"], "http");
    assert_eq!(scheme["scheme"], "bearer");
    for (method, path) in operations(&doc) {
        let op = &doc["paths"][&path][method.to_lowercase()];
        let secured = op["security"]
            .as_array()
            .is_some_and(|s| s.iter().any(|r| r.get("admin_token").is_some()));
        assert_eq!(
            secured,
            path.starts_with("/api/v1/admin/"),
            "{method} {path}: the admin token is required exactly on the admin API"
        );
    }

    // The stream's events are described, and their data's schemas exist.
    let stream = &doc["paths"]["/api/v1/chat/stream"]["post"]["responses"]["200"];
    assert!(
        stream["content"]["text/event-stream"].is_object(),
        "{stream}"
    );
    let described = stream["description"].as_str().unwrap();
    for (event, schema) in [
        ("`switch`", "SwitchNotice"),
        ("`voice`", "VoicePiece"),
        ("`reply`", "ChatResponse"),
    ] {
        assert!(described.contains(event), "{event}: {described}");
        assert!(described.contains(schema), "{schema}: {described}");
        assert!(doc["components"]["schemas"][schema].is_object(), "{schema}");
    }

    // The error envelope is a shared response, with its schema.
    let envelope = &doc["components"]["schemas"]["ErrorEnvelope"];
    assert_eq!(envelope["required"], json!(["error"]));
    let info = &doc["components"]["schemas"]["ErrorInfo"]["properties"];
    for field in ["code", "message", "field"] {
        assert!(info[field].is_object(), "ErrorInfo.{field}");
    }
    let retry = &doc["components"]["responses"]["RateLimited"]["headers"]["Retry-After"];
    assert!(retry.is_object(), "429 says Retry-After");
}

#[tokio::test]
async fn every_route_of_the_router_is_described_and_answers() {
    let (app, _) = app().await;
    let doc = document(&app).await;
    let routes = routes_of_the_router();
    assert!(
        routes.contains(&("GET".into(), "/api/v1/openapi.json".into())),
        "the document describes itself: {routes:?}"
    );
    let described = operations(&doc);
    let missing: Vec<_> = routes.difference(&described).collect();
    let extra: Vec<_> = described.difference(&routes).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "routes without a description: {missing:?}; described, but no such route: {extra:?}"
    );

    // Each route as the document spells it is one the router has: no
    // `unknown_endpoint`, no 405. No credentials and no bodies, so nothing
    // is written (the answers are 4xx, 401 for the admin API).
    for (method, path) in &routes {
        let uri = path
            .replace("{session_id}", "no-such-session")
            .replace("{id}", "1");
        let (status, body) = common::request(&app, method, &uri, &[], None).await;
        assert_ne!(
            status,
            StatusCode::METHOD_NOT_ALLOWED,
            "{method} {uri}: {body}"
        );
        assert_ne!(
            body["error"]["code"], "unknown_endpoint",
            "{method} {uri}: {status} {body}"
        );
    }
}

/// The schema `schema` with every object closed: an object schema refuses
/// properties it does not name (`additionalProperties: false`; for an
/// `allOf`, `unevaluatedProperties: false`, so its parts' properties count),
/// except the schemas used as parts of an `allOf`, which cannot close alone.
fn closed(components: &Map<String, Value>) -> Map<String, Value> {
    let parts: BTreeSet<String> = components
        .values()
        .filter_map(|s| s["allOf"].as_array())
        .flatten()
        .filter_map(|p| p["$ref"].as_str())
        .map(|r| r.rsplit('/').next().unwrap().to_string())
        .collect();
    components
        .iter()
        .map(|(name, schema)| {
            let mut schema = schema.clone();
            if let Some(o) = schema.as_object_mut() {
                if o.contains_key("allOf") {
                    o.insert("unevaluatedProperties".into(), json!(false));
                } else if o.contains_key("properties")
                    && !o.contains_key("additionalProperties")
                    && !parts.contains(name)
                {
                    o.insert("additionalProperties".into(), json!(false));
                }
            }
            (name.clone(), schema)
        })
        .collect()
}

/// The properties an object schema names, through `$ref` and `allOf`.
fn properties(schema: &Value, schemas: &Map<String, Value>) -> BTreeSet<String> {
    if let Some(r) = schema["$ref"].as_str() {
        return properties(&schemas[r.rsplit('/').next().unwrap()], schemas);
    }
    let mut out: BTreeSet<String> = schema["properties"]
        .as_object()
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default();
    for part in schema["allOf"].as_array().into_iter().flatten() {
        out.extend(properties(part, schemas));
    }
    out
}

#[tokio::test]
async fn real_answers_validate_against_their_schemas() {
    let (app, _) = app().await;
    let doc = document(&app).await;
    let schemas = doc["components"]["schemas"].as_object().unwrap().clone();
    let zhang = zhang_id(&app).await;
    let other = get(
        &app,
        "/api/v1/advisors?school=北京大学&major=计算机科学与技术",
    )
    .await
    .json()["advisors"][1]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let answers = [
        (
            "/api/v1/advisors",
            "/api/v1/advisors?school=北大&major=计算机&sort=reviews".to_string(),
        ),
        ("/api/v1/advisors/{id}", format!("/api/v1/advisors/{zhang}")),
        (
            "/api/v1/advisors/{id}/reviews",
            format!("/api/v1/advisors/{zhang}/reviews?sort=helpful"),
        ),
        ("/api/v1/schools", "/api/v1/schools".to_string()),
        ("/api/v1/majors", "/api/v1/majors?school=北大".to_string()),
        ("/api/v1/search", "/api/v1/search?q=zhang".to_string()),
        (
            "/api/v1/compare",
            format!("/api/v1/compare?ids={zhang},{other}"),
        ),
    ];
    for (template, uri) in answers {
        let r = get(&app, &uri).await;
        assert_eq!(r.status, StatusCode::OK, "{uri}: {}", r.body);
        let answer = r.json();
        let schema = &doc["paths"][template]["get"]["responses"]["200"]["content"]
            ["application/json"]["schema"];
        assert!(schema.is_object(), "{template}: no JSON schema for 200");

        // Validated as JSON Schema 2020-12 (OpenAPI 3.1's dialect), every
        // object closed, so a field the document does not name fails too.
        let mut root = schema.as_object().unwrap().clone();
        root.insert(
            "$schema".into(),
            json!("https://json-schema.org/draft/2020-12/schema"),
        );
        root.insert("components".into(), json!({ "schemas": closed(&schemas) }));
        let validator = jsonschema::validator_for(&Value::Object(root))
            .unwrap_or_else(|e| panic!("{template}: the schema does not compile: {e}"));
        let errors: Vec<String> = validator
            .iter_errors(&answer)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{uri}: {errors:#?}");

        // And the top level, both ways: every key is in the schema, every
        // property of the schema is in the answer.
        let keys: BTreeSet<String> = answer.as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, properties(schema, &schemas), "{uri}");
        assert!(!keys.is_empty());
    }
}

/// Every `error.code` the source constructs: the first argument of
/// `ApiError::bad_request` / `not_found` and of a review's `FieldError`, the
/// second of `ApiError::status`, an assigned `.code`, the constructors of
/// `app::error`, and the
/// status-to-code tables of `http::security` and `http::admin`.
fn codes_in_the_source() -> BTreeSet<String> {
    fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    files(&root.join("src"), &mut paths);
    files(&root.join("../app/src"), &mut paths);
    let mut codes = BTreeSet::new();
    let mut take = |s: &str| {
        if let Some(c) = literal(s) {
            if !c.is_empty() && c.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
                codes.insert(c.to_string());
            }
        }
    };
    for path in paths {
        let text = code(&std::fs::read_to_string(&path).unwrap());
        let name = path.to_string_lossy().replace('\\', "/");
        let mut patterns = vec![
            "bad_request(",
            "not_found(",
            "FieldError::new(",
            ".code = ",
            "ApiError::status(",
        ];
        if name.ends_with("app/src/error.rs") {
            patterns.push("Self::new(");
        }
        if name.ends_with("http/security.rs") || name.ends_with("http/admin/token.rs") {
            patterns.extend(["=> (", "=> "]);
        }
        for pattern in patterns {
            for piece in text.split(pattern).skip(1) {
                if pattern == "Self::new(" || pattern == "ApiError::status(" {
                    // `Self::new(status, "code", …)`, `ApiError::status(…)`.
                    take(piece.split_once(',').map_or("", |(_, rest)| rest));
                } else {
                    take(piece);
                }
            }
        }
    }
    codes
}

#[tokio::test]
async fn every_error_code_is_listed_in_the_shared_error_response() {
    let (app, _) = app().await;
    let doc = document(&app).await;
    let listed = doc["components"]["responses"]["Error"]["description"]
        .as_str()
        .expect("the shared Error response describes the codes");
    let codes = codes_in_the_source();
    for expected in [
        "unknown_endpoint",
        "rate_limited",
        "unauthorized",
        "not_ready",
    ] {
        assert!(
            codes.contains(expected),
            "the scan misses {expected}: {codes:?}"
        );
    }
    let rules = app::policy::ContentRule::ALL.map(|r| r.code());
    let missing: Vec<&str> = codes
        .iter()
        .map(String::as_str)
        .chain(rules)
        .filter(|c| !listed.contains(&format!("`{c}`")))
        .collect();
    assert!(missing.is_empty(), "codes not listed: {missing:?}");
    // Nothing listed that the code never answers.
    let stale: Vec<&str> = server::http::openapi::ERROR_CODES
        .iter()
        .map(|(_, c, _)| *c)
        .filter(|c| !codes.contains(*c))
        .collect();
    assert!(stale.is_empty(), "listed, never constructed: {stale:?}");
}

/// The query parameters a handler reads: the literals of `get("…")` in its
/// body, and in the helpers it calls with the query (`page_param(&q)` reads
/// `page`). The document lists exactly those, each under the operation of
/// that handler's `#[utoipa::path]`.
#[tokio::test]
async fn the_documented_query_parameters_are_the_ones_the_handlers_read() {
    let (app, _) = app().await;
    let doc = document(&app).await;
    let text = code(&source("src/http/api_v1.rs"));
    // Helpers that read a parameter, by name.
    let helpers: Vec<(String, BTreeSet<String>)> = text
        .split("\nfn ")
        .skip(1)
        .map(|piece| {
            let name: String = piece
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let body = &piece[..piece.find("\n}\n").unwrap_or(piece.len())];
            (name, reads(body))
        })
        .filter(|(_, r)| !r.is_empty())
        .collect();
    let mut checked = 0;
    for piece in text.split("#[utoipa::path(").skip(1) {
        let method = piece.split(',').next().unwrap().trim().to_uppercase();
        let path = literal(&piece[piece.find("path =").expect("a path") + 6..]).unwrap();
        let start = piece.find("async fn ").expect("the handler");
        let body = &piece[start..start + piece[start..].find("\n}\n").expect("its end")];
        let mut read = reads(body);
        for (helper, params) in &helpers {
            if body.contains(&format!("{helper}(")) {
                read.extend(params.iter().cloned());
            }
        }
        let op = &doc["paths"][format!("/api/v1{path}")][method.to_lowercase()];
        let documented: BTreeSet<String> = op["parameters"]
            .as_array()
            .map(|ps| {
                ps.iter()
                    .filter(|p| p["in"] == "query")
                    .map(|p| p["name"].as_str().unwrap().to_string())
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(
            documented, read,
            "{method} /api/v1{path}: documented vs read"
        );
        checked += usize::from(!read.is_empty());
    }
    assert!(
        checked >= 5,
        "only {checked} operations with query parameters found"
    );
}

/// The literals of `get("…")` (a query's `q.get("page")` or a local `get`).
fn reads(body: &str) -> BTreeSet<String> {
    body.split("get(\"")
        .skip(1)
        .filter_map(|s| s.split_once('"').map(|(name, _)| name.to_string()))
        .collect()
}
