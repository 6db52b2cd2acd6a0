//! What a live page learns from `_live/update?from=N` (the page without
//! the N games it has), shared by the benches that act as live pages.

/// The games a page has after reading `answer`, the raw HTTP answer to
/// its update: the `x-arena-from` games it had plus the game lines added.
pub fn games_after_update(answer: &[u8]) -> usize {
    let text = String::from_utf8_lossy(answer);
    let from: usize = text
        .lines()
        .find_map(|l| l.strip_prefix("x-arena-from: "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0);
    let open = "<script id=\"game-lines\" type=\"text/plain\">\n";
    let added = text
        .split_once(open)
        .and_then(|(_, rest)| rest.split_once("</script>"))
        .map_or(0, |(lines, _)| lines.matches('\n').count());
    from + added
}
