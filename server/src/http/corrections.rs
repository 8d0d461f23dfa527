//! The correction form's target, `POST /correction`, without JavaScript: a
//! plain POST answered with a redirect — to `/correction?sent=1` once the
//! request is stored for the admin (`crate::reviews::correction`), or back
//! to the form with a short-lived draft of what was typed and each field's
//! error (`?draft=`), as the review form is answered. Never a JSON error
//! for bad input: the one reading the answer is a person in a browser.

use std::sync::Arc;

use axum::extract::rejection::FormRejection;
use axum::extract::{Form, State};
use axum::handler::Handler;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::post;
use axum::Router;

use app::model::correction::CorrectionInput;

use super::client::ClientId;
use super::security::{limit, CORRECTION_BODY};
use super::JsonError;
use crate::reviews::correction;
use crate::site::Site;

/// Page routes: the form's target.
pub fn pages(site: Arc<Site>) -> Router {
    Router::new()
        .route(
            "/correction",
            post(correction_post.layer(limit(CORRECTION_BODY))),
        )
        .with_state(site)
}

async fn correction_post(
    State(site): State<Arc<Site>>,
    client: ClientId,
    form: Result<Form<Vec<(String, String)>>, FormRejection>,
) -> Response {
    let (input, mut errors) = match form {
        Ok(Form(fields)) => {
            let input = correction::clean(correction::from_fields(&fields));
            let errors = correction::validate(&input);
            (input, errors)
        }
        Err(rejection) => {
            let message = if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                "提交的内容太长了，请删减后再提交。"
            } else {
                "提交的表单无法读取，请在本页重新填写后提交。"
            };
            (
                CorrectionInput::default(),
                vec![("form".to_string(), message.to_string())],
            )
        }
    };
    if errors.is_empty() {
        match correction::submit(&site, input.clone(), &client.key).await {
            Ok(_) => return Redirect::to("/correction?sent=1").into_response(),
            Err(e) if e.status < 500 => errors.push((
                e.info.field.clone().unwrap_or_else(|| "form".into()),
                e.info.message,
            )),
            Err(e) => return JsonError(e).into_response(),
        }
    }
    match correction::keep_draft(&site, &input, errors).await {
        Ok(draft) => {
            Redirect::to(&format!("/correction?draft={draft}#correction-form")).into_response()
        }
        Err(e) => JsonError(e).into_response(),
    }
}
