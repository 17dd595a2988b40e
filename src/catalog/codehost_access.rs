//! Who may call each code-hosting operation, as the host documents it per API version
//! (github/docs `src/rest/data/<version>/<category>.json`, field `progAccess`; see
//! catalog/codehost/access/PROVENANCE.md): whether fine-grained personal access tokens may
//! call it, whether it needs no permission, and whether public resources are readable
//! without one. The host's data is read for some categories only: an operation without a
//! row is one reqlint cannot tell about.

use crate::catalog::Method;

/// What the host says of one operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OperationAccess {
    /// Fine-grained personal access tokens may call it (`progAccess.fineGrainedPat`).
    pub fine_grained: bool,
    /// A token may call it holding no permission (`allowPermissionlessAccess`).
    pub permissionless: bool,
    /// Public resources are readable without a permission (`allowsPublicRead`).
    pub public_read: bool,
}

/// The host's access data for an operation (method and path template as the REST
/// description writes it) in an API version (`2022-11-28`); `None` where reqlint has no
/// row for it.
pub fn access(version: &str, method: Method, template: &str) -> Option<OperationAccess> {
    let key = format!("{version} {} {template}", method.as_str());
    let at = generated::ROWS
        .binary_search_by(|&(start, end, _)| {
            generated::KEYS[start as usize..end as usize].cmp(&key)
        })
        .ok()?;
    let flags = generated::ROWS[at].2;
    Some(OperationAccess {
        fine_grained: flags & 1 != 0,
        permissionless: flags & 2 != 0,
        public_read: flags & 4 != 0,
    })
}

/// The API versions the host's access data has rows for.
pub fn versions() -> impl Iterator<Item = &'static str> {
    let mut last = "";
    generated::ROWS.iter().filter_map(move |&(start, end, _)| {
        let key = &generated::KEYS[start as usize..end as usize];
        let version = key.split(' ').next().unwrap_or_default();
        (version != last).then(|| {
            last = version;
            version
        })
    })
}

mod generated {
    include!(concat!(env!("OUT_DIR"), "/codehost_access.rs"));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The host's own examples: `GET /rate_limit` takes a fine-grained token with no
    /// permission; `GET /orgs/{org}` needs none and reads public organizations; the
    /// fine-grained token reviews are for GitHub Apps only.
    #[test]
    fn the_hosts_examples_read_as_it_writes_them() {
        let rate_limit = access("2022-11-28", Method::Get, "/rate_limit").unwrap();
        assert!(rate_limit.fine_grained && rate_limit.permissionless);
        let org = access("2022-11-28", Method::Get, "/orgs/{org}").unwrap();
        assert!(org.fine_grained && org.permissionless && org.public_read);
        let review = access(
            "2022-11-28",
            Method::Post,
            "/orgs/{org}/personal-access-token-requests",
        )
        .unwrap();
        assert!(!review.fine_grained);
        assert_eq!(access("2022-11-28", Method::Get, "/no/such/path"), None);
        assert_eq!(access("1999-01-01", Method::Get, "/rate_limit"), None);
        assert!(versions().any(|v| v == "2026-03-10"));
    }
}
