//! The site's metrics, each named once here and counted by one call where
//! its event happens (the HTTP middleware, the turn's loop, the model
//! client, the coach's router, the review write path), through the
//! `metrics` facade. Rendered in Prometheus' text format by
//! `metrics-exporter-prometheus` once [`install`] has set the process's
//! recorder; before that (metrics off) every call is a no-op.
//!
//! Labels are bounded sets: route templates (never raw paths), status
//! classes, step and planner names, error and rule codes.

use std::sync::OnceLock;
use std::time::Duration;

use metrics::{counter, describe_counter, describe_gauge, describe_histogram, gauge, histogram};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

/// Buckets of every `*_seconds` histogram: a cached read (a few ms) to a
/// model's whole turn (the 30 s request deadline).
const SECONDS: &[f64] = &[
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 6.0, 10.0, 20.0, 30.0,
];

static HANDLE: OnceLock<Result<PrometheusHandle, String>> = OnceLock::new();

/// Sets the Prometheus recorder as the process's (once; later calls return
/// the same handle). `Err` when another recorder was set first.
pub fn install() -> Result<&'static PrometheusHandle, String> {
    HANDLE
        .get_or_init(|| {
            let recorder = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), SECONDS)
                .map_err(|e| e.to_string())?
                .build_recorder();
            let handle = recorder.handle();
            metrics::set_global_recorder(recorder).map_err(|e| e.to_string())?;
            describe();
            register_at_zero();
            Ok(handle)
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// The metrics in Prometheus' text format, or `None` when [`install`] was
/// never called.
pub fn render() -> Option<String> {
    match HANDLE.get() {
        Some(Ok(handle)) => Some(handle.render()),
        _ => None,
    }
}

/// Folds the samples of histograms into their buckets (rendering does it
/// too; this keeps memory flat when nobody scrapes).
pub fn upkeep() {
    if let Some(Ok(handle)) = HANDLE.get() {
        handle.run_upkeep();
    }
}

/// Every series on `/metrics` from the start, at zero: a series that
/// appears only at its first event cannot be told from a scrape that
/// failed, rates over it are empty instead of zero, and alerts on its
/// absence fire on a healthy site (after real traffic, 9 of the 16 series
/// the docs name had never appeared). Label values from a closed set are
/// registered each; a label whose values are open (a route, an error code,
/// a rule) gets the family's unlabelled series at zero.
fn register_at_zero() {
    for outcome in ["ok", "error", "skipped"] {
        counter!("llm_calls_total", "outcome" => outcome).absolute(0);
    }
    for kind in ["prompt", "completion"] {
        counter!("llm_tokens_total", "kind" => kind).absolute(0);
    }
    for route in ["editor", "follow_up", "choose"] {
        counter!("coach_routes_total", "route" => route).absolute(0);
    }
    for kind in ["new", "edit"] {
        counter!("reviews_written_total", "kind" => kind).absolute(0);
    }
    for outcome in [
        "ok",
        "empty",
        "refused",
        "unreachable",
        "timeout",
        "rejected",
    ] {
        counter!("transcriptions_total", "outcome" => outcome).absolute(0);
    }
    for what in ["review", "turn"] {
        counter!("db_write_failures_total", "what" => what).absolute(0);
    }
    for name in [
        "http_requests_total",
        "http_rate_limited_total",
        "http_panics_total",
        "agent_degraded_total",
        "llm_errors_total",
        "reviews_refused_total",
        "db_connections_discarded_total",
    ] {
        counter!(name).absolute(0);
    }
    for name in [
        "http_request_duration_seconds",
        "agent_turn_duration_seconds",
        "llm_call_duration_seconds",
        "transcription_duration_seconds",
    ] {
        // A histogram's series (`_count`, `_sum`, buckets) exist once it
        // is registered; no sample is recorded.
        let _ = histogram!(name);
    }
    db_pool(0, 0);
}

fn describe() {
    describe_counter!(
        "http_requests_total",
        "HTTP requests answered, by route template and status class"
    );
    describe_histogram!(
        "http_request_duration_seconds",
        metrics::Unit::Seconds,
        "Time to the response's head, by route template"
    );
    describe_counter!(
        "http_panics_total",
        "Handlers that panicked and were answered 500 by the panic guard, by route template"
    );
    describe_counter!(
        "http_rate_limited_total",
        "Requests answered 429 (chat turns, reviews, admin tokens), by route template"
    );
    describe_histogram!(
        "agent_turn_duration_seconds",
        metrics::Unit::Seconds,
        "Agent turns, by planner (embedded or model) and the step that answered"
    );
    describe_counter!(
        "agent_degraded_total",
        "Turns whose model failed and code's own plan answered, by reason"
    );
    describe_counter!(
        "transcriptions_total",
        "Recordings sent to POST /api/v1/transcribe, by outcome (ok, empty, refused, unreachable, timeout, rejected)"
    );
    describe_histogram!(
        "transcription_duration_seconds",
        metrics::Unit::Seconds,
        "The speech recognizer's time per transcribed recording"
    );
    describe_counter!(
        "llm_calls_total",
        "Model calls by outcome (ok, error, skipped: not sent)"
    );
    describe_counter!(
        "llm_errors_total",
        "Failed or skipped model calls, by error code"
    );
    describe_histogram!(
        "llm_call_duration_seconds",
        metrics::Unit::Seconds,
        "Model calls, retries included"
    );
    describe_counter!(
        "llm_tokens_total",
        "Tokens the provider reported, by kind (prompt, completion)"
    );
    describe_counter!(
        "coach_routes_total",
        "Review-coach turns by route (editor, follow_up, choose)"
    );
    describe_counter!(
        "reviews_written_total",
        "Reviews stored, by kind (new, edit)"
    );
    describe_counter!(
        "reviews_refused_total",
        "Reviews refused, by the rule or check that refused them"
    );
    describe_gauge!(
        "db_pool_connections",
        "Open database connections of this instance"
    );
    describe_gauge!("db_pool_idle", "Idle database connections of this instance");
    describe_counter!(
        "db_connections_discarded_total",
        "Connections closed instead of reused because a failed transaction was still open on them"
    );
    describe_counter!(
        "db_write_failures_total",
        "Writes the database refused (disk full, connection lost), by what was written (review, turn)"
    );
}

/// One HTTP request answered: `route` is the matched template
/// (`/api/v1/advisors/{id}`), never the raw path.
pub fn http_request(route: &str, status: u16, elapsed: Duration) {
    let class = match status {
        100..=199 => "1xx",
        200..=299 => "2xx",
        300..=399 => "3xx",
        400..=499 => "4xx",
        _ => "5xx",
    };
    counter!("http_requests_total", "route" => route.to_string(), "status" => class).increment(1);
    histogram!("http_request_duration_seconds", "route" => route.to_string())
        .record(elapsed.as_secs_f64());
    if status == 429 {
        counter!("http_rate_limited_total", "route" => route.to_string()).increment(1);
    }
}

/// A handler panicked on the route `route` (its template) and the panic
/// guard answered 500. Bad input never gets here (it is refused with a
/// 4xx): each count is a bug to read in the log, by the request's id.
pub fn http_panic(route: &str) {
    counter!("http_panics_total", "route" => route.to_string()).increment(1);
}

/// One agent turn: which planner answered it (`embedded` or `model`), the
/// step that decided the reply, and how long it took.
pub fn turn(planner: &'static str, step: &'static str, elapsed: Duration) {
    histogram!("agent_turn_duration_seconds", "planner" => planner, "step" => step)
        .record(elapsed.as_secs_f64());
}

/// A model failed and code's plan answers instead (the reply's `degraded`
/// event), with the failure's code.
pub fn degraded(reason: &str) {
    counter!("agent_degraded_total", "reason" => reason.to_string()).increment(1);
}

/// How a model call ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelCall<'a> {
    /// An answer, with the tokens the provider reported (when it did).
    Answered { prompt: u32, completion: u32 },
    /// Sent and failed, with the error's code.
    Failed(&'a str),
    /// Not sent (breaker open, budget spent), with the error's code.
    NotSent(&'a str),
}

/// One model call (all its attempts) and how long it took.
pub fn model_call(call: ModelCall<'_>, elapsed: Duration) {
    let outcome = match call {
        ModelCall::Answered { prompt, completion } => {
            counter!("llm_tokens_total", "kind" => "prompt").increment(u64::from(prompt));
            counter!("llm_tokens_total", "kind" => "completion").increment(u64::from(completion));
            "ok"
        }
        ModelCall::Failed(code) => {
            counter!("llm_errors_total", "code" => code.to_string()).increment(1);
            "error"
        }
        ModelCall::NotSent(code) => {
            counter!("llm_errors_total", "code" => code.to_string()).increment(1);
            "skipped"
        }
    };
    counter!("llm_calls_total", "outcome" => outcome).increment(1);
    if outcome != "skipped" {
        histogram!("llm_call_duration_seconds").record(elapsed.as_secs_f64());
    }
}

/// The coach's router chose `route` for a turn.
pub fn coach_route(route: &'static str) {
    counter!("coach_routes_total", "route" => route).increment(1);
}

/// A review was stored (`new` or `edit`).
pub fn review_written(kind: &'static str) {
    counter!("reviews_written_total", "kind" => kind).increment(1);
}

/// A review was refused by `rule` (a posting rule's or a check's code:
/// `contains_phone`, `too_short`, `rate_limited`, `duplicate`…).
pub fn review_refused(rule: &str) {
    counter!("reviews_refused_total", "rule" => rule.to_string()).increment(1);
}

/// A recording was transcribed (`ok`, `empty`: nothing heard) or not
/// (`refused`: by the site's limits; `unreachable`, `timeout`,
/// `rejected`: by the recognizer), in `elapsed` (the recognizer's part).
pub fn transcription(outcome: &'static str, elapsed: Duration) {
    counter!("transcriptions_total", "outcome" => outcome).increment(1);
    if outcome == "ok" || outcome == "empty" {
        histogram!("transcription_duration_seconds").record(elapsed.as_secs_f64());
    }
}

/// A connection handed back to the pool still inside a failed transaction
/// was closed instead of reused (`db::reusable`).
pub fn db_connection_discarded() {
    counter!("db_connections_discarded_total").increment(1);
}

/// A write the database refused (full disk, lost connection, timeout),
/// answered 503 or said to the student, by what was being written.
pub fn db_write_failed(what: &'static str) {
    counter!("db_write_failures_total", "what" => what).increment(1);
}

/// The database pool as a scrape finds it.
pub fn db_pool(open: u32, idle: usize) {
    gauge!("db_pool_connections").set(f64::from(open));
    gauge!("db_pool_idle").set(idle as f64);
}

#[cfg(test)]
mod tests {
    use super::*;
    use metrics_exporter_prometheus::PrometheusBuilder;

    /// The calls land under their names and labels (on a recorder of the
    /// test's own, so other tests' counts do not mix in).
    #[test]
    fn each_event_is_counted_under_its_name_and_labels() {
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), SECONDS)
            .unwrap()
            .build_recorder();
        let handle = recorder.handle();
        metrics::with_local_recorder(&recorder, || {
            http_request("/api/v1/advisors/{id}", 200, Duration::from_millis(3));
            http_request("/api/v1/chat", 429, Duration::from_millis(1));
            http_panic("/api/v1/transcribe");
            turn("embedded", "narrate", Duration::from_millis(40));
            model_call(
                ModelCall::Answered {
                    prompt: 100,
                    completion: 20,
                },
                Duration::from_millis(900),
            );
            model_call(
                ModelCall::Failed("upstream_timeout"),
                Duration::from_secs(6),
            );
            model_call(ModelCall::NotSent("upstream_skipped"), Duration::ZERO);
            degraded("upstream_timeout");
            coach_route("follow_up");
            review_written("new");
            review_refused("contains_phone");
            db_pool(3, 2);
            transcription("ok", Duration::from_millis(1500));
            transcription("unreachable", Duration::ZERO);
        });
        let text = handle.render();
        for line in [
            r#"http_requests_total{route="/api/v1/advisors/{id}",status="2xx"} 1"#,
            r#"http_requests_total{route="/api/v1/chat",status="4xx"} 1"#,
            r#"http_rate_limited_total{route="/api/v1/chat"} 1"#,
            r#"http_panics_total{route="/api/v1/transcribe"} 1"#,
            r#"agent_turn_duration_seconds_bucket{planner="embedded",step="narrate",le="0.05"} 1"#,
            r#"llm_calls_total{outcome="ok"} 1"#,
            r#"llm_calls_total{outcome="error"} 1"#,
            r#"llm_calls_total{outcome="skipped"} 1"#,
            r#"llm_errors_total{code="upstream_skipped"} 1"#,
            r#"llm_tokens_total{kind="prompt"} 100"#,
            r#"llm_call_duration_seconds_count 2"#,
            r#"agent_degraded_total{reason="upstream_timeout"} 1"#,
            r#"coach_routes_total{route="follow_up"} 1"#,
            r#"reviews_written_total{kind="new"} 1"#,
            r#"reviews_refused_total{rule="contains_phone"} 1"#,
            "db_pool_connections 3",
            "db_pool_idle 2",
            r#"transcriptions_total{outcome="ok"} 1"#,
            r#"transcriptions_total{outcome="unreachable"} 1"#,
            "transcription_duration_seconds_count 1",
        ] {
            assert!(text.contains(line), "missing {line} in\n{text}");
        }
    }
}
