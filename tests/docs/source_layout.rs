//! The source tree's maps tell the truth and its files import one way:
//! every `pub mod` of a crate root or `mod.rs` is named in that file's
//! `//!` map, and inside each crate no two files import each other, directly
//! or through others (the reference engine's search aside, as the issue
//! that asked for this allows). Read from the sources as text, so it needs
//! no build of what it checks.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The workspace root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Each crate's `src` directory, with its name (the Python package's
/// native module, `python/src`, among them).
fn crates() -> Vec<(String, PathBuf)> {
    let mut out = vec![
        ("arena".to_string(), root().join("src")),
        ("python".to_string(), root().join("python/src")),
    ];
    for parent in ["crates", "bots"] {
        for entry in std::fs::read_dir(root().join(parent)).unwrap().flatten() {
            let src = entry.path().join("src");
            if src.join("lib.rs").exists() || src.join("main.rs").exists() {
                out.push((entry.file_name().to_string_lossy().into_owned(), src));
            }
        }
    }
    out.sort();
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without its `#[cfg(test)]` modules (at the end of a
/// file by this project's habit) and without comments.
fn code(text: &str) -> String {
    let end = text.find("#[cfg(test)]\nmod ").unwrap_or(text.len());
    text[..end]
        .lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `pub mod NAME;` declarations of a file.
fn declared_modules(text: &str, public_only: bool) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            let rest = l
                .strip_prefix("pub mod ")
                .or_else(|| (!public_only).then(|| l.strip_prefix("mod ")).flatten())?;
            let name = rest.strip_suffix(';')?;
            Some(name.trim().to_string())
        })
        .collect()
}

#[test]
fn every_crate_map_names_each_of_its_public_modules() {
    let mut missing = Vec::new();
    for (_, src) in crates() {
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        for file in files {
            let name = file.file_name().unwrap().to_string_lossy();
            if name != "lib.rs" && name != "mod.rs" {
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap();
            let map: String = text
                .lines()
                .filter_map(|l| l.trim_start().strip_prefix("//!"))
                .collect::<Vec<_>>()
                .join("\n");
            for module in declared_modules(&text, true) {
                if !map.contains(&format!("`{module}`")) && !map.contains(&format!("`{module}::")) {
                    missing.push(format!("{}: pub mod {module}", file.display()));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "modules missing from their file's //! map:\n{}",
        missing.join("\n")
    );
}

/// One file of a crate: its module path (`["settings", "defs"]`) and code.
struct SourceFile {
    module: Vec<String>,
    /// A `lib.rs`, `main.rs` or `mod.rs`: `super` is its parent's parent.
    is_dir_module: bool,
    code: String,
}

fn source_files(src: &Path) -> Vec<(PathBuf, SourceFile)> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut out = Vec::new();
    for file in files {
        let relative = file.strip_prefix(src).unwrap();
        // Binaries and their helpers are crates of their own.
        if relative.starts_with("bin") {
            continue;
        }
        let mut module: Vec<String> = relative
            .with_extension("")
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let last = module.last().cloned().unwrap_or_default();
        let is_dir_module = matches!(last.as_str(), "lib" | "main" | "mod");
        if is_dir_module {
            module.pop();
        }
        let text = std::fs::read_to_string(&file).unwrap();
        out.push((
            file,
            SourceFile {
                module,
                is_dir_module,
                code: code(&text),
            },
        ));
    }
    out
}

/// The paths a piece of code names from `crate::`, `super::` or `self::`,
/// `use` trees expanded (`use a::{b, c::d}` is `a::b` and `a::c::d`).
fn named_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        let starts_word = i == 0 || !(bytes[i - 1].is_alphanumeric() || bytes[i - 1] == '_');
        let rest: String = bytes[i..bytes.len().min(i + 7)].iter().collect();
        if starts_word
            && (rest.starts_with("crate::")
                || rest.starts_with("super::")
                || rest.starts_with("self::"))
        {
            let (paths, end) = path_tree(&bytes, i);
            out.extend(paths);
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

/// The paths of the path or use tree at `i`, and where it ends.
fn path_tree(chars: &[char], mut i: usize) -> (Vec<String>, usize) {
    let mut prefix = String::new();
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphanumeric() || c == '_' || c == ':' {
            prefix.push(c);
            i += 1;
        } else if c == '{' && prefix.ends_with("::") {
            let mut paths = Vec::new();
            i += 1;
            loop {
                while i < chars.len() && (chars[i].is_whitespace() || chars[i] == ',') {
                    i += 1;
                }
                if i >= chars.len() || chars[i] == '}' {
                    i += 1;
                    break;
                }
                let (inner, end) = path_tree(chars, i);
                paths.extend(inner.into_iter().map(|p| format!("{prefix}{p}")));
                if end == i {
                    i += 1;
                } else {
                    i = end;
                }
            }
            return (paths, i);
        } else {
            break;
        }
    }
    let path = prefix.trim_end_matches(':').to_string();
    (vec![path], i)
}

/// The file a path from `from` lands in: the deepest module file on it,
/// following a module's `pub use` re-exports.
fn resolve(
    path: &str,
    from: &SourceFile,
    modules: &BTreeMap<Vec<String>, usize>,
    reexports: &BTreeMap<(Vec<String>, String), String>,
    depth: u32,
) -> Option<Vec<String>> {
    let mut segments = path.split("::").filter(|s| !s.is_empty());
    let mut module: Vec<String> = match segments.next()? {
        "crate" => Vec::new(),
        "self" => from.module.clone(),
        "super" => {
            let mut m = from.module.clone();
            if !from.is_dir_module || !m.is_empty() {
                m.pop();
            }
            m
        }
        _ => return None,
    };
    let rest: Vec<&str> = segments.collect();
    for (k, segment) in rest.iter().enumerate() {
        if *segment == "super" {
            module.pop();
            continue;
        }
        let mut child = module.clone();
        child.push(segment.to_string());
        if modules.contains_key(&child) {
            module = child;
            continue;
        }
        if let Some(target) = reexports.get(&(module.clone(), segment.to_string())) {
            if depth < 8 {
                let owner = SourceFile {
                    module: module.clone(),
                    is_dir_module: true,
                    code: String::new(),
                };
                let tail = rest[k + 1..].join("::");
                let full = if tail.is_empty() {
                    target.clone()
                } else {
                    format!("{target}::{tail}")
                };
                return resolve(&full, &owner, modules, reexports, depth + 1);
            }
        }
        break;
    }
    Some(module)
}

/// The circles among one crate's files: each a list of files importing one
/// another (named relative to `base`), from the file-level graph of the
/// paths each file names.
fn import_circles(src: &Path, base: &Path) -> Vec<Vec<String>> {
    let files = source_files(src);
    let modules: BTreeMap<Vec<String>, usize> = files
        .iter()
        .enumerate()
        .map(|(i, (_, f))| (f.module.clone(), i))
        .collect();
    let mut reexports = BTreeMap::new();
    for (_, f) in &files {
        for line in f.code.split(';') {
            let line = line.trim();
            let Some(tree) = line
                .strip_prefix("pub use ")
                .or_else(|| line.strip_prefix("pub(crate) use "))
            else {
                continue;
            };
            let tree = if tree.starts_with("crate::")
                || tree.starts_with("super::")
                || tree.starts_with("self::")
            {
                tree.to_string()
            } else {
                format!("self::{tree}")
            };
            for path in named_paths(&tree) {
                let absolute = match resolve_prefix(&path, f) {
                    Some(p) => p,
                    None => continue,
                };
                let name = path.rsplit("::").next().unwrap().to_string();
                reexports.insert((f.module.clone(), name), absolute);
            }
        }
    }
    let mut edges: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); files.len()];
    for (i, (_, f)) in files.iter().enumerate() {
        for path in named_paths(&f.code) {
            if let Some(target) = resolve(&path, f, &modules, &reexports, 0) {
                if let Some(&j) = modules.get(&target) {
                    // A module's own declaring file names it (`mod x;`) and
                    // may re-export it: a parent's map, not an import.
                    if j != i && !is_ancestor(&f.module, &target) {
                        edges[i].insert(j);
                    }
                }
            }
        }
    }
    strongly_connected(&edges)
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|c| {
            let mut names: Vec<String> = c
                .iter()
                .map(|&i| files[i].0.strip_prefix(base).unwrap().display().to_string())
                .collect();
            names.sort();
            names
        })
        .collect()
}

/// `path` written from `f` as an absolute `crate::` path.
fn resolve_prefix(path: &str, f: &SourceFile) -> Option<String> {
    let mut segments: Vec<&str> = path.split("::").collect();
    let mut module: Vec<String> = match *segments.first()? {
        "crate" => Vec::new(),
        "self" => f.module.clone(),
        "super" => {
            let mut m = f.module.clone();
            m.pop();
            m
        }
        _ => return None,
    };
    segments.remove(0);
    while segments.first() == Some(&"super") {
        module.pop();
        segments.remove(0);
    }
    let mut all = vec!["crate".to_string()];
    all.extend(module);
    all.extend(segments.iter().map(|s| s.to_string()));
    Some(all.join("::"))
}

fn is_ancestor(module: &[String], of: &[String]) -> bool {
    of.len() > module.len() && of.starts_with(module)
}

/// Tarjan's strongly connected components.
fn strongly_connected(edges: &[BTreeSet<usize>]) -> Vec<Vec<usize>> {
    struct State<'a> {
        edges: &'a [BTreeSet<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for &w in s.edges[v].iter() {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(iw) if s.on_stack[w] => s.low[v] = s.low[v].min(iw),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            s.out.push(component);
        }
    }
    let n = edges.len();
    let mut s = State {
        edges,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.out
}

#[test]
fn files_of_a_crate_import_each_other_one_way() {
    let mut found = Vec::new();
    for (name, src) in crates() {
        for circle in import_circles(&src, &root()) {
            // The reference engine's search is one mutually recursive
            // algorithm over several files (its negamax and its Quinque
            // search call each other), allowed by the issue.
            if name == "engine" {
                continue;
            }
            found.push(format!("{name}: {}", circle.join(" <-> ")));
        }
    }
    assert!(
        found.is_empty(),
        "files that import each other in a circle:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_circle_finder_finds_a_circle_and_expands_use_trees() {
    let paths = named_paths("use crate::a::{b, c::{d, e}};\nlet x = super::f::g();");
    assert_eq!(
        paths,
        [
            "crate::a::b",
            "crate::a::c::d",
            "crate::a::c::e",
            "super::f::g"
        ]
    );
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::write(src.join("lib.rs"), "pub mod a;\npub mod b;\npub mod c;\n").unwrap();
    std::fs::write(src.join("a.rs"), "use crate::b::B;\npub struct A;\n").unwrap();
    std::fs::write(src.join("b.rs"), "use super::a::A;\npub struct B;\n").unwrap();
    std::fs::write(src.join("c.rs"), "use crate::a::A;\n").unwrap();
    let circles = import_circles(src, src);
    assert_eq!(circles, [vec!["a.rs".to_string(), "b.rs".to_string()]]);
}

/// `text` with comments and the insides of string and character literals
/// blanked (newlines kept), so braces can be counted.
fn blank_literals(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |out: &mut String, span: &[char]| {
        out.extend(span.iter().map(|&c| if c == '\n' { '\n' } else { ' ' }))
    };
    let mut i = 0;
    while i < chars.len() {
        let rest = &chars[i..];
        let after_word = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        let end = if rest.starts_with(&['/', '/']) {
            rest.iter().position(|&c| c == '\n').unwrap_or(rest.len())
        } else if rest.starts_with(&['/', '*']) {
            (2..rest.len())
                .find(|&k| rest[k - 1] == '*' && rest[k] == '/')
                .map_or(rest.len(), |k| k + 1)
        } else if !after_word && (rest.starts_with(&['r', '#']) || rest.starts_with(&['r', '"'])) {
            let hashes = rest[1..].iter().take_while(|&&c| c == '#').count();
            let open = 1 + hashes;
            if rest.get(open) != Some(&'"') {
                out.push(chars[i]);
                i += 1;
                continue;
            }
            (open + 1..rest.len())
                .find(|&k| rest[k] == '"' && rest[k + 1..].iter().take(hashes).all(|&c| c == '#'))
                .map_or(rest.len(), |k| k + 1 + hashes)
        } else if rest[0] == '"' {
            let mut k = 1;
            while k < rest.len() && rest[k] != '"' {
                k += if rest[k] == '\\' { 2 } else { 1 };
            }
            (k + 1).min(rest.len())
        } else if rest[0] == '\'' && rest.len() > 2 && (rest[2] == '\'' || rest[1] == '\\') {
            // A character literal ('{', '\n', '\u{7b}'); a lifetime has no
            // closing quote this close.
            (1..rest.len().min(12))
                .find(|&k| rest[k] == '\'' && (k > 1 || rest[1] == '\''))
                .map_or(1, |k| k + 1)
        } else {
            out.push(chars[i]);
            i += 1;
            continue;
        };
        blank(&mut out, &rest[..end]);
        i += end;
    }
    out
}

/// Functions longer than `max` lines in `text`: (name, first line, lines).
fn long_functions(text: &str, max: usize) -> Vec<(String, usize, usize)> {
    let code = blank_literals(text);
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("fn ").map(|k| k + from) {
        from = at + 3;
        if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
            continue;
        }
        let name: String = code[at + 3..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let Some(open) = code[at..].find(['{', ';']).map(|k| k + at) else {
            break;
        };
        if bytes[open] == b';' {
            continue;
        }
        let mut depth = 0;
        let mut close = open;
        for (k, b) in bytes[open..].iter().enumerate() {
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = open + k;
                        break;
                    }
                }
                _ => {}
            }
        }
        let first = code[..at].matches('\n').count() + 1;
        let last = code[..close].matches('\n').count() + 1;
        if last - first + 1 > max {
            out.push((name, first, last - first + 1));
        }
    }
    out
}

#[test]
fn no_function_of_the_product_is_over_100_lines() {
    let mut long = Vec::new();
    for (_, src) in crates() {
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for (name, line, lines) in long_functions(&text, 100) {
                let path = file.strip_prefix(root()).unwrap().display().to_string();
                long.push(format!("{path}:{line}: fn {name} has {lines} lines"));
            }
        }
    }
    assert!(
        long.is_empty(),
        "split these at their phases:\n{}",
        long.join("\n")
    );
}

#[test]
fn the_length_finder_counts_bodies_not_braces_in_literals() {
    let body = "    let x = 1;\n".repeat(99);
    let text = format!(
        "fn short() {{ let s = \"}}}}\"; let c = '{{'; }}\n// fn commented() {{\n\
         fn long<'a>(x: &'a str) {{\n{body}    let r = r#\"{{\"#;\n}}\nfn after();\n"
    );
    assert_eq!(long_functions(&text, 100), [("long".to_string(), 3, 102)]);
    assert!(long_functions(&text, 102).is_empty());
}
