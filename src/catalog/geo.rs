//! Country tables (`catalog/geo/`): ISO 3166-1 codes and the places where the EU's
//! rules for ads apply.

/// A row of `iso_countries.tsv`.
#[derive(Debug)]
pub struct Country {
    pub alpha2: &'static str,
    pub alpha3: &'static str,
    pub name: &'static str,
    /// Officially assigned (not a user-assigned code that the API takes all the same).
    pub official: bool,
}

/// A row of `eu_countries.tsv`.
#[derive(Debug)]
pub struct EuPlace {
    pub code: &'static str,
    pub name: &'static str,
    /// A member state, not a territory with a code of its own.
    pub member: bool,
}

mod generated {
    use super::*;
    include!(concat!(env!("OUT_DIR"), "/geo.rs"));
}

/// Every country, in the table's order.
pub static COUNTRIES: &[Country] = generated::COUNTRIES;
/// Where ad sets must name a payor and a beneficiary.
pub static EU: &[EuPlace] = generated::EU;

/// The row of an alpha-2 code, exactly as written.
pub fn country(code: &str) -> Option<&'static Country> {
    generated::BY_ALPHA2
        .binary_search_by(|&i| COUNTRIES[i].alpha2.cmp(code))
        .ok()
        .map(|i| &COUNTRIES[generated::BY_ALPHA2[i]])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_is_found() {
        for c in COUNTRIES {
            assert_eq!(country(c.alpha2).map(|r| r.name), Some(c.name));
        }
        assert!(country("ZZ").is_none());
        assert!(country("de").is_none());
        assert_eq!(EU.iter().filter(|p| p.member).count(), 27);
    }
}
