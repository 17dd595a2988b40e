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

/// `word` in lower case, copied only when it has capitals: the candidates (a catalog's
/// names) mostly have none, and are compared by the hundred.
fn lowered(word: &str) -> std::borrow::Cow<'_, str> {
    if word.is_ascii() && !word.bytes().any(|b| b.is_ascii_uppercase()) {
        std::borrow::Cow::Borrowed(word)
    } else {
        std::borrow::Cow::Owned(word.to_lowercase())
    }
}

/// The letters of an ASCII word, counted: a bound on how many two words can match.
///
/// A Jaro-Winkler score of 0.8 needs a Jaro score above 0.7 (strsim adds the prefix bonus
/// only then), and Jaro is at most (m/|a| + m/|b| + 1) / 3 where m, the matching letters,
/// is at most the letters the two words have in common. Candidates below that bound
/// (most of a catalog's hundreds of names) are not scored.
struct Letters {
    counts: Option<[u16; 128]>,
    len: usize,
}

impl Letters {
    fn of(word: &str) -> Letters {
        let counts = word.is_ascii().then(|| {
            let mut counts = [0u16; 128];
            for b in word.bytes() {
                counts[usize::from(b)] = counts[usize::from(b)].saturating_add(1);
            }
            counts
        });
        Letters {
            counts,
            len: word.len(),
        }
    }

    /// How many letters `other`, in lower case, has in common with the word (`None`: not
    /// both ASCII). Folded here, a candidate is copied in lower case only when it is
    /// measured.
    fn common(&self, other: &str) -> Option<usize> {
        let mut left = self.counts.filter(|_| other.is_ascii())?;
        let mut common = 0usize;
        for b in other.bytes() {
            let slot = &mut left[usize::from(b.to_ascii_lowercase())];
            if *slot > 0 {
                *slot -= 1;
                common += 1;
            }
        }
        Some(common)
    }

    /// At least how many edits turn the word into `other`: each insertion, deletion or
    /// substitution matches at most one more letter, and a swap none.
    fn fewest_edits(&self, other: &str) -> usize {
        self.common(other)
            .map_or(0, |common| self.len.max(other.len()) - common)
    }

    /// Whether `other` may score 0.8 or more against the word.
    fn may_reach(&self, other: &str) -> bool {
        if self.len == 0 || other.is_empty() {
            return true;
        }
        let Some(common) = self.common(other) else {
            return true;
        };
        let common = common as f64;
        // 1.09, not 1.1: a margin for rounding; the bound only skips what cannot reach.
        common / self.len as f64 + common / other.len() as f64 >= 1.09
    }
}

/// The closest candidate to `word` by edit distance, for "did you mean".
pub fn did_you_mean<'c>(
    word: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    let lower = lowered(word);
    let letters = Letters::of(&lower);
    candidates
        .into_iter()
        .map(|c| {
            let score = if letters.may_reach(c) {
                similarity(&lower, &lowered(c))
            } else {
                0.0
            };
            (score, c)
        })
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// The one close candidate to `word`, when one stands out: a misspelling that a fix may
/// correct without asking (`adsets` for `ad_sets`, `OUTCOME_SALSE` for `OUTCOME_SALES`).
///
/// Closeness is the Damerau-Levenshtein distance (insertions, deletions, substitutions and
/// swaps of neighbours), case aside. It counts only the characters that differ, so a long
/// prefix that every candidate shares (`OUTCOME_`) brings none of them closer, as it does
/// with Jaro-Winkler's prefix bonus, which let a runner-up crowd the closest out. The
/// closest must be within a fifth of the word's length (one edit for words of up to nine
/// characters) and the only one at that distance, with the next at least one edit further
/// and, past one edit, twice as far.
pub fn only_close<'c>(
    word: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    // The distance costs the product of the lengths: a long word is no misspelling.
    if word.len() > MAX_SUGGESTED_LEN {
        return None;
    }
    let lower = lowered(word);
    let letters = Letters::of(&lower);
    let length = lower.chars().count();
    let limit = (length / 5).max(1);
    let mut best: Option<(usize, &'c str)> = None;
    let mut second = usize::MAX;
    for c in candidates {
        if c == word || best.is_some_and(|(_, b)| b == c) {
            continue;
        }
        // A candidate far longer or shorter than the word cannot be within the limit.
        if c.chars().count().abs_diff(length) > limit {
            continue;
        }
        // Further than twice the limit, a candidate is neither the closest nor a
        // runner-up that could make the closest unclear: not measured.
        if letters.fewest_edits(c) > 2 * limit {
            continue;
        }
        let candidate = lowered(c);
        let distance = strsim::damerau_levenshtein(&lower, &candidate);
        match best {
            Some((b, _)) if distance < b => {
                second = b;
                best = Some((distance, c));
            }
            Some(_) => second = second.min(distance),
            None => best = Some((distance, c)),
        }
    }
    let (distance, c) = best?;
    let clear = second > distance && (distance <= 1 || second >= 2 * distance);
    (distance <= limit && clear).then_some(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The edit bound is never above the distance.
    #[test]
    fn the_edit_bound_is_a_lower_bound() {
        let words = [
            "daily_budget",
            "dialy_budget",
            "adsets",
            "ad_sets",
            "OUTCOME_SALSE",
            "outcome_sales",
            "targeting",
            "tragetign",
            "a",
            "",
            "status",
            "statsu",
            "geo_locations",
            "locales",
        ];
        for a in words {
            let a = a.to_lowercase();
            let letters = Letters::of(&a);
            for b in words {
                let lower = b.to_lowercase();
                let distance = strsim::damerau_levenshtein(&a, &lower);
                assert!(letters.fewest_edits(&lower) <= distance, "{a} / {b}");
                // Written in capitals, a candidate is bounded as in lower case.
                assert_eq!(
                    letters.fewest_edits(b),
                    letters.fewest_edits(&lower),
                    "{a} / {b}"
                );
                assert_eq!(letters.may_reach(b), letters.may_reach(&lower), "{a} / {b}");
            }
        }
    }

    /// The letter bound skips only candidates that score below 0.8.
    #[test]
    fn the_letter_bound_skips_no_candidate_that_could_be_suggested() {
        let words = [
            "daily_budget",
            "dialy_budget",
            "lifetime_budget",
            "targeting",
            "targetting",
            "geo_locations",
            "geolocations",
            "status",
            "statsu",
            "name",
            "nmae",
            "bid_amount",
            "optimization_goal",
            "optimisation_goal",
            "billing_event",
            "a",
            "ab",
            "ba",
            "x",
            "custom_audiences",
            "excluded_custom_audiences",
            "interests",
            "intrests",
            "id",
        ];
        for a in words {
            let letters = Letters::of(a);
            for b in words {
                if similarity(a, b) >= 0.8 {
                    assert!(letters.may_reach(b), "{a} / {b}");
                }
            }
        }
    }

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
        assert_eq!(only_close(&format!("{long}x"), [long.as_str()]), None);
        // Two candidates one edit away: no fix.
        assert_eq!(
            only_close("IMPRESSIONS_", ["IMPRESSIONS", "IMPRESSIONS_X"]),
            None
        );
        assert_eq!(
            only_close("IMPRESSION", ["IMPRESSIONS", "IMPRESSIONS_X"]),
            Some("IMPRESSIONS")
        );
        assert_eq!(only_close("zzz", keys), None);
        assert_eq!(only_close("tok", keys), None);
    }

    /// The objectives of a campaign share `OUTCOME_`: a misspelling of the part after it
    /// is fixed whatever that part is.
    #[test]
    fn a_shared_prefix_does_not_hide_the_closest() {
        let objectives = [
            "OUTCOME_APP_PROMOTION",
            "OUTCOME_AWARENESS",
            "OUTCOME_ENGAGEMENT",
            "OUTCOME_LEADS",
            "OUTCOME_SALES",
            "OUTCOME_TRAFFIC",
        ];
        for (typo, meant) in [
            ("OUTCOME_SALE", "OUTCOME_SALES"),
            ("OUTCOME_SALSE", "OUTCOME_SALES"),
            ("OUTCOME_LEEDS", "OUTCOME_LEADS"),
            ("OUTCOME_TRAFIC", "OUTCOME_TRAFFIC"),
            ("outcome_sales", "OUTCOME_SALES"),
        ] {
            assert_eq!(only_close(typo, objectives), Some(meant), "{typo}");
        }
        assert_eq!(only_close("OUTCOME_", objectives), None);
        assert_eq!(only_close("OUTCOME_PURCHASES", objectives), None);
    }
}
