//! A router served on a listener of its own, in the background, until the
//! value is dropped: the scripted stand-ins for a language model
//! (`llm::scripted`) and a speech recognizer (`transcribe::scripted`) run
//! this way in tests and behind the `mock-llm` / `mock-asr` commands.

use std::net::SocketAddr;

use axum::Router;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// A serving router; it stops when dropped.
pub struct Served {
    addr: SocketAddr,
    task: JoinHandle<()>,
}

/// A listener on an ephemeral loopback port.
pub async fn ephemeral() -> std::io::Result<TcpListener> {
    TcpListener::bind("127.0.0.1:0").await
}

impl Served {
    /// Serves `app` on `listener` in a task of its own.
    pub fn on(listener: TcpListener, app: Router) -> Served {
        let addr = listener
            .local_addr()
            .expect("a bound listener has an address");
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Served { addr, task }
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Runs until the server fails or the process gets Ctrl-C (the
    /// command line).
    pub async fn until_stopped(&mut self) {
        tokio::select! {
            _ = &mut self.task => {}
            _ = tokio::signal::ctrl_c() => {}
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        self.task.abort();
    }
}
