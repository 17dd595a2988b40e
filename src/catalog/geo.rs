//! Country tables (`catalog/geo/`): ISO 3166-1 codes and the places where the EU's
//! rules for ads apply.

use crate::catalog::packed::{Blob, Text};

/// The one text the tables' codes and names are byte ranges of.
#[derive(Debug)]
pub struct GeoText;

impl Blob for GeoText {
    const TEXT: &'static str = generated::GEO_TEXT;
}

/// A code or name of the country tables (no pointer: the loader relocates nothing in
/// their rows); it reads as a `&'static str`.
pub type GeoStr = Text<GeoText>;

/// A row of `iso_countries.tsv`.
#[derive(Debug)]
pub struct Country {
    pub alpha2: GeoStr,
    pub alpha3: GeoStr,
    pub name: GeoStr,
    /// Officially assigned (not a user-assigned code that the API takes all the same).
    pub official: bool,
}

/// A row of `eu_countries.tsv`.
#[derive(Debug)]
pub struct EuPlace {
    pub code: GeoStr,
    pub name: GeoStr,
    /// A member state, not a territory with a code of its own.
    pub member: bool,
}

mod generated {
    use super::*;
    include!(concat!(env!("OUT_DIR"), "/geo.rs"));
}

/// Every country, in the table's order.
pub const COUNTRIES: &[Country] = &generated::COUNTRIES;
/// Where ad sets must name a payor and a beneficiary.
pub const EU: &[EuPlace] = &generated::EU;

/// The row of an alpha-2 code, exactly as written.
pub fn country(code: &str) -> Option<&'static Country> {
    country_index(code).map(|i| &COUNTRIES[i])
}

/// The index into [`COUNTRIES`] of an alpha-2 code, exactly as written: two capitals
/// name a cell of the table by letters.
fn country_index(code: &str) -> Option<usize> {
    let &[first, second] = code.as_bytes() else {
        return None;
    };
    if !first.is_ascii_uppercase() || !second.is_ascii_uppercase() {
        return None;
    }
    let cell = usize::from(first - b'A') * 26 + usize::from(second - b'A');
    (generated::BY_LETTERS[cell] as usize).checked_sub(1)
}

/// The EU place of an alpha-2 code, exactly as written.
pub fn eu_place_of(code: &str) -> Option<&'static EuPlace> {
    let place = generated::EU_OF_COUNTRY[country_index(code)?];
    (place as usize).checked_sub(1).map(|i| &EU[i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_is_found() {
        for c in COUNTRIES {
            assert_eq!(country(&c.alpha2).map(|r| r.name), Some(c.name));
        }
        assert!(country("ZZ").is_none());
        assert!(country("").is_none() && country("DEU").is_none() && country("é").is_none());
        assert!(country("de").is_none());
        assert_eq!(EU.iter().filter(|p| p.member).count(), 27);
    }

    /// The tables by letters find what a search of the tables finds, for every pair of
    /// capitals, and nothing for other text.
    #[test]
    fn lookups_by_letters_agree_with_a_search() {
        let mut found = 0;
        for a in b'A'..=b'Z' {
            for b in b'A'..=b'Z' {
                let code = String::from_utf8(vec![a, b]).unwrap();
                let row = COUNTRIES.iter().find(|c| c.alpha2 == code.as_str());
                assert!(
                    country(&code).map(std::ptr::from_ref) == row.map(std::ptr::from_ref),
                    "{code}"
                );
                let place = EU.iter().find(|p| p.code == code.as_str());
                assert!(
                    eu_place_of(&code).map(std::ptr::from_ref) == place.map(std::ptr::from_ref),
                    "{code}"
                );
                found += usize::from(row.is_some());
            }
        }
        assert_eq!(found, COUNTRIES.len());
        for code in ["de", "De", "D", "DEU", "", "Ä", "D1"] {
            assert!(
                country(code).is_none() && eu_place_of(code).is_none(),
                "{code}"
            );
        }
    }
}
