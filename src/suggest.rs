//! "Did you mean": the closest of a list of names to a word. Used by the model, the
//! catalogs and the rules; imports nothing of the crate.

/// Words longer than this get no suggestion: a misspelling is a short word, and the
/// similarity of two words costs the product of their lengths (a 40 KiB path segment
/// compared with every template of the catalog would take minutes).
pub const MAX_SUGGESTED_LEN: usize = 256;

/// How alike two words are, from 0 to 1 (Jaro-Winkler); 0 for a word longer than
/// [`MAX_SUGGESTED_LEN`], so that its cost is bounded whatever the input.
pub fn similarity(a: &str, b: &str) -> f64 {
    if a.len() > MAX_SUGGESTED_LEN || b.len() > MAX_SUGGESTED_LEN {
        return 0.0;
    }
    strsim::jaro_winkler(a, b)
}

/// The closest candidate to `word` by edit distance, for "did you mean".
pub fn did_you_mean<'c>(
    word: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    let lower = word.to_lowercase();
    candidates
        .into_iter()
        .map(|c| (similarity(&lower, &c.to_lowercase()), c))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// The one close candidate to `word`, when one stands out: the closest, close enough and
/// clearly closer than any other (`adsets` for `ad_sets`, not one of `IMPRESSIONS` and
/// `IMPRESSIONS_X`): a misspelling that a fix may correct without asking.
pub fn only_close<'c>(
    word: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    let lower = word.to_lowercase();
    let mut best: Option<(f64, &'c str)> = None;
    let mut second = 0.0f64;
    for c in candidates {
        if c == word || best.is_some_and(|(_, b)| b == c) {
            continue;
        }
        let score = similarity(&lower, &c.to_lowercase());
        match best {
            Some((b, _)) if score > b => {
                second = b;
                best = Some((score, c));
            }
            Some(_) => second = second.max(score),
            None => best = Some((score, c)),
        }
    }
    let (score, c) = best?;
    (score >= 0.85 && (second < 0.8 || score - second >= 0.05)).then_some(c)
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
        assert_eq!(only_close("parms", keys), Some("params"));
        let long = "params".repeat(100);
        assert_eq!(did_you_mean(&long, [long.as_str()]), None);
        assert_eq!(similarity(&long, &long), 0.0);
        assert_eq!(
            only_close("IMPRESSION", ["IMPRESSIONS", "IMPRESSIONS_X"]),
            None
        );
    }
}
