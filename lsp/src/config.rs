//! The server's settings: the workspace's `ludeme.toml` (shared with the CLI, parsed in
//! `ludeme_analysis::config`) with the client's own settings on top.
//!
//! The client's settings come in `initializationOptions` and `workspace/didChangeConfiguration`,
//! in any of the shapes editors send: nested (`{"ludeme": {"probe": {"games": 20}}}`), without
//! the section (`{"probe": {...}}`) or as dotted keys (`{"ludeme.probe.games": 20}`).

use ludeme_analysis::Diagnostic;
use ludeme_analysis::config::{Config, ProbeBudget};
use serde_json::Value;

/// The settings in force.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// From `ludeme.toml` (the defaults when the workspace has none).
    pub file: Config,
    /// The problems found in `ludeme.toml`, published on it.
    pub file_diagnostics: Vec<Diagnostic>,
    pub client: ClientSettings,
}

impl Settings {
    /// The probe budgets: the client's where it sets them, else the file's.
    pub fn probe(&self) -> ProbeBudget {
        let file = self.file.probe;
        ProbeBudget {
            games: self.client.probe_games.unwrap_or(file.games),
            seconds: self.client.probe_seconds.unwrap_or(file.seconds),
            enabled: self.client.probe_enabled.unwrap_or(file.enabled),
        }
    }
}

/// What the client sets; `None` leaves the file's value.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ClientSettings {
    pub probe_games: Option<usize>,
    pub probe_seconds: Option<f64>,
    pub probe_enabled: Option<bool>,
    /// `ludeme.randomPlay`: whether the diagnostics include what random play finds in GDL
    /// games (on by default; `ludeme check` plays only with `--simulate`).
    pub random_play: Option<bool>,
}

impl ClientSettings {
    /// Reads the settings out of what the client sent; values of the wrong type or out of range
    /// are ignored (the file's or the default value applies).
    pub fn from_json(value: &Value) -> Self {
        let root = value.get("ludeme").unwrap_or(value);
        let setting = |name: &str| {
            root.get("probe")
                .and_then(|probe| probe.get(name))
                .or_else(|| value.get(format!("ludeme.probe.{name}")))
                .or_else(|| value.get(format!("probe.{name}")))
        };
        ClientSettings {
            probe_games: setting("games")
                .and_then(Value::as_u64)
                .filter(|&games| games > 0)
                .and_then(|games| usize::try_from(games).ok()),
            probe_seconds: setting("seconds")
                .and_then(Value::as_f64)
                .filter(|seconds| *seconds > 0.0 && seconds.is_finite()),
            probe_enabled: setting("enabled").and_then(Value::as_bool),
            random_play: root
                .get("randomPlay")
                .or_else(|| value.get("ludeme.randomPlay"))
                .and_then(Value::as_bool),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_shape_editors_send_is_read() {
        let expected = ClientSettings {
            probe_games: Some(20),
            probe_seconds: Some(1.5),
            probe_enabled: Some(false),
            random_play: None,
        };
        for sent in [
            json!({"ludeme": {"probe": {"games": 20, "seconds": 1.5, "enabled": false}}}),
            json!({"probe": {"games": 20, "seconds": 1.5, "enabled": false}}),
            json!({"ludeme.probe.games": 20, "ludeme.probe.seconds": 1.5, "ludeme.probe.enabled": false}),
        ] {
            assert_eq!(ClientSettings::from_json(&sent), expected, "{sent}");
        }
    }

    #[test]
    fn bad_values_are_ignored_and_the_file_applies() {
        let client = ClientSettings::from_json(
            &json!({"ludeme": {"probe": {"games": 0, "seconds": "fast", "enabled": 1}}}),
        );
        assert_eq!(client, ClientSettings::default());
        let settings = Settings {
            client: ClientSettings {
                probe_seconds: Some(0.5),
                ..client
            },
            ..Settings::default()
        };
        assert_eq!(
            settings.probe(),
            ProbeBudget {
                seconds: 0.5,
                ..ProbeBudget::default()
            }
        );
    }
}
