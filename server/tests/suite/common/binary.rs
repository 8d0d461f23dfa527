//! The real `server` binary as a child process (the crash and shutdown
//! tests): a free port, the command started, and the wait for `/healthz`.

use std::process::{Child, Command};
use std::time::{Duration, Instant};

/// A running binary, killed when dropped.
pub struct Server {
    pub child: Child,
    pub base: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A port nobody listens on now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Starts `command` (the binary, told to listen on `port`) and waits until
/// it answers `/healthz`, for two minutes at most.
pub async fn start(mut command: Command, port: u16) -> Server {
    let child = command.spawn().expect("start the server binary");
    let server = Server {
        child,
        base: format!("http://127.0.0.1:{port}"),
    };
    let client = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if let Ok(r) = client.get(format!("{}/healthz", server.base)).send().await {
            if r.status().is_success() {
                return server;
            }
        }
        assert!(Instant::now() < deadline, "the server did not come up");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
