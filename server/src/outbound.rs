//! Answers from the services the server calls (the language model, the
//! speech recognizer) read with a bound. Their bodies are bytes from
//! outside: a `Content-Length` can lie or be absent, and a service that
//! misbehaves can send without end, so the bytes are counted as they come
//! and reading stops at the caller's limit instead of holding whatever
//! arrives in memory. Both clients read through here so that neither can
//! forget the bound.

/// At most `limit` bytes of a body, and whether that was all of it.
pub async fn read_up_to(
    mut response: reqwest::Response,
    limit: usize,
) -> Result<(Vec<u8>, bool), reqwest::Error> {
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await? {
        let room = limit - body.len();
        if chunk.len() > room {
            body.extend_from_slice(&chunk[..room]);
            return Ok((body, false));
        }
        body.extend_from_slice(&chunk);
    }
    Ok((body, true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loopback::{ephemeral, Served};
    use axum::body::Body;
    use axum::routing::get;
    use axum::Router;

    /// A body sent in many chunks with no length announced is cut at the
    /// limit and said to be cut; one that fits is read whole.
    #[tokio::test]
    async fn a_body_is_read_up_to_the_limit_however_it_comes() {
        let app = Router::new()
            .route(
                "/flood",
                get(|| async {
                    let chunks = (0..64).map(|_| Ok::<_, std::io::Error>(vec![b'x'; 1000]));
                    Body::from_stream(tokio_stream::iter(chunks))
                }),
            )
            .route("/small", get(|| async { "你好" }));
        let served = Served::on(ephemeral().await.unwrap(), app);
        let http = reqwest::Client::new();
        let get = |path: &str| http.get(format!("http://{}{path}", served.addr())).send();

        let (bytes, whole) = read_up_to(get("/flood").await.unwrap(), 10_500)
            .await
            .unwrap();
        assert_eq!((bytes.len(), whole), (10_500, false));
        let (bytes, whole) = read_up_to(get("/small").await.unwrap(), 6).await.unwrap();
        assert_eq!((bytes, whole), ("你好".as_bytes().to_vec(), true));
    }
}
