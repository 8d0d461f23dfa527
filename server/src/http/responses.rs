//! The shared error responses of the API's description: the envelope
//! `{"error": {code, message, field}}` with every code it may carry
//! ([`ERROR_CODES`] and the posting rules' `ContentRule` codes), and the
//! 429 with `Retry-After`. The handlers name them in their
//! `#[utoipa::path]` attributes and the document (`super::openapi`) lists
//! the handlers, so they live here, below both, not in the document.

use utoipa::openapi::header::HeaderBuilder;
use utoipa::openapi::{ContentBuilder, Ref, RefOr, ResponseBuilder};
use utoipa::ToResponse;

use app::policy::ContentRule;

/// Every `error.code` the API answers, by status, and what it means. The
/// posting rules add theirs ([`ContentRule::code`]); the suite checks that
/// every code the source constructs is here.
pub const ERROR_CODES: &[(u16, &str, &str)] = &[
    (400, "invalid_request", "the body is not JSON of the expected shape (the message names it), or the request is malformed"),
    (400, "invalid_query", "the query string cannot be read, or `q` is too long"),
    (400, "missing_parameter", "a required parameter is empty (`field` names it)"),
    (400, "invalid_sort", "`sort` is not one of the listed values"),
    (400, "invalid_page", "`page` is not an integer from 1 to the last allowed page"),
    (400, "invalid_limit", "`limit` is out of range"),
    (400, "invalid_id", "an id is not a positive integer"),
    (400, "invalid_ids", "too few or too many ids (compare: 2–4; bulk: at least 1)"),
    (400, "ambiguous_school", "the school's words name several schools; the message lists them"),
    (400, "invalid_relation", "`relation` is not 在读, 已毕业 or 了解"),
    (400, "invalid_tag", "not one of the site's tags"),
    (400, "invalid_rating", "a score is not an integer from 1 to 5 (`field`: `ratings.…`)"),
    (400, "too_many_tags", "a review has more tags than allowed"),
    (400, "too_short", "a review's text is too short"),
    (400, "too_long", "a review's text is too long"),
    (400, "duplicate", "the same writer posted nearly the same review of this advisor recently"),
    (400, "invalid_action", "an admin `action` is not `hide` or `restore`"),
    (400, "invalid_agent_type", "`agent_type` is not `casual` or `analysis`"),
    (400, "invalid_option", "a chip click (`option`) names no field the agent asked about"),
    (400, "invalid_tool_call", "an agent tool was called without what it needs (inside a chat reply's tool results)"),
    (400, "invalid_correction", "a request for a correction is incomplete (`field` names what)"),
    (400, "empty_audio", "`POST /transcribe` without a recording"),
    (400, "unsupported_audio", "the recording is not WebM, Ogg, WAV or MP4 (read from its bytes)"),
    (400, "audio_too_short", "the recording is shorter than 0.3 s"),
    (400, "damaged_audio", "the recording's container declares what no recording can be (a length of days or centuries)"),
    (401, "unauthorized", "the admin token is missing"),
    (403, "forbidden", "a wrong admin token, or a wrong or expired review edit token"),
    (403, "cross_site_request", "a browser's write from another site"),
    (404, "unknown_endpoint", "no such route (also the admin API while the admin is off)"),
    (404, "unknown_school", "no school matches"),
    (404, "unknown_major", "the school has no such major"),
    (404, "unknown_advisor", "no advisor with that id"),
    (404, "unknown_review", "no review with that id"),
    (404, "unknown_session", "the chat session does not exist or has expired"),
    (404, "unknown_correction", "no request for a correction with that id"),
    (405, "method_not_allowed", "the route does not take this method"),
    (408, "request_timeout", "the request took too long"),
    (411, "length_required", "the body needs a Content-Length"),
    (413, "payload_too_large", "the body is over the route's limit"),
    (413, "audio_too_large", "the recording is over 1 MB"),
    (413, "audio_too_long", "the recording is longer than 30 s"),
    (415, "unsupported_media_type", "the body is not `application/json`"),
    (422, "unreadable_audio", "the speech recognizer could not decode the recording"),
    (429, "rate_limited", "too many requests from this client; `Retry-After` says when to try again"),
    (500, "internal_error", "the server failed"),
    (502, "transcriber_failed", "the speech recognizer failed"),
    (503, "unavailable", "the database failed; try again"),
    (503, "transcription_off", "the site has no speech recognizer (`ASR_BASE_URL` unset)"),
    (503, "transcriber_unavailable", "the speech recognizer cannot be reached"),
    (504, "transcriber_timeout", "the speech recognizer did not answer in time (`ASR_TIMEOUT_SECS`)"),
    (503, "not_ready", "`/readyz`: the database does not answer"),
];

/// The shared error response: the envelope, its codes listed.
pub struct Error;

impl<'s> ToResponse<'s> for Error {
    fn response() -> (&'s str, RefOr<utoipa::openapi::Response>) {
        let response = ResponseBuilder::new()
            .description(codes_description())
            .content("application/json", envelope())
            .build();
        ("Error", response.into())
    }
}

/// The shared 429: the envelope (`rate_limited`) and `Retry-After`.
pub struct RateLimited;

impl<'s> ToResponse<'s> for RateLimited {
    fn response() -> (&'s str, RefOr<utoipa::openapi::Response>) {
        let response = ResponseBuilder::new()
            .description(
                "Too many requests from this client (`rate_limited`), in the error envelope.",
            )
            .header(
                "Retry-After",
                HeaderBuilder::new()
                    .schema(Some(<u64 as utoipa::PartialSchema>::schema()))
                    .description(Some("Seconds after which the request may be sent again."))
                    .build(),
            )
            .content("application/json", envelope())
            .build();
        ("RateLimited", response.into())
    }
}

fn envelope() -> utoipa::openapi::Content {
    ContentBuilder::new()
        .schema(Some(Ref::from_schema_name("ErrorEnvelope")))
        .build()
}

/// The error envelope and every code, by status (Markdown).
fn codes_description() -> String {
    let mut out = String::from(
        "An error, in the envelope `{\"error\": {\"code\", \"message\", \"field\"}}`: \
         `code` is one of the codes below (clients should accept new ones), `message` \
         is Chinese for the student, `field` (when present) names the input at fault.\n\n",
    );
    for (status, code, meaning) in ERROR_CODES {
        out.push_str(&format!("- {status} `{code}`: {meaning}\n"));
    }
    for rule in ContentRule::ALL {
        out.push_str(&format!(
            "- 400 `{}`: a review's text breaks the posting rule 「{}」 (`field`: `text`)\n",
            rule.code(),
            rule.name()
        ));
    }
    out
}
