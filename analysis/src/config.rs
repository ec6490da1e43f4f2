//! `ludeme.toml`: the project settings the CLI (`ludeme check`) and the language server share.
//!
//! ```toml
//! [rules]
//! disable = ["gdl/unused-relation", "egg"]   # codes, or areas (`egg`, `egg/`)
//! enable = ["egg/undefined-name"]            # the most specific selector wins
//! severity = { "gdl/role-argument" = "error", "ludi" = "info" }
//!
//! [probe]
//! games = 50        # self-play games of the editor's probe lens
//! seconds = 60.0    # time limit of one probe (`ludeme probe` and the editor's lens)
//! enabled = true
//!
//! [corpus]
//! folders = ["../shared/corpus"]   # where nearest games are also looked for
//!
//! [files]
//! max-megabytes = 64   # larger game files are refused with a message, never read
//! ```
//!
//! The file is parsed here only; mistakes in it are diagnostics with a position in the file
//! (a typo in a rule code does not silently select nothing).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use crate::rules::Rule;
use crate::{Diagnostic, Severity, TextRange};

/// The name of the settings file, looked for in the checked folder and its ancestors.
pub const CONFIG_FILE_NAME: &str = "ludeme.toml";

/// How the message of a file that cannot be read as a whole ends, for a caller that says so
/// itself to leave out.
pub const DEFAULTS_USED: &str = "; the default settings are used";

/// Default self-play games of the editor's probe.
pub const DEFAULT_PROBE_GAMES: usize = 50;
/// Default time limit, in seconds, of one probe: `ludeme probe --time-limit` and the editor's
/// probe lens alike (the one default, documented in the README).
pub const DEFAULT_PROBE_SECONDS: f64 = 60.0;

pub const INVALID_CONFIG: Rule = Rule {
    code: "config/invalid",
    severity: Severity::Error,
    summary: "ludeme.toml is not valid TOML or has a setting Ludeme does not know",
    explanation: "\
`ludeme.toml` holds the settings the command line and the language server share: which rules
run and how severe they are (`[rules]`), the editor's probe budgets (`[probe]`) and the
folders searched for nearest games (`[corpus]`). The diagnostic points at the text that
cannot be read: a TOML syntax error, a misspelt key, or a value of the wrong type.

Example of a valid file:

    [rules]
    disable = [\"gdl/unused-relation\"]
    severity = { \"ludi\" = \"warning\" }

    [probe]
    games = 50
    seconds = 60.0

    [corpus]
    folders = [\"../shared/corpus\"]

    [files]
    max-megabytes = 64

While the file has an error, the settings it holds are not applied: the defaults are used.",
};

pub const UNKNOWN_RULE: Rule = Rule {
    code: "config/unknown-rule",
    severity: Severity::Warning,
    summary: "a rule selector in ludeme.toml matches no diagnostic code",
    explanation: "\
Entries of `rules.disable`, `rules.enable` and `rules.severity` name a diagnostic code
(`gdl/unsafe-variable`) or an area of codes (`gdl`, `gdl/`). A selector that matches no code
selects nothing, which is almost always a typo.

Fix: use a code that `ludeme explain` lists.",
};

pub const CONFLICTING_RULE: Rule = Rule {
    code: "config/conflicting-rule",
    severity: Severity::Warning,
    summary: "the same selector is both enabled and disabled in ludeme.toml",
    explanation: "\
A rule selector appears in both `rules.enable` and `rules.disable`. The most specific selector
decides whether a rule runs, and here two selectors are equally specific, so the file does
not say what it wants; the rule stays enabled.

Fix: remove the selector from one of the two lists.",
};

/// The rules of this module.
pub const RULES: &[&Rule] = &[&INVALID_CONFIG, &UNKNOWN_RULE, &CONFLICTING_RULE];

/// The settings of one `ludeme.toml` (or the defaults when there is none).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Config {
    /// The file the settings come from; `None` for the defaults.
    pub path: Option<PathBuf>,
    pub rules: RuleSelection,
    pub probe: ProbeBudget,
    /// Folders searched for nearest games, absolute or relative to the config file's folder
    /// (resolved here).
    pub corpus_folders: Vec<PathBuf>,
    pub files: FileLimits,
}

/// `[files]`: what a game file may be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FileLimits {
    /// Larger files are refused unread (`max-megabytes`; the default
    /// [`crate::files::DEFAULT_MAX_FILE_BYTES`]).
    pub max_bytes: u64,
}

impl Default for FileLimits {
    fn default() -> Self {
        Self {
            max_bytes: crate::files::DEFAULT_MAX_FILE_BYTES,
        }
    }
}

/// The budgets of the background work in the editor (probe lens, bench lens).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbeBudget {
    pub games: usize,
    pub seconds: f64,
    pub enabled: bool,
}

impl Default for ProbeBudget {
    fn default() -> Self {
        Self {
            games: DEFAULT_PROBE_GAMES,
            seconds: DEFAULT_PROBE_SECONDS,
            enabled: true,
        }
    }
}

/// Which rules run, and at which severity. Selectors are codes or areas; for each code the
/// most specific (longest) matching selector decides.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RuleSelection {
    /// Selector → whether the rules it selects run.
    switches: BTreeMap<String, bool>,
    /// Selector → the severity its rules are reported with.
    severities: BTreeMap<String, Severity>,
}

impl RuleSelection {
    /// A fingerprint of the selection, the same on every machine for the same selection (a
    /// record of work the selection decided, such as which bred children a check culls, names
    /// it). Hashed as the results cache hashes the settings: their debug form, which lists
    /// the selectors in their sorted order.
    pub fn fingerprint(&self) -> u128 {
        stable_fingerprint(&format!("{self:?}"))
    }

    /// Whether diagnostics with `code` are reported.
    pub fn is_enabled(&self, code: &str) -> bool {
        most_specific(&self.switches, code).is_none_or(|&enabled| enabled)
    }

    /// The severity diagnostics with `code` are reported with, when the file overrides it.
    pub fn severity(&self, code: &str) -> Option<Severity> {
        most_specific(&self.severities, code).copied()
    }

    /// `diagnostics` with the selection applied: disabled rules dropped, severities overridden.
    pub fn apply(&self, diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
        if self.switches.is_empty() && self.severities.is_empty() {
            return diagnostics;
        }
        diagnostics
            .into_iter()
            .filter(|diagnostic| self.is_enabled(diagnostic.code))
            .map(|mut diagnostic| {
                if let Some(severity) = self.severity(diagnostic.code) {
                    diagnostic.severity = severity;
                }
                diagnostic
            })
            .collect()
    }
}

/// A 128-bit hash of `value` that is the same in every process and on every machine (SipHash
/// 1-3 with fixed keys, as the results cache's fingerprints; std's `RandomState` differs from
/// run to run).
pub(crate) fn stable_fingerprint<T: std::hash::Hash + ?Sized>(value: &T) -> u128 {
    let mut hasher = siphasher::sip128::SipHasher13::new();
    value.hash(&mut hasher);
    siphasher::sip128::Hasher128::finish128(&hasher).as_u128()
}

/// Whether `selector` selects `code`: the code itself, or an area prefix ending at a `/`.
fn selects(selector: &str, code: &str) -> bool {
    let area = selector.strip_suffix('/').unwrap_or(selector);
    code == selector
        || code
            .strip_prefix(area)
            .is_some_and(|rest| rest.starts_with('/'))
}

fn most_specific<'a, T>(table: &'a BTreeMap<String, T>, code: &str) -> Option<&'a T> {
    table
        .iter()
        .filter(|(selector, _)| selects(selector, code))
        .max_by_key(|(selector, _)| selector.trim_end_matches('/').len())
        .map(|(_, value)| value)
}

/// The file as written, with the span of each value for diagnostics.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(default)]
    rules: RawRules,
    #[serde(default)]
    probe: RawProbe,
    #[serde(default)]
    corpus: RawCorpus,
    #[serde(default)]
    files: RawFiles,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawRules {
    #[serde(default)]
    disable: Vec<Spanned<String>>,
    #[serde(default)]
    enable: Vec<Spanned<String>>,
    #[serde(default)]
    severity: BTreeMap<Spanned<String>, Severity>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawProbe {
    games: Option<Spanned<i64>>,
    seconds: Option<Spanned<f64>>,
    enabled: Option<bool>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawCorpus {
    #[serde(default)]
    folders: Vec<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawFiles {
    /// A TOML integer or float.
    max_megabytes: Option<Spanned<toml::Value>>,
}

impl<'de> Deserialize<'de> for Severity {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        match name.as_str() {
            "error" => Ok(Severity::Error),
            "warning" => Ok(Severity::Warning),
            "info" => Ok(Severity::Info),
            other => Err(serde::de::Error::invalid_value(
                serde::de::Unexpected::Str(other),
                &"\"error\", \"warning\" or \"info\"",
            )),
        }
    }
}

/// Reads the settings in `text`, the contents of the `ludeme.toml` at `path`. Problems are
/// diagnostics in that text; a file that cannot be read as a whole gives the defaults.
pub fn parse_config(path: &Path, text: &str) -> (Config, Vec<Diagnostic>) {
    let mut config = Config {
        path: Some(path.to_path_buf()),
        ..Config::default()
    };
    let raw: RawConfig = match toml::from_str(text) {
        Ok(raw) => raw,
        Err(error) => {
            let range = error.span().map_or(TextRange::empty(0), |span| {
                TextRange::new(span.start, span.end)
            });
            let message = format!("{CONFIG_FILE_NAME}: {}{DEFAULTS_USED}", error.message());
            return (
                config,
                vec![Diagnostic::new(&INVALID_CONFIG, range, message)],
            );
        }
    };
    let mut diagnostics = Vec::new();
    let mut check_selector = |selector: &Spanned<String>| {
        let known = crate::rules::all().any(|rule| selects(selector.get_ref(), rule.code));
        if !known {
            diagnostics.push(Diagnostic::new(
                &UNKNOWN_RULE,
                span_of(selector),
                format!(
                    "`{}` matches no diagnostic code; `ludeme explain` lists them",
                    selector.get_ref()
                ),
            ));
        }
        known
    };
    let mut switches = BTreeMap::new();
    for selector in &raw.rules.disable {
        if check_selector(selector) {
            switches.insert(selector.get_ref().clone(), false);
        }
    }
    let mut conflicts = Vec::new();
    for selector in &raw.rules.enable {
        if check_selector(selector)
            && switches.insert(selector.get_ref().clone(), true) == Some(false)
        {
            conflicts.push(Diagnostic::new(
                &CONFLICTING_RULE,
                span_of(selector),
                format!(
                    "`{}` is both enabled and disabled; it stays enabled",
                    selector.get_ref()
                ),
            ));
        }
    }
    let mut severities = BTreeMap::new();
    for (selector, &severity) in &raw.rules.severity {
        if check_selector(selector) {
            severities.insert(selector.get_ref().clone(), severity);
        }
    }
    diagnostics.extend(conflicts);
    config.rules = RuleSelection {
        switches,
        severities,
    };

    if let Some(games) = &raw.probe.games {
        match usize::try_from(*games.get_ref()) {
            Ok(count) if count > 0 => config.probe.games = count,
            _ => diagnostics.push(Diagnostic::new(
                &INVALID_CONFIG,
                span_of(games),
                "probe.games must be a positive number of games",
            )),
        }
    }
    if let Some(seconds) = &raw.probe.seconds {
        let value = *seconds.get_ref();
        if value > 0.0 && value.is_finite() {
            config.probe.seconds = value;
        } else {
            diagnostics.push(Diagnostic::new(
                &INVALID_CONFIG,
                span_of(seconds),
                "probe.seconds must be a positive number of seconds",
            ));
        }
    }
    if let Some(enabled) = raw.probe.enabled {
        config.probe.enabled = enabled;
    }
    if let Some(megabytes) = &raw.files.max_megabytes {
        let value = match megabytes.get_ref() {
            toml::Value::Integer(whole) => *whole as f64,
            toml::Value::Float(value) => *value,
            _ => f64::NAN,
        };
        // Up to a terabyte: beyond, the number is a mistake, and bytes must fit a u64.
        if value > 0.0 && value <= 1e6 {
            config.files.max_bytes = (value * 1024.0 * 1024.0) as u64;
        } else {
            diagnostics.push(Diagnostic::new(
                &INVALID_CONFIG,
                span_of(megabytes),
                "files.max-megabytes must be a positive number of megabytes (at most 1000000)",
            ));
        }
    }
    let base = path.parent().unwrap_or(Path::new(""));
    config.corpus_folders = raw
        .corpus
        .folders
        .iter()
        .map(|folder| base.join(folder))
        .collect();
    diagnostics.sort_by_key(|d| (d.range.start, d.range.end));
    (config, diagnostics)
}

fn span_of<T>(value: &Spanned<T>) -> TextRange {
    let span = value.span();
    TextRange::new(span.start, span.end)
}

/// The `ludeme.toml` in `start` (a folder, or a file's folder) or its nearest ancestor.
pub fn find_config(start: &Path) -> Option<PathBuf> {
    let absolute = std::path::absolute(start).ok()?;
    let folder = if absolute.is_dir() {
        absolute.as_path()
    } else {
        absolute.parent()?
    };
    folder
        .ancestors()
        .map(|ancestor| ancestor.join(CONFIG_FILE_NAME))
        .find(|candidate| candidate.is_file())
}

/// Reads and parses the `ludeme.toml` at `path`: the settings, the diagnostics in the file
/// and its text (to show them), or why it cannot be read.
pub fn load_config(path: &Path) -> Result<(Config, Vec<Diagnostic>, String), String> {
    let text = crate::source::read_text_file(path)?;
    let (config, diagnostics) = parse_config(path, &text);
    Ok((config, diagnostics, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> (Config, Vec<Diagnostic>) {
        parse_config(Path::new("/project/ludeme.toml"), text)
    }

    #[test]
    fn the_file_size_limit_is_set_in_megabytes() {
        let (config, diagnostics) = parse("[files]\nmax-megabytes = 2\n");
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(config.files.max_bytes, 2 << 20);
        let (config, _) = parse("[files]\nmax-megabytes = 0.5\n");
        assert_eq!(config.files.max_bytes, 1 << 19);
        assert_eq!(
            Config::default().files.max_bytes,
            crate::files::DEFAULT_MAX_FILE_BYTES
        );
        let text = "[files]\nmax-megabytes = -3\n";
        let (config, diagnostics) = parse(text);
        assert_eq!(config.files, FileLimits::default());
        assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
        assert_eq!(located(text, &diagnostics[0]), ("config/invalid", "-3"));
    }

    fn located<'a>(text: &'a str, diagnostic: &Diagnostic) -> (&'static str, &'a str) {
        (
            diagnostic.code,
            &text[diagnostic.range.start..diagnostic.range.end],
        )
    }

    /// The fingerprint of a selection follows what it selects, not how the file orders it.
    #[test]
    fn the_rule_fingerprint_follows_the_selection() {
        let fingerprint = |text: &str| parse(text).0.rules.fingerprint();
        let both = fingerprint("[rules]\ndisable = [\"gdl\", \"egg\"]\n");
        assert_eq!(both, fingerprint("[rules]\ndisable = [\"egg\", \"gdl\"]\n"));
        assert_ne!(both, fingerprint("[rules]\ndisable = [\"egg\"]\n"));
        assert_ne!(
            fingerprint(""),
            fingerprint("[rules]\nseverity = { \"ludi\" = \"error\" }\n")
        );
        // Fixed keys: the value of the default selection is the same in every run.
        assert_eq!(fingerprint(""), RuleSelection::default().fingerprint());
    }

    #[test]
    fn an_empty_file_gives_the_defaults() {
        let (config, diagnostics) = parse("");
        assert!(diagnostics.is_empty());
        assert_eq!(config.probe, ProbeBudget::default());
        assert!(config.rules.is_enabled("gdl/unsafe-variable"));
        assert!(config.corpus_folders.is_empty());
    }

    #[test]
    fn the_most_specific_selector_decides() {
        let (config, diagnostics) = parse(
            "[rules]\ndisable = [\"gdl\"]\nenable = [\"gdl/unsafe-variable\"]\n\
             severity = { \"ludi/\" = \"info\", \"ludi/unknown-ludeme\" = \"error\" }\n",
        );
        assert_eq!(diagnostics, []);
        assert!(!config.rules.is_enabled("gdl/unused-relation"));
        assert!(config.rules.is_enabled("gdl/unsafe-variable"));
        assert!(config.rules.is_enabled("ludi/unknown-ludeme"));
        assert_eq!(
            config.rules.severity("ludi/missing-part"),
            Some(Severity::Info)
        );
        assert_eq!(
            config.rules.severity("ludi/unknown-ludeme"),
            Some(Severity::Error)
        );
        assert_eq!(config.rules.severity("gdl/unsafe-variable"), None);
    }

    #[test]
    fn an_area_selector_does_not_match_a_longer_area_name() {
        assert!(selects("gdl", "gdl/unsafe-variable"));
        assert!(selects("gdl/", "gdl/unsafe-variable"));
        assert!(!selects("gd", "gdl/unsafe-variable"));
        assert!(!selects("gdl/unsafe", "gdl/unsafe-variable"));
    }

    #[test]
    fn apply_drops_disabled_rules_and_overrides_severities() {
        let (config, _) = parse(
            "[rules]\ndisable = [\"syntax/missing-token\"]\nseverity = { syntax = \"warning\" }\n",
        );
        let diagnostics = vec![
            Diagnostic::new(&crate::rules::MISSING_TOKEN, TextRange::empty(0), "a"),
            Diagnostic::new(&crate::rules::SYNTAX_ERROR, TextRange::empty(1), "b"),
        ];
        let applied = config.rules.apply(diagnostics);
        assert_eq!(applied.len(), 1);
        assert_eq!(applied[0].code, "syntax/unexpected-input");
        assert_eq!(applied[0].severity, Severity::Warning);
    }

    #[test]
    fn a_misspelt_rule_is_reported_where_it_is_written() {
        let text = "[rules]\ndisable = [\"gdl/unsafe-variabel\"]\n";
        let (config, diagnostics) = parse(text);
        let found: Vec<_> = diagnostics.iter().map(|d| located(text, d)).collect();
        assert_eq!(found, [("config/unknown-rule", "\"gdl/unsafe-variabel\"")]);
        assert!(config.rules.is_enabled("gdl/unsafe-variable"));
    }

    #[test]
    fn an_unknown_key_and_a_bad_severity_are_errors_with_positions() {
        let text = "[probe]\ngamez = 3\n";
        let (_, diagnostics) = parse(text);
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(located(text, &diagnostics[0]), ("config/invalid", "gamez"));

        let text = "[rules]\nseverity = { gdl = \"fatal\" }\n";
        let (_, diagnostics) = parse(text);
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(
            located(text, &diagnostics[0]),
            ("config/invalid", "\"fatal\"")
        );
    }

    #[test]
    fn broken_toml_is_an_error_and_the_defaults_apply() {
        let text = "[probe\ngames = 3\n";
        let (config, diagnostics) = parse(text);
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(diagnostics[0].code, "config/invalid");
        assert!(
            diagnostics[0].range.start <= 7,
            "{:?}",
            diagnostics[0].range
        );
        assert_eq!(config.probe, ProbeBudget::default());
    }

    #[test]
    fn probe_budgets_are_checked_and_corpus_folders_resolved() {
        let text = "[probe]\ngames = 0\nseconds = 2.5\nenabled = false\n\
                    [corpus]\nfolders = [\"games\", \"/elsewhere\"]\n";
        let (config, diagnostics) = parse(text);
        let found: Vec<_> = diagnostics.iter().map(|d| located(text, d)).collect();
        assert_eq!(found, [("config/invalid", "0")]);
        assert_eq!(
            config.probe,
            ProbeBudget {
                games: DEFAULT_PROBE_GAMES,
                seconds: 2.5,
                enabled: false
            }
        );
        assert_eq!(
            config.corpus_folders,
            [PathBuf::from("/project/games"), PathBuf::from("/elsewhere")]
        );
    }

    #[test]
    fn the_same_selector_enabled_and_disabled_is_a_conflict() {
        let text = "[rules]\ndisable = [\"egg\"]\nenable = [\"egg\"]\n";
        let (config, diagnostics) = parse(text);
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(
            located(text, &diagnostics[0]),
            ("config/conflicting-rule", "\"egg\"")
        );
        assert!(config.rules.is_enabled("egg/undefined-name"));
    }
}
