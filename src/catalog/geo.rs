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
    generated::BY_ALPHA2
        .binary_search_by(|&i| COUNTRIES[i as usize].alpha2.cmp_str(code))
        .ok()
        .map(|i| &COUNTRIES[generated::BY_ALPHA2[i] as usize])
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
        assert!(country("de").is_none());
        assert_eq!(EU.iter().filter(|p| p.member).count(), 27);
    }
}
