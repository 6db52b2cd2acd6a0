//! [`TextBuf`]: a small fixed-size text buffer for the writers on the
//! referee's per-move path (legal moves, state), which assemble short
//! pieces of notation and JSON without a formatter.
//!
//! Pushing many tiny pieces onto a `String` costs a capacity check and a
//! `memcpy` call each; here the pieces are copied into a stack array
//! (constant-size copies, inlined) and the result is appended at once.

/// Up to `N` bytes of text, built piece by piece on the stack.
#[derive(Debug, Clone, Copy)]
pub struct TextBuf<const N: usize> {
    /// `bytes[..len]` is the text: `&str` pieces and ASCII bytes, so UTF-8;
    /// the bytes after it are padding.
    bytes: [u8; N],
    len: usize,
}

impl<const N: usize> Default for TextBuf<N> {
    fn default() -> Self {
        TextBuf {
            bytes: [0; N],
            len: 0,
        }
    }
}

impl<const N: usize> TextBuf<N> {
    /// The first `len` of `bytes`, which must all be ASCII (the rest is
    /// padding); panics otherwise. A `const fn` for tables of texts built at
    /// compile time (where the check costs nothing at run time).
    pub const fn from_ascii(bytes: [u8; N], len: usize) -> Self {
        assert!(len <= N, "TextBuf length beyond its size");
        let mut i = 0;
        while i < N {
            assert!(bytes[i].is_ascii(), "TextBuf takes ASCII bytes only");
            i += 1;
        }
        TextBuf { bytes, len }
    }

    /// Appends `text`; panics if it does not fit (callers size `N` for the
    /// longest text they write).
    #[inline]
    pub fn push_str(&mut self, text: &str) {
        self.put(text.as_bytes());
    }

    /// Appends ASCII bytes (a cell name, a digit); panics on any other byte.
    #[inline(always)]
    pub fn push_ascii<const K: usize>(&mut self, bytes: [u8; K]) {
        assert!(bytes.is_ascii(), "TextBuf takes ASCII bytes only");
        self.put(&bytes);
    }

    /// Appends `text`. All `K` bytes of its buffer are copied, a copy of
    /// constant size, and the padding is overwritten by what follows: short
    /// texts of different lengths from a table cost the same few moves.
    #[inline(always)]
    pub fn push_text<const K: usize>(&mut self, text: &TextBuf<K>) {
        self.bytes[self.len..self.len + K].copy_from_slice(&text.bytes);
        self.len += text.len;
    }

    #[inline(always)]
    fn put(&mut self, bytes: &[u8]) {
        self.bytes[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn as_str(&self) -> &str {
        // SAFETY: `bytes[..len]` is a concatenation of `&str`s and ASCII
        // bytes (the only things the constructors and `push_*` write), so
        // it is UTF-8.
        unsafe { std::str::from_utf8_unchecked(&self.bytes[..self.len]) }
    }

    /// Appends the text to `out`. All `N` bytes are copied and the unused
    /// tail cut off again: a copy of constant size compiles to a few moves,
    /// one of the text's length to a `memcpy` call that costs more than
    /// the short texts this is for.
    #[inline]
    pub fn append_to(&self, out: &mut String) {
        // SAFETY: the bytes after `len` are copied too but cut off again
        // before the borrow of the vector ends (`as_mut_vec` needs valid
        // UTF-8 only then); what stays is `out` followed by `as_str()`.
        let vec = unsafe { out.as_mut_vec() };
        vec.extend_from_slice(&self.bytes);
        vec.truncate(vec.len() - (N - self.len));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appends_exactly_the_pieces() {
        let mut buf = TextBuf::<16>::default();
        buf.push_str("capture ");
        buf.push_ascii([b'c', b'3']);
        buf.push_str(" é");
        assert_eq!(buf.as_str(), "capture c3 é");
        let mut out = String::from("x,");
        buf.append_to(&mut out);
        assert_eq!(out, "x,capture c3 é");
        assert_eq!(out.len(), 2 + buf.len());
        TextBuf::<4>::default().append_to(&mut out);
        assert_eq!(out, "x,capture c3 é");

        assert_eq!(TextBuf::from_ascii(*b"c3??", 2).as_str(), "c3");
        let mut joined = TextBuf::<8>::default();
        joined.push_text(&TextBuf::from_ascii(*b"ab??", 2));
        joined.push_text(&TextBuf::from_ascii(*b"cd!?", 3));
        assert_eq!(joined.as_str(), "abcd!");
        let mut out = String::new();
        joined.append_to(&mut out);
        assert_eq!(out, "abcd!");
    }

    #[test]
    #[should_panic(expected = "ASCII")]
    fn refuses_bytes_that_are_not_ascii() {
        TextBuf::<4>::default().push_ascii([0xc3]);
    }

    #[test]
    #[should_panic(expected = "ASCII")]
    fn refuses_buffers_that_are_not_ascii() {
        // Padding included: `from_ascii` builds tables whose texts are
        // later copied whole.
        TextBuf::from_ascii([b'a', 0xc3], 1);
    }
}
