//! A running `arena serve` for the tests of the live page (part of the one
//! test harness, `tests/common`): started on a free port, asked over plain
//! HTTP/1.1 on its own connections.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Stdio};
use std::time::Duration;

use super::arena;

/// A running `arena serve`, ended when dropped.
pub struct Server {
    child: Child,
    /// The first line it printed.
    pub first: String,
    /// Its second line.
    pub second: String,
    pub addr: SocketAddr,
}

impl Server {
    /// `arena serve ARGS`.
    pub fn start(args: &[&str]) -> Server {
        Server::run(&[&["serve"], args].concat())
    }

    /// `arena ARGS`, a command that serves a page (its first line says where).
    pub fn run(args: &[&str]) -> Server {
        let mut child = arena()
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start arena serve");
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let (mut first, mut second) = (String::new(), String::new());
        out.read_line(&mut first).unwrap();
        out.read_line(&mut second).unwrap();
        // The rest of what it prints is read (and dropped) by a thread.
        std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
        let addr = first
            .trim_end()
            .strip_prefix("Serving http://")
            .and_then(|a| a.strip_suffix('/'))
            .unwrap_or_else(|| panic!("first line: {first:?}"))
            .parse()
            .unwrap();
        Server {
            child,
            first,
            second,
            addr,
        }
    }

    /// `GET path` on a connection of its own: (status, body).
    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// (name, nice value) of each of its threads.
    pub fn thread_priorities(&self) -> Vec<(String, i64)> {
        let tasks = format!("/proc/{}/task", self.child.id());
        std::fs::read_dir(tasks)
            .unwrap()
            .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("stat")).ok())
            .map(|stat| {
                let open = stat.find('(').unwrap();
                let close = stat.rfind(')').unwrap();
                let name = stat[open + 1..close].to_string();
                // Fields after the name: state is field 3, nice field 19.
                let nice = stat[close + 2..]
                    .split(' ')
                    .nth(16)
                    .unwrap()
                    .parse()
                    .unwrap();
                (name, nice)
            })
            .collect()
    }

    /// Waits for the command to end (`limit` at most): its exit status.
    pub fn wait(&mut self, limit: Duration) -> std::process::ExitStatus {
        let end = std::time::Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                std::time::Instant::now() < end,
                "did not end within {limit:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn get(&self, path: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).unwrap();
        let answer = String::from_utf8_lossy(&answer).into_owned();
        let code = answer[9..12].parse().unwrap();
        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        let body = if head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            unchunk(body)
        } else {
            body.to_string()
        };
        (code, body)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A chunked body's content.
fn unchunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap();
        if size == 0 {
            break;
        }
        out.push_str(&rest[..size]);
        body = &rest[size + 2..];
    }
    out
}
