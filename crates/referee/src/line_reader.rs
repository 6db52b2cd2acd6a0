//! Reading `\n`-terminated lines from an untrusted stream with a hard size
//! cap.
//!
//! Memory stays bounded whatever the bot writes: at most `max_line` bytes
//! plus one read chunk are buffered. A line longer than the cap is reported
//! as [`ReadLine::TooLong`] as soon as the cap is passed (the referee does not
//! wait for the end of an endless line), and the rest of it is discarded
//! chunk by chunk as later reads come across it.
//!
//! Lines a bot writes before it is asked stay in the pipe and this buffer
//! until the referee reads them, so the referee sees them, in order, as the
//! next lines (and can call them a protocol error). A bot that floods stdout
//! fills the OS pipe and then blocks in its own write: the flood costs the
//! referee no memory.
//!
//! Every method is cancel-safe: the reads go through [`LineReader::fill`],
//! which either appends a chunk to the buffer or reads nothing, so a read
//! interrupted by a timeout or `select!` loses no data.

use std::os::fd::{AsFd, BorrowedFd};

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::time::Instant;

/// Default maximum line length (the protocol's 64 KiB).
pub const DEFAULT_MAX_LINE: usize = 64 * 1024;

const CHUNK: usize = 16 * 1024;

/// What one attempt to read a line produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadLine {
    /// One line, without its `\n` (and without a `\r` before it).
    Line(Vec<u8>),
    /// The deadline passed before a whole line arrived.
    Timeout,
    /// The line exceeds the maximum length; it is being discarded.
    TooLong,
    /// No more lines will come: the stream ended (an unterminated last
    /// line is dropped), or the bot process exited.
    Eof,
}

pub struct LineReader<R> {
    inner: R,
    buf: Vec<u8>,
    max_line: usize,
    /// Inside an over-long line: drop bytes up to the next `\n`.
    discarding: bool,
    /// Where each read lands before it is appended to `buf`. Kept here,
    /// zeroed once: a fresh array per read meant a 16 KiB memset on every
    /// read and every non-waiting poll, the largest single cost per move.
    chunk: Box<[u8]>,
    eof: bool,
}

impl<R> std::fmt::Debug for LineReader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LineReader")
            .field("buffered", &self.buf.len())
            .field("max_line", &self.max_line)
            .field("discarding", &self.discarding)
            .field("eof", &self.eof)
            .finish_non_exhaustive()
    }
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    pub fn new(inner: R, max_line: usize) -> LineReader<R> {
        LineReader {
            inner,
            buf: Vec::new(),
            max_line,
            discarding: false,
            chunk: vec![0u8; CHUNK].into_boxed_slice(),
            eof: false,
        }
    }

    /// Reads one line, waiting until `deadline` at most.
    pub async fn read_line(&mut self, deadline: Instant) -> ReadLine {
        loop {
            if let Some(done) = self.take_buffered() {
                return done;
            }
            if self.eof {
                return ReadLine::Eof;
            }
            if tokio::time::timeout_at(deadline, self.fill())
                .await
                .is_err()
            {
                return ReadLine::Timeout;
            }
        }
    }

    /// Returns a complete line (or an over-long one) already in the buffer.
    pub fn take_buffered(&mut self) -> Option<ReadLine> {
        loop {
            let newline = self.buf.iter().position(|&b| b == b'\n');
            if self.discarding {
                match newline {
                    Some(pos) => {
                        self.buf.drain(..=pos);
                        self.discarding = false;
                        continue;
                    }
                    None => {
                        self.buf.clear();
                        return None;
                    }
                }
            }
            return match newline {
                Some(pos) if pos > self.max_line => {
                    self.buf.drain(..=pos);
                    Some(ReadLine::TooLong)
                }
                Some(pos) => {
                    let mut line: Vec<u8> = self.buf.drain(..=pos).collect();
                    line.pop();
                    if line.last() == Some(&b'\r') {
                        line.pop();
                    }
                    Some(ReadLine::Line(line))
                }
                None if self.buf.len() > self.max_line => {
                    self.buf.clear();
                    self.discarding = true;
                    Some(ReadLine::TooLong)
                }
                None => None,
            };
        }
    }

    /// Reads one chunk into the buffer. Cancel-safe. Returns the number of
    /// bytes read; 0 means end of stream (read errors count as the end too:
    /// a broken pipe is a disconnected bot either way).
    pub async fn fill(&mut self) -> usize {
        if self.eof {
            return 0;
        }
        match self.inner.read(&mut self.chunk).await {
            Ok(0) | Err(_) => {
                self.eof = true;
                0
            }
            Ok(n) => {
                self.buf.extend_from_slice(&self.chunk[..n]);
                n
            }
        }
    }

    pub fn at_eof(&self) -> bool {
        self.eof
    }

    /// Bytes buffered but not yet returned as lines.
    pub fn buffered_len(&self) -> usize {
        self.buf.len()
    }
}

impl<R: AsFd> LineReader<R> {
    /// The descriptor read from, for [`super::direct_io`].
    pub fn fd(&self) -> BorrowedFd<'_> {
        self.inner.as_fd()
    }

    /// [`LineReader::fill`] without the runtime: one nonblocking read
    /// straight from the descriptor, which takes what is there now
    /// ([`super::direct_io`]). `None` when nothing was there.
    pub fn fill_now(&mut self) -> Option<usize> {
        if self.eof {
            return Some(0);
        }
        match super::direct_io::read_now(self.inner.as_fd(), &mut self.chunk) {
            Ok(0) => {}
            Ok(n) => {
                self.buf.extend_from_slice(&self.chunk[..n]);
                return Some(n);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return None,
            // As in `fill`: a broken pipe is a disconnected bot.
            Err(_) => {}
        }
        self.eof = true;
        Some(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use tokio::io::AsyncWriteExt;

    fn soon() -> Instant {
        Instant::now() + Duration::from_millis(200)
    }

    #[tokio::test]
    async fn splits_lines_and_strips_crlf() {
        let (mut w, r) = tokio::io::duplex(1024);
        let mut reader = LineReader::new(r, 100);
        w.write_all(b"one\r\ntwo\n\nthree").await.unwrap();
        drop(w);
        assert_eq!(
            reader.read_line(soon()).await,
            ReadLine::Line(b"one".to_vec())
        );
        assert_eq!(
            reader.read_line(soon()).await,
            ReadLine::Line(b"two".to_vec())
        );
        assert_eq!(reader.read_line(soon()).await, ReadLine::Line(vec![]));
        // An unterminated last line is dropped.
        assert_eq!(reader.read_line(soon()).await, ReadLine::Eof);
        assert_eq!(reader.read_line(soon()).await, ReadLine::Eof);
    }

    #[tokio::test]
    async fn times_out_and_keeps_partial_data() {
        let (mut w, r) = tokio::io::duplex(1024);
        let mut reader = LineReader::new(r, 100);
        w.write_all(b"par").await.unwrap();
        let deadline = Instant::now() + Duration::from_millis(30);
        assert_eq!(reader.read_line(deadline).await, ReadLine::Timeout);
        w.write_all(b"tial\n").await.unwrap();
        assert_eq!(
            reader.read_line(soon()).await,
            ReadLine::Line(b"partial".to_vec())
        );
    }

    #[tokio::test]
    async fn exactly_max_line_is_accepted_one_more_is_not() {
        let (mut w, r) = tokio::io::duplex(1024);
        let mut reader = LineReader::new(r, 10);
        w.write_all(b"0123456789\n0123456789A\nok\n").await.unwrap();
        assert_eq!(
            reader.read_line(soon()).await,
            ReadLine::Line(b"0123456789".to_vec())
        );
        assert_eq!(reader.read_line(soon()).await, ReadLine::TooLong);
        assert_eq!(
            reader.read_line(soon()).await,
            ReadLine::Line(b"ok".to_vec())
        );
    }

    #[tokio::test]
    async fn endless_line_is_reported_early_and_discarded_with_bounded_memory() {
        let (mut w, r) = tokio::io::duplex(64 * 1024);
        let mut reader = LineReader::new(r, 1000);
        let writer = tokio::spawn(async move {
            let block = vec![b'z'; 64 * 1024];
            for _ in 0..160 {
                w.write_all(&block).await.unwrap();
            }
            w.write_all(b"\nafter\n").await.unwrap();
        });
        // Reported before the 10 MB line is complete.
        assert_eq!(reader.read_line(soon()).await, ReadLine::TooLong);
        assert!(!writer.is_finished());
        let mut max_buffered = 0;
        let line = loop {
            match reader.take_buffered() {
                Some(ReadLine::Line(l)) => break l,
                Some(other) => panic!("unexpected {other:?}"),
                None => {}
            }
            assert!(reader.fill().await > 0, "stream ended early");
            max_buffered = max_buffered.max(reader.buffered_len());
        };
        assert_eq!(line, b"after");
        assert!(max_buffered <= 1000 + CHUNK);
        writer.await.unwrap();
    }

    #[tokio::test]
    async fn cancelled_reads_lose_nothing() {
        let (mut w, r) = tokio::io::duplex(16);
        let mut reader = LineReader::new(r, 1000);
        let writer = tokio::spawn(async move {
            for i in 0..50 {
                w.write_all(format!("line {i}\n").as_bytes()).await.unwrap();
                tokio::task::yield_now().await;
            }
        });
        let mut got = Vec::new();
        while got.len() < 50 {
            // A deadline so short most attempts are cut off mid-line.
            match reader
                .read_line(Instant::now() + Duration::from_micros(50))
                .await
            {
                ReadLine::Line(l) => got.push(String::from_utf8(l).unwrap()),
                ReadLine::Timeout => {}
                other => panic!("unexpected {other:?}"),
            }
        }
        writer.await.unwrap();
        let want: Vec<String> = (0..50).map(|i| format!("line {i}")).collect();
        assert_eq!(got, want);
    }
}
