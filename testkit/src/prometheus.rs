//! Prometheus text as a test reads it: the samples of a scrape by metric name and labels, and
//! one sample's value.

use std::collections::{BTreeMap, BTreeSet};

/// One sample of the text: its metric name and labels.
pub type Series = (String, BTreeSet<(String, String)>);

/// The samples of a Prometheus text exposition, by name and labels.
///
/// # Panics
/// When a line is not a sample or a comment, or a sample comes twice.
#[must_use]
pub fn parse(text: &str) -> BTreeMap<Series, f64> {
    let mut samples = BTreeMap::new();
    for line in text.lines() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (series, value) = line
            .rsplit_once(' ')
            .unwrap_or_else(|| panic!("not a sample: {line}"));
        let (name, labels) = match series.split_once('{') {
            Some((name, labels)) => (
                name,
                labels
                    .strip_suffix('}')
                    .unwrap_or_else(|| panic!("unclosed labels: {line}")),
            ),
            None => (series, ""),
        };
        let labels = labels
            .split(',')
            .filter(|pair| !pair.is_empty())
            .map(|pair| {
                let (key, value) = pair
                    .split_once('=')
                    .unwrap_or_else(|| panic!("a label without a value: {line}"));
                (key.to_owned(), value.trim_matches('"').to_owned())
            })
            .collect();
        let value: f64 = value.parse().unwrap_or_else(|_| panic!("{line}"));
        assert!(
            samples.insert((name.to_owned(), labels), value).is_none(),
            "{line} twice"
        );
    }
    samples
}

/// The value of `name` with `labels`, or 0 when the text has no such sample.
#[must_use]
pub fn value(samples: &BTreeMap<Series, f64>, name: &str, labels: &[(&str, &str)]) -> f64 {
    let labels = labels
        .iter()
        .map(|(key, value)| ((*key).to_owned(), (*value).to_owned()))
        .collect();
    samples
        .get(&(name.to_owned(), labels))
        .copied()
        .unwrap_or(0.0)
}
