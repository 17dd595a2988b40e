//! "Did you mean": the closest of a list of names to a word. Used by the model, the
//! catalogs and the rules; imports nothing of the crate.

/// The closest candidate to `word` by edit distance, for "did you mean".
pub fn did_you_mean<'c>(
    word: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    let lower = word.to_lowercase();
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(&lower, &c.to_lowercase()), c))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        let keys = ["request", "params", "token", "object", "public"];
        assert_eq!(did_you_mean("parms", keys), Some("params"));
        assert_eq!(did_you_mean("Request", keys), Some("request"));
        assert_eq!(did_you_mean("zzz", keys), None);
    }
}
