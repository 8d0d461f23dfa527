//! The fuzz targets' bodies: each takes any bytes, runs one parser of
//! outside bytes the way the site runs it, and panics when the parser
//! breaks a promise (a panic of its own, a refusal without Chinese, an
//! answer that depends on how a stream was cut). Two drivers run them:
//! libFuzzer (`fuzz/fuzz_targets/*.rs`, `make fuzz`), and on stable the
//! server's test suite (`server/tests/suite/fuzz.rs`, part of `make
//! test`), which replays the seeds and every crash found, then mutates the
//! seeds for a bounded, seeded number of rounds. The suite includes this
//! file by path, so it may use only `server` and what `server` depends on.

use std::sync::OnceLock;

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Multipart};
use axum::http::{header, Request, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use tower::ServiceExt;

use server::transcribe::audio;

/// A target: its name (the folder of its seeds), its body, and how large
/// an input it is fed.
pub struct Target {
    pub name: &'static str,
    pub run: fn(&[u8]),
    /// libFuzzer's `-max_len` for it; the stable loop keeps under it too.
    pub max_len: usize,
    /// The most memory one input may hold at once while it is handled:
    /// the route's body limit, or for what no route bounds, the limit the
    /// code sets itself.
    pub memory: usize,
}

/// Every target, by name.
pub const TARGETS: &[Target] = &[
    Target {
        name: "recording",
        run: recording,
        max_len: audio::MAX_BYTES + 1,
        memory: server::http::transcribe::BODY,
    },
    Target {
        name: "multipart",
        run: multipart,
        max_len: server::http::transcribe::BODY + 1024,
        // The body as sent, the field as read, and the recording taken
        // from it: three copies at most of what the route accepts.
        memory: 3 * server::http::transcribe::BODY,
    },
    Target {
        name: "csv_import",
        run: csv_import,
        max_len: 64 * 1024,
        // The file, its records and its plan: a few times the file.
        memory: 16 * 64 * 1024,
    },
    Target {
        name: "sse",
        run: sse,
        max_len: 64 * 1024,
        memory: 8 * server::llm::client::MAX_REPLY_BYTES,
    },
    Target {
        name: "model_json",
        run: model_json,
        max_len: 64 * 1024,
        memory: 8 * server::llm::client::MAX_REPLY_BYTES,
    },
    Target {
        name: "chat_request",
        run: chat_request,
        max_len: server::http::security::HARD_BODY,
        memory: 8 * server::http::security::HARD_BODY,
    },
    Target {
        name: "recognizer_answer",
        run: recognizer_answer,
        max_len: 64 * 1024,
        memory: 64 * 64 * 1024,
    },
    Target {
        name: "posting_rules",
        run: posting_rules,
        max_len: 16 * 1024,
        memory: 8 * server::http::security::HARD_BODY,
    },
];

/// Whether `s` holds a Chinese character: every refusal must.
pub fn has_chinese(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// The recording check: any bytes are refused with a Chinese sentence or
/// accepted with a length within the limits.
pub fn recording(data: &[u8]) {
    match audio::check(data) {
        Ok(r) => {
            if let Some(d) = r.duration {
                assert!(
                    (audio::MIN_DURATION..=audio::MAX_DURATION).contains(&d),
                    "{d:?}"
                );
            }
            assert_eq!(audio::sniff(data), Some(r.container));
        }
        Err(refusal) => assert!(has_chinese(refusal.message()), "{refusal:?}"),
    }
}

/// The boundary of the multipart bodies fed to [`multipart`] (its seeds
/// use it).
pub const BOUNDARY: &str = "fuzzboundary";

fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a current-thread runtime")
    })
}

async fn upload(multipart: Multipart) -> Response {
    match server::http::transcribe::upload(multipart).await {
        Ok(_) => StatusCode::OK.into_response(),
        Err(e) => e.into_response(),
    }
}

/// The transcription route's reading of its body: the same body limit
/// and the same function (`http::transcribe::upload`: the multipart
/// fields, then the recording check), up to where the recognizer would be
/// called. Any body is answered 200 or a 4xx whose message is Chinese.
pub fn multipart(data: &[u8]) {
    let router = Router::new()
        .route("/", post(upload))
        .layer(DefaultBodyLimit::max(server::http::transcribe::BODY));
    let request = Request::post("/")
        .header(
            header::CONTENT_TYPE,
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(Body::from(data.to_vec()))
        .expect("a request");
    let (status, body) = runtime().block_on(async {
        let response = router.oneshot(request).await.expect("infallible");
        let status = response.status();
        let body = axum::body::to_bytes(response.into_body(), 64 * 1024)
            .await
            .expect("a small answer");
        (status, body)
    });
    assert!(
        status == StatusCode::OK || status.is_client_error(),
        "{status}"
    );
    if status != StatusCode::OK {
        let v: serde_json::Value = serde_json::from_slice(&body).expect("a JSON error");
        let message = v["error"]["message"].as_str().unwrap_or_default();
        assert!(has_chinese(message), "{status} {v}");
    }
}

fn catalog() -> &'static server::catalog::Catalog {
    use server::catalog::{Catalog, MajorEntry, SchoolEntry};
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| {
        let school = |id, name: &str, aliases: &[&str]| SchoolEntry {
            id,
            name: name.into(),
            city: "北京".into(),
            tier: "985".into(),
            popularity: 100 - id,
            aliases: aliases.iter().map(|a| a.to_string()).collect(),
        };
        let major = |id, name: &str, aliases: &[&str]| MajorEntry {
            id,
            name: name.into(),
            category: "工学".into(),
            aliases: aliases.iter().map(|a| a.to_string()).collect(),
        };
        Catalog::new(
            vec![
                school(1, "北京大学", &["北大", "PKU"]),
                school(2, "上海交通大学", &["上交", "交大"]),
                school(3, "西安交通大学", &["西交", "交大"]),
            ],
            vec![
                major(1, "计算机科学与技术", &["计算机", "CS"]),
                major(2, "电子信息工程", &["电子"]),
            ],
            [((1, 1), 3)].into_iter().collect(),
        )
    })
}

/// `server import`'s reading of a CSV file (encoding, records, line
/// numbers, fields, against a small catalog): every bad line is inside
/// the file and says why in Chinese.
pub fn csv_import(data: &[u8]) {
    let plan = server::cli::import::plan_bytes(data, catalog());
    // Line ends as the CSV reader ends records: \n, \r\n, or \r alone.
    let crlf = data.windows(2).filter(|w| w == b"\r\n").count();
    let ends = data.iter().filter(|b| matches!(b, b'\r' | b'\n')).count() - crlf;
    let lines = 1 + ends as u64;
    for bad in &plan.bad {
        assert!((1..=lines).contains(&bad.line), "{bad} of {lines} lines");
        assert!(has_chinese(&bad.reason), "{bad}");
    }
    for row in &plan.rows {
        assert!(
            (2..=lines).contains(&row.line),
            "row at {} of {lines}",
            row.line
        );
    }
    if plan.unusable {
        assert!(plan.rows.is_empty());
    }
}

/// Splits `data` in pieces whose lengths its first bytes choose.
fn pieces(data: &[u8]) -> (Vec<&[u8]>, &[u8]) {
    let Some((&n, rest)) = data.split_first() else {
        return (Vec::new(), data);
    };
    let cuts = usize::from(n % 8);
    let (lens, body) = rest.split_at(cuts.min(rest.len()));
    let mut out = Vec::new();
    let mut at = 0;
    for len in lens {
        let end = (at + usize::from(*len)).min(body.len());
        out.push(&body[at..end]);
        at = end;
    }
    out.push(&body[at..]);
    (out, body)
}

fn read_stream(chunks: &[&[u8]]) -> Result<server::llm::Completion, server::llm::LlmError> {
    let mut reader = server::llm::client::StreamReader::default();
    let mut relayed = String::new();
    let mut on_content = |t: &str| relayed.push_str(t);
    for chunk in chunks {
        if reader.done() {
            break;
        }
        reader.push(chunk, &mut on_content)?;
    }
    let completion = reader.finish(&mut on_content)?;
    assert_eq!(
        relayed, completion.content,
        "what was relayed is what was said"
    );
    Ok(completion)
}

/// A streamed model reply (server-sent events) read as the model client
/// reads it: the same reply or the same error however the bytes were cut;
/// what is said, read by the agent's output reader.
pub fn sse(data: &[u8]) {
    let (chunks, body) = pieces(data);
    let cut = read_stream(&chunks);
    let whole = read_stream(&[body]);
    match (&cut, &whole) {
        (Ok(a), Ok(b)) => assert_eq!(a, b),
        (Err(a), Err(b)) => assert_eq!(a.code(), b.code()),
        _ => panic!("cut {cut:?} whole {whole:?}"),
    }
    // The decoder alone, byte by byte against all at once.
    let mut one = server::llm::sse::SseDecoder::default();
    let mut by_byte = Vec::new();
    for b in body.iter().take(4096) {
        by_byte.extend(one.push(std::slice::from_ref(b)));
    }
    by_byte.extend(one.finish());
    let mut all = server::llm::sse::SseDecoder::default();
    let mut at_once = all.push(&body[..body.len().min(4096)]);
    at_once.extend(all.finish());
    assert_eq!(by_byte, at_once);
    if let Ok(completion) = whole {
        let _ = server::agent::planner::output::read(&completion);
    }
}

/// A model's reply body and text: the whole-reply reader, the JSON found
/// in prose or fences, the agent's output reader and the spoken part
/// pulled out while the reply streams.
pub fn model_json(data: &[u8]) {
    if let Ok(completion) = server::llm::client::read_whole(data) {
        let _ = server::agent::planner::output::read(&completion);
    }
    let text = String::from_utf8_lossy(data);
    if let Some(start) = text.find('{') {
        let object = &text[start..];
        if let Some(len) = server::llm::json::object_len(object) {
            assert!(object.is_char_boundary(len) && object[..len].ends_with('}'));
        }
    }
    let _ = server::llm::json::json_object(&text);
    let completion = server::llm::Completion {
        content: text.to_string(),
        ..Default::default()
    };
    let _ = server::agent::planner::output::read(&completion);
    let (chunks, _) = pieces(data);
    let mut voice = server::agent::planner::output::VoiceExtractor::default();
    for chunk in chunks {
        let _ = voice.push(&String::from_utf8_lossy(chunk));
    }
}

/// A speech recognizer's answer: read as the site reads it, its readings
/// cleaned and the one to go on with chosen, with a ranking's advisors on
/// the page. The text is the best reading or one of the others, as the
/// site weighs them (cleaned, its own words respelled).
pub fn recognizer_answer(data: &[u8]) {
    use server::agent::nlu::{Lexicons, NameSet};
    static LEXICONS: OnceLock<Lexicons> = OnceLock::new();
    let lexicons = LEXICONS.get_or_init(|| {
        Lexicons::new(
            &[
                NameSet::new("北京大学", &["北大"]),
                NameSet::new("四川大学", &["川大"]),
                NameSet::new("西南交通大学", &["西南交大", "交大"]),
                NameSet::new("西安交通大学", &["西交", "交大"]),
            ],
            &[
                NameSet::new("计算机科学与技术", &["计算机", "计科"]),
                NameSet::new("临床医学", &["临床"]),
            ],
        )
    });
    let Ok(heard) = server::transcribe::Heard::read(data) else {
        return;
    };
    assert!(heard.alternatives.len() <= server::transcribe::MAX_ALTERNATIVES);
    let page: app::protocol::PageContext = serde_json::from_value(serde_json::json!({
        "current_page": "ranking",
        "visible_advisors": [{"id": "1", "name": "宋莉婷"}, {"id": "2", "name": "欧阳明"}]
    }))
    .unwrap();
    let prompt = "考研选导师。北京大学、川大。宋莉婷老师、欧阳明老师。";
    let names = ["宋莉婷".to_string(), "欧阳明".to_string()];
    let readings: Vec<String> = std::iter::once(&heard.text)
        .chain(&heard.alternatives)
        .map(|t| server::http::transcribe::heard_as(lexicons, t, prompt, &names))
        .collect();
    let text = server::http::transcribe::reading(lexicons, heard, prompt, Some(&page));
    assert!(readings.contains(&text), "{text:?} is none of {readings:?}");
}

/// `POST /api/v1/chat`'s body: read as the route reads it, then checked;
/// a refusal is a Chinese 4xx.
pub fn chat_request(data: &[u8]) {
    let Ok(request) = serde_json::from_slice::<app::protocol::ChatRequest>(data) else {
        return;
    };
    if let Err(e) = server::agent::request::check(&request) {
        assert!((400..500).contains(&e.status), "{}", e.status);
        assert!(has_chinese(&e.info.message), "{}", e.info.message);
    }
}

/// The posting rules over any text (the first line is the reviewed
/// advisor's name): every finding points at the writer's own characters
/// and says which rule in Chinese.
pub fn posting_rules(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (name, text) = text.split_once('\n').unwrap_or(("", &text));
    let ctx = server::reviews::rules::RuleContext {
        advisor_name: name.to_string(),
    };
    for v in server::reviews::rules::check(text, &ctx) {
        assert!(text.contains(&v.excerpt), "{v:?}");
        assert!(has_chinese(&v.message), "{v:?}");
    }
}
