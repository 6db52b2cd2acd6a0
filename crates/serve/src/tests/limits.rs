//! The server's limits, with small values so that they show in a moment:
//! a client that sends no request within the idle time is dropped (before
//! its first request or after an answer), so is
//! one that sends headers larger than the limit, and a connection past the
//! connection limit is closed at once while those before it are answered.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::{serve, ServedRun, ServerLimits};

/// A server over an empty directory with `limits`, on its own thread.
fn start(limits: ServerLimits) -> (SocketAddr, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let run = Arc::new(ServedRun::new(&[dir.path().to_path_buf()]).unwrap());
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            let site = crate::Site {
                runs: vec![run],
                play: None,
                submit: None,
            };
            serve(listener, site, limits).await;
        });
    });
    (addr, dir)
}

/// What the server sends on `stream` until it closes it (5 s at most).
fn until_closed(stream: &mut TcpStream) -> String {
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

fn status_request(stream: &mut TcpStream) {
    stream
        .write_all(b"GET /_live/status HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
}

#[test]
fn an_idle_client_is_dropped() {
    let (addr, _dir) = start(ServerLimits {
        idle: Duration::from_millis(300),
        ..ServerLimits::default()
    });
    let mut idle = TcpStream::connect(addr).unwrap();
    let started = Instant::now();
    until_closed(&mut idle);
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(250) && waited < Duration::from_secs(3),
        "closed after {waited:?}"
    );
    // Half a request is no better.
    let mut slow = TcpStream::connect(addr).unwrap();
    slow.write_all(b"GET / HTTP/1.1\r\nHost").unwrap();
    let started = Instant::now();
    until_closed(&mut slow);
    assert!(started.elapsed() < Duration::from_secs(3));
    // Nor is a kept-alive connection after its answer.
    let mut kept = TcpStream::connect(addr).unwrap();
    kept.write_all(b"GET /_live/status HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let started = Instant::now();
    let answer = until_closed(&mut kept);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn headers_past_the_limit_are_refused() {
    let (addr, _dir) = start(ServerLimits {
        request_bytes: 8192,
        ..ServerLimits::default()
    });
    let mut stream = TcpStream::connect(addr).unwrap();
    let big = "x".repeat(20_000);
    let _ = write!(stream, "GET / HTTP/1.1\r\nHost: x\r\nX-Big: {big}\r\n\r\n");
    let answer = until_closed(&mut stream);
    assert!(!answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[test]
fn connections_past_the_limit_are_closed_at_once() {
    let (addr, _dir) = start(ServerLimits {
        connections: 2,
        ..ServerLimits::default()
    });
    let held: Vec<TcpStream> = (0..2).map(|_| TcpStream::connect(addr).unwrap()).collect();
    std::thread::sleep(Duration::from_millis(200));
    let mut third = TcpStream::connect(addr).unwrap();
    let started = Instant::now();
    assert_eq!(until_closed(&mut third), "");
    assert!(started.elapsed() < Duration::from_secs(2));
    // Once the held ones go, a request is answered again.
    drop(held);
    std::thread::sleep(Duration::from_millis(200));
    let mut stream = TcpStream::connect(addr).unwrap();
    status_request(&mut stream);
    let answer = until_closed(&mut stream);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\"games\":0"), "{answer}");
}
