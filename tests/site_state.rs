//! The learning pass run in separate steps (`pipeline::site_learning`: the sample from the
//! URLs, each sampled page's contribution, the other pages counted, the learned state as
//! bytes) gives the same records as the pass run in one process
//! (`build_cascade_for_pages`), and the state reads back from its bytes unchanged: what
//! the Spark job relies on to spread a site over many tasks.

use std::path::PathBuf;

use thresher::config::Config;
use thresher::extract::cross_page::CrossPage;
use thresher::page::Page;
use thresher::pipeline::{self, Contribution, SiteLearner, SiteState};
use thresher::source::PageJob;

fn fixture_pages() -> Vec<Page> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/sites");
    let manifest = std::fs::read_to_string(root.join("manifest.jsonl")).unwrap();
    manifest
        .lines()
        .map(|line| {
            let entry: serde_json::Value = serde_json::from_str(line).unwrap();
            let path = entry["path"].as_str().unwrap();
            Page {
                path: path.to_string(),
                url: entry["url"].as_str().unwrap().to_string(),
                fetched_at: None,
                popularity: 0.0,
                content_type: None,
                body: std::fs::read(root.join(path)).unwrap(),
                cut: false,
                warc_file: None,
            }
        })
        .collect()
}

/// The state learned in steps, the sampled pages' contributions round-tripped through
/// bytes (as they cross between tasks), added in reverse order.
fn learn_in_steps(pages: &[Page], config: &Config) -> (SiteState, usize) {
    let sample = pipeline::learning_sample(pages.iter().map(|p| p.url.as_str()), config);
    let mut learner = SiteLearner::new(config);
    let mut counted = 0;
    for page in pages.iter().rev() {
        if sample.contains(page.url.as_str()) {
            let bytes = Contribution::of(page, config).unwrap().to_bytes();
            learner.add(&page.url, Contribution::from_bytes(&bytes).unwrap());
        } else {
            learner.count(&page.url);
            counted += 1;
        }
    }
    (learner.learn(config), counted)
}

fn records(pages: &[Page], cascade: &thresher::extract::Cascade, config: &Config) -> Vec<String> {
    let jobs = pages.iter().cloned().map(PageJob::Loaded).collect();
    pipeline::page_records(jobs, cascade, config)
        .iter()
        .map(pipeline::record_json)
        .collect()
}

#[test]
fn a_state_learned_in_steps_round_trips_and_extracts_as_the_one_pass() {
    let pages = fixture_pages();
    for method in [CrossPage::Inbreeding, CrossPage::Infholder, CrossPage::Both] {
        let mut config = Config {
            cross_page: method,
            ..Config::default()
        };
        // Samples smaller than a site, so that some pages are only counted.
        config.inbreeding.sample_pages = 2;
        config.infholder.sample_pages = 2;
        config.inbreeding.min_group_pages = 2;
        config.infholder.min_group_pages = 2;
        let (state, counted) = learn_in_steps(&pages, &config);
        assert!(counted > 0, "{method:?}: every page sampled");
        let bytes = state.to_bytes();
        let back = SiteState::from_bytes(&bytes).unwrap();
        assert_eq!(back, state, "{method:?}: the state reads back unchanged");
        assert_eq!(back.to_bytes().len(), bytes.len());

        let (one_pass, _) =
            pipeline::build_cascade_for_pages(&pages, &config, Vec::new(), None).unwrap();
        let split = pipeline::cascade_from_state(back, &config, Vec::new()).unwrap();
        let want = records(&pages, &one_pass, &config);
        let got = records(&pages, &split, &config);
        assert_eq!(got, want, "{method:?}: records differ");
        let methods: Vec<&str> = want
            .iter()
            .filter(|r| {
                r.contains("\"method\":\"infholder")
                    || r.contains("\"method\":\"inbreeding")
                    || r.contains("\"method\":\"cross-page")
            })
            .map(String::as_str)
            .collect();
        assert!(
            !methods.is_empty(),
            "{method:?}: the cross-page method never answered"
        );
    }
}

#[test]
fn a_state_of_another_method_is_refused() {
    let pages = fixture_pages();
    let config = Config::default();
    let (state, _) = learn_in_steps(&pages, &config);
    let other = Config {
        cross_page: CrossPage::Infholder,
        ..Config::default()
    };
    let err = pipeline::cascade_from_state(state, &other, Vec::new())
        .err()
        .expect("refused");
    assert!(
        err.to_string().contains("another cross-page method"),
        "{err}"
    );
    assert!(SiteState::from_bytes(b"not json").is_err());
}
