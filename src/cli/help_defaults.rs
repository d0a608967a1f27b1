//! `--help` shows every default. Options that overlay the configuration (`--threshold`,
//! `--normalize`, …) are `Option`s, so that a `--config` file's value is kept when the
//! flag is absent; clap's own `default_value` would override the file. Their defaults are
//! therefore written into the help text here, at run time, from `Config::default()` (the
//! one place they are defined), as `[default: …]` like clap's own.

use clap::{Command, CommandFactory};

use crate::config::Config;

use super::Cli;

/// Options without a default: they name inputs or outputs, or switch something on.
/// Everything else that takes a value must show `[default: …]` (checked by a test).
#[cfg(test)]
const NO_DEFAULT: &[&str] = &[
    "paths",
    "ca_cert",
    "signatures",
    "previous",
    "html",
    "index",
    "files",
    "manifest",
    "config",
    "templates",
    "rules",
    "output",
    "out",
    "errors",
    "urls",
    "url_args",
    "allow_net",
    "truth",
    "clusters",
    "xpath",
    "remove",
    "rule",
    "name",
    "url",
    "pages",
    "file",
    "dir",
    "baseline",
    "save_baseline",
    "breakage_json",
    "out_dir",
    "fixtures",
    "gold",
    "rules_baseline",
    "save_rules_baseline",
    "crawl",
];

/// The option defaults that come from the configuration, as a user would type them.
fn config_defaults() -> Vec<(&'static str, String)> {
    let c = Config::default();
    let d = &c.dedup;
    vec![
        ("threshold", shown(&d.threshold)),
        ("num_perm", shown(&d.num_perm)),
        ("shingle_length", shown(&d.shingle.length)),
        ("normalize", shown(&d.normalize)),
        ("measure", shown(&d.measure)),
        ("mode", shown(&d.mode)),
        ("main_order", shown(&d.main_order)),
        ("method", shown(&d.method)),
        ("sketch", shown(&d.sketch)),
        ("sample_mod", format!("{} (no sampling)", d.sample_mod)),
        ("bands", "chosen from --threshold and --num-perm".into()),
        ("group_depth", shown(&c.group_depth)),
        ("cross_page", shown(&c.cross_page)),
        ("output_format", shown(&c.output_format)),
        ("render_timeout_ms", shown(&c.render.timeout_ms)),
        ("render_fallback", shown(&c.render.fallback)),
        ("threads", "all cores".into()),
        ("max_errors", "unlimited".into()),
        (
            "user_agent",
            crate::source::fetch::FetchConfig::default().user_agent,
        ),
    ]
}

/// A value as its serde name: strings bare, lists joined by commas.
fn shown(v: &impl serde::Serialize) -> String {
    match serde_json::to_value(v).expect("defaults serialize") {
        serde_json::Value::String(s) => s,
        serde_json::Value::Array(items) => items
            .iter()
            .map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_string))
            .collect::<Vec<_>>()
            .join(","),
        other => other.to_string(),
    }
}

/// The CLI with every default written into its help.
pub fn command() -> Command {
    annotate(Cli::command(), &config_defaults())
}

fn annotate(mut cmd: Command, defaults: &[(&'static str, String)]) -> Command {
    for (id, value) in defaults {
        if cmd.get_arguments().any(|a| a.get_id() == *id) {
            cmd = cmd.mut_arg(*id, |a| {
                let help = a.get_help().map(|h| h.to_string()).unwrap_or_default();
                // A hand-written "(default: …)" is replaced by the computed one.
                let help = match help.split_once(" (default:") {
                    Some((before, rest)) => {
                        format!(
                            "{before}{}",
                            rest.split_once(')').map_or("", |(_, after)| after)
                        )
                    }
                    None => help,
                };
                a.help(format!("{} [default: {value}]", help.trim_end()))
            });
        }
    }
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in names {
        cmd = cmd.mut_subcommand(name, |s| annotate(s, defaults));
    }
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(cmd: &Command, path: String, out: &mut Vec<String>) {
        for a in cmd.get_arguments() {
            let id = a.get_id().as_str();
            let takes_value = a.get_num_args().is_some_and(|n| n.takes_values())
                && !matches!(
                    a.get_action(),
                    clap::ArgAction::SetTrue
                        | clap::ArgAction::Count
                        | clap::ArgAction::Help
                        | clap::ArgAction::Version
                );
            if !takes_value || a.is_positional() || NO_DEFAULT.contains(&id) {
                continue;
            }
            let help = a.get_help().map(|h| h.to_string()).unwrap_or_default();
            let has = !a.get_default_values().is_empty() || help.contains("[default:");
            if !has {
                out.push(format!("{path} --{id}"));
            }
        }
        for s in cmd.get_subcommands() {
            walk(s, format!("{path} {}", s.get_name()), out);
        }
    }

    #[test]
    fn every_option_with_a_value_shows_its_default() {
        let mut cmd = command();
        cmd.build();
        let mut missing = Vec::new();
        walk(&cmd, "thresher".into(), &mut missing);
        assert!(
            missing.is_empty(),
            "options without a shown default: {missing:?}"
        );
    }

    #[test]
    fn shown_defaults_parse_back_to_the_configured_values() {
        let c = Config::default();
        let d = &c.dedup;
        let get = |id: &str| {
            config_defaults()
                .into_iter()
                .find(|(i, _)| *i == id)
                .unwrap()
                .1
        };
        assert_eq!(get("threshold").parse::<f64>().unwrap(), d.threshold);
        assert_eq!(
            get("normalize")
                .parse::<crate::normalize::Preset>()
                .unwrap(),
            d.normalize
        );
        assert_eq!(
            get("measure").parse::<crate::dedup::Measure>().unwrap(),
            d.measure
        );
        assert_eq!(
            get("mode").parse::<crate::dedup::ClusterMode>().unwrap(),
            d.mode
        );
        assert_eq!(
            get("main_order")
                .parse::<crate::choose_main::MainOrder>()
                .unwrap(),
            d.main_order
        );
        assert_eq!(
            get("method").parse::<crate::dedup::Method>().unwrap(),
            d.method
        );
        assert_eq!(
            get("sketch").parse::<crate::dedup::Sketch>().unwrap(),
            d.sketch
        );
        assert_eq!(
            get("group_depth")
                .parse::<crate::group::GroupDepth>()
                .unwrap(),
            c.group_depth
        );
        assert_eq!(
            get("cross_page")
                .parse::<crate::extract::cross_page::CrossPage>()
                .unwrap(),
            c.cross_page
        );
    }
}
