//! The guide ([`game_core::guide`]) lists the trait's required methods as the code has them:
//! every method of `Game` without a body, in the trait's order.

/// The names of the methods declared without a body in `pub trait Game { ... }`.
fn required_in_trait(source: &str) -> Vec<String> {
    let start = source.find("pub trait Game:").expect("the trait");
    let body = &source[start..];
    let end = body.find("\n}\n").expect("the trait's end");
    let mut required = Vec::new();
    let mut pending: Option<(String, usize)> = None;
    for line in body[..end].lines() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if indent == 4
            && let Some(rest) = trimmed.strip_prefix("fn ")
        {
            let name = rest.split(['(', '<']).next().unwrap_or_default().to_owned();
            pending = Some((name, indent));
        }
        if let Some((name, _)) = &pending {
            if trimmed.ends_with(';') && (indent == 4 || trimmed.starts_with(')')) {
                required.push(name.clone());
                pending = None;
            } else if trimmed.ends_with('{') {
                pending = None;
            }
        }
    }
    required
}

/// The names the guide lists after "Required:".
fn required_in_guide(guide: &str) -> Vec<String> {
    let at = guide.find("//! Required:").expect("the guide's list");
    let end = guide[at..].find(".\n").expect("the list's end") + at;
    guide[at + "//! Required:".len()..end]
        .replace("//!", " ")
        .split(',')
        .map(|name| name.trim().trim_matches('`').to_owned())
        .collect()
}

#[test]
fn the_guide_lists_the_required_methods() {
    let trait_source = include_str!("../src/game.rs");
    let guide = include_str!("../src/guide.rs");
    let required = required_in_trait(trait_source);
    assert_eq!(required, required_in_guide(guide));
    assert!(required.len() <= 8, "{required:?}");
    let readme = include_str!("../README.md");
    for name in &required {
        assert!(
            readme.contains(&format!("`{name}`")),
            "the README names `{name}`"
        );
    }
}
